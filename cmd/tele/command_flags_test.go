package main

import (
	"flag"
	"slices"
	"strings"
	"testing"
)

// TestParseCommand (issue 27, item 5): a command's own flags and the shared settings are one
// flag.FlagSet, read anywhere among the arguments, in every spelling the flag package knows (--name
// value, --name=value, -name); what is none of them stays in order for the command; after "--"
// nothing is a flag; a flag without its value is one line naming it.
func TestParseCommand(t *testing.T) {
	home := t.TempDir()
	for _, tt := range []struct {
		args   []string
		id     string
		check  bool
		port   int
		rest   []string
		errMsg string
	}{
		{args: []string{"song.cho", "--id", "x", "--check", "--port=5001"}, id: "x", check: true, port: 5001, rest: []string{"song.cho"}},
		{args: []string{"-id=y", "a", "-check", "b", "--port", "5002"}, id: "y", check: true, port: 5002, rest: []string{"a", "b"}},
		{args: []string{"a", "--other", "--", "--id", "z"}, port: 4317, rest: []string{"a", "--other", "--id", "z"}},
		{args: []string{"a", "--id"}, errMsg: "--id needs a value"},
		{args: []string{"a", "--port"}, errMsg: "--port needs a value: use --port <1..65535>"},
	} {
		env, _, _ := testEnv(t, map[string]string{"HOME": home})
		var id *string
		var check *bool
		s, rest, err := parseCommand(tt.args, env, false, func(fs *flag.FlagSet) {
			id = fs.String("id", "", "")
			check = fs.Bool("check", false, "")
		})
		if tt.errMsg != "" {
			if err == nil || !strings.Contains(err.Error(), tt.errMsg) {
				t.Errorf("%q: %v, want %q", tt.args, err, tt.errMsg)
			}
			continue
		}
		if err != nil || *id != tt.id || *check != tt.check || s.Port != tt.port || !slices.Equal(rest, tt.rest) {
			t.Errorf("%q: id %q check %t port %d rest %q, %v; want %q %t %d %q", tt.args, *id, *check, s.Port, rest, err, tt.id, tt.check, tt.port, tt.rest)
		}
	}
}
