package tooltest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPathFindsAProgram: a program on the PATH is found, as the file it is.
func TestPathFindsAProgram(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "tele-tooltest-probe")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if got := Path(t, "tele-tooltest-probe", "this test needs it"); got != prog {
		t.Fatalf("Path = %q, want %q", got, prog)
	}
}
