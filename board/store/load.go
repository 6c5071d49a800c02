package store

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"tele/atomicfile"
	"tele/board"
	"tele/strict"
)

// load reads the data directory at Open: every board's directory with its newest revision, the
// capabilities, and the boards of the previous version's layout, which it moves into the new one.
// It finishes or undoes what a crash interrupted: temporary files, a creation that never wrote its
// first revision, a prune that stopped half way, a migration that stopped half way.
//
// Its cognitive complexity is over the lint gate of 30, and accepted: each way a data directory can be
// damaged is one branch, each covered by TestOpenSetsAsideDamagedBoards.
//
//gocognit:ignore
func (s *Store) load() error {
	for _, d := range []string{s.boardsDir, s.capsDir} {
		if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("cannot create %s: %v", d, unwrapPath(err))
		}
		fi, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("cannot read %s: %v", d, unwrapPath(err))
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s is not a directory", d)
		}
		if fi.Mode().Perm() != 0o700 {
			if err := os.Chmod(d, 0o700); err != nil {
				return fmt.Errorf("cannot make %s private (mode 0700): %v", d, unwrapPath(err))
			}
		}
	}
	ents, err := os.ReadDir(s.boardsDir)
	if err != nil {
		return fmt.Errorf("cannot read %s: %v", s.boardsDir, unwrapPath(err))
	}
	var legacy []string // ids of boards/<id>.json, the previous version's layout
	for _, de := range ents {
		name := de.Name()
		path := filepath.Join(s.boardsDir, name)
		id, isJSON := strings.CutSuffix(name, ".json")
		switch {
		case atomicfile.IsTemp(name):
			s.removeStray(path)
		case isTombstone(name):
			s.removeTombstone(path) // a deletion interrupted after the board was gone
		case de.IsDir() && board.ValidID(name):
			e, err := s.loadBoardDir(name)
			if err != nil {
				if err := s.setAsideBoard(name, err); err != nil {
					return err
				}
				continue
			}
			if e != nil {
				s.boards[name] = e
			}
		case de.Type().IsRegular() && isJSON && board.ValidID(id):
			legacy = append(legacy, id)
		default:
			s.log.Warn("board: ignoring an unexpected entry in the boards directory", "path", path)
		}
	}
	if err := s.setAsideCaseTwins(); err != nil {
		return err
	}
	for _, id := range legacy {
		if err := s.migrate(id); err != nil {
			return err
		}
	}
	caps, err := os.ReadDir(s.capsDir)
	if err != nil {
		return fmt.Errorf("cannot read %s: %v", s.capsDir, unwrapPath(err))
	}
	for _, de := range caps {
		name := de.Name()
		path := filepath.Join(s.capsDir, name)
		switch e := s.boards[name]; {
		case atomicfile.IsTemp(name):
			s.removeStray(path)
		case !de.Type().IsRegular() || !board.ValidID(name):
			s.log.Warn("board: ignoring an unexpected entry in the capabilities directory", "path", path)
		case e == nil:
			// A creation interrupted before its first revision: no board to open.
			s.removeStray(path)
		default:
			c, err := readCapabilityFile(path)
			if err != nil {
				// Set aside; the loop below makes the board a new one, as for a missing file.
				if err := s.setAside(name, SetAsideCapability, 0, err, move{path, "capability"}); err != nil {
					return err
				}
				continue
			}
			e.setKey(c)
		}
	}
	for id, e := range s.boards {
		if e.key() != "" {
			continue
		}
		c := NewCapability()
		if err := atomicfile.Replace(filepath.Join(s.capsDir, id), []byte(c), 0o600); err != nil {
			return fmt.Errorf("board %q has no capability file and a new one cannot be written: %v", id, err)
		}
		e.setKey(c)
		s.log.Warn("board: capability file was missing; made a new one (old edit links stop working)", "board", id)
	}
	return nil
}

