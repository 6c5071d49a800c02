//go:build linux

package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"tele/atomicfile"
	"tele/board/datadirtest"
)

// Commits whose system calls really fail, or really wait: the test runs again in a child process (this
// test binary, with -test.run naming the subtest) under strace, which makes the kernel refuse the
// chosen call with EIO or hold it. The child runs the scenario and checks the store; its verdict is the
// test's. Nothing in the store knows it is tested.

// straceChildEnv names, in the child, the test that is the child; straceDirEnv its data directory.
const (
	straceChildEnv = "TELE_STRACE_CHILD"
	straceDirEnv   = "TELE_STRACE_DIR"
)

// underStrace runs child(t, dir) in a child process under strace with the tampering expressions inject
// ("fsync:error=EIO:when=2": see strace(1), -e inject), on a data directory that setup prepared in this
// process. strace counts calls per thread, so the child runs locked to one. Without strace the test is
// skipped loudly, or fails when TELE_E2E_REQUIRED=1.
func underStrace(t *testing.T, inject []string, setup func(t *testing.T, dir string), child func(t *testing.T, dir string)) {
	t.Helper()
	if os.Getenv(straceChildEnv) == t.Name() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		child(t, os.Getenv(straceDirEnv))
		return
	}
	strace, err := exec.LookPath("strace")
	if err != nil {
		msg := "SKIPPED: strace not found; the commit failure tests need it to make system calls fail (apt-get install strace)"
		if os.Getenv("TELE_E2E_REQUIRED") == "1" {
			t.Fatal(msg + "; TELE_E2E_REQUIRED=1 makes this a failure")
		}
		fmt.Fprintln(os.Stderr, "!!! "+msg)
		t.Skip(msg)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	setup(t, dir)
	var tamper, traced []string
	for _, in := range inject {
		tamper = append(tamper, "-e", "inject="+in)
		traced = append(traced, in[:strings.IndexByte(in, ':')])
	}
	var run []string
	for _, name := range strings.Split(t.Name(), "/") {
		run = append(run, "^"+regexp.QuoteMeta(name)+"$")
	}
	// Not --seccomp-bpf, with which strace 6.1 does not deliver an injected signal; not -test.v, so that
	// the child writes nothing while it runs and write(2) counts only the store's; a timeout, so that a
	// child that hangs fails with its goroutines' stacks.
	log := filepath.Join(t.TempDir(), "strace.log")
	args := append([]string{"-f", "-qq", "-o", log, "-e", "trace=" + strings.Join(traced, ",")}, tamper...)
	cmd := exec.Command(strace, append(args, exe, "-test.run="+strings.Join(run, "/"), "-test.timeout=1m")...)
	cmd.Env = append(os.Environ(), straceChildEnv+"="+t.Name(), straceDirEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(out), "no tests to run") {
		seen, _ := os.ReadFile(log)
		t.Fatalf("the child, under strace %s: %v\n%s\nwhat strace saw:\n%s", strings.Join(tamper, " "), err, out, seen)
	}
}

// withBoardA makes board "a" titled One, at revision 1.
func withBoardA(t *testing.T, dir string) {
	s := openT(t, dir, Options{})
	if _, _, err := s.Create("a", content("One"), AuthorBrowser); err != nil {
		t.Fatal(err)
	}
	s.Close()
}

// failEIO is the strace expression that fails the nth call of what (write, fsync, rename or link) with
// EIO. rename and link are the *at system calls Go makes (renameat2 on arm64).
func failEIO(what string, nth int) []string {
	set := map[string]string{"write": "write", "fsync": "fsync", "rename": "?renameat,?renameat2", "link": "linkat"}[what]
	return []string{set + ":error=EIO:when=" + strconv.Itoa(nth)}
}

// wantFailedAt checks that err is the injected EIO of the step at: the system call and the file it
// reports, relative to dir, a temporary file's random name as <tmp> ("sync boards/a/<tmp>").
func wantFailedAt(t *testing.T, dir string, err error, at string) {
	t.Helper()
	var op, path string
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		op, path = pe.Op, pe.Path
	} else if le, ok := errors.AsType[*os.LinkError](err); ok {
		op, path = le.Op, le.New
	}
	rel, _ := filepath.Rel(dir, path)
	if atomicfile.IsTemp(filepath.Base(rel)) {
		rel = filepath.Join(filepath.Dir(rel), "<tmp>")
	}
	if got := op + " " + rel; got != at || !errors.Is(err, syscall.EIO) {
		t.Fatalf("error %v (at %q), want EIO at %q", err, got, at)
	}
}

