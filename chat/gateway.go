package chat

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"

	"tele/pairing"
	"tele/projection"
	"tele/sse"
	"tele/web"
)

// Bridge is the Pi side of the link: the host implements it with link calls (`send`, `abort`).
// Both return once Pi's call returned (`ok: null`) or failed; ctx bounds them.
type Bridge interface {
	Send(ctx context.Context, command, text string) error
	Abort(ctx context.Context, command, runID string) error
}

// Config configures a Gateway. Binding, Bridge and Hub are required.
type Config struct {
	Board   string
	Binding *pairing.Binding
	Bridge  Bridge
	// Capability returns the bound board's current write capability, which a successful pairing hands
	// to the page (the one-time link carries only one-time secrets). Read at each pairing, so a rotated
	// capability is the one handed out; ErrBoardDeleted once the bound board was deleted.
	Capability func() (string, error)
	// Hub carries the chat streams; it should be made with MaxPerTopic 4 (docs/api.md). The gateway uses the
	// topic Topic(binding id).
	Hub    *sse.Hub
	Logger *slog.Logger // nil = discard
	// BridgeTimeout bounds each bridge call; 0 = DefaultBridgeTimeout.
	BridgeTimeout time.Duration
	// Edits is the review mode the binding starts in (EditsApply or EditsPropose); "" = EditsApply.
	Edits string
}

// MaxStreams is the number of chat streams one binding may hold (docs/api.md). Give the chat hub this
// MaxPerTopic.
const MaxStreams = 4

// Topic is the hub topic of a binding's chat streams.
func Topic(binding string) string { return "chat/" + binding }

// Gateway is the chat of one binding. It is safe for concurrent use; the host calls the lifecycle
// methods from the link goroutine, HTTP handlers call the rest.
type Gateway struct {
	cfg           Config
	log           *slog.Logger
	topic         string
	bridgeTimeout time.Duration
	limiter       *web.Limiter

	// projMu serializes projection work (ApplyBranch, SetStreaming) without holding mu, so commands and
	// views are not held up by a large branch. Lock order: projMu, then mu.
	projMu      sync.Mutex
	proj        *projection.Projector
	projVersion uint64   // of the projection in items
	spare       [][]byte // the next items (projMu); the projector's encodings are never modified

	mu        sync.Mutex
	run       runState
	commands  map[string]*record
	revoked   bool
	edits     string   // the review mode: EditsApply or EditsPropose
	items     [][]byte // the JSON of each item of the projection, oldest first (shared, read only)
	itemsSize int      // of the JSON array they make
	truncated bool
	version   int64  // snapshot counter (Seq)
	snapshot  []byte // the full view document of version, encoded once per change
	projDoc   []byte // the projection document of version, made on first GET
}

// NewGateway returns the gateway of cfg.Binding with an empty projection, Pi idle and idleVersion 1.
func NewGateway(cfg Config) *Gateway {
	if cfg.Binding == nil || cfg.Bridge == nil || cfg.Hub == nil {
		panic("chat: NewGateway needs a Binding, a Bridge and a Hub")
	}
	g := &Gateway{
		cfg:           cfg,
		log:           cfg.Logger,
		topic:         Topic(cfg.Binding.ID()),
		bridgeTimeout: cfg.BridgeTimeout,
		proj:          projection.NewProjector(),
		run:           newRunState(),
		commands:      make(map[string]*record),
		itemsSize:     len("[]"),
		edits:         EditsApply,
	}
	if cfg.Edits != "" {
		if !ValidEdits(cfg.Edits) {
			panic("chat: NewGateway: Edits must be apply or propose")
		}
		g.edits = cfg.Edits
	}
	if g.log == nil {
		g.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if g.bridgeTimeout <= 0 {
		g.bridgeTimeout = DefaultBridgeTimeout
	}
	g.limiter = web.NewLimiter(CommandEvery, CommandBurst)
	g.mu.Lock()
	g.changedLocked()
	g.mu.Unlock()
	return g
}

// ApplyBranch applies a `branch` note: reset with the whole current branch, or entries appended since
// the last note (entries is the raw JSON array). A projection error is returned (for the host to log);
// whatever the projector kept is published.
func (g *Gateway) ApplyBranch(reset bool, entries []byte) error {
	g.projMu.Lock()
	defer g.projMu.Unlock()
	err := g.proj.ApplyBranch(reset, entries)
	g.projectedLocked(nil)
	return err
}

// SetStreaming applies a `stream` note: the assistant message being streamed, or nil/`null` when it
// ends.
func (g *Gateway) SetStreaming(message []byte) error {
	g.projMu.Lock()
	defer g.projMu.Unlock()
	err := g.proj.SetStreaming(message)
	g.projectedLocked(nil)
	return err
}

// projectedLocked takes the projection's new item encodings (when its version moved), applies then
// (state changes that go with it) and publishes the result as one snapshot if anything changed. projMu
// is held.
func (g *Gateway) projectedLocked(then func()) {
	var size int
	var truncated bool
	fresh := g.proj.Version() != g.projVersion
	if fresh {
		g.projVersion = g.proj.Version()
		g.spare, size, truncated = g.proj.AppendItemEncodings(g.spare[:0]) // shared bytes: only copied from
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if fresh {
		// Only mu holders read items; the old slice becomes the next spare, filled under projMu alone.
		g.items, g.spare = g.spare, g.items
		clear(g.spare)
		g.itemsSize, g.truncated = size, truncated
	}
	if then != nil {
		then()
	}
	g.changedLocked()
}

// clearStreaming drops the transient streaming item (turn_end, settled): the persisted branch replaces
// it (the bridge sends the branch before the lifecycle note). then runs in the same update.
func (g *Gateway) clearStreaming(then func()) {
	g.projMu.Lock()
	defer g.projMu.Unlock()
	if err := g.proj.SetStreaming(nil); err != nil {
		g.log.Warn("chat: clearing the streaming item failed", "err", err)
	}
	g.projectedLocked(then)
}

// SetState applies a `state` note: Pi idle, messages queued, a terminal dialog open.
func (g *Gateway) SetState(idle, pending, prompt bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.run.idle == idle && g.run.pending == pending && g.run.prompt == prompt {
		return
	}
	g.run.idle, g.run.pending, g.run.prompt = idle, pending, prompt
	g.changedLocked()
}

// AgentStart: a real agent start; the run gets a new runId. An abort aimed at an earlier run is void.
func (g *Gateway) AgentStart() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.run.runID = newRunID()
	g.run.stopping = false
	g.run.stopRecord = nil
	g.run.reserved = false
	g.run.idle = false
	if g.run.notice == NoticeRunEnded || g.run.notice == NoticeSettledUnobserved {
		g.run.notice = "" // about the previous run
	}
	g.changedLocked()
}

// TurnEnd: the turn's messages are persisted; the streaming item gives way to the branch.
func (g *Gateway) TurnEnd() { g.clearStreaming(nil) }

// Settled: Pi is idle with nothing queued after a run. The run state clears: runId null, status idle,
// idleVersion+1; the notice says run-ended, or settled-unobserved when a send of this run was never
// seen in Pi.
func (g *Gateway) Settled() {
	g.clearStreaming(func() {
		notice := NoticeRunEnded
		if w := g.run.watch; w != nil && !w.observed {
			notice = NoticeSettledUnobserved
		}
		g.run.stopWatch()
		g.run.watch = nil
		g.run.reserved = false
		g.run.runID = ""
		g.run.stopping = false
		g.run.stopRecord = nil
		g.run.idle, g.run.pending = true, false
		g.run.idleVersion++
		g.run.notice = notice
	})
}

// InputObserved: an input carrying the marker of command entered Pi. Unknown or old commands are
// ignored.
func (g *Gateway) InputObserved(command string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	w := g.run.watch
	if w == nil || w.command != command || w.observed {
		return
	}
	w.observed = true
	// The window's timer stays: if no run starts for the input (another extension handled it), the
	// reservation must still end when the window does.
	g.run.notice = NoticeInputObserved
	g.changedLocked()
}

// Edits returns the binding's review mode, EditsApply or EditsPropose: what the model's put does now.
func (g *Gateway) Edits() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.edits
}

