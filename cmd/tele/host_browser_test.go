//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"html"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"tele/server/servertest"
)

// hostProc is a running `tele host`, spoken to as the bridge does.
type hostProc struct {
	cmd   *exec.Cmd
	stdin interface{ Close() error }
	ready struct{ URL, Invite string }
}

// startHost runs `tele host --port 0 --data data` with args and env, says hello and reads ready.
func startHost(t *testing.T, data string, env []string, args ...string) *hostProc {
	t.Helper()
	cmd := exec.Command(teleBin(t), append([]string{"host", "--port", "0", "--data", data}, args...)...)
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &servertest.LogBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &hostProc{cmd: cmd, stdin: stdin}
	t.Cleanup(func() {
		stdin.Close()
		cmd.Wait()
	})
	if _, err := stdin.Write([]byte(`{"note":"hello","protocol":1,"bridge":"1","pi":"0.73.1","board":"songs","session":{"id":"s1"}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || json.Unmarshal([]byte(line), &p.ready) != nil || p.ready.Invite == "" {
		t.Fatalf("no ready note (%v): %q\n%s", err, line, stderr)
	}
	return p
}

// TestHostOpensTheBrowserWithoutTheLinkOnItsCommandLine (issue 11, finding 1): the browser a user names
// in BROWSER gets only the path of a 0600 redirect file; TELE_NO_BROWSER keeps the browser closed; the
// file is gone when the host stops.
func TestHostOpensTheBrowserWithoutTheLinkOnItsCommandLine(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(dir, "record")
	if err := syscall.Mkfifo(record, 0o600); err != nil {
		t.Fatal(err)
	}
	browser := filepath.Join(dir, "browser")
	script := "#!/bin/sh\n{ for a in \"$@\"; do printf 'arg %s\\n' \"$a\"; cat \"$a\"; done; } > " + record + "\n"
	if err := os.WriteFile(browser, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	files := filepath.Join(data, "browser")

	// TELE_NO_BROWSER: no file, no browser (the file would be written before ready is sent).
	quiet := startHost(t, data, cleanEnv(t, "BROWSER="+browser+" --new-window", "TELE_NO_BROWSER=1"), "--open-browser")
	if left, _ := filepath.Glob(filepath.Join(files, "*")); len(left) != 0 {
		t.Fatalf("TELE_NO_BROWSER=1, yet a redirect file: %q", left)
	}
	quiet.stdin.Close()
	quiet.cmd.Wait()

	p := startHost(t, data, cleanEnv(t, "BROWSER="+browser+" --new-window"), "--open-browser")
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(record)
		got <- string(b)
	}()
	var out string
	select {
	case out = <-got:
	case <-time.After(30 * time.Second):
		t.Fatal("the browser command did not run")
	}
	u, _ := url.Parse(p.ready.Invite)
	frag, _ := url.ParseQuery(u.Fragment)
	args, page, _ := strings.Cut(out, "<!doctype html>")
	lines := strings.Split(strings.TrimSpace(args), "\n")
	if len(lines) != 2 || lines[0] != "arg --new-window" || !strings.HasPrefix(lines[1], "arg "+files+"/open-") ||
		strings.Contains(args, frag.Get("invite")) || strings.Contains(args, "http") {
		t.Fatalf("the browser's command line: %q", lines)
	}
	if !strings.Contains(page, html.EscapeString(p.ready.Invite)) {
		t.Fatalf("the redirect page lacks the invitation:\n%s", page)
	}
	file := strings.TrimPrefix(lines[1], "arg ")
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("redirect file: %v %v", fi, err)
	}
	if fi, err := os.Stat(files); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("redirect directory: %v %v", fi, err)
	}
	p.stdin.Close()
	if err := p.cmd.Wait(); err != nil {
		t.Fatalf("tele host: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(files, "*")); len(left) != 0 {
		t.Fatalf("files left after the host stopped: %q", left)
	}
}
