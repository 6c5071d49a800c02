package server

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"

	"tele/assets"
	"tele/board"
	"tele/setlist"
	"tele/sse"
)

// Setup is what Start needs.
type Setup struct {
	Port    int    // 0 asks the OS for a free port
	DataDir string // the board store's directory
	Example string // the board made from the teaching example when it does not exist
	Logger  *slog.Logger
}

// Started is a server that listens, owns its data directory and has its example board, not yet serving.
// Serve serves it and then releases everything; Close releases it without serving.
type Started struct {
	Port           int // the port actually bound
	Store          *board.Store
	Sets           *setlist.Store // kept in the store's directory, under its lock
	ExampleCreated bool           // the example board was made by this start

	ln       net.Listener
	boardHub *sse.Hub
	assets   *assets.Assets
	log      *slog.Logger
}

// Start is the one startup of `tele serve` and `tele host`, in this order: listen (a busy port changes
// nothing on disk: the error wraps ErrPortInUse), open the store with its hub (a second owner fails
// before anything is served: the error wraps *board.LockedError), record this process as the owner,
// make sure the example board exists, load the web pages. On error, what was done is undone.
func Start(s Setup) (*Started, error) {
	ln, err := Listen(s.Port)
	if err != nil {
		return nil, fmt.Errorf("cannot listen on 127.0.0.1:%d: %w", s.Port, err)
	}
	st := &Started{Port: Port(ln), ln: ln, log: s.Logger}
	if st.log == nil {
		st.log = slog.Default()
	}
	ok := false
	defer func() {
		if !ok {
			st.Close()
		}
	}()
	st.Store, st.boardHub, err = OpenStore(s.DataDir)
	if err != nil {
		return nil, fmt.Errorf("cannot open the data directory %s: %w", s.DataDir, err)
	}
	if st.Sets, err = setlist.Open(st.Store, st.log); err != nil {
		return nil, fmt.Errorf("cannot open the sets in %s: %w", s.DataDir, err)
	}
	if err := st.Store.SetOwner(os.Getpid(), st.Port); err != nil {
		return nil, fmt.Errorf("cannot record this process as the owner of %s: %w", s.DataDir, err)
	}
	if _, st.ExampleCreated, err = st.Store.EnsureExample(s.Example); err != nil {
		return nil, fmt.Errorf("cannot create board %q in %s: %w", s.Example, s.DataDir, err)
	}
	if st.assets, err = assets.New(); err != nil {
		return nil, fmt.Errorf("cannot load the web pages: %w", err)
	}
	ok = true
	return st, nil
}

// Serve serves the board service, the pages and, when chat is not nil, the chat routes, until ctx ends
// (see the package's Serve). It then closes every hub (the board's and the given ones: the one place
// where hubs are closed, so every stream ends before the HTTP shutdown waits for requests) and the
// store (the data directory is released).
func (st *Started) Serve(ctx context.Context, chat ChatRoutes, hubs ...*sse.Hub) error {
	h := Handler(Config{Store: st.Store, BoardHub: st.boardHub, Sets: st.Sets, Assets: st.assets, Chat: chat, Logger: st.log}, st.Port)
	err := Serve(ctx, st.ln, h, append([]*sse.Hub{st.boardHub}, hubs...)...)
	st.Sets.Close()
	if cerr := st.Store.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("closing the store: %w", cerr)
	}
	return err
}

// Close releases a Started that will not be served: the listener, the board hub, the store.
func (st *Started) Close() error {
	st.ln.Close()
	if st.boardHub != nil {
		st.boardHub.Close()
	}
	if st.Sets != nil {
		st.Sets.Close()
	}
	if st.Store != nil {
		return st.Store.Close()
	}
	return nil
}
