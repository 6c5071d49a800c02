// Package storetest is for tests only: what the benchmarks of the store and of its routes measure a
// write against (the process's CPU time, the physical floor of a commit), and the one run of the crash
// tests of the boards and the sets (KillChild).
package storetest

import "tele/atomicfile"

// RawCommitFloor is the physical floor of a commit: one atomic file write of data to target (temp
// file, write, fsync, close, rename, fsync of the directory), with no decoding, validation or
// bookkeeping. One floor for every benchmark that compares a write with it.
func RawCommitFloor(target string, data []byte) error {
	return atomicfile.Replace(target, data, 0o600)
}
