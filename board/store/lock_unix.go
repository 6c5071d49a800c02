//go:build unix

package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// lockDir holds dir with an exclusive flock on a descriptor of the directory itself, not of a file in
// it: deleting or replacing .lock cannot free the directory for a second owner while the first runs.
// Before that it creates dir (0700) when missing and refuses one that another user owns or that group
// or others can write, as ssh does for its keys: whoever can write the directory can swap the boards.
func lockDir(dir string) (*dirLock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		if errors.Is(err, unix.ENOTDIR) || errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("data directory %s is not a directory", dir)
		}
		return nil, fmt.Errorf("cannot create data directory %s: %v", dir, unwrapPath(err))
	}
	d, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("data directory %s: %v", dir, unwrapPath(err))
	}
	ok := false
	defer func() {
		if !ok {
			d.Close()
		}
	}()
	var st unix.Stat_t
	if err := unix.Fstat(int(d.Fd()), &st); err != nil {
		return nil, fmt.Errorf("data directory %s: %v", dir, err)
	}
	mode := fs.FileMode(st.Mode & 0o7777)
	switch {
	case st.Mode&unix.S_IFMT != unix.S_IFDIR:
		return nil, fmt.Errorf("data directory %s is not a directory", dir)
	case int(st.Uid) != os.Geteuid():
		return nil, fmt.Errorf("data directory %s belongs to another user (uid %d): use a directory of your own with --data <path> or TELE_DATA", dir, st.Uid)
	case mode&0o022 != 0:
		return nil, fmt.Errorf("data directory %s can be written by other users (mode %04o): make it private with chmod 700 %s", dir, mode, dir)
	}
	if err := unix.Access(dir, unix.W_OK|unix.X_OK); err != nil {
		return nil, fmt.Errorf("data directory %s is not writable: %v", dir, err)
	}
	if err := unix.Flock(int(d.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, errLocked
		}
		return nil, fmt.Errorf("cannot lock data directory %s: %v", dir, err)
	}
	owner, err := openNoFollow(filepath.Join(dir, ".lock"), os.O_RDWR|os.O_CREATE)
	if err != nil {
		return nil, fmt.Errorf("cannot open the lock file of data directory %s: %v", dir, err)
	}
	ok = true
	return &dirLock{held: d, owner: owner}, nil
}

// openNoFollow opens path (mode 0600 when created) refusing a symbolic link or anything but a regular
// file there: a link planted as .lock must not make Tele write, or empty, its target.
func openNoFollow(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EMLINK) { // EMLINK: FreeBSD's O_NOFOLLOW
		return nil, fmt.Errorf("%s is a symbolic link: remove it", path)
	}
	if err != nil {
		return nil, unwrapPath(err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file: remove it", path)
	}
	return f, nil
}

// processAlive reports whether process pid exists (EPERM: it does, as another user's).
func processAlive(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}
