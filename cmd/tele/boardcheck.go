package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"tele/board/store"
)

// runBoardCheck is `tele board check`: what the store set aside because it could not read it (a board,
// a revision, a damaged capability file), one a line, with why and where it is now. It only reads the
// quarantine folder: no lock, so it works while a server owns the directory.
func runBoardCheck(_ context.Context, args []string, env *Env) error {
	s, rest, err := parseSettings(args, env, false)
	if err != nil {
		return err
	}
	if err := checkNoArgs("board check", rest); err != nil {
		return err
	}
	list, err := store.ReadSetAside(s.DataDir)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no data directory %s: check --data/TELE_DATA", s.DataDir)
	}
	if err != nil {
		return fmt.Errorf("cannot read what is set aside in %s: %v", s.DataDir, err)
	}
	if len(list) == 0 {
		fmt.Fprintf(env.Stdout, "tele: nothing is set aside in %s\n", s.DataDir)
		return nil
	}
	for _, sa := range list {
		what := "board " + sa.Board
		switch sa.What {
		case store.SetAsideRevision:
			what = fmt.Sprintf("revision %d of board %s", sa.Revision, sa.Board)
		case store.SetAsideCapability:
			what = "the capability of board " + sa.Board + " (it got a new one)"
		}
		when := "at an unknown time"
		if !sa.At.IsZero() {
			when = sa.At.UTC().Format("2006-01-02 15:04:05") + " UTC"
		}
		// The reason can quote what was unreadable, the folder's name anything: forTerminal's escapes.
		fmt.Fprintln(env.Stdout, printable(fmt.Sprintf("%s: set aside %s, in %s: %s", what, when, sa.Path, sa.Reason)))
	}
	return nil
}