// loadBoardDir reads board id's directory: its newest revision becomes the current board. A directory
// without any revision is a creation that never committed: it is removed and nil returned.
func (s *Store) loadBoardDir(id string) (*entry, error) {
	dir := filepath.Join(s.boardsDir, id)
	rd, err := scanRevisionDir(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", dir, unwrapPath(err))
	}
	for _, name := range rd.temps {
		s.removeStray(filepath.Join(dir, name))
	}
	for _, name := range rd.other {
		s.log.Warn("board: ignoring an unexpected entry in a board's directory", "path", filepath.Join(dir, name))
	}
	if rd.newest == 0 {
		if len(rd.other) == 0 {
			s.removeStray(dir)
		}
		return nil, nil
	}
	for _, rev := range rd.stale {
		// Older than a gap in the history: what an interrupted prune left behind.
		s.removeStray(filepath.Join(dir, revisionName(rev)))
	}
	b, err := s.newestReadable(id, dir, rd)
	if err != nil {
		return nil, err
	}
	e := &entry{dir: dir}
	e.cur.Store(&b)
	e.hist.oldest = rd.oldest
	for rev := rd.oldest; rev <= b.Revision; rev++ {
		e.hist.sizes = append(e.hist.sizes, rd.sizes[rev])
		e.hist.bytes += rd.sizes[rev]
	}
	s.bytes.Add(e.hist.bytes) // the prune below takes back what it removes
	e.hist.push(b.row())
	s.removeRowsFilesBefore(dir, rd.oldest, rd.rows)
	// Kills between a commit and its prune can leave more than KeepRevisions; trim them now, so the
	// history is bounded however often a writer was interrupted.
	e.hist.mu.Lock()
	s.prune(e)
	e.hist.mu.Unlock()
	return e, nil
}

// newestReadable returns the newest revision of board id that can be read. The newer ones that cannot
// are set aside, each on its own; when none can be read, the error is the newest's, and the caller
// sets the whole board aside.
func (s *Store) newestReadable(id, dir string, rd revisionDir) (Board, error) {
	var errs []error
	for rev := rd.newest; rev >= rd.oldest; rev-- {
		b, err := readRevisionFile(dir, id, rev)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for i, err := range errs {
			bad := rd.newest - int64(i)
			if err := s.setAside(id, SetAsideRevision, bad, err, move{filepath.Join(dir, revisionName(bad)), revisionName(bad)}); err != nil {
				return Board{}, err
			}
		}
		return b, nil
	}
	return Board{}, errs[0]
}

// setAsideBoard sets board id aside whole (its directory and its capability file) because of err. The
// capability goes first: a crash before the directory follows leaves the board to be set aside again at
// the next start, while the other order would leave a capability without a board, which Open removes.
func (s *Store) setAsideBoard(id string, err error) error {
	return s.setAside(id, SetAsideBoard, 0, err, move{filepath.Join(s.capsDir, id), "capability"}, move{filepath.Join(s.boardsDir, id), "board"})
}

// setAsideCaseTwins keeps one board of ids that differ only in case (a data directory of an earlier
// Tele on a case-sensitive file system): the one whose id sorts first by bytes ("Song" before "song")
// stays, the others are set aside. On macOS and Windows such ids name the same files.
func (s *Store) setAsideCaseTwins() error {
	first := make(map[string]string, len(s.boards))
	for _, id := range slices.Sorted(maps.Keys(s.boards)) {
		k := strings.ToLower(id)
		if kept, ok := first[k]; ok {
			s.bytes.Add(-s.boards[id].hist.bytes)
			delete(s.boards, id)
			if err := s.setAsideBoard(id, fmt.Errorf("its id differs only in case from board %q, which is kept: on macOS and Windows both would be the same files", kept)); err != nil {
				return err
			}
			continue
		}
		first[k] = id
	}
	return nil
}

