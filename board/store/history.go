package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"tele/atomicfile"
	"tele/board"
)

// history is what the store knows of a board's kept revisions, oldest..current. Its rows (for listing)
// cover base..current: Open knows only the newest revision's, every commit adds its own, and the first
// listing joins the older ones, read from the index (rowindex.go), so that they cover oldest..current.
type history struct {
	mu     sync.Mutex
	oldest int64      // the oldest kept revision; the newest is the entry's current board
	base   int64      // the revision of rows[0]; complete when base <= oldest
	rows   []Revision // rows[i] is revision base+i
	sizes  []int64    // sizes[i] is the size of revision oldest+i's file; changed only under the entry's mu
	bytes  int64      // the sum of sizes
}

// push adds the row of the revision just made current. The caller holds mu (or is Open).
func (h *history) push(r Revision) {
	if len(h.rows) == 0 {
		h.base = r.Revision
	}
	h.rows = append(h.rows, r)
}

// commitRevision makes revision b durable in dir as its own file (atomicfile.Create: revision files
// are created exclusively, never replaced), so a reader never sees a partial revision. A failure leaves
// dir as it was: when only the directory's sync failed, the revision is taken back, so that memory and
// disk agree on the revision the caller is told is current.
func (s *Store) commitRevision(dir string, b Board) error {
	target := filepath.Join(dir, revisionName(b.Revision))
	err := atomicfile.Create(target, boardFileBytes(b.JSON()), 0o600)
	if errors.As(err, new(*atomicfile.NotDurableError)) {
		if rmErr := os.Remove(target); rmErr != nil {
			s.log.Error("board: a failed write could not be taken back; the board's directory may hold the unacknowledged revision",
				"path", target, "err", unwrapPath(rmErr))
		} else if syncErr := atomicfile.SyncDir(dir); syncErr != nil {
			s.log.Warn("board: cannot sync a directory", "path", dir, "err", syncErr)
		}
	}
	return err
}

// makeBoardDir creates a board's directory (mode 0700) durably.
func (s *Store) makeBoardDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return atomicfile.SyncDir(filepath.Dir(dir))
}

// commit makes b, the next revision of board e, durable and current, prunes the history to the newest
// KeepRevisions and publishes b. The caller holds e.mu and has checked the revision.
func (s *Store) commit(e *entry, b Board) (Board, error) {
	b.raw = encodeBoard(b)
	size := int64(len(b.raw) + 1)
	if err := s.checkBytes(e, size); err != nil {
		return Board{}, err
	}
	if err := s.commitRevision(e.dir, b); err != nil {
		return Board{}, err
	}
	e.hist.mu.Lock()
	s.record(e, b, size)
	s.prune(e)
	e.hist.mu.Unlock()
	if s.opts.OnCommit != nil {
		s.opts.OnCommit(b)
	}
	return b, nil
}

// record makes b, durable on disk, board e's current revision and its history's newest row, and counts
// its bytes. The caller holds e.hist.mu.
func (s *Store) record(e *entry, b Board, size int64) {
	row := b.row()
	s.appendRow(e.dir, row)
	e.cur.Store(&b)
	e.hist.push(row)
	e.hist.sizes = append(e.hist.sizes, size)
	e.hist.bytes += size
	s.bytes.Add(size)
}

// prune removes the oldest revisions beyond KeepRevisions or KeepHistoryBytes, oldest first, so that
// an interruption leaves the kept revisions contiguous (Open removes what is older than a gap); the
// current revision stays. Removals need no fsync: one that a crash undoes is simply done again. The
// caller holds e.hist.mu.
func (s *Store) prune(e *entry) {
	newest := e.cur.Load().Revision
	for newest-e.hist.oldest+1 > KeepRevisions || e.hist.bytes > KeepHistoryBytes && e.hist.oldest < newest {
		path := filepath.Join(e.dir, revisionName(e.hist.oldest))
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			s.log.Warn("board: cannot remove an old revision; will retry at the next write", "path", path, "err", unwrapPath(err))
			return
		}
		if e.hist.oldest%rowsPerFile == 0 { // the last revision of its index file: the file goes too
			s.removeRowsFilesBefore(e.dir, e.hist.oldest+1, []int64{rowsFileOf(e.hist.oldest)})
		}
		e.hist.oldest++
		if len(e.hist.sizes) > 0 {
			e.hist.bytes -= e.hist.sizes[0]
			s.bytes.Add(-e.hist.sizes[0])
			e.hist.sizes = e.hist.sizes[1:]
		}
		for len(e.hist.rows) > 0 && e.hist.base < e.hist.oldest {
			e.hist.rows = e.hist.rows[1:]
			e.hist.base++
		}
	}
}

