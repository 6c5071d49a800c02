package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testEnv is an Env over a fake environment, a fake working directory and a fake binary location.
func testEnv(t *testing.T, vars map[string]string) (*Env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	wd := t.TempDir()
	var stdout, stderr bytes.Buffer
	return &Env{
		Stdin:      strings.NewReader(""),
		Stdout:     &stdout,
		Stderr:     &stderr,
		Getenv:     func(k string) string { return vars[k] },
		Getwd:      func() (string, error) { return wd, nil },
		Executable: func() (string, error) { return "/opt/tele-install/bin/tele", nil },
	}, &stdout, &stderr
}

func TestParseSettings(t *testing.T) {
	home := t.TempDir()
	envDir := t.TempDir()
	flagDir := t.TempDir()

	tests := []struct {
		name      string
		args      []string
		env       map[string]string
		allowZero bool
		port      int
		data      string // "" = check rel instead
		rel       string // expected path relative to the working directory
		rest      []string
		sources   [2]string
	}{
		{name: "defaults", port: 4317, data: filepath.Join(home, ".tele"), sources: [2]string{"default", "default"}},
		{name: "env", env: map[string]string{"TELE_PORT": "5000", "TELE_DATA": envDir}, port: 5000, data: envDir,
			sources: [2]string{"TELE_PORT", "TELE_DATA"}},
		{name: "flags-beat-env", args: []string{"--port", "6000", "--data", flagDir},
			env: map[string]string{"TELE_PORT": "5000", "TELE_DATA": envDir}, port: 6000, data: flagDir,
			sources: [2]string{"--port", "--data"}},
		{name: "equals-form", args: []string{"--port=7000", "--data=" + flagDir}, port: 7000, data: flagDir,
			sources: [2]string{"--port", "--data"}},
		{name: "single-dash", args: []string{"-port", "7001"}, port: 7001, data: filepath.Join(home, ".tele"),
			sources: [2]string{"--port", "default"}},
		{name: "relative-data", args: []string{"--data", "boards/here"}, port: 4317, rel: "boards/here",
			sources: [2]string{"default", "--data"}},
		{name: "relative-env-data", env: map[string]string{"TELE_DATA": "./d"}, port: 4317, rel: "d",
			sources: [2]string{"default", "TELE_DATA"}},
		{name: "tilde", args: []string{"--data", "~/music/tele"}, port: 4317, data: filepath.Join(home, "music/tele"),
			sources: [2]string{"default", "--data"}},
		{name: "empty-env-is-unset", env: map[string]string{"TELE_PORT": "", "TELE_DATA": ""}, port: 4317,
			data: filepath.Join(home, ".tele"), sources: [2]string{"default", "default"}},
		{name: "host-allows-zero", args: []string{"--port", "0"}, allowZero: true, port: 0,
			data: filepath.Join(home, ".tele"), sources: [2]string{"--port", "default"}},
		{name: "highest-port", args: []string{"--port", "65535"}, port: 65535, data: filepath.Join(home, ".tele"),
			sources: [2]string{"--port", "default"}},
		{name: "rest-kept-in-order", args: []string{"link", "--port", "5001", "welcome", "--project"}, port: 5001,
			data: filepath.Join(home, ".tele"), rest: []string{"link", "welcome", "--project"},
			sources: [2]string{"--port", "default"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vars := map[string]string{"HOME": home}
			for k, v := range tt.env {
				vars[k] = v
			}
			env, _, _ := testEnv(t, vars)
			s, rest, err := parseSettings(tt.args, env, tt.allowZero)
			if err != nil {
				t.Fatalf("parseSettings(%q): %v", tt.args, err)
			}
			want := tt.data
			if tt.rel != "" {
				wd, _ := env.Getwd()
				want = filepath.Join(wd, tt.rel)
			}
			if s.Port != tt.port || s.DataDir != want {
				t.Errorf("got port %d data %q, want %d %q", s.Port, s.DataDir, tt.port, want)
			}
			if got := [2]string{s.PortSource, s.DataSource}; got != tt.sources {
				t.Errorf("sources %q, want %q", got, tt.sources)
			}
			if !slices.Equal(rest, tt.rest) {
				t.Errorf("rest %q, want %q", rest, tt.rest)
			}
		})
	}
}

