package host

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"

	"tele/board/store"
	"tele/chat"
	"tele/pairing"
	"tele/server"
	"tele/sse"
)

// start handles `hello`: validate, listen, open the store, make the binding and the gateway, serve, and
// send `ready`. Any failure sends `fatal` and undoes what was done.
func (h *host) start(note []byte) {
	hl, native, fatal := h.greet(note)
	if fatal != nil {
		h.sendFatal(fatal.Code, fatal.Message)
		return
	}
	b, fatal := h.launch(hl)
	if fatal != nil {
		h.sendFatal(fatal.Code, fatal.Message)
		h.release() // undo a partial start; shutdown in Run skips what is nil
		return
	}
	if h.commit(hl, b) {
		h.sendReady(native)
	}
}

// greet reads the hello and decides from the Pi's version which events the bridge takes as they are
// (native); a fatal says why nothing may start.
func (h *host) greet(note []byte) (hello, []string, *FatalError) {
	hl, code, msg := readHello(note)
	if code != "" {
		return hello{}, nil, &FatalError{Code: code, Message: msg}
	}
	native, imitated, unsupported := piFeatures(hl.pi)
	h.log.Info("host: hello", "bridge", hl.bridge, "pi", hl.pi, "native", strings.Join(native, ","),
		"imitated", strings.Join(imitated, ","), "board", hl.board)
	if unsupported != "" {
		return hello{}, nil, &FatalError{Code: FatalUnsupportedPi, Message: unsupported}
	}
	return hl, native, nil
}

// bound is what a start made for the board of the hello, until commit hands it to the host.
type bound struct {
	port      int
	instance  store.Instance // the board bound: one made later under its id is not
	binding   *pairing.Binding
	gateway   *chat.Gateway
	serveStop context.CancelFunc
	serveDone chan error
}

// launch starts everything the hello asks for, up to serving. On a fatal, h.release undoes what it did.
func (h *host) launch(hl hello) (bound, *FatalError) {
	started, fatal := h.open(hl.board)
	if fatal != nil {
		return bound{}, fatal
	}
	b, fatal := h.newGateway(hl, started.Store)
	if fatal != nil {
		return bound{}, fatal
	}
	b.port = started.Port
	b.serveStop, b.serveDone = h.serve(started, b.gateway)
	return b, nil
}

// open listens, opens the data directory and makes the example board (server.Start), then applies the
// quota. What it opened stays in h.started for serve, or for release.
func (h *host) open(board string) (*server.Started, *FatalError) {
	started, err := server.Start(server.Setup{Port: h.cfg.Port, DataDir: h.cfg.DataDir, Example: board, Share: h.cfg.Share, Logger: h.log})
	if err != nil {
		return nil, startFatal(err, h.cfg.Port)
	}
	h.started, h.store = started, started.Store
	if h.cfg.Quota != (store.Quota{}) {
		if err := started.Store.SetQuota(h.cfg.Quota); err != nil {
			return nil, internalFatal("", err)
		}
	}
	h.removeLeftovers()
	if started.ExampleCreated {
		h.log.Info("host: created the board from the teaching example", "board", board)
	}
	return started, nil
}

// startFatal is the fatal of server.Start's error, with what the bridge user can do about it.
func startFatal(err error, port int) *FatalError {
	switch le, locked := errors.AsType[*store.LockedError](err); {
	case errors.Is(err, server.ErrPortInUse):
		return &FatalError{Code: FatalPortInUse, Message: fmt.Sprintf("port %d is in use: stop the program using it, or start Pi with --tele-port <0..65535> (or TELE_PORT) for another one", port)}
	case locked:
		return &FatalError{Code: FatalDataLocked, Message: lockedMessage(le)}
	case errors.Is(err, server.ErrShareAddr):
		return &FatalError{Code: FatalInternal, Message: fmt.Sprintf("cannot share with the band: %v: give an address of this machine with TELE_SHARE_ADDR=<ip:port>", err)}
	default:
		return internalFatal("", err)
	}
}