// readKept reads revision rev of board e, which the caller found as board id, from its file. Readers
// take no e.mu, so the board may have been deleted since it was found: that
// is ErrNotFound, as if the read came a moment later, not an I/O error. The deletion is seen as id no
// longer naming e (then a new board of the same id may have filled e's directory: nothing read from it
// is e's), or as a file missing because e's directory was renamed away (a deletion under way).
func (s *Store) readKept(id string, e *entry, rev int64) (Board, error) {
	b, err := readRevisionFile(e.dir, id, rev)
	if s.entry(id) != e {
		return Board{}, fmt.Errorf("%w: board %q was deleted", ErrNotFound, id)
	}
	if errors.Is(err, fs.ErrNotExist) {
		if _, statErr := os.Stat(e.dir); errors.Is(statErr, fs.ErrNotExist) {
			return Board{}, fmt.Errorf("%w: board %q is being deleted", ErrNotFound, id)
		}
	}
	return b, err
}

// MaxRevisionsPage is the most rows one call of Revisions returns.
const MaxRevisionsPage = 100

// Revisions returns up to limit (1..MaxRevisionsPage) rows of board id's history that are older than
// revision before (0: up to the current revision), oldest first: the last row is the newest. The slice
// is the store's own and is never changed: read only. next is the before of the following (older)
// page, 0 when there is none. Errors: ErrNotFound, or an I/O error reading the history the first time.
func (s *Store) Revisions(id string, before int64, limit int) (rows []Revision, next int64, err error) {
	e := s.entry(id)
	if e == nil {
		return nil, 0, ErrNotFound
	}
	return s.revisionsOf(id, e, before, limit)
}

func (s *Store) revisionsOf(id string, e *entry, before int64, limit int) (rows []Revision, next int64, err error) {
	limit = min(max(limit, 1), MaxRevisionsPage)
	if err := s.loadRows(id, e); errors.Is(err, ErrNotFound) {
		return nil, 0, err
	} else if err != nil {
		return nil, 0, fmt.Errorf("cannot read the history of board %q: %w", id, err)
	}
	if s.entry(id) != e {
		return nil, 0, fmt.Errorf("%w: board %q was deleted", ErrNotFound, id)
	}
	e.hist.mu.Lock()
	defer e.hist.mu.Unlock()
	oldest, newest, base := e.hist.oldest, e.cur.Load().Revision, e.hist.base
	top := newest
	if before > 0 {
		top = min(top, before-1)
	}
	if top < oldest {
		return []Revision{}, 0, nil
	}
	bottom := max(top-int64(limit)+1, oldest)
	if bottom > oldest {
		next = bottom
	}
	// A commit appends past the end and a prune drops from the front; neither writes an element of
	// this window, so it can be handed out without a copy.
	rows = e.hist.rows[bottom-base : top-base+1 : top-base+1]
	return rows, next, nil
}

// GetRevision returns revision rev of board id as it was committed. Errors: ErrNotFound,
// ErrRevisionNotFound (never written, or pruned), or an I/O error.
func (s *Store) GetRevision(id string, rev int64) (Board, error) {
	e := s.entry(id)
	if e == nil {
		return Board{}, ErrNotFound
	}
	return s.revisionOf(id, e, rev)
}

func (s *Store) revisionOf(id string, e *entry, rev int64) (Board, error) {
	if cur := e.cur.Load(); rev == cur.Revision {
		return *cur, nil
	}
	if oldest, newest := s.oldestOf(e), e.cur.Load().Revision; rev < oldest || rev > newest {
		return Board{}, fmt.Errorf("%w: board %q has revisions %d to %d", ErrRevisionNotFound, id, oldest, newest)
	}
	// No lock while the file is read: commits go on; a prune may remove the file meanwhile.
	b, err := s.readKept(id, e, rev)
	if errors.Is(err, fs.ErrNotExist) && rev < s.oldestOf(e) {
		return Board{}, fmt.Errorf("%w: board %q pruned revision %d", ErrRevisionNotFound, id, rev)
	}
	if errors.Is(err, ErrNotFound) {
		return Board{}, err
	} else if err != nil {
		return Board{}, fmt.Errorf("cannot read revision %d of board %q: %w", rev, id, err)
	}
	return b, nil
}

// Restore makes the content of revision from the new revision of board id, which must be at
// expectedRevision: a write by author whose RestoredFrom is from. Errors as Put, plus
// ErrRevisionNotFound when from is not kept. A failed Restore changes nothing.
func (s *Store) Restore(id string, expectedRevision, from int64, author Author) (Board, error) {
	if !author.Valid() {
		return Board{}, fmt.Errorf("board: invalid author %q", author)
	}
	return s.writeAt(id, expectedRevision, func(e *entry, cur *Board) (Board, error) {
		src, err := s.revisionOf(id, e, from)
		if err != nil {
			return Board{}, err
		}
		c, err := board.Storable(src.Content)
		if err != nil {
			return Board{}, err
		}
		b, err := s.commit(e, Board{ID: id, Revision: cur.Revision + 1, Content: c, UpdatedAt: s.stamp(), Author: author, RestoredFrom: from})
		return committed(id, b, err)
	})
}
