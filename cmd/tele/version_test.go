package main

import (
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestCLIVersion runs the built binary: it names its version, the revision of the checkout it was built
// from and the toolchain, all read from the build information. The revision is the one the toolchain
// stamped (`go version -m`), and that is git's HEAD. (The toolchain stamps nothing for a build outside
// a checkout, or in a linked git worktree, whose .git is a file: then the binary says so.)
func TestCLIVersion(t *testing.T) {
	info, err := exec.Command("go", "version", "-m", teleBin(t)).Output()
	if err != nil {
		t.Fatal(err)
	}
	stamped := regexp.MustCompile(`(?m)^\s*build\s+vcs\.revision=([0-9a-f]+)$`).FindSubmatch(info)
	if stamped != nil {
		head, err := exec.Command("git", "rev-parse", "HEAD").Output()
		if err != nil || strings.TrimSpace(string(head)) != string(stamped[1]) {
			t.Fatalf("the binary was stamped with revision %s, git says HEAD is %q (%v)", stamped[1], head, err)
		}
	}
	for _, arg := range []string{"version", "--version"} {
		r := runTele(t, cleanEnv(t), arg)
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("%s: exit %d, stderr %q", arg, r.code, r.stderr)
		}
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		if len(lines) != 3 {
			t.Fatalf("%s: want 3 lines, got %q", arg, r.stdout)
		}
		if v := strings.TrimPrefix(lines[0], "tele "); v == lines[0] || v == "" {
			t.Errorf("%s: first line %q, want tele <version>", arg, lines[0])
		}
		if stamped != nil {
			if want := "revision " + string(stamped[1]); !strings.HasPrefix(lines[1], want) {
				t.Errorf("%s: %q, want it to start with %q", arg, lines[1], want)
			}
		} else if lines[1] != "revision unknown (not built from a version-control checkout)" {
			t.Errorf("%s: outside a checkout the revision line is %q", arg, lines[1])
		}
		if want := runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH; lines[2] != want {
			t.Errorf("%s: last line %q, want %q", arg, lines[2], want)
		}
	}
	r := runTele(t, cleanEnv(t), "version", "extra")
	assertOneLine(t, r, 2)
	if r.stderr != "tele: version: unexpected argument \"extra\": run tele help\n" {
		t.Errorf("stderr %q", r.stderr)
	}
}
