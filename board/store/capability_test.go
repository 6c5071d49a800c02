package store

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestValidCapability(t *testing.T) {
	b32 := make([]byte, 32)
	for _, tc := range []struct {
		name string
		c    string
		ok   bool
	}{
		{"made", NewCapability(), true},
		{"32 bytes", base64.RawURLEncoding.EncodeToString(b32), true},
		{"empty", "", false},
		{"31 bytes", base64.RawURLEncoding.EncodeToString(b32[:31]), false},
		{"33 bytes", base64.RawURLEncoding.EncodeToString(append(b32, 0)), false},
		{"padded", base64.URLEncoding.EncodeToString(b32), false},
		{"standard alphabet", strings.Repeat("+", 43), false},
		{"trailing space", NewCapability() + " ", false},
	} {
		if got := ValidCapability(tc.c); got != tc.ok {
			t.Errorf("%s: ValidCapability(%q) = %v, want %v", tc.name, tc.c, got, tc.ok)
		}
	}
	if a, b := NewCapability(), NewCapability(); a == b {
		t.Fatal("two capabilities alike")
	}
}
