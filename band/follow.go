package band

import (
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/julienschmidt/httprouter"

	"tele/board"
	"tele/board/store"
	"tele/setlist"
	"tele/web"
)

// CookieName is the follower's cookie: a session cookie (no Max-Age), HttpOnly, SameSite=Strict,
// Path=/, and not Secure (plain HTTP on the LAN: a Secure cookie would never come back).
const CookieName = "tele_band"

// Pages is what the share listener serves besides the API: the join page, the follow page (/) and the
// static files. A nil handler serves nothing there (tests of the API).
type Pages struct {
	Join, Follow, Static http.Handler
}

// FollowRoutes returns the share listener's routes (docs/band.md): the join, the follower's reads and
// the pages, and nothing else. Every other path and method is 404: no write, no chat, no history, no
// board list, no capability. The guard and the access log are the caller's (server); log receives the
// guard's refusals.
func FollowRoutes(b *Band, boards *store.Store, sets *setlist.Store, pages Pages, log *slog.Logger) *web.Router {
	f := &follow{band: b, boards: boards, sets: sets, fails: web.NewLimiter(JoinEvery, JoinBurst)}
	r := web.NewRouter(log)
	r.NotFoundForOtherMethods() // another method on a known path is as unknown as any other path
	r.Handle(web.Write, "POST", "/api/join", f.handle(f.join))
	r.Handle(web.Read, "GET", "/api/band", f.handle(f.follower(f.state)))
	r.Handle(web.Read, "GET", "/api/band/time", f.handle(f.follower(f.time)))
	r.Handle(web.Read, "GET", "/api/band/events", f.handle(f.follower(f.events)))
	r.Handle(web.Read, "GET", "/api/band/boards/:board", f.handle(f.follower(f.board)))
	for _, m := range []string{http.MethodGet, http.MethodHead} {
		if pages.Follow != nil {
			r.Handler(web.Page, m, "/", pages.Follow)
		}
		if pages.Join != nil {
			r.Handler(web.Page, m, "/join", pages.Join)
		}
		if pages.Static != nil {
			r.Handler(web.Static, m, "/assets/*filepath", pages.Static)
		}
	}
	return r
}

var errNotFound = web.NewError(http.StatusNotFound, "not_found", "no such route")

type follow struct {
	band   *Band
	boards *store.Store
	sets   *setlist.Store
	fails  *web.Limiter // failed joins per remote address
}

func (f *follow) handle(fn web.ErrorRoute) httprouter.Handle { return web.Handle(httpError, fn) }

// follower wraps a route for joined devices: the cookie must be one of the current key's.
func (f *follow) follower(fn func(http.ResponseWriter, *http.Request, httprouter.Params, string) error) web.ErrorRoute {
	return func(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
		c, err := r.Cookie(CookieName)
		if err != nil {
			return ErrNotFollower
		}
		if _, _, err := f.band.follower(c.Value); err != nil {
			return err
		}
		return fn(w, r, ps, c.Value)
	}
}

// join handles POST /api/join {"key"}: 204 and the cookie for the current key; another key is 403
// bad_key (also when nothing is shared: the same answer), and failures from one address beyond a
// burst of 5, then one per 10 s, are 429. The right key always joins: a throttle that refused it would
// let any device on the network lock the band out.
func (f *follow) join(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req struct {
		Key string `json:"key"`
	}
	if err := web.DecodeJSON(r, 1<<10, &req); err != nil {
		return err
	}
	cookie, err := f.band.Join(req.Key)
	if err == ErrBadKey {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		if ok, wait := f.fails.Allow(host); !ok {
			return &web.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
				Message: "too many wrong join keys; retry later", RetryAfter: wait}
		}
	}
	if err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: cookie, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// state handles GET /api/band: the board, set and transport the leader shares, the server's time and
// the number of followers.
func (f *follow) state(w http.ResponseWriter, _ *http.Request, _ httprouter.Params, cookie string) error {
	data, err := f.band.followerState(cookie)
	if err != nil {
		return err
	}
	writeBody(w, http.StatusOK, "application/json", data)
	return nil
}

// time handles GET /api/band/time: the server's clock in ms, for a follower to estimate its offset
// (it halves the round trip).
func (f *follow) time(w http.ResponseWriter, _ *http.Request, _ httprouter.Params, _ string) error {
	body := strconv.AppendInt([]byte(`{"serverTime":`), time.Now().UnixMilli(), 10)
	writeBody(w, http.StatusOK, "application/json", append(body, '}'))
	return nil
}

// events handles GET /api/band/events: the state at once, then every change of it, and the current
// board's whole content on every commit. The stream ends when sharing stops or the key changes.
func (f *follow) events(w http.ResponseWriter, r *http.Request, _ httprouter.Params, cookie string) error {
	sub, first, topic, err := f.band.subscribe(cookie)
	if err != nil {
		return err // sse.ErrTooManyStreams: 429, as too many joins (httpError)
	}
	f.band.hub.Stream(w, r, sub, first)
	f.band.followersChanged(topic)
	return nil
}

// board handles GET /api/band/boards/:board: only the board shared now, or one of the current set.
func (f *follow) board(w http.ResponseWriter, _ *http.Request, ps httprouter.Params, cookie string) error {
	id := ps.ByName("board")
	st, err := f.band.current(cookie)
	if err != nil {
		return err
	}
	allowed := id == st.Board
	if !allowed && st.Set != "" && f.sets != nil {
		if set, err := f.sets.Get(st.Set); err == nil {
			allowed = slices.Contains(set.Boards, id)
		}
	}
	if !allowed || !board.ValidID(id) {
		return errNotFound
	}
	bd, err := f.boards.Get(id)
	if err != nil {
		return errNotFound
	}
	writeBody(w, http.StatusOK, "application/json", bd.JSON())
	return nil
}
