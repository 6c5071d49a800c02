//go:build windows

package store

import (
	"errors"
	"syscall"
)

// Windows' codes for a full disk: ERROR_HANDLE_DISK_FULL and ERROR_DISK_FULL.
const (
	errorHandleDiskFull syscall.Errno = 39
	errorDiskFull       syscall.Errno = 112
)

// IsDiskFull reports whether err is a write refused because the volume has no room left: the
// musician can fix it by freeing space, so it is said, not a 500.
func IsDiskFull(err error) bool {
	return errors.Is(err, errorDiskFull) || errors.Is(err, errorHandleDiskFull)
}
