// Package host is the `tele host` process (docs/link-protocol.md): the far end of the Pi bridge's link. It reads
// the bridge's `hello`, opens the board store, serves the board service plus the private chat routes of
// one binding on 127.0.0.1, answers `ready` (or `fatal`), feeds the chat gateway from the bridge's notes,
// answers the `tele_board` tool and `invite` calls, and implements the gateway's Bridge with `send` and
// `abort` calls. It ends on `revoke`, on the end of its input, or when its context ends, and always
// revokes the binding, closes every stream, stops HTTP and releases the data directory first.
package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"sync"
	"time"

	"tele/board/store"
	"tele/chat"
	"tele/link"
	"tele/pairing"
	"tele/server"
	"tele/sse"
)

// Protocol is the link protocol version this host speaks.
const Protocol = 1

// Chat stream limits (docs/api.md).
const (
	ChatStreamsPerBinding = chat.MaxStreams // 4
	ChatMaxQueuedBytes    = 512 << 10       // twice the largest projection
	ChatHeartbeat         = 15 * time.Second
)

// Fatal codes (note `fatal`).
const (
	FatalProtocol   = "protocol"    // another protocol version, a malformed hello, or a first frame that is not hello
	FatalBadBoard   = "bad_board"   // the board id is not ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$
	FatalDataLocked = "data_locked" // another process owns the data directory
	FatalPortInUse  = "port_in_use" // the port is taken
	FatalInternal   = "internal"    // anything else that stopped the start (message says what)
	// FatalUnsupportedPi: the Pi is older than 0.73; nothing was started, the message says how to update.
	FatalUnsupportedPi = "unsupported_pi"
)

// Config configures Run.
type Config struct {
	Port    int    // 0 asks the OS for a free port
	DataDir string // the board store's directory
	Logger  *slog.Logger
	// BridgeTimeout bounds each send/abort call to the bridge; 0 = the gateway's default.
	BridgeTimeout time.Duration
	// Browser, when set, is the command that opens the user's browser (webbrowser.Command): the host opens
	// it on each invitation through a redirect file, never with the link on a command line. Nil: never.
	Browser []string
	// Quota bounds what the store keeps (store.Store.SetQuota); the zero Quota leaves the store's defaults.
	Quota store.Quota
	// Share, when set, is the share listener's <IPv4>:<port> (docs/band.md): the board's page can then
	// share with the band.
	Share string
}

// FatalError is what Run returns after it sent a `fatal` note.
type FatalError struct{ Code, Message string }

func (e *FatalError) Error() string { return e.Message }

type phase int

const (
	waiting  phase = iota // no hello yet
	starting              // hello being handled
	running               // ready sent
	ended                 // fatal sent, revoked, or shutting down
)

// host is one run.
type host struct {
	cfg  Config
	log  *slog.Logger
	conn *link.Conn
	stop context.CancelFunc // ends conn.Run

	mu     sync.Mutex
	phase  phase
	fatal  *FatalError
	reason string // why it ended (revoke reason)

	// Set while starting, read-only once running.
	boardID   string
	instance  store.Instance // the board bound: one made later under its id is not
	port      int
	store     *store.Store
	started   *server.Started // until serving starts; then Serve owns it
	chatHub   *sse.Hub        // until serving starts
	binding   *pairing.Binding
	gateway   *chat.Gateway
	serveStop context.CancelFunc
	serveDone chan error

	opened *opened // redirect files the browser was opened on

	review review // the proposals the model made, until it has heard what became of them
}

