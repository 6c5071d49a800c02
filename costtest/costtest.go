// Package costtest is the cost bound the fuzz targets of Tele's readers of outside input assert: what
// reading one input may cost, counted in bytes allocated. A reader allocates for what it builds and
// copies, so a path that does more than linear work in its input allocates more than linearly (the
// quadratic iReal Pro repeat did, as do the cases of chordpro TestLinear); counted by the runtime, the
// bound needs no counter in the reader and is the same on a loaded machine as on an idle one, where a
// time bound would not be. The iReal Pro reader also counts its own work (ireal work.go).
package costtest

import (
	"runtime"
	"testing"
)

// Allocated returns the bytes f allocates. It counts every goroutine's allocations, so the caller
// runs nothing else meanwhile (a fuzz target's body runs alone in its worker).
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Bound fails t when read, reading size bytes of outside input, allocates more than base bytes plus
// perByte for each of them, in each of three readings. One reading can be high for a reason that is not
// the reader's cost: a sync.Pool that was empty (a regexp's matcher, say), which the race detector
// empties at random on purpose; a path that costs more than linear work allocates it every time.
func Bound(t testing.TB, size int, base, perByte uint64, read func()) {
	t.Helper()
	limit := base + perByte*uint64(size)
	least := uint64(1<<64 - 1)
	for range 3 {
		got := Allocated(read)
		if got <= limit {
			return
		}
		least = min(least, got)
	}
	t.Fatalf("reading %d bytes allocated %d bytes, more than the bound of %d + %d a byte = %d (the least of three readings)", size, least, base, perByte, limit)
}
