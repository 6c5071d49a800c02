// Package atomicfile writes a file so that a reader, or the machine after a crash, finds the old bytes
// or the new ones and never part of them: the bytes go to a temporary file beside the target, which is
// synced and closed, then moved into place, and the directory is synced so that the move lasts.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// NotDurableError is a write that failed after the target took the new bytes: only the directory's
// sync failed, so a crash could still bring the old state back. The caller decides whether to undo it.
type NotDurableError struct{ Err error }

func (e *NotDurableError) Error() string { return e.Err.Error() }
func (e *NotDurableError) Unwrap() error { return e.Err }

// Replace replaces path with data, with mode perm. Until the rename, a failure leaves path as it was
// and removes the temporary file; after it, a failed directory sync is a *NotDurableError.
func Replace(path string, data []byte, perm fs.FileMode) error {
	return write(path, data, perm, os.Rename)
}

// Create writes data to path, with mode perm, where no file may be yet: the temporary file is hard
// linked to path, which fails with fs.ErrExist rather than replace anything. Until the link, a failure
// leaves the directory as it was; after it, a failed directory sync is a *NotDurableError. A temporary
// name that cannot be removed after the link is left for IsTemp to find.
func Create(path string, data []byte, perm fs.FileMode) error {
	return write(path, data, perm, func(tmp, path string) error {
		if err := os.Link(tmp, path); err != nil {
			return err
		}
		os.Remove(tmp)
		return nil
	})
}

// write writes data to a temporary file beside path and puts it in place with place(tmp, path); a
// failure of place removes the temporary file, and the directory is synced after it.
func write(path string, data []byte, perm fs.FileMode, place func(tmp, path string) error) error {
	tmp, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	if err := place(tmp, path); err != nil {
		return removeTemp(tmp, err)
	}
	if err := SyncDir(filepath.Dir(path)); err != nil {
		return &NotDurableError{err}
	}
	return nil
}

// IsTemp reports whether name is one of this package's temporary files, left by a write that a crash
// interrupted.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-")
}

// SyncDir syncs a directory, so that a rename, link or removal in it lasts. EINVAL (file systems that
// cannot sync a directory) counts as success.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		d.Close()
		return err
	}
	return d.Close()
}

// tempPerm is the mode os.CreateTemp gives a file: a write of that mode needs no chmod.
const tempPerm fs.FileMode = 0o600

// writeTemp writes data to a new temporary file beside path, syncs and closes it, and returns its name;
// on failure the file is gone.
func writeTemp(path string, data []byte, perm fs.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil && perm != tempPerm {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		f.Close()
		return "", removeTemp(tmp, err)
	}
	if err := f.Close(); err != nil {
		return "", removeTemp(tmp, err)
	}
	return tmp, nil
}

// removeTemp removes the temporary file of a write that failed with err, and says so if it cannot.
func removeTemp(tmp string, err error) error {
	if rmErr := os.Remove(tmp); rmErr != nil {
		return errors.Join(err, fmt.Errorf("the temporary file stays behind: %w", rmErr))
	}
	return err
}