// Run is `tele host`: it speaks the link on in/out until `revoke`, the end of in, or ctx ends. It
// returns nil after a revoke, the end of input or ctx's end (a graceful stop), a *FatalError after it
// sent `fatal`, or another error when reading failed. Every goroutine it started has stopped and the data
// directory is released when it returns. If in is an io.Closer it is closed when Run stops reading
// before its end (revoke, fatal, ctx).
func Run(ctx context.Context, in io.Reader, out io.Writer, cfg Config) error {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	h := &host{cfg: cfg, log: log, opened: newOpened()}
	connCtx, stop := context.WithCancel(context.Background())
	defer stop()
	h.stop = stop
	h.conn = link.NewConn(in, out, h, log)

	// The parent ctx (SIGINT/SIGTERM) ends the link like a revoke: the gateway is revoked at once.
	watchDone := make(chan struct{})
	stopWatch := make(chan struct{})
	go func() {
		defer close(watchDone)
		select {
		case <-ctx.Done():
			h.end("shutdown")
		case <-stopWatch:
		}
	}()

	runErr := h.conn.Run(connCtx)
	close(stopWatch)
	<-watchDone

	h.mu.Lock()
	reason := h.reason
	fatal := h.fatal
	h.mu.Unlock()
	if reason == "" {
		reason = "eof"
		if runErr != nil && !errors.Is(runErr, context.Canceled) {
			reason = "read_error"
		}
	}
	h.shutdown(reason)

	switch {
	case fatal != nil:
		return fatal
	case runErr != nil && !errors.Is(runErr, context.Canceled):
		return fmt.Errorf("reading the link: %w", runErr)
	}
	return nil
}

// end marks the run ended for reason, revokes the binding at once (streams close, cookies die) and stops
// reading. The rest of the shutdown happens in Run, after the link's goroutines have stopped.
func (h *host) end(reason string) {
	h.mu.Lock()
	if h.phase == ended {
		h.mu.Unlock()
		return
	}
	h.phase = ended
	h.reason = reason
	g := h.gateway
	h.mu.Unlock()
	if g != nil {
		g.Revoke(reason)
	}
	h.stop()
}

// shutdown releases everything start made, in order: binding revoked (chat streams close), HTTP
// stopped (board streams close, in-flight requests finish), the store closed (the lock released).
func (h *host) shutdown(reason string) {
	h.mu.Lock()
	h.phase = ended
	h.mu.Unlock()
	if h.gateway != nil {
		h.gateway.Revoke(reason)
	}
	h.removeOpened()
	if h.serveStop != nil {
		h.serveStop()
		if err := <-h.serveDone; err != nil { // Serve closed the hubs and the store
			h.log.Warn("host: HTTP shutdown", "err", err.Error())
		}
	}
	h.release()
	h.log.Info("host: stopped", "reason", reason)
}

// sendFatal reports a failed start and stops reading.
func (h *host) sendFatal(code, msg string) {
	h.mu.Lock()
	if h.phase == ended {
		h.mu.Unlock()
		return
	}
	h.fatal = &FatalError{Code: code, Message: msg}
	h.mu.Unlock()
	h.log.Error("host: fatal", "code", code, "message", msg)
	if err := h.conn.Note("fatal", map[string]string{"code": code, "message": msg}); err != nil {
		h.log.Warn("host: cannot send fatal", "err", err.Error())
	}
	h.end("fatal")
}

// hello is the validated first frame.
type hello struct {
	bridge, pi, board, sessionID string
	edits                        string // the review mode the binding starts in
}

// release undoes a start that never reached serving; once serving, Serve releases everything.
func (h *host) release() {
	if h.chatHub != nil {
		h.chatHub.Close()
		h.chatHub = nil
	}
	if h.started != nil {
		if err := h.started.Close(); err != nil {
			h.log.Warn("host: closing the store", "err", err.Error())
		}
		h.started = nil
	}
}

func lockedMessage(le *store.LockedError) string {
	// The store's message names the directory and its owner; the fix is the bridge user's to hear.
	return le.Error() + ": stop it, or start Pi with --tele-data <path> (or TELE_DATA) for another directory"
}

func (h *host) boardURL() string {
	return fmt.Sprintf("http://127.0.0.1:%d/b/%s", h.port, h.boardID)
}

// inviteURL mints a new one-time invitation (the earlier unredeemed one dies), opens the browser on it
// when the host was asked to, and returns its URL. Every secret is in the fragment, and only one-time
// secrets are: the board's permanent capability reaches the page in the pairing answer, never in a
// link that lands in terminals, scrollback and recordings.
func (h *host) inviteURL() string {
	secret, ended := h.binding.NewInvitation()
	link := h.boardURL() + "#binding=" + url.QueryEscape(h.binding.ID()) + "&invite=" + url.QueryEscape(secret)
	h.openBrowser(link, ended)
	return link
}
