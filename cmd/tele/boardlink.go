package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"tele/board"
)

// runBoardLink is `tele board link <id>`: it prints the board's edit link. It only reads the capability
// file: no lock, so it works while a server owns the directory. The link names the port of the server
// that owns the directory when one runs (what it recorded in the lock file), else --port or TELE_PORT:
// the link that works.
func runBoardLink(_ context.Context, args []string, env *Env) error {
	s, rest, err := parseSettings(args, env, false)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("board link needs a board id: use tele board link <id>")
	}
	if len(rest) > 1 {
		return usagef("board link takes one board id, got %q and %q", rest[0], rest[1])
	}
	id := rest[0]
	if !board.ValidID(id) {
		return fmt.Errorf("bad board id %q: an id is 1 to 64 letters, digits, _ or -, starting with a letter or digit", id)
	}
	port := s.Port
	if _, running := board.RunningOwner(s.DataDir); running != 0 {
		port = running
	}
	capability, err := board.ReadCapability(s.DataDir, id)
	if errors.Is(err, board.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no board %q in %s: see the boards at http://127.0.0.1:%d/ or check --data/TELE_DATA",
			id, s.DataDir, port)
	}
	if err != nil {
		return fmt.Errorf("cannot read the capability of board %q in %s: %v", id, s.DataDir, err)
	}
	fmt.Fprintln(env.Stdout, editLink(port, id, capability))
	return nil
}
