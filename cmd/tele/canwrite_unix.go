//go:build unix

package main

import "golang.org/x/sys/unix"

// canWrite reports whether this process may create and enter entries in directory dir.
func canWrite(dir string) bool {
	return unix.Access(dir, unix.W_OK|unix.X_OK) == nil
}