// SetEdits switches the review mode from Pi's side (`/tele <board> --review` while connected); the
// page's switch is the mode command. Every page of the binding sees the change.
func (g *Gateway) SetEdits(edits string) {
	if !ValidEdits(edits) {
		panic("chat: SetEdits: edits must be apply or propose")
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.edits = edits
	g.changedLocked()
}

// Revoke ends the binding (`revoke` note, stdin EOF): every chat stream of the binding closes, every
// cookie and the invitation are forgotten, and every later chat request is refused (410 revoked).
func (g *Gateway) Revoke(reason string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.revoked {
		return
	}
	g.revoked = true
	g.run.stopWatch()
	g.cfg.Binding.Revoke()
	g.cfg.Hub.CloseTopic(g.topic) // under mu: no stream can subscribe between the two
	g.log.Info("chat: binding revoked", "reason", reason)
}

// Revoked reports whether Revoke was called.
func (g *Gateway) Revoked() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.revoked
}

// changedLocked encodes the new view once, straight into its SSE frame, and publishes it as one
// complete `snapshot`, if it differs from the last one. mu is held, so snapshots are published in
// version order.
func (g *Gateway) changedLocked() {
	f := sse.AppendFrame(make([]byte, 0, len(snapshotHead)+g.itemsSize+256), snapshotEvent, g.version+1,
		func(b []byte) []byte {
			return appendStatusDoc(b, g.cfg.Binding.Epoch(), g.run.idleVersion, g.run.status(), g.edits, g.run.runID,
				g.run.notice, g.truncated, g.items)
		})
	doc := f.Data() // the document: one line (appendStatusDoc escapes every line break), framed in place
	if bytes.Equal(doc, g.snapshot) {
		return
	}
	g.version++
	g.snapshot = doc
	g.projDoc = nil
	g.cfg.Hub.PublishFrame(g.topic, f)
}

// snapshotEvent is the name of the chat stream's one event; snapshotHead is the frame's start.
const (
	snapshotEvent = "snapshot"
	snapshotHead  = "event: " + snapshotEvent + "\ndata: \n\n"
)

// projectionDocLocked is the GET /api/chat/:binding document of the current version.
func (g *Gateway) projectionDocLocked() []byte {
	if g.projDoc == nil {
		g.projDoc = appendProjectionDoc(make([]byte, 0, g.itemsSize+128), g.cfg.Binding.Epoch(),
			g.run.idleVersion, g.truncated, g.items)
	}
	return g.projDoc
}

// first subscribes a stream and returns the current snapshot as its first event. Subscribing under mu
// orders it with publishes (no gap, no duplicate) and with Revoke (no stream survives it).
func (g *Gateway) first() (*sse.Subscription, sse.Event, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.revoked {
		return nil, sse.Event{}, errRevoked
	}
	sub, err := g.cfg.Hub.Subscribe(g.topic)
	if err != nil {
		if errors.Is(err, sse.ErrTooManyStreams) {
			return nil, sse.Event{}, errTooManyStreams
		}
		return nil, sse.Event{}, errClosed
	}
	return sub, sse.Event{Name: snapshotEvent, Seq: g.version, Data: g.snapshot}, nil
}

func newRunID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand, Go ≥ 1.24)
	return base64.RawURLEncoding.EncodeToString(b)
}
