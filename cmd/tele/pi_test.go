package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// piEnvFor is an in-process Env: HOME, the working directory and the executable are temp paths.
type piFixture struct {
	env            *Env
	home, wd, exe  string
	vars           map[string]string
	stdout, stderr *bytes.Buffer
}

func newPiFixture(t *testing.T, exeName string) *piFixture {
	t.Helper()
	root := t.TempDir()
	f := &piFixture{
		home: filepath.Join(root, "home"), wd: filepath.Join(root, "work"),
		vars: map[string]string{}, stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{},
	}
	bin := filepath.Join(root, "install", exeName)
	for _, d := range []string{f.home, f.wd, filepath.Dir(bin)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(bin, []byte("binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	f.exe = bin
	f.vars["HOME"] = f.home
	f.env = &Env{
		Stdin: strings.NewReader(""), Stdout: f.stdout, Stderr: f.stderr,
		Getenv:     func(k string) string { return f.vars[k] },
		Getwd:      func() (string, error) { return f.wd, nil },
		Executable: func() (string, error) { return f.exe, nil },
	}
	return f
}

func (f *piFixture) run(args ...string) int {
	f.stdout.Reset()
	f.stderr.Reset()
	return run(context.Background(), args, f.env)
}

var bakedTele = regexp.MustCompile(`(?m)^const TELE = (".*"); `)

// bakedPathIn returns the binary path baked into a bridge source (a JSON string literal).
func bakedPathIn(t *testing.T, src []byte) string {
	t.Helper()
	m := bakedTele.FindSubmatch(src)
	if m == nil {
		t.Fatalf("no baked binary path in:\n%.300s", src)
	}
	var p string
	if err := json.Unmarshal(m[1], &p); err != nil {
		t.Fatalf("baked path %s is not a JSON string: %v", m[1], err)
	}
	return p
}

func TestPiPrint(t *testing.T) {
	f := newPiFixture(t, `te"le\x`)
	if code := f.run("pi", "print"); code != 0 {
		t.Fatalf("exit %d: %s", code, f.stderr)
	}
	src := f.stdout.Bytes()
	if !bytes.Contains(src, []byte("export default function (pi)")) {
		t.Fatal("stdout is not the bridge")
	}
	if got := bakedPathIn(t, src); got != f.exe {
		t.Errorf("baked %q, want %q", got, f.exe)
	}
	if !bytes.Contains(src, []byte(`te\"le\\x`)) {
		t.Error("path not JSON-escaped in the source")
	}
	if f.stderr.Len() != 0 {
		t.Errorf("stderr: %s", f.stderr)
	}
}

func TestPiPrintResolvesSymlinks(t *testing.T) {
	f := newPiFixture(t, "tele")
	link := filepath.Join(t.TempDir(), "tele-link")
	if err := os.Symlink(f.exe, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	real := f.exe
	f.exe = link
	if code := f.run("pi", "print"); code != 0 {
		t.Fatalf("exit %d: %s", code, f.stderr)
	}
	want, _ := filepath.EvalSymlinks(real)
	if got := bakedPathIn(t, f.stdout.Bytes()); got != want {
		t.Errorf("baked %q, want the resolved %q", got, want)
	}
}

func TestPiInstallPaths(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		agent string // PI_CODING_AGENT_DIR
		want  func(f *piFixture) string
	}{
		{"default", []string{"pi", "install"}, "",
			func(f *piFixture) string { return filepath.Join(f.home, ".pi", "agent", "extensions", "tele.js") }},
		{"agent dir env", []string{"pi", "install"}, "/ABS/agent",
			func(f *piFixture) string {
				return filepath.Join(f.vars["PI_CODING_AGENT_DIR"], "extensions", "tele.js")
			}},
		{"agent dir with tilde", []string{"pi", "install"}, "~/custom-agent",
			func(f *piFixture) string { return filepath.Join(f.home, "custom-agent", "extensions", "tele.js") }},
		{"relative agent dir", []string{"pi", "install"}, "rel/agent",
			func(f *piFixture) string { return filepath.Join(f.wd, "rel", "agent", "extensions", "tele.js") }},
		{"project", []string{"pi", "install", "--project"}, "/ABS/agent-ignored",
			func(f *piFixture) string { return filepath.Join(f.wd, ".pi", "extensions", "tele.js") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newPiFixture(t, "tele")
			if c.agent != "" {
				f.vars["PI_CODING_AGENT_DIR"] = strings.Replace(c.agent, "/ABS", t.TempDir(), 1)
			}
			want := c.want(f)
			if code := f.run(c.args...); code != 0 {
				t.Fatalf("exit %d: %s", code, f.stderr)
			}
			if got := strings.TrimSpace(f.stdout.String()); got != want {
				t.Errorf("printed %q, want %q", got, want)
			}
			// --project: one line on stderr says Pi 1.x must trust the project first (0.73 does not ask).
			hint := strings.TrimSpace(f.stderr.String())
			if slices.Contains(c.args, "--project") {
				if strings.Count(hint, "\n") != 0 || !strings.Contains(hint, "trust this project") ||
					!strings.Contains(hint, "/trust") || !strings.Contains(hint, "--approve") || !strings.Contains(hint, "0.73") {
					t.Errorf("--project hint %q, want one line on trusting the project", hint)
				}
			} else if hint != "" {
				t.Errorf("stderr %q, want nothing", hint)
			}
			src, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if got := bakedPathIn(t, src); got != f.exe {
				t.Errorf("baked %q, want %q", got, f.exe)
			}
			st, _ := os.Stat(want)
			if st.Mode().Perm() != 0o644 {
				t.Errorf("mode %v", st.Mode())
			}
			ents, _ := os.ReadDir(filepath.Dir(want))
			if len(ents) != 1 {
				t.Errorf("left files beside the bridge: %v", ents)
			}
		})
	}
}

func TestPiInstallOverwrites(t *testing.T) {
	f := newPiFixture(t, "tele")
	dest := filepath.Join(f.home, ".pi", "agent", "extensions", "tele.js")
	os.MkdirAll(filepath.Dir(dest), 0o755)
	os.WriteFile(dest, []byte("old bridge"), 0o600)
	if code := f.run("pi", "install"); code != 0 {
		t.Fatalf("exit %d: %s", code, f.stderr)
	}
	src, _ := os.ReadFile(dest)
	if bakedPathIn(t, src) != f.exe {
		t.Error("old bridge not replaced")
	}
}

func TestPiInstallFailures(t *testing.T) {
	f := newPiFixture(t, "tele")
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"pi"}, 2, "pi needs a command"},
		{[]string{"pi", "frobnicate"}, 2, "unknown pi command"},
		{[]string{"pi", "install", "--global"}, 2, `unexpected argument "--global"`},
		{[]string{"pi", "print", "extra"}, 2, "unexpected argument"},
	} {
		if code := f.run(c.args...); code != c.code || !strings.Contains(f.stderr.String(), c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, f.stderr, c.code, c.msg)
		}
		if strings.Count(strings.TrimSpace(f.stderr.String()), "\n") != 0 {
			t.Errorf("%v: more than one line on stderr: %q", c.args, f.stderr)
		}
	}

	// A file where the extensions directory should be: one clear line, exit 1.
	blocked := newPiFixture(t, "tele")
	os.MkdirAll(filepath.Join(blocked.home, ".pi"), 0o755)
	os.WriteFile(filepath.Join(blocked.home, ".pi", "agent"), []byte("a file"), 0o644)
	if code := blocked.run("pi", "install"); code != 1 || !strings.Contains(blocked.stderr.String(), "cannot install the Pi bridge") {
		t.Errorf("blocked install: exit %d, %q", code, blocked.stderr)
	}

	// No HOME and no agent dir.
	nohome := newPiFixture(t, "tele")
	delete(nohome.vars, "HOME")
	nohome.vars["TELE_DATA"] = t.TempDir()
	if code := nohome.run("pi", "install"); code != 1 || !strings.Contains(nohome.stderr.String(), "HOME is not set") {
		t.Errorf("no HOME: exit %d, %q", code, nohome.stderr)
	}

	// The executable cannot be found.
	noexe := newPiFixture(t, "tele")
	noexe.env.Executable = func() (string, error) { return "", errors.New("boom") }
	if code := noexe.run("pi", "print"); code != 1 || !strings.Contains(noexe.stderr.String(), "cannot find the tele binary") {
		t.Errorf("no executable: exit %d, %q", code, noexe.stderr)
	}
}

// TestPiInstallBinary runs the real binary: the installed bridge names it.
func TestPiInstallBinary(t *testing.T) {
	bin := teleBin(t)
	agent := filepath.Join(t.TempDir(), "agent")
	r := runTele(t, cleanEnv(t, "PI_CODING_AGENT_DIR="+agent), "pi", "install")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want := filepath.Join(agent, "extensions", "tele.js")
	if strings.TrimSpace(r.stdout) != want {
		t.Fatalf("printed %q, want %q", r.stdout, want)
	}
	src, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	realBin, _ := filepath.EvalSymlinks(bin)
	if got := bakedPathIn(t, src); got != realBin {
		t.Errorf("baked %q, want %q", got, realBin)
	}
}
