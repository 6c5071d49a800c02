package host

import (
	"bytes"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"tele/webbrowser/browsertest"
)

// awaitRemoved waits, with inotify, until path is gone.
func awaitRemoved(t *testing.T, path string) {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := syscall.InotifyAddWatch(fd, filepath.Dir(path), syscall.IN_DELETE); err != nil {
		syscall.Close(fd)
		t.Fatal(err)
	}
	if _, err := os.Stat(path); os.IsNotExist(err) { // already gone (checked after the watch began)
		syscall.Close(fd)
		return
	}
	removed := make(chan struct{})
	go func() {
		defer syscall.Close(fd)
		buf := make([]byte, 64<<10)
		for {
			n, err := syscall.Read(fd, buf)
			if err != nil {
				return
			}
			if bytes.Contains(buf[:n], []byte(filepath.Base(path))) {
				close(removed)
				return
			}
		}
	}()
	select {
	case <-removed:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s was not removed", path)
	}
}

// TestBrowserOpensThroughARedirectFile (issue 11, finding 1): the host opens the browser on a 0600 file
// in a 0700 directory that forwards to the invitation; the browser's command line holds only the
// file's path; the file goes when the invitation is redeemed, replaced, or the host stops.
func TestBrowserOpensThroughARedirectFile(t *testing.T) {
	cmd, record := browsertest.Fake(t)
	fb := startHost(t, hostOpts{cfg: func(c *Config) { c.Browser = []string{cmd} }})
	dir := filepath.Join(fb.dir, BrowserDir)
	// A file a crashed host left behind is removed at start.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, "open-stale.html")
	if err := os.WriteFile(stale, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := fb.ready("songs")
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("a stale redirect file survived the start: %v", err)
	}

	check := func(invite string) string {
		t.Helper()
		run := browsertest.Await(t, record)
		secret := fragment(t, invite).Get("invite")
		if len(run.Args) != 1 || filepath.Dir(run.Args[0]) != dir || strings.Contains(strings.Join(run.Args, " "), secret) {
			t.Fatalf("the browser's arguments %q, want only a file in %s", run.Args, dir)
		}
		if !strings.Contains(run.Page, `content="0;url=`+html.EscapeString(invite)+`"`) {
			t.Fatalf("the redirect page does not forward to the invitation:\n%s", run.Page)
		}
		for path, want := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, run.Args[0]: 0o600} {
			if fi, err := os.Lstat(path); err != nil || fi.Mode() != want {
				t.Fatalf("%s: mode %v (%v), want %v", path, fi.Mode(), err, want)
			}
		}
		return run.Args[0]
	}

	// Redeemed: gone.
	first := check(r.Invite)
	if _, code := pair(t, r, r.Invite); code != 200 {
		t.Fatalf("pairing: %d", code)
	}
	awaitRemoved(t, first)

	// Replaced by a newer invitation: gone; the newer one's file stays until the host stops.
	var res struct{ Invite string }
	mustOK(t, fb.call("invite", `{}`), &res)
	second := check(res.Invite)
	mustOK(t, fb.call("invite", `{}`), &res)
	third := check(res.Invite)
	awaitRemoved(t, second)
	if _, err := os.Stat(third); err != nil {
		t.Fatalf("the current invitation's file: %v", err)
	}
	fb.send(`{"note":"revoke","reason":"off"}`)
	if err := fb.runResult(); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Fatalf("files left after the host stopped: %q", left)
	}
	if strings.Contains(fb.logs.String(), fragment(t, res.Invite).Get("invite")) {
		t.Fatal("an invitation in the logs")
	}
}

func mustOK(t *testing.T, f rawFrame, v any) {
	t.Helper()
	if f.m["ok"] == nil || json.Unmarshal(f.m["ok"], v) != nil {
		t.Fatalf("want ok: %s", f.line)
	}
}
