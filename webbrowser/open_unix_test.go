//go:build unix

package webbrowser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeBrowser is a browser command as a user would name it in BROWSER: a script that records its
// arguments and the content of the file it was given, then exits.
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

// waitRecord reads what the fake browser wrote into its fifo: the read ends when the script is done.
func waitRecord(t *testing.T, record string) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(record)
		got <- string(b)
	}()
	select {
	case s := <-got:
		return s
	case <-time.After(20 * time.Second):
		t.Fatal("the browser command did not run")
		return ""
	}
}

const link = "http://127.0.0.1:4317/b/songs#binding=Qm-id&invite=k2-secret-invitation"

func TestOpenPutsNoSecretOnTheCommandLine(t *testing.T) {
	cmd, record := fakeBrowser(t)
	dir := filepath.Join(t.TempDir(), "browser")
	o := Opener{Dir: dir, Command: []string{cmd, "--new-window"}}
	ended := make(chan struct{})
	done, err := o.Open(context.Background(), link, ended)
	if err != nil {
		t.Fatal(err)
	}
	got := waitRecord(t, record)
	args, page, _ := strings.Cut(got, "<!doctype html>")
	lines := strings.Split(strings.TrimSpace(args), "\n")
	if len(lines) != 2 || lines[0] != "arg --new-window" || !strings.HasPrefix(lines[1], "arg "+dir+string(filepath.Separator)) {
		t.Fatalf("the browser's arguments: %q", lines)
	}
	if strings.Contains(args, "invite") || strings.Contains(args, "k2-secret") || strings.Contains(args, "http") {
		t.Fatalf("a secret on the command line: %q", args)
	}
	file := strings.TrimPrefix(lines[1], "arg ")
	if !strings.Contains(page, `<meta http-equiv="refresh" content="0;url=http://127.0.0.1:4317/b/songs#binding=Qm-id&amp;invite=k2-secret-invitation">`) {
		t.Fatalf("the redirect page: %s", page)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700 | os.ModeDir, file: 0o600} {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode() != want {
			t.Fatalf("%s: mode %v (%v), want %v", path, fi.Mode(), err, want)
		}
	}
	select {
	case <-done:
		t.Fatal("the file went before its invitation ended")
	default:
	}
	close(ended)
	<-done
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("the redirect file is still there after the invitation ended: %v", err)
	}
}

func TestOpenPlaceholderAndContextEnd(t *testing.T) {
	cmd, record := fakeBrowser(t)
	o := Opener{Dir: filepath.Join(t.TempDir(), "b"), Command: []string{cmd, "--url=%s", "--x"}}
	ctx, cancel := context.WithCancel(context.Background())
	done, err := o.Open(ctx, link, make(chan struct{}))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.SplitN(waitRecord(t, record), "<!doctype", 2)[0], "\n")
	if !strings.HasPrefix(lines[0], "arg --url="+o.Dir) || lines[1] != "arg --x" {
		t.Fatalf("arguments with a placeholder: %q", lines)
	}
	cancel()
	<-done
	if left, _ := filepath.Glob(filepath.Join(o.Dir, "*")); len(left) != 0 {
		t.Fatalf("files left after the context ended: %q", left)
	}
}

func TestOpenRefusesAnUnsafeDirectory(t *testing.T) {
	cmd, _ := fakeBrowser(t)
	base := t.TempDir()
	open := filepath.Join(base, "open")
	if err := os.Mkdir(open, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(base, "target")
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	notDir := filepath.Join(base, "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]string{open: "open to other users", link: "not a directory", notDir: "not a directory"} {
		_, err := Opener{Dir: dir, Command: []string{cmd}}.Open(context.Background(), "http://x", make(chan struct{}))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", filepath.Base(dir), err, want)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(base, "*", "open-*")); len(left) != 0 {
		t.Fatalf("a refused directory got a file: %q", left)
	}
}

func TestOpenWithAMissingCommandLeavesNoFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "b")
	_, err := Opener{Dir: dir, Command: []string{filepath.Join(dir, "no-such-browser")}}.Open(context.Background(), link, make(chan struct{}))
	if err == nil || strings.Contains(err.Error(), "invite") {
		t.Fatalf("err = %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Fatalf("files left: %q", left)
	}
}
