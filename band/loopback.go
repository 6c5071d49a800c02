package band

import (
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strconv"

	"github.com/julienschmidt/httprouter"
	"rsc.io/qr"

	"tele/board"
	"tele/board/boardhttp"
	"tele/board/store"
	"tele/setlist"
	"tele/sse"
	"tele/web"
)

// Limits of the loopback routes.
const (
	// MaxStateBytes bounds a state body: a board id, a set id and a transport.
	MaxStateBytes = 4 << 10
)

// Leader serves the share routes of the loopback listener (docs/api.md). Band is nil when Tele runs
// without --share: starting a share is then 409 share_off.
type Leader struct {
	band    *Band
	boards  *store.Store
	sets    *setlist.Store // nil: a state naming a set is refused
	log     *slog.Logger
	creates *web.Limiter
	writes  *web.Limiter
}

// NewLeader returns the loopback share routes over b (nil without --share).
func NewLeader(b *Band, boards *store.Store, sets *setlist.Store, log *slog.Logger) *Leader {
	if log == nil {
		log = slog.Default()
	}
	return &Leader{band: b, boards: boards, sets: sets, log: log,
		creates: web.NewLimiter(boardhttp.CreateEvery, boardhttp.CreateBurst),
		writes:  web.NewLimiter(boardhttp.WriteEvery, boardhttp.WriteBurst)}
}

// Register adds the share routes to the loopback router.
func (l *Leader) Register(r *web.Router) {
	r.Handle(web.PageWrite, "POST", "/api/share", l.handle(l.start))
	r.Handle(web.PageWrite, "POST", "/api/share/claim", l.handle(l.claim))
	r.Handle(web.Read, "GET", "/api/share/events", l.handle(l.leader(l.events)))
	r.Handle(web.Read, "GET", "/api/share", l.handle(l.leader(l.get)))
	r.Handle(web.Write, "DELETE", "/api/share", l.handle(l.leader(l.stop)))
	r.Handle(web.Read, "GET", "/api/share/qr", l.handle(l.leader(l.qr)))
	r.Handle(web.Write, "POST", "/api/share/key", l.handle(l.leader(l.newKey)))
	r.Handle(web.Write, "POST", "/api/share/lead", l.handle(l.leader(l.handOver)))
	r.Handle(web.Write, "POST", "/api/share/state", l.handle(l.leader(l.setState)))
}

func (l *Leader) handle(f web.ErrorRoute) httprouter.Handle { return web.Handle(httpError, f) }

var (
	errShareOff = web.NewError(http.StatusConflict, "share_off",
		"sharing with the band needs tele serve --share (or tele host --share)")
	errNoLeader = web.NewError(http.StatusUnauthorized, "unauthorized",
		"leading the band needs the leader token: Authorization: Bearer <leader>")
	errNotLeader = web.NewError(http.StatusForbidden, "not_leader",
		"this page does not lead the band: sharing stopped, or another page took the lead")
)

// httpError maps the package's errors to the API's.
func httpError(err error) error {
	switch {
	case errors.Is(err, ErrNotSharing), errors.Is(err, ErrNotLeader):
		return errNotLeader
	case errors.Is(err, ErrBadKey):
		return web.NewError(http.StatusForbidden, "bad_key", "this join link no longer works: ask the leader for the new one")
	case errors.Is(err, ErrNotFollower):
		return web.NewError(http.StatusUnauthorized, "unauthorized", "open the band's join link first")
	case errors.Is(err, ErrTooManyJoins), errors.Is(err, sse.ErrTooManyStreams):
		return web.NewError(http.StatusTooManyRequests, "rate_limited", "too many devices follow this band already")
	}
	return err
}