// TestCommitFailures fails each system call of a commit: nothing changes on disk or in memory, nothing
// is published, no temporary file is left, and the store keeps working. A revision is committed with
// write, fsync, link and a directory fsync; a creation (createall.go) makes the board's directory, writes
// and syncs its capability and first revision to temporary files, renames the capability into caps and
// syncs caps and boards, then links the revision and syncs the board's directory.
func TestCommitFailures(t *testing.T) {
	for _, c := range []struct {
		name, op string // op: put (board a from revision 1) or create (board b)
		fail     string // the system call that fails
		nth      int    // which call of it, counted from the child's start
		at       string // the step that must report the failure
	}{
		{"put-write", "put", "write", 1, "write boards/a/<tmp>"},
		{"put-fsync", "put", "fsync", 1, "sync boards/a/<tmp>"},
		{"put-link", "put", "link", 1, "link boards/a/2.json"},
		{"put-dir-fsync", "put", "fsync", 2, "sync boards/a"},
		{"create-capability-write", "create", "write", 1, "write caps/<tmp>"},
		{"create-capability-fsync", "create", "fsync", 1, "sync caps/<tmp>"},
		{"create-revision-write", "create", "write", 2, "write boards/b/<tmp>"},
		{"create-revision-fsync", "create", "fsync", 2, "sync boards/b/<tmp>"},
		{"create-capability-rename", "create", "rename", 1, "rename caps/b"},
		{"create-capability-dir-fsync", "create", "fsync", 3, "sync caps"},
		{"create-board-dir-fsync", "create", "fsync", 4, "sync boards"},
		{"create-revision-link", "create", "link", 1, "link boards/b/1.json"},
		{"create-revision-dir-fsync", "create", "fsync", 5, "sync boards/b"},
	} {
		t.Run(c.name, func(t *testing.T) {
			underStrace(t, failEIO(c.fail, c.nth), withBoardA, func(t *testing.T, dir string) {
				var commits int
				s := openT(t, dir, Options{OnCommit: func(Board) { commits++ }})
				before := datadirtest.Snapshot(t, dir)
				if c.op == "put" {
					_, err := s.Put("a", 1, content("Two"), AuthorBrowser)
					wantFailedAt(t, dir, err, c.at)
				} else {
					_, _, err := s.Create("b", content("B"), AuthorBrowser)
					wantFailedAt(t, dir, err, c.at)
				}
				datadirtest.Same(t, "a failed "+c.op, before, datadirtest.Snapshot(t, dir))
				if tf := tempFiles(t, dir); len(tf) != 0 {
					t.Fatalf("temporary files left: %v", tf)
				}
				if got, _ := s.Get("a"); got.Revision != 1 || got.Content.Title != "One" {
					t.Fatalf("memory changed: %+v", got)
				}
				if rows, _, _ := listRevs(s, "a", 0, 10); len(rows) != 1 {
					t.Fatalf("history after a failed %s: %v", c.op, rows)
				}
				if _, err := s.Get("b"); !errors.Is(err, ErrNotFound) {
					t.Fatal("a failed Create made a board")
				}
				if commits != 0 {
					t.Fatalf("a failed %s published", c.op)
				}
				// The store keeps working.
				if b, err := s.Put("a", 1, content("Two"), AuthorBrowser); err != nil || b.Revision != 2 {
					t.Fatalf("Put after the failure = %+v, %v", b, err)
				}
				if _, _, err := s.Create("b", content("B"), AuthorBrowser); err != nil {
					t.Fatalf("Create after the failure: %v", err)
				}
			})
		})
	}
}

// TestRotateFailures fails each system call of a rotation's commit: nothing changes — the old key still
// works, in memory and on disk — and no temporary file is left. When the directory fsync fails the new
// key is already in place and must be put back.
func TestRotateFailures(t *testing.T) {
	for _, c := range []struct {
		name string
		fail string // the system call that fails
		nth  int    // which call of it, counted from the child's start
		at   string // the step that must report the failure
	}{
		{"write", "write", 1, "write caps/<tmp>"},
		{"fsync", "fsync", 1, "sync caps/<tmp>"},
		{"rename", "rename", 1, "rename caps/a"},
		{"dir-fsync", "fsync", 2, "sync caps"},
	} {
		t.Run(c.name, func(t *testing.T) {
			underStrace(t, failEIO(c.fail, c.nth), withBoardA, func(t *testing.T, dir string) {
				s := openT(t, dir, Options{})
				old, _ := s.Capability("a")
				before := datadirtest.Snapshot(t, dir)
				_, err := s.Rotate("a")
				wantFailedAt(t, dir, err, c.at)
				datadirtest.Same(t, "a failed rotation", before, datadirtest.Snapshot(t, dir))
				if tf := tempFiles(t, dir); len(tf) != 0 {
					t.Fatalf("temporary files left: %v", tf)
				}
				if err := s.Authorize("a", old); err != nil {
					t.Fatalf("the old key after a failed rotation: %v", err)
				}
				if fresh, err := s.Rotate("a"); err != nil || s.Authorize("a", fresh) != nil {
					t.Fatalf("Rotate after the failure: %v", err)
				}
			})
		})
	}
}

// TestCloseWaitsForCommits: Close called during a commit returns only after the commit is done, and
// the commit is acknowledged. strace signals the child when the commit has synced its revision file,
// then holds the commit's link(2) for a second: Close is called inside that second, and a Close that did
// not wait would return in it. The commit's end is marked by OnCommit, which runs inside the commit:
// Put itself returns only after it has let Close go, so Close may finish first.
func TestCloseWaitsForCommits(t *testing.T) {
	inject := []string{"fsync:signal=SIGUSR1:when=1", "linkat:delay_enter=1s:when=1"}
	underStrace(t, inject, withBoardA, func(t *testing.T, dir string) {
		var mu sync.Mutex
		var order []string
		done := func(what string) {
			mu.Lock()
			order = append(order, what)
			mu.Unlock()
		}
		s, err := Open(dir, Options{Logger: quiet, OnCommit: func(Board) { done("commit") }})
		if err != nil {
			t.Fatal(err)
		}
		inCommit := make(chan os.Signal, 1)
		signal.Notify(inCommit, syscall.SIGUSR1)
		defer signal.Stop(inCommit)
		closed := make(chan error, 1)
		go func() {
			<-inCommit
			err := s.Close()
			done("close")
			closed <- err
		}()
		if _, err := s.Put("a", 1, content("B"), AuthorBrowser); err != nil {
			t.Fatal(err)
		}
		if err := <-closed; err != nil {
			t.Fatal(err)
		}
		if strings.Join(order, " ") != "commit close" {
			t.Fatalf("order of completion: %v, want the commit before Close", order)
		}
		s2 := openT(t, dir, Options{})
		if b, _ := s2.Get("a"); b.Revision != 2 {
			t.Fatalf("revision %d after reopen", b.Revision)
		}
	})
}
