//go:build unix

package main

import (
	"io"
	"os"
	"syscall"
)

// interruptibleStdin returns a reader of the process's stdin whose pending Read ends when it is closed,
// so a signal can stop the host while the bridge keeps stdin open. Go's os.Stdin does not use the
// runtime poller when the descriptor is in blocking mode, and closing it does not end a blocked Read;
// a fresh *os.File over the descriptor in non-blocking mode does. The mode belongs to the open file (a
// terminal may be shared with a shell), so restore puts it back through a duplicate descriptor that
// outlives the close. Any other reader is returned as it is.
func interruptibleStdin(r io.Reader) (io.Reader, func()) {
	if r != os.Stdin {
		return r, func() {}
	}
	saved, err := syscall.Dup(syscall.Stdin)
	if err != nil {
		return r, func() {}
	}
	if err := syscall.SetNonblock(syscall.Stdin, true); err != nil {
		syscall.Close(saved)
		return r, func() {}
	}
	f := os.NewFile(uintptr(syscall.Stdin), "/dev/stdin")
	return f, func() {
		_ = syscall.SetNonblock(saved, false)
		_ = syscall.Close(saved)
	}
}