// internalFatal is the fatal of anything else that stopped the start; what, when set, says what failed.
func internalFatal(what string, err error) *FatalError {
	msg := err.Error()
	if what != "" {
		msg = what + ": " + msg
	}
	return &FatalError{Code: FatalInternal, Message: msg}
}

// newGateway makes the binding to the board of the hello and its chat gateway, whose streams go to a hub
// of their own (in h.chatHub until serve).
func (h *host) newGateway(hl hello, boards *store.Store) (bound, *FatalError) {
	// The binding is to this board, not to its id: a board made under the id after this one was deleted
	// is someone else's.
	instance, err := boards.Instance(hl.board)
	if err != nil {
		return bound{}, internalFatal("cannot read the board", err)
	}
	binding, err := pairing.NewBinding()
	if err != nil {
		return bound{}, internalFatal("cannot make a binding", err)
	}
	h.chatHub = sse.NewHub(sse.Options{
		MaxPerTopic:    ChatStreamsPerBinding,
		MaxQueuedBytes: ChatMaxQueuedBytes,
		Heartbeat:      ChatHeartbeat,
	})
	gw := chat.NewGateway(chat.Config{
		Board:         hl.board,
		Binding:       binding,
		Bridge:        bridge{conn: h.conn},
		Capability:    func() (string, error) { return boundCapability(boards, hl.board, instance) },
		Hub:           h.chatHub,
		Logger:        h.log,
		BridgeTimeout: h.cfg.BridgeTimeout,
		Edits:         hl.edits,
	})
	return bound{instance: instance, binding: binding, gateway: gw}, nil
}

// serve starts serving the board service and gw's routes; from here Serve owns the store and the hubs,
// and ends when stop is called, with its error on done.
func (h *host) serve(started *server.Started, gw *chat.Gateway) (stop context.CancelFunc, done chan error) {
	ctx, stop := context.WithCancel(context.Background())
	done = make(chan error, 1)
	chatHub := h.chatHub
	go func() { done <- started.Serve(ctx, gw, chatHub) }() // closes the hubs and the store
	h.started, h.chatHub = nil, nil
	return stop, done
}

// commit hands what the start made to the host, so that shutdown stops it; it reports whether the host
// now runs. A host that ended while starting (ctx) does not: it only shuts down what runs.
func (h *host) commit(hl hello, b bound) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.serveStop, h.serveDone = b.serveStop, b.serveDone
	h.binding, h.gateway = b.binding, b.gateway
	if h.phase != starting {
		return false
	}
	h.boardID, h.instance, h.port = hl.board, b.instance, b.port
	h.phase = running
	return true
}

// sendReady tells the bridge where the board is and invites the user; a bridge that cannot hear it ends
// the run.
func (h *host) sendReady(native []string) {
	ready := struct {
		Protocol int      `json:"protocol"`
		URL      string   `json:"url"`
		Invite   string   `json:"invite"`
		Binding  string   `json:"binding"`
		Epoch    string   `json:"epoch"`
		Native   []string `json:"native"` // the Pi events the bridge takes as they are; it imitates the rest
	}{Protocol, h.boardURL(), h.inviteURL(), h.binding.ID(), h.binding.Epoch(), native}
	if err := h.conn.Note("ready", ready); err != nil {
		h.log.Warn("host: cannot send ready", "err", err.Error())
		h.end("write_error")
		return
	}
	if h.cfg.Share != "" {
		h.log.Info("host: band view on http://" + h.cfg.Share + "/ (open the board and choose Share with the band)")
	}
	h.log.Info("host: ready", "addr", net.JoinHostPort("127.0.0.1", fmt.Sprint(h.port)), "board", h.boardID, "data", h.cfg.DataDir, "pid", os.Getpid())
}
