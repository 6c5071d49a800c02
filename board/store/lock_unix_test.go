//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A .lock planted as a symbolic link must not make Open write, or empty, the link's target: not in a
// directory everybody can write (refused for that alone), nor in a private one.
func TestOpenRefusesLockSymlink(t *testing.T) {
	for _, perm := range []os.FileMode{0o777, 0o700} {
		t.Run(perm.String(), func(t *testing.T) {
			root := t.TempDir()
			victim := filepath.Join(root, "victim")
			os.WriteFile(victim, []byte("precious\n"), 0o600)
			dir := filepath.Join(root, "data")
			os.Mkdir(dir, 0o700)
			if err := os.Symlink(victim, filepath.Join(dir, ".lock")); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(dir, perm); err != nil {
				t.Fatal(err)
			}
			s, err := Open(dir, Options{Logger: quiet})
			if err == nil {
				s.Close()
				t.Fatal("Open accepted a .lock symlink")
			}
			if got := string(readFile(t, victim)); got != "precious\n" {
				t.Fatalf("the link's target now holds %q", got)
			}
			if msg := err.Error(); !strings.Contains(msg, dir) || strings.Contains(msg, "\n") {
				t.Fatalf("error %q: want one line naming %s", msg, dir)
			}
		})
	}
}

// A data directory that group or others can write is refused with one line that names it and the fix,
// and nothing is created in it; one they can only read is used.
func TestOpenRefusesSharedDirectory(t *testing.T) {
	for _, tt := range []struct {
		perm os.FileMode
		ok   bool
	}{
		{0o777, false}, {0o770, false}, {0o730, false}, {0o703, false}, {0o777 | os.ModeSticky, false},
		{0o700, true}, {0o750, true}, {0o755, true},
	} {
		t.Run(tt.perm.String(), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "data")
			os.Mkdir(dir, 0o700)
			if err := os.Chmod(dir, tt.perm); err != nil {
				t.Fatal(err)
			}
			s, err := Open(dir, Options{Logger: quiet})
			if tt.ok {
				if err != nil {
					t.Fatalf("Open = %v", err)
				}
				s.Close()
				return
			}
			if err == nil {
				s.Close()
				t.Fatal("Open accepted the directory")
			}
			msg := err.Error()
			if !strings.Contains(msg, dir) || !strings.Contains(msg, "other users") || !strings.Contains(msg, "chmod 700 "+dir) || strings.Contains(msg, "\n") {
				t.Fatalf("error %q: want one line naming %s, why and the fix", msg, dir)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Fatalf("Open created %v", ents)
			}
		})
	}
}

// The lock is the directory's, not the file's: deleting or replacing .lock while a store runs must not
// let a second store take the directory.
func TestLockSurvivesLockFileDeletion(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, Options{})
	if err := s.SetOwner(os.Getpid(), 5000); err != nil {
		t.Fatal(err)
	}
	for _, attack := range []struct {
		name string
		do   func(path string) error
	}{
		{"deleted", os.Remove},
		{"replaced", func(path string) error { return os.WriteFile(path, []byte("1 2\n"), 0o600) }},
	} {
		if err := attack.do(filepath.Join(dir, ".lock")); err != nil {
			t.Fatal(err)
		}
		s2, err := Open(dir, Options{Logger: quiet})
		if _, ok := errors.AsType[*LockedError](err); !ok {
			if err == nil {
				s2.Close()
			}
			t.Fatalf(".lock %s: second Open = %v, want *LockedError", attack.name, err)
		}
	}
	if _, err := s.Put("x", 1, content("X"), AuthorBrowser); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the first store stopped working: %v", err)
	}
	s.Close()
	openT(t, dir, Options{})
}

func TestRunningOwner(t *testing.T) {
	dir := t.TempDir()
	if pid, port := RunningOwner(dir); pid != 0 || port != 0 {
		t.Fatalf("no lock file: %d %d", pid, port)
	}
	s := openT(t, dir, Options{})
	if pid, port := RunningOwner(dir); pid != 0 || port != 0 {
		t.Fatalf("owner without a port yet: %d %d", pid, port)
	}
	s.SetOwner(os.Getpid(), 4999)
	if pid, port := RunningOwner(dir); pid != os.Getpid() || port != 4999 {
		t.Fatalf("running owner: %d %d", pid, port)
	}
	s.Close()
	if pid, port := RunningOwner(dir); pid != 0 || port != 0 {
		t.Fatalf("after Close: %d %d", pid, port)
	}

	// A server that died without Close left its line behind: its process is gone, so it names no owner.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dead := exec.Command(exe, "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".lock"), fmt.Appendf(nil, "%d 4999\n", dead.Process.Pid), 0o600)
	if pid, port := RunningOwner(dir); pid != 0 || port != 0 {
		t.Fatalf("dead owner: %d %d", pid, port)
	}
}
