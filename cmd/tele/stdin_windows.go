//go:build windows

package main

import "io"

// interruptibleStdin returns r: on Windows the host stops on a signal or when the bridge closes stdin,
// and a Read pending at exit ends with the process.
func interruptibleStdin(r io.Reader) (io.Reader, func()) {
	return r, func() {}
}
