package main

import "testing"

// TestSetting: a shared flag, even an empty one, beats its environment variable, which beats the
// default; an empty variable is no setting.
func TestSetting(t *testing.T) {
	empty, port := "", "5000"
	for _, tc := range []struct {
		name   string
		flag   *string
		env    string
		val    string
		source string
		set    bool
	}{
		{"flag", &port, "6000", "5000", "--port", true},
		{"empty flag", &empty, "6000", "", "--port", true},
		{"environment", nil, "6000", "6000", envPort, true},
		{"empty environment", nil, "", "", "default", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, _, _ := testEnv(t, map[string]string{envPort: tc.env})
			shared := map[string]*string{"port": tc.flag}
			val, source, set := setting(shared, env, "port", envPort)
			if val != tc.val || source != tc.source || set != tc.set {
				t.Fatalf("setting = %q, %q, %v; want %q, %q, %v", val, source, set, tc.val, tc.source, tc.set)
			}
		})
	}
}
