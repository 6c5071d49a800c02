package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"

	"tele/board"
	"tele/board/store"
)

// runBoardLink is `tele board link <id> [--new] [--show-key]`: it prints the board's edit link. Without
// --new it only reads the capability file: no lock, so it works while a server owns the directory. The
// link names the port of the server that owns the directory when one runs (what it recorded in the lock
// file), else --port or TELE_PORT: the link that works. With --new it first replaces the capability
// (rotateCapability), so every earlier edit link stops working.
//
// While a server runs, the link carries a one-time claim code that server made (`#claim=`), not the
// key: a browser keeps the links it opened in its history, where a used code is worth nothing. Codes
// live in the server's memory, so with no server running (nothing could redeem one) and with
// --show-key (for scripts) the link carries the key itself (`#cap=`).
func runBoardLink(ctx context.Context, args []string, env *Env) error {
	var rotate, showKey *bool
	s, rest, err := parseCommand(args, env, false, func(fs *flag.FlagSet) {
		rotate = fs.Bool("new", false, "")
		showKey = fs.Bool("show-key", false, "")
	})
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
	_, running := store.RunningOwner(s.DataDir)
	if running != 0 {
		port = running
	}
	capability, err := store.ReadCapability(s.DataDir, id)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no board %q in %s: see the boards at http://127.0.0.1:%d/ or check --data/TELE_DATA",
			id, s.DataDir, port)
	}
	if err != nil {
		return fmt.Errorf("cannot read the capability of board %q in %s: %v", id, s.DataDir, err)
	}
	if *rotate {
		if capability, port, err = rotateCapability(ctx, s, id, capability, env.Stderr); err != nil {
			return err
		}
	}
	if running == 0 || *showKey {
		fmt.Fprintln(env.Stdout, editLink(port, id, capability))
		return nil
	}
	code, err := claimThroughServer(ctx, port, id, capability)
	if err != nil {
		return err
	}
	fmt.Fprintln(env.Stdout, claimLink(port, id, code))
	return nil
}
