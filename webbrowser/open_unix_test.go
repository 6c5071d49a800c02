//go:build unix

package webbrowser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tele/webbrowser/browsertest"
)

const link = "http://127.0.0.1:4317/b/songs#binding=Qm-id&invite=k2-secret-invitation"

func TestOpenPutsNoSecretOnTheCommandLine(t *testing.T) {
	cmd, record := browsertest.Fake(t)
	dir := filepath.Join(t.TempDir(), "browser")
	o := Opener{Dir: dir, Command: []string{cmd, "--new-window"}}
	ended := make(chan struct{})
	done, err := o.Open(context.Background(), link, ended)
	if err != nil {
		t.Fatal(err)
	}
	run := browsertest.Await(t, record)
	lines, page := run.Args, run.Page
	if len(lines) != 2 || lines[0] != "--new-window" || !strings.HasPrefix(lines[1], dir+string(filepath.Separator)) {
		t.Fatalf("the browser's arguments: %q", lines)
	}
	if args := strings.Join(lines, " "); strings.Contains(args, "invite") || strings.Contains(args, "k2-secret") || strings.Contains(args, "http") {
		t.Fatalf("a secret on the command line: %q", args)
	}
	file := lines[1]
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
	cmd, record := browsertest.Fake(t)
	o := Opener{Dir: filepath.Join(t.TempDir(), "b"), Command: []string{cmd, "--url=%s", "--x"}}
	ctx, cancel := context.WithCancel(context.Background())
	done, err := o.Open(ctx, link, make(chan struct{}))
	if err != nil {
		t.Fatal(err)
	}
	lines := browsertest.Await(t, record).Args
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "--url="+o.Dir) || lines[1] != "--x" {
		t.Fatalf("arguments with a placeholder: %q", lines)
	}
	cancel()
	<-done
	if left, _ := filepath.Glob(filepath.Join(o.Dir, "*")); len(left) != 0 {
		t.Fatalf("files left after the context ended: %q", left)
	}
}

func TestOpenRefusesAnUnsafeDirectory(t *testing.T) {
	cmd, _ := browsertest.Fake(t)
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
