//go:build unix

package browsertest

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Fake writes the browser script into a temporary directory and returns its path (to put in BROWSER)
// and the fifo it writes its record into.
func Fake(t testing.TB) (cmd, record string) {
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

// Run is one run of the fake browser.
type Run struct {
	Args []string // the arguments, in order
	Page string   // the content of the file argument, from its "<!doctype html>" on ("" without one)
	Raw  string   // everything the script wrote
}

// Await reads the record of the next run: the read ends when the script is done. A run that does not
// come within 20 s fails the test.
func Await(t testing.TB, record string) Run {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(record)
		got <- string(b)
	}()
	var raw string
	select {
	case raw = <-got:
	case <-time.After(20 * time.Second):
		t.Fatal("the browser command did not run")
	}
	args, page, found := strings.Cut(raw, "<!doctype html>")
	r := Run{Raw: raw}
	if found {
		r.Page = "<!doctype html>" + page
	}
	for _, l := range strings.Split(strings.TrimSpace(args), "\n") {
		if l != "" {
			r.Args = append(r.Args, strings.TrimPrefix(l, "arg "))
		}
	}
	return r
}
