package board

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"tele/atomicfile"
)

// history is what the store knows of a board's kept revisions, oldest..current. Its rows (for listing)
// are read from the revision files the first time someone asks, then kept up to date by every commit:
// Open reads only the newest revision of each board.
type history struct {
	mu     sync.Mutex
	oldest int64      // the oldest kept revision; the newest is the entry's current board
	rows   []Revision // rows[i] is revision oldest+i; nil until loaded
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
	if err := s.commitRevision(e.dir, b); err != nil {
		return Board{}, err
	}
	e.hist.mu.Lock()
	e.cur.Store(&b)
	if e.hist.rows != nil {
		e.hist.rows = append(e.hist.rows, b.row())
	}
	s.prune(e)
	e.hist.mu.Unlock()
	if s.opts.OnCommit != nil {
		s.opts.OnCommit(b)
	}
	return b, nil
}

// prune removes the oldest revisions beyond KeepRevisions, oldest first, so that an interruption leaves
// the kept revisions contiguous (Open removes what is older than a gap). Removals need no fsync: one
// that a crash undoes is simply done again. The caller holds e.hist.mu.
func (s *Store) prune(e *entry) {
	newest := e.cur.Load().Revision
	for newest-e.hist.oldest+1 > KeepRevisions {
		path := filepath.Join(e.dir, revisionName(e.hist.oldest))
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			s.log.Warn("board: cannot remove an old revision; will retry at the next write", "path", path, "err", unwrapPath(err))
			return
		}
		e.hist.oldest++
		if e.hist.rows != nil {
			e.hist.rows = e.hist.rows[1:]
		}
	}
}

// loadRows reads the rows of board e's history from its files, once. The caller holds e.hist.mu, so
// no commit adds or prunes a revision meanwhile.
func (s *Store) loadRows(id string, e *entry) error {
	if e.hist.rows != nil {
		return nil
	}
	cur := e.cur.Load()
	rows := make([]Revision, 0, cur.Revision-e.hist.oldest+1)
	for rev := e.hist.oldest; rev < cur.Revision; rev++ {
		b, err := s.readKept(id, e, rev)
		if err != nil {
			return err
		}
		rows = append(rows, b.row())
	}
	e.hist.rows = append(rows, cur.row())
	return nil
}

// readKept reads revision rev of board e, which the caller found as board id and holds e.hist.mu
// of, from its file. Readers take no e.mu, so the board may have been deleted since it was found: that
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
	e.hist.mu.Lock()
	defer e.hist.mu.Unlock()
	if err := s.loadRows(id, e); errors.Is(err, ErrNotFound) {
		return nil, 0, err
	} else if err != nil {
		return nil, 0, fmt.Errorf("cannot read the history of board %q: %w", id, err)
	}
	oldest, newest := e.hist.oldest, e.cur.Load().Revision
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
	rows = e.hist.rows[bottom-oldest : top-oldest+1 : top-oldest+1]
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
	e.hist.mu.Lock() // so that no prune removes the file while it is read
	defer e.hist.mu.Unlock()
	if rev < e.hist.oldest || rev > e.cur.Load().Revision {
		return Board{}, fmt.Errorf("%w: board %q has revisions %d to %d", ErrRevisionNotFound, id, e.hist.oldest, e.cur.Load().Revision)
	}
	b, err := s.readKept(id, e, rev)
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
		c, err := storable(src.Content)
		if err != nil {
			return Board{}, err
		}
		b, err := s.commit(e, Board{ID: id, Revision: cur.Revision + 1, Content: c, UpdatedAt: s.stamp(), Author: author, RestoredFrom: from})
		return committed(id, b, err)
	})
}
