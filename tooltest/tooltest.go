// Package tooltest is for tests only: the path of a program a test runs (node, for the page's and the
// bridge's JavaScript), found once by one rule. Without the program the test skips, saying so loudly;
// with TELE_E2E_REQUIRED=1 (CI, which installs every tool) it fails instead, so that a missing tool
// never passes for a passing test.
package tooltest

import (
	"os"
	"os/exec"
	"testing"
)

// Path returns where program is on the PATH; without it, t skips (or fails, under
// TELE_E2E_REQUIRED=1) with "SKIPPED: <program> not found; <need>".
func Path(t testing.TB, program, need string) string {
	t.Helper()
	path, err := exec.LookPath(program)
	if err != nil {
		msg := "SKIPPED: " + program + " not found; " + need
		if os.Getenv("TELE_E2E_REQUIRED") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return path
}
