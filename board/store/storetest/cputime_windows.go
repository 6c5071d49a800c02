//go:build windows

package storetest

import (
	"time"

	"golang.org/x/sys/windows"
)

// CPUTime is the process's CPU time (kernel + user, all threads, so GC work counts), for the
// benchmarks of the store and of its routes.
func CPUTime() (time.Duration, error) {
	var creation, exit, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(windows.CurrentProcess(), &creation, &exit, &kernel, &user); err != nil {
		return 0, err
	}
	ticks := func(f windows.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration((ticks(kernel) + ticks(user)) * 100), nil // 100 ns ticks
}
