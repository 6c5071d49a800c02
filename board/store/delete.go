package store

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"tele/atomicfile"
)

// Deleting a board removes its directory (every kept revision) and its capability. The directory is
// first renamed to a tombstone, boards/.deleted-<id>-<random>, and boards/ fsynced: that rename is the
// moment the board is gone, atomically, whatever happens next. Then the capability file goes, then the
// tombstone is removed file by file. A crash after the rename leaves a tombstone, which Open removes
// and never lists (a board id never starts with "."), and perhaps the capability file, which Open
// already removes as a capability without a board. A crash before it leaves the board as it was.

// tombstonePrefix starts the name of a deleted board's directory until it is removed.
const tombstonePrefix = ".deleted-"

// isTombstone reports whether name, in the boards directory, is a deleted board's directory.
func isTombstone(name string) bool { return strings.HasPrefix(name, tombstonePrefix) }

// Delete removes board id, which must be at expectedRevision, with its whole history and its
// capability, durably. Errors: ErrNotFound, *ConflictError (with the current revision), ErrClosed, or
// an I/O error before the board was gone, after which it is as it was. Later writes to the board are
// ErrNotFound; a new board may take its id at once.
func (s *Store) Delete(id string, expectedRevision int64) error {
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return ErrClosed
	}
	// Held like Create holds it, so a creation of the same id cannot write its capability file between
	// this board leaving the map and its capability file being removed.
	s.createMu.Lock()
	defer s.createMu.Unlock()
	e := s.entry(id)
	if e == nil {
		return ErrNotFound
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if cur := e.cur.Load(); cur.Revision != expectedRevision {
		return &ConflictError{Current: cur.Revision}
	}
	tomb := filepath.Join(s.boardsDir, tombstonePrefix+id+"-"+strings.ToLower(rand.Text()[:8]))
	if err := os.Rename(e.dir, tomb); err != nil {
		return fmt.Errorf("cannot delete board %q: %v", id, unwrapPath(err))
	}
	if err := atomicfile.SyncDir(s.boardsDir); err != nil {
		// The rename may not be durable: put the directory back, so that memory and disk agree that the
		// board is still there.
		if rbErr := os.Rename(tomb, e.dir); rbErr != nil {
			s.log.Error("board: a failed deletion could not be undone; the board is gone from disk", "board", id, "err", unwrapPath(rbErr))
		} else {
			return fmt.Errorf("cannot delete board %q: %v", id, err)
		}
	}
	e.deleted = true    // writers waiting for e.mu find the board gone
	s.claims.forget(id) // a board made later under this id is another board
	s.bytes.Add(-e.hist.bytes)
	s.mu.Lock()
	delete(s.boards, id)
	s.mu.Unlock()
	// The board is gone; what is left is clean-up that the next Open finishes if it stops half way.
	if err := os.Remove(filepath.Join(s.capsDir, id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("board: cannot remove a deleted board's capability file", "board", id, "err", unwrapPath(err))
	} else if err := atomicfile.SyncDir(s.capsDir); err != nil {
		s.log.Warn("board: cannot sync a directory", "path", s.capsDir, "err", err)
	}
	s.removeTombstone(tomb)
	return nil
}

// removeTombstone removes a deleted board's directory and everything in it (best effort: the next
// Open tries again).
func (s *Store) removeTombstone(path string) {
	if err := os.RemoveAll(path); err != nil {
		s.log.Warn("board: cannot remove a deleted board's files", "path", path, "err", unwrapPath(err))
	}
}
