//go:build unix

package server

import "golang.org/x/sys/unix"

// descriptorLimit is the process's soft limit on open files (Go raises it to the hard limit at start).
func descriptorLimit() (uint64, bool) {
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &rl); err != nil || rl.Cur == unix.RLIM_INFINITY {
		return 0, false
	}
	return uint64(rl.Cur), true
}
