//go:build unix

package store

import (
	"errors"
	"syscall"
)

// IsDiskFull reports whether err is a write refused because the file system has no room left (or the
// user's quota is spent): the musician can fix it by freeing space, so it is said, not a 500.
func IsDiskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}
