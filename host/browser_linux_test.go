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
)

// fakeBrowser is a browser command as a user names it in BROWSER: a script that writes its arguments
// and the content of the file it was given into the fifo record; reading the fifo awaits its run.
func fakeBrowser(t *testing.T) (cmd, record string) {
	t.Helper()
	dir := t.TempDir()
	record = filepath.Join(dir, "record")
	if err := syscall.Mkfifo(record, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd = filepath.Join(dir, "browser")
	script := "#!/bin/sh\n{\n" +
		"for a in \"$@\"; do printf 'arg %s\\n' \"$a\"; done\n" +
		"for a in \"$@\"; do [ -f \"$a\" ] && cat \"$a\"; done\n" +
		"} > " + record + "\n"
	if err := os.WriteFile(cmd, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return cmd, record
}

// browserRun is one run of the fake browser: its arguments and the page of the file it got.
type browserRun struct {
	args []string
	page string
}

func awaitBrowser(t *testing.T, record string) browserRun {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(record)
		got <- string(b)
	}()
	var s string
	select {
	case s = <-got:
	case <-time.After(20 * time.Second):
		t.Fatal("the browser command did not run")
	}
	args, page, _ := strings.Cut(s, "<!doctype html>")
	var r browserRun
	for _, l := range strings.Split(strings.TrimSpace(args), "\n") {
		r.args = append(r.args, strings.TrimPrefix(l, "arg "))
	}
	r.page = page
	return r
}

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
	cmd, record := fakeBrowser(t)
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
		run := awaitBrowser(t, record)
		secret := fragment(t, invite).Get("invite")
		if len(run.args) != 1 || filepath.Dir(run.args[0]) != dir || strings.Contains(strings.Join(run.args, " "), secret) {
			t.Fatalf("the browser's arguments %q, want only a file in %s", run.args, dir)
		}
		if !strings.Contains(run.page, `content="0;url=`+html.EscapeString(invite)+`"`) {
			t.Fatalf("the redirect page does not forward to the invitation:\n%s", run.page)
		}
		for path, want := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, run.args[0]: 0o600} {
			if fi, err := os.Lstat(path); err != nil || fi.Mode() != want {
				t.Fatalf("%s: mode %v (%v), want %v", path, fi.Mode(), err, want)
			}
		}
		return run.args[0]
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
