package server

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"

	"tele/assets"
	"tele/band"
	"tele/board/store"
	"tele/setlist"
	"tele/sse"
)

// Setup is what Start needs.
type Setup struct {
	Port    int    // 0 asks the OS for a free port
	DataDir string // the board store's directory
	Example string // the board made from the teaching example when it does not exist
	Share   string // the share listener's <IPv4>:<port> (docs/band.md); "" listens on loopback only
	Logger  *slog.Logger
}

// Started is a server that listens, owns its data directory and has its example board, not yet serving.
// Serve serves it and then releases everything; Close releases it without serving.
type Started struct {
	Port           int // the port actually bound
	Store          *store.Store
	Sets           *setlist.Store // kept in the store's directory, under its lock
	ExampleCreated bool           // the example board was made by this start

	Band *band.Band // nil without a share listener

	ln       net.Listener
	shareLn  net.Listener
	boardHub *sse.Hub
	assets   *assets.Assets
	log      *slog.Logger
}

// Start is the one startup of `tele serve` and `tele host`, in this order: listen (a busy port changes
// nothing on disk: the error wraps ErrPortInUse), open the store with its hub (a second owner fails
// before anything is served: the error wraps *store.LockedError), record this process as the owner,
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
	var also []func(store.Board)
	if s.Share != "" {
		if st.shareLn, err = ListenShare(s.Share); err != nil {
			return nil, err
		}
		st.Band = band.New(st.shareLn.Addr().String())
		also = append(also, st.Band.Commit)
	}
	st.Store, st.boardHub, err = OpenStore(s.DataDir, also...)
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
	h := Handler(Config{Store: st.Store, BoardHub: st.boardHub, Sets: st.Sets, Band: st.Band, Assets: st.assets, Chat: chat, Logger: st.log}, st.Port)
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	shared := make(chan error, 1)
	if st.shareLn != nil {
		sh := ShareHandler(st.Band, st.Store, st.Sets, st.assets, st.log)
		go func() {
			err := Serve(ctx, st.shareLn, sh, st.Band.Hub())
			stop() // one listener failing stops both
			shared <- err
		}()
	} else {
		shared <- nil
	}
	err := Serve(ctx, st.ln, h, append([]*sse.Hub{st.boardHub}, hubs...)...)
	stop()
	if serr := <-shared; serr != nil && err == nil {
		err = fmt.Errorf("the share listener: %w", serr)
	}
	st.Sets.Close()
	if cerr := st.Store.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("closing the store: %w", cerr)
	}
	return err
}

// Close releases a Started that will not be served: the listener, the board hub, the store.
func (st *Started) Close() error {
	st.ln.Close()
	if st.shareLn != nil {
		st.shareLn.Close()
		st.Band.Close()
	}
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
