package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// LockedError is an Open of a data directory that another store (in this or another process) owns.
// PID and Port are what the owner recorded in the lock file; 0 when unknown.
type LockedError struct {
	Dir  string
	PID  int
	Port int
}

func (e *LockedError) Error() string {
	msg := "data directory " + e.Dir + " is in use by another tele process"
	switch {
	case e.PID > 0 && e.Port > 0:
		msg += fmt.Sprintf(" (pid %d, port %d)", e.PID, e.Port)
	case e.PID > 0:
		msg += fmt.Sprintf(" (pid %d)", e.PID)
	}
	return msg
}

// errLocked is what lockDir's per-OS code returns when another owner holds the directory.
var errLocked = errors.New("board: data directory locked")

// dirLock is the ownership of a data directory. How the directory is held is the operating system's
// part (lock_unix.go, lock_windows.go); the owner file <dir>/.lock, which says "pid port" for whoever
// is refused, is common.
type dirLock struct {
	held  io.Closer // what holds the directory; closing it releases the directory
	owner *os.File  // <dir>/.lock, opened without following links
}

// takeDir makes sure dir exists (mode 0700 when created) and is private, then takes it: a
// *LockedError when another store holds it.
func takeDir(dir string) (*dirLock, error) {
	l, err := lockDir(dir)
	if errors.Is(err, errLocked) {
		le := &LockedError{Dir: dir}
		if b, err := readOwnerFile(filepath.Join(dir, ".lock")); err == nil {
			le.PID, le.Port = parseOwner(b)
		}
		return nil, le
	}
	return l, err
}

// readOwnerFile reads the start of a lock file without following a link there.
func readOwnerFile(path string) ([]byte, error) {
	f, err := openNoFollow(path, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 64))
}

// parseOwner reads "pid port" from a lock file; zeros where it says nothing usable.
func parseOwner(b []byte) (pid, port int) {
	f := strings.Fields(string(b))
	if len(f) >= 1 {
		if n, err := strconv.Atoi(f[0]); err == nil && n > 0 {
			pid = n
		}
	}
	if len(f) >= 2 {
		if n, err := strconv.Atoi(f[1]); err == nil && n > 0 && n <= 65535 {
			port = n
		}
	}
	return pid, port
}

// setOwner replaces the lock file's content with "pid port".
func (l *dirLock) setOwner(pid, port int) error {
	line := []byte(strconv.Itoa(pid) + " " + strconv.Itoa(port) + "\n")
	if _, err := l.owner.WriteAt(line, 0); err != nil {
		return err
	}
	return l.owner.Truncate(int64(len(line)))
}

// release empties the lock file (so a later reader sees no stale owner) and lets the directory go.
func (l *dirLock) release() error {
	_ = l.owner.Truncate(0)
	err := l.owner.Close()
	if l.held != nil {
		if herr := l.held.Close(); err == nil {
			err = herr
		}
	}
	return err
}

// RunningOwner returns the pid and port that the live owner of data directory dir recorded, or zeros
// when the lock file names no owner, no port yet, or a process that is gone. It takes no lock and
// changes nothing, so it never gets in the way of a server starting: it is for `tele board link`,
// which must print the port of the server that runs.
func RunningOwner(dir string) (pid, port int) {
	b, err := readOwnerFile(filepath.Join(filepath.Clean(dir), ".lock"))
	if err != nil {
		return 0, 0
	}
	pid, port = parseOwner(b)
	if pid == 0 || port == 0 || !processAlive(pid) {
		return 0, 0
	}
	return pid, port
}
