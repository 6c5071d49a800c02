package setlist

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"tele/atomicfile"
	"tele/board"
	"tele/board/store"
)

// ReadAll returns every set kept in data directory dir, sorted by id, without taking the lock (for
// `tele set list`, which works while a server runs): it only reads files, each replaced whole by a
// rename, so it finds every set as it was or as it became. No sets yet is an empty list; a missing data
// directory is an fs.ErrNotExist error naming it.
func ReadAll(dir string) ([]Set, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("data directory %s: %w", dir, unwrapPath(err))
	}
	setsDir := filepath.Join(dir, "sets")
	ents, err := os.ReadDir(setsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", setsDir, unwrapPath(err))
	}
	var out []Set
	for _, de := range ents {
		id, ok := strings.CutSuffix(de.Name(), ".json")
		if !ok || atomicfile.IsTemp(de.Name()) || !board.ValidID(id) || !de.Type().IsRegular() {
			continue
		}
		e, err := readFile(filepath.Join(setsDir, de.Name()), id)
		if err != nil {
			return nil, err
		}
		out = append(out, e.set)
	}
	slices.SortFunc(out, func(a, b Set) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// ReadSet returns set id of data directory dir without taking the lock (see ReadAll). No such set is
// ErrNotFound.
func ReadSet(dir, id string) (Set, error) {
	if !board.ValidID(id) {
		return Set{}, fmt.Errorf("%w %q", store.ErrInvalidID, id)
	}
	if _, err := os.Stat(dir); err != nil {
		return Set{}, fmt.Errorf("data directory %s: %w", dir, unwrapPath(err))
	}
	e, err := readFile(filepath.Join(dir, "sets", id+".json"), id)
	if errors.Is(err, fs.ErrNotExist) {
		return Set{}, fmt.Errorf("%w: no set %q in %s", ErrNotFound, id, dir)
	}
	if err != nil {
		return Set{}, err
	}
	return e.set, nil
}