// migrate moves board id from the previous version's layout (boards/<id>.json, the current revision
// only) into its directory, as a revision written by Tele with the same number, content and time. The
// revision is committed before the old file is removed, so a crash in between leaves both, and the next
// Open removes the old file. An old file beside a history that does not end with it (an older Tele ran
// on the directory after a newer one) is kept as the history's next revision: nothing is lost.
func (s *Store) migrate(id string) error {
	old := filepath.Join(s.boardsDir, id+".json")
	b, err := readBoardFile(old, id, true)
	if err != nil {
		return s.setAside(id, SetAsideBoard, 0, err, move{old, id + ".json"})
	}
	if twin := s.caseTwin(id); twin != "" {
		return s.setAside(id, SetAsideBoard, 0, fmt.Errorf("its id differs only in case from board %q, which is kept: on macOS and Windows both would be the same files", twin), move{old, id + ".json"})
	}
	b.Author = AuthorTele
	e := s.boards[id]
	switch {
	case e == nil:
		e = &entry{dir: filepath.Join(s.boardsDir, id)}
		if err := s.makeBoardDir(e.dir); err != nil {
			return fmt.Errorf("cannot move board %q to the new layout: %w", id, err)
		}
		e.hist.oldest = b.Revision
	case e.cur.Load().Revision == b.Revision:
		s.removeStray(old) // the migration was interrupted after its revision was committed
		return nil
	default:
		b.Revision = e.cur.Load().Revision + 1
	}
	b.raw = encodeBoard(b)
	if err := s.commitRevision(e.dir, b); err != nil {
		return fmt.Errorf("cannot move board %q to the new layout: %w", id, err)
	}
	e.cur.Store(&b)
	e.hist.push(b.row())
	size := int64(len(b.raw) + 1)
	e.hist.sizes = append(e.hist.sizes, size)
	e.hist.bytes += size
	s.bytes.Add(size)
	s.boards[id] = e
	if err := os.Remove(old); err != nil {
		return fmt.Errorf("board %q was moved to %s but its old file cannot be removed: %v", id, e.dir, unwrapPath(err))
	}
	if err := atomicfile.SyncDir(s.boardsDir); err != nil {
		return fmt.Errorf("cannot sync %s: %v", s.boardsDir, err)
	}
	s.log.Info("board: moved a board to the layout that keeps its history", "board", id, "revision", b.Revision)
	return nil
}

func (s *Store) removeStray(path string) {
	if err := os.Remove(path); err != nil {
		s.log.Warn("board: cannot remove a leftover file", "path", path, "err", unwrapPath(err))
		return
	}
	s.log.Info("board: removed a leftover file of an interrupted write", "path", path)
}

// readBoardFile reads and checks one board file strictly: a revision file, or with legacy a board file
// of the previous version, which has no author and no restoredFrom.
func readBoardFile(path, id string, legacy bool) (Board, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Board{}, fmt.Errorf("cannot read board file %s: %w", path, unwrapPath(err))
	}
	var in boardFileIn
	if err := strict.Decode(data, &in); err != nil {
		return Board{}, fmt.Errorf("board file %s is damaged: %v", path, err)
	}
	if in.ID != id {
		return Board{}, fmt.Errorf("board file %s holds board %q, not %q", path, in.ID, id)
	}
	if in.Revision < 1 {
		return Board{}, fmt.Errorf("board file %s has revision %d; revisions start at 1", path, in.Revision)
	}
	if in.Content == nil {
		return Board{}, fmt.Errorf("board file %s has no content", path)
	}
	t, err := time.Parse(time.RFC3339Nano, in.UpdatedAt)
	if err != nil {
		return Board{}, fmt.Errorf("board file %s: updatedAt %q is not an RFC 3339 time", path, in.UpdatedAt)
	}
	b := Board{ID: id, Revision: in.Revision, UpdatedAt: t.UTC()}
	switch {
	case legacy && (in.Author != nil || in.RestoredFrom != nil):
		return Board{}, fmt.Errorf("board file %s has an author: it is not a board file of the previous version", path)
	case legacy:
	case in.Author == nil || !Author(*in.Author).Valid():
		return Board{}, fmt.Errorf("board file %s has no valid author: want browser, pi or tele", path)
	case in.RestoredFrom != nil && (*in.RestoredFrom < 1 || *in.RestoredFrom >= in.Revision):
		return Board{}, fmt.Errorf("board file %s: restoredFrom %d is not an earlier revision", path, *in.RestoredFrom)
	default:
		b.Author = Author(*in.Author)
		if in.RestoredFrom != nil {
			b.RestoredFrom = *in.RestoredFrom
		}
		if in.Proposal != nil {
			if !validProposalID(*in.Proposal) {
				return Board{}, fmt.Errorf("board file %s: proposal %q is not a proposal id", path, *in.Proposal)
			}
			b.Proposal = *in.Proposal
		}
	}
	c, err := board.ParseStored(in.Content)
	if err != nil {
		return Board{}, fmt.Errorf("board file %s: %v", path, err)
	}
	b.Content = c
	b.raw = encodeBoard(b)
	return b, nil
}
