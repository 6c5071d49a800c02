//go:build unix

package storetest

import (
	"time"

	"golang.org/x/sys/unix"
)

// CPUTime is the process's CPU time (user + system, all threads, so GC work counts), for the
// benchmarks of the store and of its routes.
func CPUTime() (time.Duration, error) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0, err
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}
