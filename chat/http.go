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

var (
	errUnauthorized = web.NewError(http.StatusUnauthorized, "unauthorized",
		"pair this browser with the link Pi shows after /tele <board>")
	errInvitationInvalid = web.NewError(http.StatusForbidden, "invitation_invalid",
		"this invitation is not valid; run /tele <board> in Pi for a new one")
	errTooManyStreams = web.NewError(http.StatusTooManyRequests, "too_many_streams",
		"this chat already has as many open streams as it allows; close a tab")
	errUnavailable = web.NewError(http.StatusServiceUnavailable, "unavailable",
		"the server is shutting down")
	errNotFound = web.NewError(http.StatusNotFound, "not_found", "no such route")
)

// Register adds the chat routes (docs/api.md):
//
//	POST /api/chat/pair                 pair with an invitation → 200 {binding, epoch, expiresAt, capability} + cookie
//	GET  /api/chat/:binding             the display projection
//	GET  /api/chat/:binding/status      the projection with status, runId and notice
//	GET  /api/chat/:binding/events      SSE: a `snapshot` first, then one after every change
//	POST /api/chat/:binding/command     send or abort
//
// httprouter v1.3.0 cannot hold /api/chat/pair beside /api/chat/:binding, so the pairing route is
// POST /api/chat/:binding with the binding "pair" (never a real binding id). The server's web.Guard runs
// before these (Host, Fetch Metadata, preflight, headers).
func (g *Gateway) Register(r *httprouter.Router) {
	r.POST("/api/chat/:binding", g.handlePair)
	r.GET("/api/chat/:binding", g.handleView)
	r.GET("/api/chat/:binding/status", g.handleStatus)
	r.GET("/api/chat/:binding/events", g.handleEvents)
	r.POST("/api/chat/:binding/command", g.handleCommand)
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

func (g *Gateway) handlePair(w http.ResponseWriter, r *http.Request, ps httprouter.Params) {
	if ps.ByName("binding") != "pair" {
		web.WriteError(w, r, errNotFound)
		return
	}
	var body struct {
		Binding    string `json:"binding"`
		Invitation string `json:"invitation"`
	}
	if err := web.DecodeJSON(r, MaxPairBytes, &body); err != nil {
		web.WriteError(w, r, err)
		return
	}
	b := g.cfg.Binding
	cookie, expires, err := b.Redeem(body.Binding, body.Invitation)
	if err != nil {
		if rl, ok := errors.AsType[*pairing.RateLimitError](err); ok {
			web.WriteError(w, r, &web.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
				Message: "too many failed pairing attempts; wait and try again", RetryAfter: rl.RetryAfter})
			return
		}
		if errors.Is(err, pairing.ErrInvitationInvalid) {
			g.log.Info("chat: pairing refused")
			web.WriteError(w, r, errInvitationInvalid)
			return
		}
		web.WriteError(w, r, err)
		return
	}
	// Read after the redemption, so a rotation that finished before it is never handed out stale.
	capability, err := g.cfg.Capability()
	if err != nil { // the store never forgets a board: this is an internal fault, logged by WriteError
		web.WriteError(w, r, err)
		return
	}
	g.log.Info("chat: browser paired")
	http.SetCookie(w, cookie)
	web.WriteJSON(w, http.StatusOK, pairResponse{
		Binding:    b.ID(),
		Epoch:      b.Epoch(),
		ExpiresAt:  expires.UTC().Format(time.RFC3339),
		Capability: capability,
	})
}

// authorize admits a request to this binding's private routes: the path's binding must be this one
// (else 401, like a wrong cookie), the binding not revoked (410), and the cookie a live session (401).
func (g *Gateway) authorize(r *http.Request, ps httprouter.Params) (pairing.Session, error) {
	b := g.cfg.Binding
	if !b.MatchID(ps.ByName("binding")) {
		return pairing.Session{}, errUnauthorized
	}
	if g.Revoked() {
		return pairing.Session{}, errRevoked
	}
	s, err := b.Session(r)
	switch {
	case errors.Is(err, pairing.ErrRevoked):
		return pairing.Session{}, errRevoked
	case err != nil:
		return pairing.Session{}, errUnauthorized
	}
	return s, nil
}

func (g *Gateway) handleView(w http.ResponseWriter, r *http.Request, ps httprouter.Params) {
	if _, err := g.authorize(r, ps); err != nil {
		web.WriteError(w, r, err)
		return
	}
	g.mu.Lock()
	doc := g.projectionDocLocked()
	g.mu.Unlock()
	web.WriteJSON(w, http.StatusOK, doc)
}

func (g *Gateway) handleStatus(w http.ResponseWriter, r *http.Request, ps httprouter.Params) {
	if _, err := g.authorize(r, ps); err != nil {
		web.WriteError(w, r, err)
		return
	}
	g.mu.Lock()
	doc := g.snapshot
	g.mu.Unlock()
	web.WriteJSON(w, http.StatusOK, doc)
}

// handleEvents streams snapshots. The stream ends when its session expires (a timer on the gateway's
// clock), when the binding is revoked (CloseTopic), when the client leaves, or when the server shuts
// down.
func (g *Gateway) handleEvents(w http.ResponseWriter, r *http.Request, ps httprouter.Params) {
	session, err := g.authorize(r, ps)
	if err != nil {
		web.WriteError(w, r, err)
		return
	}
	sub, first, err := g.first()
	if err != nil {
		web.WriteError(w, r, err)
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	expiry := time.AfterFunc(time.Until(session.ExpiresAt), cancel)
	defer expiry.Stop()
	g.cfg.Hub.Stream(w, r.WithContext(ctx), sub, first)
}

func (g *Gateway) handleCommand(w http.ResponseWriter, r *http.Request, ps httprouter.Params) {
	if !g.cfg.Binding.MatchID(ps.ByName("binding")) {
		web.WriteError(w, r, errUnauthorized)
		return
	}
	if g.Revoked() {
		web.WriteError(w, r, errRevoked)
		return
	}
	if err := web.CheckJSONRequest(r, MaxCommandBytes); err != nil {
		web.WriteError(w, r, err)
		return
	}
	if _, err := g.authorize(r, ps); err != nil {
		web.WriteError(w, r, err)
		return
	}
	if ok, wait := g.limiter.Allow(g.cfg.Binding.ID()); !ok {
		e := *errRateLimited
		e.RetryAfter = wait
		web.WriteError(w, r, &e)
		return
	}
	var c command
	if err := web.DecodeJSON(r, MaxCommandBytes, &c); err != nil {
		web.WriteError(w, r, err)
		return
	}
	if err := c.validate(); err != nil {
		web.WriteError(w, r, err)
		return
	}
	rec, act, watch, err := g.begin(&c)
	if err != nil {
		web.WriteError(w, r, err)
		return
	}
	switch act {
	case actSend, actAbort, actFollow:
		g.execute(r.Context(), &c, rec, act, watch)
	case actReplay:
		select {
		case <-rec.done:
		case <-r.Context().Done():
			return // the client left while the original was still out; it gets the receipt on retry
		}
	}
	rec.write(w, r)
}
