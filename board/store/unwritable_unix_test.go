//go:build unix

package store

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// unwritableChildEnv names the directory the re-executed test opens as an ordinary user.
const unwritableChildEnv = "TELE_BOARD_UNWRITABLE_CHILD"

// unprivileged is the user (nobody) the test runs Open as when it runs as root, for whom a directory's
// permission bits mean nothing.
const unprivileged = 65534

// TestOpenRefusesUnwritableDirectory opens a private directory its owner cannot write (mode 0500). Root
// can write any directory, and CI runs as root: there the test re-executes itself as an ordinary user
// who owns the directory, so Open takes the same path it takes for every user.
func TestOpenRefusesUnwritableDirectory(t *testing.T) {
	if dir := os.Getenv(unwritableChildEnv); dir != "" {
		_, err := Open(dir, Options{Logger: quiet})
		fmt.Print(err)
		return
	}
	// Not t.TempDir: its parent is private to root, and the unprivileged user must reach dir.
	root, err := os.MkdirTemp("", "tele-unwritable-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	dir := filepath.Join(root, "ro")
	if err := os.Mkdir(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	var msg string
	if os.Geteuid() != 0 {
		_, err := Open(dir, Options{Logger: quiet})
		msg = fmt.Sprint(err)
	} else {
		msg = openAsUnprivileged(t, root, dir)
	}
	if !strings.Contains(msg, "data directory "+dir+" is not writable") {
		t.Fatalf("Open = %s", msg)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("Open created %v", ents)
	}
}

// openAsUnprivileged hands dir to the unprivileged user and runs the test binary as that user (a copy
// it can execute, inside root, which it can enter) to open dir; it returns what Open said.
func openAsUnprivileged(t *testing.T, root, dir string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	child := filepath.Join(root, "board.test")
	if err := copyExecutable(exe, child); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(dir, unprivileged, unprivileged); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(child, "-test.run=^TestOpenRefusesUnwritableDirectory$")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), unwritableChildEnv+"="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: unprivileged, Gid: unprivileged}}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the test as uid %d: %v\n%s", unprivileged, err, out)
	}
	return string(out)
}

func copyExecutable(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
