package chat

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"tele/web"

	"tele/utf16count"
)

// Limits of docs/api.md.
const (
	// MaxCommands is how many commands one binding remembers; a new id beyond it is 429 command_limit.
	MaxCommands = 256
	// MaxTextUnits bounds a sent text, in UTF-16 code units.
	MaxTextUnits = 8000
	// ObservationWindow is how long the gateway waits to see a submitted input in Pi.
	ObservationWindow = 8 * time.Second
	// DefaultBridgeTimeout bounds one Bridge.Send or Bridge.Abort call.
	DefaultBridgeTimeout = 10 * time.Second
	// MaxCommandBytes bounds a command body.
	MaxCommandBytes = 64 << 10
	// CommandBurst and CommandEvery: the per-binding command rate (burst 20, then 10 per second).
	CommandBurst = 20
	CommandEvery = 100 * time.Millisecond
)

// Command types and receipt statuses.
const (
	TypeSend  = "send"
	TypeAbort = "abort"
	TypeMode  = "mode"

	ReceiptSubmitted     = "submitted"
	ReceiptStopRequested = "stop-requested"
	ReceiptApplied       = "applied"
)

// What the model's tele_board put does (review mode, docs/api.md): commit (apply) or store a proposal
// the musician reviews (propose).
const (
	EditsApply   = "apply"
	EditsPropose = "propose"
)

// ValidEdits reports whether s is a review mode.
func ValidEdits(s string) bool { return s == EditsApply || s == EditsPropose }

// command is a decoded command body. Pointers tell a missing field from a zero one.
type command struct {
	Type        string     `json:"type"`
	ID          string     `json:"id"`
	Epoch       *string    `json:"epoch,omitempty"`
	IdleVersion *int64     `json:"idleVersion,omitempty"`
	Text        *string    `json:"text,omitempty"`
	RunID       *string    `json:"runId,omitempty"`
	Edits       *string    `json:"edits,omitempty"`
	Selection   *Selection `json:"selection,omitempty"` // send only: the bars asked about (selection.go)
}

// validate checks the shape of c: the fields of its type and only those, a canonical UUID id, and the
// text rules of docs/api.md. It needs no state.
func (c *command) validate() error {
	if u, err := uuid.Parse(c.ID); err != nil || u.String() != c.ID {
		return errBadCommand("id must be a UUID in its canonical lower-case form")
	}
	if c.Epoch == nil {
		return errBadCommand("epoch is required")
	}
	if c.Type != TypeMode && c.Edits != nil {
		return errBadCommand(c.Type + " takes no edits")
	}
	if c.Type != TypeSend && c.Selection != nil {
		return errBadCommand(c.Type + " takes no selection")
	}
	switch c.Type {
	case TypeSend:
		if c.RunID != nil {
			return errBadCommand("send takes no runId")
		}
		if c.IdleVersion == nil || c.Text == nil {
			return errBadCommand("send needs idleVersion and text")
		}
		return c.checkMessage()
	case TypeAbort:
		if c.IdleVersion != nil || c.Text != nil {
			return errBadCommand("abort takes no idleVersion or text")
		}
		if c.RunID == nil {
			return errBadCommand("abort needs runId")
		}
		return nil
	case TypeMode:
		if c.IdleVersion != nil || c.Text != nil || c.RunID != nil {
			return errBadCommand("mode takes no idleVersion, text or runId")
		}
		if c.Edits == nil || !ValidEdits(*c.Edits) {
			return errBadCommand(`mode needs edits: "apply" or "propose"`)
		}
		return nil
	}
	return errBadCommand(`type must be "send", "abort" or "mode"`)
}

