package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"

	"tele/board"
	"tele/board/store"
)

// runBoardDelete is `tele board delete <id> --yes`: it deletes the board and its whole history. --yes is
// required, since nothing brings a deleted board back. As for a new edit link, the data directory has
// one owner: while a server holds it, the deletion goes through that server over loopback (its open pages
// hear of it), as a holder of the board's capability and of its current revision; only when nobody holds
// the directory does the command take the lock and delete in the store itself.
func runBoardDelete(ctx context.Context, args []string, env *Env) error {
	var yes *bool
	s, rest, err := parseCommand(args, env, false, func(fs *flag.FlagSet) { yes = fs.Bool("yes", false, "") })
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("board delete needs a board id: use tele board delete <id> --yes")
	}
	if len(rest) > 1 {
		return usagef("board delete takes one board id, got %q and %q", rest[0], rest[1])
	}
	id := rest[0]
	if !board.ValidID(id) {
		return fmt.Errorf("bad board id %q: an id is 1 to 64 letters, digits, _ or -, starting with a letter or digit", id)
	}
	if !*yes {
		return usagef("deleting board %q and its history cannot be undone: run tele board delete %s --yes", id, id)
	}
	capability, err := store.ReadCapability(s.DataDir, id)
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no board %q in %s: check the id, or --data/TELE_DATA", id, s.DataDir)
	}
	if err != nil {
		return fmt.Errorf("cannot read the capability of board %q in %s: %v", id, s.DataDir, err)
	}
	if err := deleteBoard(ctx, s, id, capability, env.Stderr); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "deleted board %s and its history\n", id)
	return nil
}

// deleteBoard deletes board id through the server that owns the data directory, or in the store when
// none does.
func deleteBoard(ctx context.Context, s Settings, id, capability string, logs io.Writer) error {
	boards, err := store.Open(s.DataDir, store.Options{Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if le, ok := errors.AsType[*store.LockedError](err); ok {
		if le.Port == 0 {
			return fmt.Errorf("%v and is not serving yet: run tele board delete %s --yes again in a moment", le, id)
		}
		return deleteThroughServer(ctx, le.Port, id, capability)
	}
	if err != nil {
		return fmt.Errorf("cannot open the data directory %s: %v", s.DataDir, err)
	}
	defer boards.Close()
	b, err := boards.Get(id)
	if err == nil {
		err = boards.Delete(id, b.Revision)
	}
	if err != nil {
		return fmt.Errorf("cannot delete board %q in %s: %v", id, s.DataDir, err)
	}
	return nil
}

// deleteThroughServer reads board id's current revision from the server on 127.0.0.1:port and deletes
// it there (DELETE /api/boards/<id> with the capability and If-Match).
func deleteThroughServer(ctx context.Context, port int, id, capability string) error {
	srv := newLoopback(port)
	path := "/api/boards/" + url.PathEscape(id)
	got, err := srv.call(ctx, http.MethodGet, path, "", nil, nil, http.StatusOK, nil)
	if err != nil {
		return fmt.Errorf("cannot show board %q: %w", id, err)
	}
	if got.Get("ETag") == "" {
		return fmt.Errorf("the tele server at %s cannot show board %q: no revision in its answer", srv.origin, id)
	}
	_, err = srv.call(ctx, http.MethodDelete, path, capability, http.Header{"If-Match": {got.Get("ETag")}}, nil, http.StatusNoContent, nil)
	if r, ok := errors.AsType[*refusal](err); ok && r.status == http.StatusPreconditionFailed {
		return fmt.Errorf("board %q changed while it was being deleted; nothing was deleted: run tele board delete %s --yes again", id, id)
	}
	if err != nil {
		return fmt.Errorf("cannot delete board %q: %w", id, err)
	}
	return nil
}
