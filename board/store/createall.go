package store

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"tele/atomicfile"
	"tele/board"
)

// A creation of many boards (an import) pays for its durability once per step, not once per board: a
// board needs its capability file, its directory and its first revision durable, and an fsync costs a
// journal commit, which the file system shares among the fsyncs that wait for it at the same moment.
// So makeBoards writes every file of every board first, then syncs them together, and moves them into
// place in the order a single creation keeps:
//
//  1. every board's directory is made, and every capability and first revision written to a temporary
//     file beside its name and synced (syncWorkers at a time);
//  2. every capability is renamed into caps/, and caps/ and boards/ are synced once: from here on every
//     capability lasts, and so do the directories;
//  3. every first revision is hard-linked to its name (exclusively, as any revision) and every board's
//     directory synced (syncWorkers at a time);
//  4. only then is any board put in memory and published.
//
// A crash at any moment leaves what a crash inside single creations leaves: temporary files, empty
// directories and capabilities without a board, which Open removes, and whole boards, each with its
// capability (a revision is never linked before every capability of the call lasts). A failure takes
// back everything the call wrote, the revisions before their capabilities.

// syncWorkers bounds the files or directories one creation syncs at the same time.
const syncWorkers = 16

// newBoard is one board of makeBoards on its way to disk.
type newBoard struct {
	id, capability string
	e              *entry
	b              Board
	dirMade        bool
	capTmp, revTmp string // temporary files not yet placed or removed
	capPlaced      bool
	revPlaced      bool
}

// makeBoards writes boards ids with contents, by author, durably, and returns them with their entries,
// not yet in the store. The caller holds createMu and has checked the ids and the quota.
func (s *Store) makeBoards(ids []string, contents []board.Content, author Author) ([]Made, []*entry, error) {
	nb := make([]newBoard, len(ids))
	for i, id := range ids {
		capability := NewCapability()
		e := &entry{dir: filepath.Join(s.boardsDir, id)}
		e.setKey(capability)
		e.hist.oldest = 1
		b := Board{ID: id, Revision: 1, Content: contents[i], UpdatedAt: s.stamp(), Author: author}
		b.raw = encodeBoard(b)
		nb[i] = newBoard{id: id, capability: capability, e: e, b: b}
	}
	if err := s.writeNewBoards(nb); err != nil {
		s.takeBack(nb)
		return nil, nil, err
	}
	made := make([]Made, len(nb))
	entries := make([]*entry, len(nb))
	for i := range nb {
		e, b := nb[i].e, nb[i].b
		e.mu.Lock() // so that OnCommit of revision 1 precedes any later revision's
		e.hist.mu.Lock()
		s.record(e, b, int64(len(b.raw)+1))
		e.hist.mu.Unlock()
		if s.opts.OnCommit != nil {
			s.opts.OnCommit(b)
		}
		e.mu.Unlock()
		made[i], entries[i] = Made{b, nb[i].capability}, e
	}
	return made, entries, nil
}

