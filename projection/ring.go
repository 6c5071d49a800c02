package projection

import (
	"strings"
)

// Where the kept items and the branch's entry ids live: a ring of the newest MaxViewItems slots with an
// undo journal, and a set of ids that does not allocate for Pi's.

// ring keeps the newest MaxViewItems items and counts all of them since the last reset. Between begin
// and end it journals the first change of each slot, so rollback can undo a failed call; a call that
// appends one entry saves one slot, not the ring.
type ring struct {
	slots   [MaxViewItems]slot
	n       int
	touched bool // a kept item changed (tool status) since begin

	journal bool
	epoch   uint32
	stamp   [MaxViewItems]uint32 // epoch of the call that saved the slot
	undo    []undoRec
	startN  int
}

type undoRec struct {
	k   int
	old slot
}

func (r *ring) begin() {
	r.journal, r.touched, r.startN = true, false, r.n
	if r.epoch++; r.epoch == 0 {
		r.stamp = [MaxViewItems]uint32{}
		r.epoch = 1
	}
}

// save records slot k's value before its first change in this call.
func (r *ring) save(k int) {
	if r.journal && r.stamp[k] != r.epoch {
		r.stamp[k] = r.epoch
		r.undo = append(r.undo, undoRec{k, r.slots[k]})
	}
}

func (r *ring) rollback() {
	for u := len(r.undo) - 1; u >= 0; u-- {
		r.slots[r.undo[u].k] = r.undo[u].old
	}
	r.n, r.touched = r.startN, false
}

func (r *ring) end() {
	clear(r.undo)
	r.undo, r.journal = r.undo[:0], false
	if cap(r.undo) > MaxViewItems {
		r.undo = nil
	}
}

// changed reports whether the call since begin appended or changed items.
func (r *ring) changed() bool { return r.n != r.startN || r.touched }

func (r *ring) reset() {
	for k := 0; k < r.len(); k++ {
		r.save(r.index(k))
		r.slots[r.index(k)] = slot{}
	}
	r.n = 0
}

func (r *ring) len() int { return min(r.n, MaxViewItems) }

// index returns the slot index of the kth newest item (0 = the newest).
func (r *ring) index(k int) int { return (r.n - 1 - k) % MaxViewItems }

func (r *ring) at(k int) *slot { return &r.slots[r.index(k)] }

func (r *ring) push() *slot {
	k := r.n % MaxViewItems
	r.save(k)
	r.slots[k] = slot{}
	r.n++
	return &r.slots[k]
}

// idSet is a set of entry ids. Ids of 8 bytes (Pi's) are map keys of one word; other ids of up to 16
// bytes are stored without allocating.
type idSet struct {
	eight map[uint64]struct{}
	short map[shortID]struct{}
	long  map[string]struct{}
}

type shortID struct {
	b [16]byte
	n uint8
}

func newIDSet() *idSet {
	return &idSet{eight: map[uint64]struct{}{}, short: map[shortID]struct{}{}, long: map[string]struct{}{}}
}

func (s *idSet) clear() {
	clear(s.eight)
	clear(s.short)
	clear(s.long)
}

func word8(id string) uint64 {
	_ = id[7]
	return uint64(id[0]) | uint64(id[1])<<8 | uint64(id[2])<<16 | uint64(id[3])<<24 |
		uint64(id[4])<<32 | uint64(id[5])<<40 | uint64(id[6])<<48 | uint64(id[7])<<56
}

// add adds id and reports whether it was new.
func (s *idSet) add(id string) bool {
	switch {
	case len(id) == 8:
		k := word8(id)
		if _, dup := s.eight[k]; dup {
			return false
		}
		s.eight[k] = struct{}{}
	case len(id) <= 16:
		var k shortID
		k.n = uint8(copy(k.b[:], id))
		if _, dup := s.short[k]; dup {
			return false
		}
		s.short[k] = struct{}{}
	default:
		if _, dup := s.long[id]; dup {
			return false
		}
		s.long[strings.Clone(id)] = struct{}{}
	}
	return true
}

func (s *idSet) remove(id string) {
	switch {
	case len(id) == 8:
		delete(s.eight, word8(id))
	case len(id) <= 16:
		var k shortID
		k.n = uint8(copy(k.b[:], id))
		delete(s.short, k)
	default:
		delete(s.long, id)
	}
}