// checkText: 1–8,000 UTF-16 code units, not blank, and the first visible character is not `/` (a Pi
// command) or `!` (a shell command). Invisible means white space or a character that draws nothing
// (see invisible): JavaScript's trim() strips U+FEFF, which Go's unicode.IsSpace keeps, so a check
// that skipped only white space let "\uFEFF/reload" through to Pi as a command.
func checkText(text string) error {
	if n := utf16count.Of(text); n == 0 || n > MaxTextUnits {
		return errBadText("text must be 1 to 8000 UTF-16 code units")
	}
	trimmed := strings.TrimLeftFunc(text, invisible)
	if trimmed == "" {
		return errBadText("text is blank")
	}
	if r, _ := utf8.DecodeRuneInString(trimmed); r == '/' || r == '!' {
		return errBadText("text may not start with / or ! (no commands, no shell)")
	}
	return nil
}

// invisible reports whether r shows nothing where it stands: white space, a format character (Unicode
// category Cf: U+FEFF, U+200B, U+200E, U+2060, U+00AD, …), a variation selector or another
// default-ignorable code point (U+034F, U+3164, …).
func invisible(r rune) bool {
	return unicode.IsSpace(r) || unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// fingerprint identifies a command's whole body for idempotence: two bodies that decode to the same
// command (whitespace or key order aside) are the same.
func (c *command) fingerprint() [sha256.Size]byte {
	b, _ := json.Marshal(c) // fixed field order; cannot fail
	return sha256.Sum256(b)
}

// record is a remembered command: its receipt once the bridge call has returned.
type record struct {
	fp   [sha256.Size]byte
	done chan struct{} // closed once the receipt is set

	status int    // the accepted receipt: 202 and body
	body   []byte //
	err    error  // or the failure receipt: errSubmissionUncertain or errAbortFailed (502)

	follow *record // actFollow: the abort whose outcome this one shares
}

// write answers the receipt: its success, or its failure returned for the route's error mapping.
func (rec *record) write(w http.ResponseWriter) error {
	if rec.err != nil {
		return rec.err
	}
	web.WriteJSON(w, rec.status, rec.body)
	return nil
}

func receiptBody(id, typ, status string) []byte {
	b, _ := json.Marshal(struct {
		ID     string `json:"id"`
		Type   string `json:"type"`
		Status string `json:"status"`
	}{id, typ, status})
	return b
}

func modeReceipt(id, edits string) []byte {
	b, _ := json.Marshal(struct {
		ID     string `json:"id"`
		Type   string `json:"type"`
		Status string `json:"status"`
		Edits  string `json:"edits"`
	}{id, TypeMode, ReceiptApplied, edits})
	return b
}

// action is what an accepted command still has to do outside the lock.
type action int

const (
	actNone   action = iota // nothing to do
	actSend                 // call Bridge.Send
	actAbort                // call Bridge.Abort
	actReplay               // wait for the original record
	actFollow               // an abort of a run already being stopped: the first abort's outcome
)

// begin checks c against the binding's state and, when it is accepted, reserves its effect and
// remembers it, all under the lock. Refusals change nothing.
func (g *Gateway) begin(c *command) (*record, action, *sendWatch, error) {
	fp := c.fingerprint()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.revoked {
		return nil, actNone, nil, errRevoked
	}
	if rec := g.commands[c.ID]; rec != nil {
		if rec.fp != fp {
			return nil, actNone, nil, errDuplicateCommand
		}
		return rec, actReplay, nil, nil
	}
	if len(g.commands) >= MaxCommands {
		return nil, actNone, nil, errCommandLimit
	}
	if *c.Epoch != g.cfg.Binding.Epoch() {
		return nil, actNone, nil, errStaleEpoch
	}
	rec := &record{fp: fp, done: make(chan struct{})}
	var act action
	var watch *sendWatch
	switch c.Type {
	case TypeSend:
		if refusal := g.run.sendRefusal(*c.IdleVersion); refusal != nil {
			return nil, actNone, nil, refusal
		}
		g.run.stopWatch()
		watch = &sendWatch{command: c.ID}
		g.run.reserved = true
		g.run.watch = watch
		g.run.notice = ""
		act = actSend
	case TypeMode:
		// Nothing to ask Pi: the host reads the mode at each tool call. The receipt is final at once.
		g.edits = *c.Edits
		rec.status, rec.body = http.StatusOK, modeReceipt(c.ID, g.edits)
		close(rec.done)
	case TypeAbort:
		if g.run.runID == "" || *c.RunID != g.run.runID {
			return nil, actNone, nil, errStaleRun
		}
		if g.run.stopping {
			// Already asked for this run: Pi is not asked twice; this one answers as the first did.
			rec.follow = g.run.stopRecord
			act = actFollow
		} else {
			g.run.stopping = true
			g.run.stopRecord = rec
			g.run.notice = NoticeStopRequested
			act = actAbort
		}
	}
	g.commands[c.ID] = rec
	g.changedLocked()
	return rec, act, watch, nil
}

// execute makes the bridge call of an accepted command and settles its receipt.
func (g *Gateway) execute(ctx context.Context, c *command, rec *record, act action, watch *sendWatch) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), g.bridgeTimeout)
	defer cancel()
	switch act {
	case actSend:
		msg, _ := c.message() // validate checked it
		err := g.cfg.Bridge.Send(ctx, c.ID, msg)
		g.sendReturned(c, rec, watch, err)
	case actAbort:
		err := g.cfg.Bridge.Abort(ctx, c.ID, *c.RunID)
		g.abortReturned(c, rec, err)
	case actFollow:
		<-rec.follow.done // bounded by the first abort's bridge timeout
		g.mu.Lock()
		if rec.follow.err != nil {
			rec.err = rec.follow.err
		} else {
			rec.status, rec.body = http.StatusAccepted, receiptBody(c.ID, TypeAbort, ReceiptStopRequested)
		}
		g.mu.Unlock()
		close(rec.done)
	}
}

