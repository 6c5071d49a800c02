package chat

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"tele/pairing"
	"tele/web"
)

// MaxPairBytes bounds a pairing body ({binding, invitation}).
const MaxPairBytes = 4 << 10

// httpError maps the gateway's typed errors (and pairing's) to the API's *web.Error: the one place that
// knows their statuses, codes and messages. A *web.Error (a body decoder's) passes as is; anything else
// stays what it is and becomes a 500 in web.WriteError.
func httpError(err error) error {
	if ce, ok := errors.AsType[*commandError](err); ok {
		if ce.text {
			return web.NewError(http.StatusUnprocessableEntity, "bad_text", ce.reason)
		}
		return web.NewError(http.StatusBadRequest, "bad_command", ce.reason)
	}
	if rl, ok := errors.AsType[*rateLimitError](err); ok {
		return &web.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
			Message: "too many commands; wait a moment", RetryAfter: rl.retryAfter}
	}
	if rl, ok := errors.AsType[*pairing.RateLimitError](err); ok {
		return &web.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
			Message: "too many failed pairing attempts; wait and try again", RetryAfter: rl.RetryAfter}
	}
	switch {
	case errors.Is(err, errNotPaired):
		return web.NewError(http.StatusUnauthorized, "unauthorized",
			"pair this browser with the link Pi shows after /tele <board>")
	case errors.Is(err, pairing.ErrInvitationInvalid):
		return web.NewError(http.StatusForbidden, "invitation_invalid",
			"this invitation is not valid; run /tele <board> in Pi for a new one")
	case errors.Is(err, ErrBoardDeleted):
		return web.NewError(http.StatusGone, "board_deleted",
			"the board Pi was bound to was deleted; run /tele <board> in Pi for another one")
	case errors.Is(err, errRevoked):
		return web.NewError(http.StatusGone, "revoked",
			"this chat binding was revoked; run /tele <board> in Pi to connect again")
	case errors.Is(err, errDuplicateCommand):
		return web.NewError(http.StatusConflict, "duplicate_command",
			"this command id was already used with another body")
	case errors.Is(err, errCommandLimit):
		return web.NewError(http.StatusTooManyRequests, "command_limit",
			"this binding has taken all the commands it can remember; run /tele off and /tele <board> in Pi")
	case errors.Is(err, errStaleEpoch):
		return web.NewError(http.StatusConflict, "stale_epoch",
			"the command belongs to an earlier connection")
	case errors.Is(err, errStaleIdleVersion):
		return web.NewError(http.StatusConflict, "stale_idle_version",
			"Pi has moved on since this view; refresh before sending")
	case errors.Is(err, errStaleRun):
		return web.NewError(http.StatusConflict, "stale_run",
			"the run named by this command is not the current run")
	case errors.Is(err, errBusy):
		return web.NewError(http.StatusConflict, "busy",
			"Pi is busy, has queued messages, or another message is being sent")
	case errors.Is(err, errTerminalPrompt):
		return web.NewError(http.StatusConflict, "terminal_prompt",
			"a dialog is open in the Pi terminal; answer it there")
	case errors.Is(err, errSubmissionUncertain):
		return web.NewError(http.StatusBadGateway, "submission_uncertain",
			"the submit call to Pi failed or timed out; check the history and the Pi terminal before sending again")
	case errors.Is(err, errAbortFailed):
		return web.NewError(http.StatusBadGateway, "abort_failed",
			"the stop request did not reach Pi")
	case errors.Is(err, errTooManyStreams):
		return web.NewError(http.StatusTooManyRequests, "too_many_streams",
			"this chat already has as many open streams as it allows; close a tab")
	case errors.Is(err, errClosed):
		return web.NewError(http.StatusServiceUnavailable, "unavailable", "the server is shutting down")
	case errors.Is(err, errNoRoute):
		return web.NewError(http.StatusNotFound, "not_found", "no such route")
	}
	return err
}

// errNoRoute is a path under /api/chat/ that names no route.
var errNoRoute = errors.New("chat: no such route")

// Register adds the chat routes (docs/api.md):
//
//	POST /api/chat/pair                 pair with an invitation → 200 {binding, epoch, expiresAt, capability} + cookie
//	GET  /api/chat/:binding             the display projection
//	GET  /api/chat/:binding/status      the projection with status, runId and notice
//	GET  /api/chat/:binding/events      SSE: a `snapshot` first, then one after every change
//	POST /api/chat/:binding/command     send or abort
//
// httprouter v1.3.0 cannot hold /api/chat/pair beside /api/chat/:binding, so the pairing route is
// POST /api/chat/:binding with the binding "pair" (never a real binding id). The POSTs are web.Chat
// routes: the server's web.Guard refuses them without this server's Origin, and applies Host, Fetch
// Metadata, preflight and headers to every route before it runs.
func (g *Gateway) Register(r *web.Router) {
	r.Handle(web.Chat, "POST", "/api/chat/:binding", web.Handle(httpError, g.handlePair))
	r.Handle(web.Read, "GET", "/api/chat/:binding", web.Handle(httpError, g.handleView))
	r.Handle(web.Read, "GET", "/api/chat/:binding/status", web.Handle(httpError, g.handleStatus))
	r.Handle(web.Read, "GET", "/api/chat/:binding/events", web.Handle(httpError, g.handleEvents))
	r.Handle(web.Chat, "POST", "/api/chat/:binding/command", web.Handle(httpError, g.handleCommand))
}

