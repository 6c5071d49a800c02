package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"tele/board"
)

// ReadBoard returns the newest revision of board id in data directory dir without taking the lock (as
// the readers in readonly.go, for `tele board export`, which works while a server runs). A board that
// does not exist is ErrNotFound; a missing data directory is an fs.ErrNotExist error naming it.
func ReadBoard(dir, id string) (Board, error) {
	if !board.ValidID(id) {
		return Board{}, fmt.Errorf("%w %q", ErrInvalidID, id)
	}
	if _, err := os.Stat(dir); err != nil {
		return Board{}, fmt.Errorf("data directory %s: %w", dir, unwrapPath(err))
	}
	if err := boardExists(dir, id); err != nil {
		return Board{}, err // under exactly this id
	}
	boardDir := filepath.Join(dir, "boards", id)
	rd, err := scanRevisionDir(boardDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Board{}, fmt.Errorf("cannot read board %q in %s: %v", id, dir, unwrapPath(err))
	}
	if rd.newest == 0 {
		b, err := readBoardFile(filepath.Join(dir, "boards", id+".json"), id, true)
		if errors.Is(err, fs.ErrNotExist) {
			return Board{}, fmt.Errorf("%w: no board %q in %s", ErrNotFound, id, dir)
		}
		return b, err
	}
	return readRevisionFile(boardDir, id, rd.newest) // the newest is never pruned
}