func TestParseSettingsRefuses(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(t.TempDir(), "afile")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		args      []string
		env       map[string]string
		allowZero bool
		want      string // the whole message after "tele: "
	}{
		{name: "port-70000", args: []string{"--port", "70000"},
			want: `bad port "70000" (from --port): use a number from 1 to 65535`},
		{name: "port-abc", args: []string{"--port=abc"},
			want: `bad port "abc" (from --port): use a number from 1 to 65535`},
		{name: "port-negative", args: []string{"--port", "-1"},
			want: `bad port "-1" (from --port): use a number from 1 to 65535`},
		{name: "port-zero-cli", args: []string{"--port", "0"},
			want: `bad port "0" (from --port): port 0 is for tele host only; use a number from 1 to 65535`},
		{name: "port-plus", args: []string{"--port", "+80"},
			want: `bad port "+80" (from --port): use a number from 1 to 65535`},
		{name: "port-space", args: []string{"--port", " 80"},
			want: `bad port " 80" (from --port): use a number from 1 to 65535`},
		{name: "port-empty", args: []string{"--port="},
			want: `bad port "" (from --port): use a number from 1 to 65535`},
		{name: "host-port-70000", args: []string{"--port", "70000"}, allowZero: true,
			want: `bad port "70000" (from --port): use a number from 0 to 65535`},
		{name: "env-port", env: map[string]string{"TELE_PORT": "abc"},
			want: `bad port "abc" (from TELE_PORT): use a number from 1 to 65535`},
		{name: "env-port-zero", env: map[string]string{"TELE_PORT": "0"},
			want: `bad port "0" (from TELE_PORT): port 0 is for tele host only; use a number from 1 to 65535`},
		{name: "flag-beats-bad-env", args: []string{"--port", "99999"}, env: map[string]string{"TELE_PORT": "5000"},
			want: `bad port "99999" (from --port): use a number from 1 to 65535`},
		{name: "port-missing-value", args: []string{"--port"},
			want: `--port needs a value: use --port <1..65535>`},
		{name: "data-missing-value", args: []string{"--data"},
			want: `--data needs a value: use --data <path>`},
		{name: "data-is-file", args: []string{"--data", file},
			want: `bad data directory "` + file + `" (from --data): it is a file, not a directory; use a directory path`},
		{name: "data-under-file", args: []string{"--data", "/etc/passwd/x"},
			want: `bad data directory "/etc/passwd/x" (from --data): /etc/passwd is a file, not a directory; use a path under a directory`},
		{name: "data-env-under-file", env: map[string]string{"TELE_DATA": file + "/sub/dir"},
			want: `bad data directory "` + file + `/sub/dir" (from TELE_DATA): ` + file + ` is a file, not a directory; use a path under a directory`},
		{name: "data-empty", args: []string{"--data="},
			want: `bad data directory "" (from --data): empty path; use --data <path>`},
		{name: "data-inside-install", args: []string{"--data", "/opt/tele-install/bin/data"},
			want: `bad data directory "/opt/tele-install/bin/data" (from --data): it is inside the tele install /opt/tele-install/bin; use a directory outside it, such as ~/.tele`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vars := map[string]string{"HOME": home}
			for k, v := range tt.env {
				vars[k] = v
			}
			env, _, _ := testEnv(t, vars)
			_, _, err := parseSettings(tt.args, env, tt.allowZero)
			var ue *usageError
			if !errors.As(err, &ue) {
				t.Fatalf("parseSettings(%q) = %v, want a usage error", tt.args, err)
			}
			if err.Error() != tt.want {
				t.Errorf("message\n got %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestDefaultDataDirNeedsHome(t *testing.T) {
	env, _, _ := testEnv(t, map[string]string{})
	_, _, err := parseSettings(nil, env, false)
	if err == nil || err.Error() != "bad data directory (default ~/.tele): HOME is not set; use --data <path> or TELE_DATA" {
		t.Fatalf("got %v", err)
	}
}

// A binary kept directly in $HOME must not refuse the default ~/.tele (it is outside any install dir).
func TestInstallCheckSparesHome(t *testing.T) {
	home := t.TempDir()
	env, _, _ := testEnv(t, map[string]string{"HOME": home})
	env.Executable = func() (string, error) { return filepath.Join(home, "tele"), nil }
	s, _, err := parseSettings(nil, env, false)
	if err != nil || s.DataDir != filepath.Join(home, ".tele") {
		t.Fatalf("got %+v, %v", s, err)
	}
}

// Through run: one line on stderr, exit status 2, nothing on stdout, nothing created.
func TestRunBadSettingIsOneLine(t *testing.T) {
	home := t.TempDir()
	env, stdout, stderr := testEnv(t, map[string]string{"HOME": home})
	code := run(context.Background(), []string{"serve", "--port", "70000"}, env)
	if code != 2 {
		t.Errorf("exit status %d, want 2", code)
	}
	if got, want := stderr.String(), "tele: bad port \"70000\" (from --port): use a number from 1 to 65535\n"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q, want nothing", stdout)
	}
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Errorf("HOME has %v after a refusal", entries)
	}
}

func TestRunHelpAndUnknown(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}, {"serve", "--help"}} {
		env, stdout, stderr := testEnv(t, nil)
		if code := run(context.Background(), args, env); code != 0 {
			t.Errorf("%q: exit %d", args, code)
		}
		for _, want := range []string{"tele serve", "tele board link <id>", "tele board history <id>", "tele pi install [--project]", "tele pi print",
			"tele host", "--port <1..65535>", "TELE_PORT", "--data <path>", "TELE_DATA", "4317", "~/.tele"} {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("%q: help lacks %q", args, want)
			}
		}
		if stderr.Len() != 0 {
			t.Errorf("%q: stderr %q", args, stderr)
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "tele: no command given: run tele help\n"},
		{[]string{"bogus"}, "tele: unknown command \"bogus\": run tele help\n"},
		{[]string{"board"}, "tele: unknown board command: use tele board link, history, export, import, delete or check\n"},
		{[]string{"board", "link"}, "tele: board link needs a board id: use tele board link <id>\n"},
		{[]string{"board", "history"}, "tele: board history needs a board id: use tele board history <id>\n"},
		{[]string{"board", "history", "a", "b"}, "tele: board history takes one board id, got \"a\" and \"b\"\n"},
		{[]string{"board", "history", "a", "--limit", "0"}, "tele: bad --limit \"0\": use a whole number from 1 to 1000\n"},
		{[]string{"board", "history", "a", "--limit=x"}, "tele: bad --limit \"x\": use a whole number from 1 to 1000\n"},
		{[]string{"board", "history", "a", "--limit"}, "tele: --limit needs a value: use --limit <1..1000>\n"},
		{[]string{"serve", "extra"}, "tele: serve: unexpected argument \"extra\": run tele help\n"},
	} {
		env, _, stderr := testEnv(t, map[string]string{"HOME": t.TempDir()})
		if code := run(context.Background(), tt.args, env); code != 2 {
			t.Errorf("%q: exit %d, want 2", tt.args, code)
		}
		if stderr.String() != tt.want {
			t.Errorf("%q: stderr %q, want %q", tt.args, stderr, tt.want)
		}
	}
}