// writeNewBoards runs steps 1 to 3 above, recording in nb what it made for takeBack.
func (s *Store) writeNewBoards(nb []newBoard) error {
	for i := range nb {
		if err := os.Mkdir(nb[i].e.dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("cannot create board %q: %w", nb[i].id, err)
		}
		nb[i].dirMade = true
	}
	// One board (a single creation) is written on the caller's goroutine: its two files gain little
	// from goroutines of their own.
	workers := syncWorkers
	if len(nb) == 1 {
		workers = 1
	}
	err := inParallel(2*len(nb), workers, func(j int) error {
		n := &nb[j/2]
		if j%2 == 0 {
			tmp, err := writeSyncedTemp(filepath.Join(s.capsDir, n.id), []byte(n.capability))
			n.capTmp = tmp
			return err
		}
		tmp, err := writeSyncedTemp(filepath.Join(n.e.dir, revisionName(1)), boardFileBytes(n.b.JSON()))
		n.revTmp = tmp
		return err
	})
	if err != nil {
		return err
	}
	for i := range nb {
		n := &nb[i]
		if err := os.Rename(n.capTmp, filepath.Join(s.capsDir, n.id)); err != nil {
			return fmt.Errorf("cannot create board %q: %w", n.id, err)
		}
		n.capTmp, n.capPlaced = "", true
	}
	for _, dir := range []string{s.capsDir, s.boardsDir} {
		if err := atomicfile.SyncDir(dir); err != nil {
			return fmt.Errorf("cannot create boards: %w", err)
		}
	}
	for i := range nb {
		n := &nb[i]
		if err := os.Link(n.revTmp, filepath.Join(n.e.dir, revisionName(1))); err != nil {
			return fmt.Errorf("cannot create board %q: %w", n.id, err)
		}
		n.revPlaced = true
		if os.Remove(n.revTmp) == nil {
			n.revTmp = ""
		}
	}
	return inParallel(len(nb), workers, func(i int) error {
		if err := atomicfile.SyncDir(nb[i].e.dir); err != nil {
			return fmt.Errorf("cannot create board %q: %w", nb[i].id, err)
		}
		return nil
	})
}

// takeBack removes what writeNewBoards made of nb before it failed: the boards' directories first,
// renamed away as a deletion does (so that a crash half way leaves at most capabilities without a
// board, which the next Open removes), then the capabilities.
func (s *Store) takeBack(nb []newBoard) {
	var tombs []string
	for i := range nb {
		n := &nb[i]
		if !n.dirMade {
			continue
		}
		if !n.revPlaced {
			if n.revTmp != "" {
				s.removeFile(n.revTmp)
			}
			s.removeFile(n.e.dir)
			continue
		}
		tomb := filepath.Join(s.boardsDir, tombstonePrefix+n.id+"-"+strings.ToLower(rand.Text()[:8]))
		if err := os.Rename(n.e.dir, tomb); err != nil {
			s.log.Warn("board: cannot remove a board not created", "board", n.id, "err", unwrapPath(err))
			continue
		}
		tombs = append(tombs, tomb)
	}
	s.syncDir(s.boardsDir)
	for i := range nb {
		if n := &nb[i]; n.capTmp != "" {
			s.removeFile(n.capTmp)
		} else if n.capPlaced {
			s.removeFile(filepath.Join(s.capsDir, n.id))
		}
	}
	s.syncDir(s.capsDir)
	for _, tomb := range tombs {
		s.removeTombstone(tomb)
	}
}

// removeFile removes a file (or an empty directory) of a creation that failed, saying so when it cannot.
func (s *Store) removeFile(path string) {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("board: cannot remove a file of a board not created", "path", path, "err", unwrapPath(err))
	}
}

// syncDir syncs dir after a removal, best effort: Open removes again whatever a crash brings back.
func (s *Store) syncDir(dir string) {
	if err := atomicfile.SyncDir(dir); err != nil {
		s.log.Warn("board: cannot sync a directory", "path", dir, "err", err)
	}
}

// writeSyncedTemp writes data (mode 0600) to a new temporary file beside path, with the name
// atomicfile gives its own, syncs and closes it, and returns its name; on failure the file is gone.
func writeSyncedTemp(path string, data []byte) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if rmErr := os.Remove(f.Name()); rmErr != nil {
			err = errors.Join(err, fmt.Errorf("the temporary file stays behind: %w", rmErr))
		}
		return "", err
	}
	return f.Name(), nil
}

// inParallel runs do(0) … do(n-1) on at most workers goroutines, which all end before it returns, and
// returns the error of the lowest i that failed. With one worker it runs them in order on the caller's
// goroutine.
func inParallel(n, workers int, do func(i int) error) error {
	errs := make([]error, n)
	if workers <= 1 {
		for i := range n {
			errs[i] = do(i)
		}
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range min(n, workers) {
			wg.Go(func() {
				for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
					errs[i] = do(i)
				}
			})
		}
		wg.Wait()
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
