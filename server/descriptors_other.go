//go:build !unix

package server

// descriptorLimit: Windows has no per-process limit on open handles that a listener would meet first;
// MaxConnections applies alone.
func descriptorLimit() (uint64, bool) { return 0, false }
