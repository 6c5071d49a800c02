package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"

	"tele/board/boardhttp"
	"tele/board/store"
	"tele/sse"
)

// ErrPortInUse is returned (wrapped) by Listen when another process holds the port, so callers can say
// so in one clear line (and the host can send its `port_in_use` fatal note).
var ErrPortInUse = errors.New("port already in use")

// Timeouts of Serve.
const (
	// ReadHeaderTimeout bounds how long a client may take to send its request headers (slowloris).
	// There is no overall read or write timeout: SSE responses live for hours. Bodies are bounded by
	// size per route and in time by BodyTimeout (Handler), which spares requests without a body.
	ReadHeaderTimeout = 10 * time.Second
	// IdleTimeout closes keep-alive connections nobody uses.
	IdleTimeout = 2 * time.Minute
	// ShutdownTimeout bounds how long Serve waits for in-flight requests after its context ends. A
	// board write takes milliseconds; streams are ended before the wait starts.
	ShutdownTimeout = 10 * time.Second
)

// Listen binds 127.0.0.1:port, and nothing else (docs/security.md: never 0.0.0.0). Port 0 asks the OS
// for a free port; the listener's address says which. A port held by another process is ErrPortInUse.
func Listen(port int) (net.Listener, error) {
	if port < 0 || port > 65535 {
		return nil, fmt.Errorf("listen: port %d is not in 0..65535", port)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	ln, err := net.Listen("tcp4", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("listen %s: %w", addr, ErrPortInUse)
		}
		return nil, fmt.Errorf("listen %s: %w", addr, err)
	}
	return ln, nil
}

// Port returns the TCP port of a listener from Listen.
func Port(ln net.Listener) int {
	if a, ok := ln.Addr().(*net.TCPAddr); ok {
		return a.Port
	}
	return 0
}

// NewHTTPServer is the one net/http configuration of Tele's server: Serve uses it, and so do tests that
// must see what net/http does before the handler.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		// net/http answers "OPTIONS *" itself (200, no security headers, any Host) unless told not to:
		// then it reaches the guard, which refuses it like every other OPTIONS.
		DisableGeneralOptionsHandler: true,
	}
}

// Serve serves h on ln, at most ConnectionLimit connections at once (LimitConnections), until ctx ends,
// then stops gracefully: first it closes hubs, which ends every
// SSE stream (a stream would otherwise keep its request in flight forever), then it shuts the server
// down, which stops accepting, closes idle connections and lets in-flight requests (a board write
// being committed) finish, for at most ShutdownTimeout. It returns nil after a clean stop, the serve
// error if serving failed, or the shutdown error if requests were still running at the deadline (they
// are then cut).
func Serve(ctx context.Context, ln net.Listener, h http.Handler, hubs ...*sse.Hub) error {
	srv := NewHTTPServer(h)
	limited := LimitConnections(srv, ln, ConnectionLimit())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(limited) }()

	select {
	case err := <-served:
		for _, hub := range hubs {
			hub.Close()
		}
		return err
	case <-ctx.Done():
	}
	for _, hub := range hubs {
		hub.Close()
	}
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	if err != nil {
		_ = srv.Close()
	}
	if serr := <-served; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// OpenStore opens the board store in dir together with the hub of its streams: every commit is
// published to the board's topic (boardhttp.Publisher) after it is durable. Close the store, then the hub
// (Serve closes the hub when it stops).
// Each of also runs after every commit too, as store.Options.OnCommit (the band's followers).
func OpenStore(dir string, also ...func(store.Board)) (*store.Store, *sse.Hub, error) {
	// Heartbeat 15 s, slow-client cut at 512 KiB (several whole boards), and room for a band on one board
	// without letting a local process open streams until memory or descriptors run out.
	hub := sse.NewHub(sse.Options{MaxPerTopic: boardhttp.MaxStreamsPerBoard, MaxStreams: boardhttp.MaxStreams})
	onCommit := boardhttp.Publisher(hub)
	if len(also) > 0 {
		publish := onCommit
		onCommit = func(b store.Board) {
			publish(b)
			for _, f := range also {
				f(b)
			}
		}
	}
	s, err := store.Open(dir, store.Options{OnCommit: onCommit, OnProposals: boardhttp.ProposalsPublisher(hub)})
	if err != nil {
		hub.Close()
		return nil, nil, err
	}
	return s, hub, nil
}