// leader wraps a route that needs the leader token (checked in constant time) and a live share.
func (l *Leader) leader(f func(w http.ResponseWriter, r *http.Request, leader string) error) web.ErrorRoute {
	return func(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
		if l.band == nil {
			return errShareOff
		}
		token, ok := boardhttp.BearerToken(r.Header)
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="tele"`)
			return errNoLeader
		}
		if err := l.band.Authorize(token); err != nil {
			return err
		}
		return f(w, r, token)
	}
}

// start handles POST /api/share {} as a board is created (fromPage). 201 answers the join link and the
// leader token.
func (l *Leader) start(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	if err := l.fromPage(r, "sharing started too often in a short time; retry later"); err != nil {
		return err
	}
	join, leader := l.band.Start()
	l.log.Info("band: sharing started", "addr", l.band.Addr())
	writeLead(w, http.StatusCreated, join, leader)
	return nil
}

// fromPage checks what starting a share and claiming one ask, as creating a board does: --share, a
// strict empty body, the creation rate (tooOften says so past it). That the request comes from this
// server's own pages is the guard's check of their route class (web.PageWrite).
func (l *Leader) fromPage(r *http.Request, tooOften string) error {
	if l.band == nil {
		return errShareOff
	}
	var req struct{}
	if err := web.DecodeJSON(r, 1<<10, &req); err != nil {
		return err
	}
	if ok, wait := l.creates.Allow(""); !ok {
		return &web.Error{Status: http.StatusTooManyRequests, Code: "rate_limited", Message: tooOften, RetryAfter: wait}
	}
	return nil
}

// writeLead answers {"joinUrl", "leader"}.
func writeLead(w http.ResponseWriter, status int, join, leader string) {
	body := append([]byte(`{"joinUrl":`), strconv.Quote(join)...)
	body = append(append(append(body, `,"leader":`...), strconv.Quote(leader)...), '}')
	writeBody(w, status, "application/json", body)
}

// claim handles POST /api/share/claim {} under start's rules (fromPage): the lead of a share no page leads (its
// page closed without stopping), with the same join link and followers. 200 answers the join link and
// a new leader token; 409 leading while a page leads (it hands over), 409 not_sharing when nothing is.
func (l *Leader) claim(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	if err := l.fromPage(r, "the lead was claimed too often in a short time; retry later"); err != nil {
		return err
	}
	join, leader, err := l.band.Claim()
	switch {
	case errors.Is(err, ErrNotSharing):
		return web.NewError(http.StatusConflict, "not_sharing", "nothing is shared with the band: start with Share with the band")
	case errors.Is(err, ErrLeading):
		return web.NewError(http.StatusConflict, "leading", "another page leads the band: it hands the lead over when asked")
	case err != nil:
		return err
	}
	l.log.Info("band: the lead was claimed")
	writeLead(w, http.StatusOK, join, leader)
	return nil
}

// events handles GET /api/share/events, the leading page's stream: held open while the page leads, so
// the server knows a page leads (Claim refuses) and when it is gone. The state at once; `ended` when
// the lead moves or sharing stops.
func (l *Leader) events(w http.ResponseWriter, r *http.Request, leader string) error {
	sub, first, topic, err := l.band.leadStream(leader)
	if err == nil {
		l.band.hub.Stream(w, r, sub, first)
		l.band.leaderLeft(topic)
	}
	return err
}

// get handles GET /api/share: the state as followers see it, with their number.
func (l *Leader) get(w http.ResponseWriter, _ *http.Request, leader string) error {
	data, err := l.band.StateJSON(leader)
	if err != nil {
		return err
	}
	writeBody(w, http.StatusOK, "application/json", data)
	return nil
}

// stop handles DELETE /api/share: every follower's stream ends and its cookie stops working.
func (l *Leader) stop(w http.ResponseWriter, r *http.Request, leader string) error {
	if r.ContentLength != 0 {
		return web.NewError(http.StatusBadRequest, "bad_json", "stopping takes no body")
	}
	if err := l.band.Stop(leader); err != nil {
		return err
	}
	l.log.Info("band: sharing stopped")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// qr handles GET /api/share/qr: the join link as a PNG QR code (medium error correction, which a
// phone reads off a laptop screen at arm's length).
func (l *Leader) qr(w http.ResponseWriter, _ *http.Request, leader string) error {
	join, err := l.band.JoinURL(leader)
	if err != nil {
		return err
	}
	code, err := qr.Encode(join, qr.M)
	if err != nil {
		return err
	}
	writeBody(w, http.StatusOK, "image/png", code.PNG())
	return nil
}

// newKey handles POST /api/share/key {}: a new join link; the followers of the old one are dropped.
func (l *Leader) newKey(w http.ResponseWriter, r *http.Request, leader string) error {
	var req struct{}
	if err := web.DecodeJSON(r, 1<<10, &req); err != nil {
		return err
	}
	join, err := l.band.NewKey(leader)
	if err != nil {
		return err
	}
	l.log.Info("band: new join key")
	writeBody(w, http.StatusOK, "application/json", append(append([]byte(`{"joinUrl":`), strconv.Quote(join)...), '}'))
	return nil
}

// handOver handles POST /api/share/lead {}: a new leader token for the page that takes the lead; the
// old one stops working at once.
func (l *Leader) handOver(w http.ResponseWriter, r *http.Request, leader string) error {
	var req struct{}
	if err := web.DecodeJSON(r, 1<<10, &req); err != nil {
		return err
	}
	next, err := l.band.HandOver(leader)
	if err != nil {
		return err
	}
	writeBody(w, http.StatusOK, "application/json", append(append([]byte(`{"leader":`), strconv.Quote(next)...), '}'))
	return nil
}

func invalidState(path, rule string) *web.Error {
	return &web.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_state",
		Message: "the band state is not valid at " + path + ": " + rule, Fields: map[string]any{"path": path, "rule": rule}}
}

// setState handles POST /api/share/state {"board", "set"?, "transport"?}: the board must exist, the set
// too and hold the board; a transport's tempo is a board's (30–300), its times and bar not negative.
func (l *Leader) setState(w http.ResponseWriter, r *http.Request, leader string) error {
	var st State
	if err := web.DecodeJSON(r, MaxStateBytes, &st); err != nil {
		return err
	}
	if _, err := l.boards.Get(st.Board); !board.ValidID(st.Board) || err != nil {
		return invalidState("board", "names no board")
	}
	if st.Set != "" {
		set, err := l.getSet(st.Set)
		if err != nil {
			return invalidState("set", "names no set")
		}
		if !slices.Contains(set.Boards, st.Board) {
			return invalidState("board", "is not in the set")
		}
	}
	if t := st.Transport; t != nil {
		switch {
		case t.Tempo < board.MinTempo || t.Tempo > board.MaxTempo:
			return invalidState("transport.tempo", "must be an integer from 30 to 300")
		case t.StartedAt < 0:
			return invalidState("transport.startedAt", "must be a time on the server's clock, in ms")
		case t.From != nil && *t.From < 0:
			return invalidState("transport.from", "must be a bar number from 0")
		}
	}
	if ok, wait := l.writes.Allow(""); !ok {
		return &web.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
			Message: "the band state changed too often; retry later", RetryAfter: wait}
	}
	data, err := l.band.SetState(leader, st)
	if err != nil {
		return err
	}
	writeBody(w, http.StatusOK, "application/json", data)
	return nil
}

func (l *Leader) getSet(id string) (setlist.Set, error) {
	if l.sets == nil {
		return setlist.Set{}, setlist.ErrNotFound
	}
	return l.sets.Get(id)
}

func writeBody(w http.ResponseWriter, status int, ctype string, body []byte) {
	hdr := w.Header()
	hdr["Content-Type"] = []string{ctype}
	hdr["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
