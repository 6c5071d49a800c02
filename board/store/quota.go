package store

import (
	"fmt"
	"strconv"

	"tele/board"
)

// The server-wide quota bounds what a local process can make the store keep: boards, and bytes of
// revision files (nearly all of the data directory). Its defaults are far above what a songbook needs
// (a board of 4 KB with its whole history of 1,000 revisions is 4 MB), so only a runaway or hostile
// writer meets it. A board's own history is bounded too: KeepRevisions revisions, and KeepHistoryBytes.
const (
	DefaultMaxBoards = 10_000
	DefaultMaxBytes  = 4 << 30
	// KeepHistoryBytes is how many bytes of revision files one board keeps at most (the current
	// revision is always kept): its oldest revisions are pruned beyond it, as beyond KeepRevisions.
	KeepHistoryBytes = 32 << 20
)

// Quota is the server-wide limit of the store (SetQuota).
type Quota struct {
	MaxBoards int   // boards in all
	MaxBytes  int64 // bytes of revision files in all
}

// QuotaError is a write refused because the store would go over its quota.
type QuotaError struct {
	Boards bool  // the limit is the number of boards (else the bytes)
	Limit  int64 // the limit that was met
}

func (e *QuotaError) Error() string {
	if e.Boards {
		return "board: the server holds its limit of " + strconv.FormatInt(e.Limit, 10) + " boards"
	}
	return "board: the server's boards take its limit of " + strconv.FormatInt(e.Limit, 10) + " bytes"
}

// SetQuota sets the store's quota (both numbers at least 1). Boards already over it stay; new ones
// and growth are refused.
func (s *Store) SetQuota(q Quota) error {
	if q.MaxBoards < 1 || q.MaxBytes < 1 {
		return fmt.Errorf("board: invalid quota %+v", q)
	}
	s.maxBoards.Store(int64(q.MaxBoards))
	s.maxBytes.Store(q.MaxBytes)
	return nil
}

// Bytes returns the bytes of revision files the store keeps now.
func (s *Store) Bytes() int64 { return s.bytes.Load() }

// checkQuota refuses n new boards of contents when they would take the store over its quota (their
// revision files estimated from the contents' size). The caller holds createMu.
func (s *Store) checkQuota(n int, contents []board.Content) error {
	s.mu.RLock()
	count := len(s.boards)
	s.mu.RUnlock()
	if max := s.maxBoards.Load(); int64(count+n) > max {
		return &QuotaError{Boards: true, Limit: max}
	}
	var want int64
	for _, c := range contents {
		want += int64(board.EncodedLen(c) + revisionOverhead)
	}
	if max := s.maxBytes.Load(); s.bytes.Load()+want > max {
		return &QuotaError{Limit: max}
	}
	return nil
}

// revisionOverhead bounds what a revision file adds to its content's encoding.
const revisionOverhead = len(`{"id":"","revision":-9223372036854775808,"content":,"updatedAt":"2006-01-02T15:04:05.000Z","author":"browser","restoredFrom":-9223372036854775808}`) + 64 + 1

// checkBytes refuses a commit of size bytes to board e when it would take the store over its quota,
// counting what its prune will free. The caller holds e.mu. (Commits to other boards may pass the check
// at the same moment: the quota may be passed by a few revisions, never more.)
func (s *Store) checkBytes(e *entry, size int64) error {
	grow := size - e.hist.prunable(size)
	if max := s.maxBytes.Load(); grow > 0 && s.bytes.Load()+grow > max {
		return &QuotaError{Limit: max}
	}
	return nil
}

// prunable is how many bytes the prune after a commit of size bytes will remove from h. The caller
// holds the entry's e.mu (sizes change only under it).
func (h *history) prunable(size int64) int64 {
	count, total := int64(len(h.sizes))+1, h.bytes+size
	var freed int64
	for _, sz := range h.sizes {
		if count <= KeepRevisions && total <= KeepHistoryBytes {
			break
		}
		count, total, freed = count-1, total-sz, freed+sz
	}
	return freed
}

// FitsQuota returns a *QuotaError when the boards items would take the store over its quota, for a
// caller that checks everything before spending anything (an import); CreateAll checks again under its
// lock.
func (s *Store) FitsQuota(items []NewBoard) error {
	contents := make([]board.Content, len(items))
	for i, it := range items {
		contents[i] = it.Content
	}
	return s.checkQuota(len(items), contents)
}
