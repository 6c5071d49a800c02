//go:build windows

package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// lockDir holds dir by keeping <dir>/.lock open for writing with a share mode that lets others only
// read it: a second owner's open fails with a sharing violation, and because the share mode leaves out
// FILE_SHARE_DELETE nobody can delete or rename the file while it is held. Windows data directories
// get their privacy from the ACL the user's profile directory passes on; Tele does not rewrite ACLs.
func lockDir(dir string) (*dirLock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create data directory %s: %v", dir, unwrapPath(err))
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("data directory %s is not a directory", dir)
	}
	owner, err := openNoFollow(filepath.Join(dir, ".lock"), os.O_RDWR|os.O_CREATE)
	if errors.Is(err, windows.ERROR_SHARING_VIOLATION) {
		return nil, errLocked
	}
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		return nil, fmt.Errorf("data directory %s is not writable: %v", dir, err)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot open the lock file of data directory %s: %v", dir, err)
	}
	return &dirLock{owner: owner}, nil
}

// openNoFollow opens path without following a reparse point (a symbolic link or junction) and refuses
// one: a link planted as .lock must not make Tele write, or empty, its target. A writer shares the file
// only for reading; a reader lets the writer keep writing.
func openNoFollow(path string, flag int) (*os.File, error) {
	name, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	access, share, create := uint32(windows.GENERIC_READ), uint32(windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE), uint32(windows.OPEN_EXISTING)
	if flag&os.O_RDWR != 0 {
		access |= windows.GENERIC_WRITE
		share = windows.FILE_SHARE_READ
	}
	if flag&os.O_CREATE != 0 {
		create = windows.OPEN_ALWAYS
	}
	h, err := windows.CreateFile(name, access, share, nil, create,
		windows.FILE_ATTRIBUTE_NORMAL|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return nil, err
	}
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &info); err != nil {
		windows.CloseHandle(h)
		return nil, err
	}
	if info.FileAttributes&(windows.FILE_ATTRIBUTE_REPARSE_POINT|windows.FILE_ATTRIBUTE_DIRECTORY) != 0 {
		windows.CloseHandle(h)
		return nil, fmt.Errorf("%s is a link or a directory, not a file: remove it", path)
	}
	return os.NewFile(uintptr(h), path), nil
}

// processAlive reports whether process pid is running (access denied: it is, as another user's).
func processAlive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		return true
	}
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	var code uint32
	const stillActive = 259 // STILL_ACTIVE
	return windows.GetExitCodeProcess(h, &code) == nil && code == stillActive
}
