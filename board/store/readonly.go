package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"tele/board"
)

// The readers in this file take no lock: they only read files, change nothing, and work while a
// server owns the data directory (for `tele board link` and `tele board history`). They rely on what
// the store guarantees of every name it makes visible: a revision file is complete when it appears
// and never changes afterwards; it may only disappear, oldest first, when pruned.

// boardExists reports ErrNotFound unless data directory dir holds board id, in this version's layout
// or the previous one's (boards/<id>.json, which the next Open migrates), under exactly that name: on
// a file system that ignores case (macOS, Windows) boards/Foo would open boards/foo.
func boardExists(dir, id string) error {
	boards := filepath.Join(dir, "boards")
	names, err := exactNames(boards, id, id+".json")
	if err != nil {
		return fmt.Errorf("cannot read board %q in %s: %v", id, dir, unwrapPath(err))
	}
	if !names[id] && !names[id+".json"] {
		return fmt.Errorf("%w: no board %q in %s", ErrNotFound, id, dir)
	}
	rd, err := scanRevisionDir(filepath.Join(boards, id))
	switch {
	case err == nil && rd.newest > 0:
		return nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot read board %q in %s: %v", id, dir, unwrapPath(err))
	}
	if _, err := os.Stat(filepath.Join(dir, "boards", id+".json")); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: no board %q in %s", ErrNotFound, id, dir)
	} else if err != nil {
		return fmt.Errorf("cannot read board %q in %s: %v", id, dir, unwrapPath(err))
	}
	return nil
}

// ReadHistory returns up to limit of the newest revisions of board id in data directory dir, newest
// first, without taking the lock. A board in the previous version's layout has one revision, by Tele.
// A board that does not exist is ErrNotFound; a missing data directory is an fs.ErrNotExist error
// naming it; a damaged revision file is an error naming the file.
func ReadHistory(dir, id string, limit int) ([]Revision, error) {
	if !board.ValidID(id) {
		return nil, fmt.Errorf("%w %q", ErrInvalidID, id)
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("data directory %s: %w", dir, unwrapPath(err))
	}
	if err := boardExists(dir, id); err != nil {
		return nil, err // under exactly this id
	}
	boardDir := filepath.Join(dir, "boards", id)
	rd, err := scanRevisionDir(boardDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot read board %q in %s: %v", id, dir, unwrapPath(err))
	}
	if rd.newest == 0 {
		b, err := readBoardFile(filepath.Join(dir, "boards", id+".json"), id, true)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: no board %q in %s", ErrNotFound, id, dir)
		}
		if err != nil {
			return nil, err
		}
		b.Author = AuthorTele
		return []Revision{b.row()}, nil
	}
	var rows []Revision
	for rev := rd.newest; rev >= rd.oldest && len(rows) < limit; rev-- {
		b, err := readRevisionFile(boardDir, id, rev)
		if errors.Is(err, fs.ErrNotExist) {
			break // pruned while we read: so are all older ones
		}
		if err != nil {
			return nil, err
		}
		rows = append(rows, b.row())
	}
	return rows, nil
}

// exactNames reports which of names directory dir holds under exactly that name, whatever case the
// file system ignores: a lookup by path on macOS or Windows finds "foo" for "Foo", a listing does not.
// A missing dir holds none.
func exactNames(dir string, names ...string) (map[string]bool, error) {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	found := make(map[string]bool, len(names))
	for _, e := range entries {
		for _, n := range names {
			if e.Name() == n {
				found[n] = true
			}
		}
	}
	return found, nil
}
