package main

import (
	"testing"

	"tele/board/store"
)

// TestQuotaSettings: --max-boards and --max-bytes, or TELE_MAX_BOARDS and TELE_MAX_BYTES (flags beat the
// environment), set the server's quota; the defaults are the store's; a bad value is one line naming
// the setting, the value and the fix.
func TestQuotaSettings(t *testing.T) {
	home := t.TempDir()
	for _, tt := range []struct {
		name string
		args []string
		env  map[string]string
		want store.Quota
		err  string
	}{
		{name: "defaults", want: store.Quota{MaxBoards: store.DefaultMaxBoards, MaxBytes: store.DefaultMaxBytes}},
		{name: "flags", args: []string{"--max-boards", "50", "--max-bytes=2G"}, want: store.Quota{MaxBoards: 50, MaxBytes: 2 << 30}},
		{name: "env", env: map[string]string{"TELE_MAX_BOARDS": "7", "TELE_MAX_BYTES": "512M"}, want: store.Quota{MaxBoards: 7, MaxBytes: 512 << 20}},
		{name: "flag-beats-env", args: []string{"--max-bytes", "1000"}, env: map[string]string{"TELE_MAX_BYTES": "x"}, want: store.Quota{MaxBoards: store.DefaultMaxBoards, MaxBytes: 1000}},
		{name: "zero", args: []string{"--max-boards", "0"}, err: `bad --max-boards "0" (from --max-boards): use a whole number from 1, like 10000`},
		{name: "suffix-on-boards", args: []string{"--max-boards", "5K"}, err: `bad --max-boards "5K" (from --max-boards): use a whole number from 1, like 10000`},
		{name: "bad-bytes-env", env: map[string]string{"TELE_MAX_BYTES": "4GB"}, err: `bad --max-bytes "4GB" (from TELE_MAX_BYTES): use a whole number of bytes, optionally with K, M, G or T, like 4G`},
		{name: "missing-value", args: []string{"--max-bytes"}, err: `--max-bytes needs a value: use --max-bytes <n>[K|M|G|T]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			vars := map[string]string{"HOME": home}
			for k, v := range tt.env {
				vars[k] = v
			}
			env, _, _ := testEnv(t, vars)
			s, _, err := parseSettings(tt.args, env, false)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("got %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || s.Quota != tt.want {
				t.Fatalf("got %+v, %v; want %+v", s.Quota, err, tt.want)
			}
		})
	}
}