// pairResponse is the body of a successful pairing.
type pairResponse struct {
	Binding   string `json:"binding"`
	Epoch     string `json:"epoch"`
	ExpiresAt string `json:"expiresAt"` // RFC 3339, UTC
	// Capability is the bound board's write capability: the page edits with it. This no-store answer
	// is the only way a paired page gets it; the invitation link carries no permanent secret.
	Capability string `json:"capability"`
}

func (g *Gateway) handlePair(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	if ps.ByName("binding") != "pair" {
		return errNoRoute
	}
	var body struct {
		Binding    string `json:"binding"`
		Invitation string `json:"invitation"`
	}
	if err := web.DecodeJSON(r, MaxPairBytes, &body); err != nil {
		return err
	}
	b := g.cfg.Binding
	cookie, expires, err := b.Redeem(body.Binding, body.Invitation)
	if err != nil {
		if errors.Is(err, pairing.ErrInvitationInvalid) {
			g.log.Info("chat: pairing refused")
		}
		return err
	}
	// Read after the redemption, so a rotation that finished before it is never handed out stale.
	capability, err := g.cfg.Capability()
	if err != nil { // ErrBoardDeleted, or an internal fault, logged by WriteError
		return err
	}
	g.log.Info("chat: browser paired")
	http.SetCookie(w, cookie)
	web.WriteJSON(w, http.StatusOK, pairResponse{
		Binding:    b.ID(),
		Epoch:      b.Epoch(),
		ExpiresAt:  expires.UTC().Format(time.RFC3339),
		Capability: capability,
	})
	return nil
}

// authorize admits a request to this binding's private routes: the path's binding must be this one
// (else 401, like a wrong cookie), the binding not revoked (410), and the cookie a live session (401).
func (g *Gateway) authorize(r *http.Request, ps httprouter.Params) (pairing.Session, error) {
	b := g.cfg.Binding
	if !b.MatchID(ps.ByName("binding")) {
		return pairing.Session{}, errNotPaired
	}
	if g.Revoked() {
		return pairing.Session{}, errRevoked
	}
	s, err := b.Session(r)
	switch {
	case errors.Is(err, pairing.ErrRevoked):
		return pairing.Session{}, errRevoked
	case err != nil:
		return pairing.Session{}, errNotPaired
	}
	return s, nil
}

func (g *Gateway) handleView(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	if _, err := g.authorize(r, ps); err != nil {
		return err
	}
	g.mu.Lock()
	doc := g.projectionDocLocked()
	g.mu.Unlock()
	web.WriteJSON(w, http.StatusOK, doc)
	return nil
}

func (g *Gateway) handleStatus(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	if _, err := g.authorize(r, ps); err != nil {
		return err
	}
	g.mu.Lock()
	doc := g.snapshot
	g.mu.Unlock()
	web.WriteJSON(w, http.StatusOK, doc)
	return nil
}

// handleEvents streams snapshots. The stream ends when its session expires (a timer set from the session's
// expiry), when the binding is revoked (CloseTopic), when the client leaves, or when the server shuts
// down.
func (g *Gateway) handleEvents(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	session, err := g.authorize(r, ps)
	if err != nil {
		return err
	}
	sub, first, err := g.first()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	expiry := time.AfterFunc(time.Until(session.ExpiresAt), cancel)
	defer expiry.Stop()
	g.cfg.Hub.Stream(w, r.WithContext(ctx), sub, first)
	return nil
}

func (g *Gateway) handleCommand(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	if !g.cfg.Binding.MatchID(ps.ByName("binding")) {
		return errNotPaired
	}
	if g.Revoked() {
		return errRevoked
	}
	if err := web.CheckJSONRequest(r, MaxCommandBytes); err != nil {
		return err
	}
	if _, err := g.authorize(r, ps); err != nil {
		return err
	}
	if ok, wait := g.limiter.Allow(g.cfg.Binding.ID()); !ok {
		return &rateLimitError{retryAfter: wait}
	}
	var c command
	if err := web.DecodeJSON(r, MaxCommandBytes, &c); err != nil {
		return err
	}
	if err := c.validate(); err != nil {
		return err
	}
	rec, act, watch, err := g.begin(&c)
	if err != nil {
		return err
	}
	switch act {
	case actSend, actAbort, actFollow:
		g.execute(r.Context(), &c, rec, act, watch)
	case actReplay:
		select {
		case <-rec.done:
		case <-r.Context().Done():
			return nil // the client left while the original was still out; it gets the receipt on retry
		}
	}
	return rec.write(w)
}