func (g *Gateway) sendReturned(c *command, rec *record, w *sendWatch, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	defer close(rec.done)
	w.returned = true
	if err != nil {
		g.log.Warn("chat: send to Pi failed or timed out", "err", err)
	}
	switch {
	case err == nil || w.observed:
		// Pi's submit call was made (or the input was already seen in Pi).
		rec.status, rec.body = http.StatusAccepted, receiptBody(c.ID, TypeSend, ReceiptSubmitted)
	default:
		w.uncertain = true
		rec.err = errSubmissionUncertain
	}
	if g.run.watch != w {
		return // Pi settled (or revoked) while the call was out; the watch is over
	}
	switch {
	case w.observed:
		// input-observed already shown
	case w.uncertain:
		g.run.notice = NoticeSubmissionUncertain
	default:
		g.run.notice = NoticeInputSubmitted
	}
	if !g.revoked {
		w.timer = time.AfterFunc(ObservationWindow, func() { g.windowEnded(w) })
	}
	g.changedLocked()
}

// windowEnded: ObservationWindow after the bridge answered a send.
func (g *Gateway) windowEnded(w *sendWatch) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.run.watch != w || w.expired {
		return
	}
	w.expired = true
	w.timer = nil
	if !w.observed && !w.uncertain {
		g.run.notice = NoticeInputUnobserved
	}
	if g.run.runID == "" {
		// No run started for it: do not hold an invisible "submitting" state any longer.
		g.run.reserved = false
	}
	g.changedLocked()
}

func (g *Gateway) abortReturned(c *command, rec *record, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	defer close(rec.done)
	if err == nil {
		rec.status, rec.body = http.StatusAccepted, receiptBody(c.ID, TypeAbort, ReceiptStopRequested)
		return
	}
	g.log.Warn("chat: abort to Pi failed", "err", err)
	rec.err = errAbortFailed
	if g.run.stopRecord == rec {
		g.run.stopping = false
		g.run.stopRecord = nil
		if g.run.notice == NoticeStopRequested {
			g.run.notice = ""
		}
		g.changedLocked()
	}
}
