// Package server is the one HTTP stack of `tele serve` and `tele host`: the loopback listener, the
// router with the board routes, the pages and the static files, the optional chat routes, the request
// guard of docs/security.md, panic recovery, the access log, and a graceful shutdown.
//
// Outermost first, every request passes: the body's read deadline → recovery and access log → web.Guard
// (headers, Host) → the router → the rules of the matched route's class (Fetch Metadata, preflight,
// Origin, page-only writes; Routes declares each route's class) → the route's own checks.
package server

import (
	"log/slog"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"tele/assets"
	"tele/band"
	"tele/board"
	"tele/board/boardhttp"
	"tele/board/store"
	"tele/chordpro"
	"tele/chordtext"
	"tele/ireal"
	"tele/setlist"
	"tele/sse"
	"tele/web"
)

// ChatRoutes registers the private chat routes of `tele host` (docs/api.md).
type ChatRoutes interface{ Register(r *web.Router) }

// Config is what Handler serves.
type Config struct {
	Store    *store.Store
	BoardHub *sse.Hub       // receives the store's commits (OpenStore wires it)
	Sets     *setlist.Store // nil serves no set routes (tests of other routes)
	Band     *band.Band     // the share; nil without --share (starting one is then 409 share_off)
	Assets   *assets.Assets // nil serves no pages and no static files (tests)
	Chat     ChatRoutes     // nil under `tele serve`: /api/capabilities says {"chat":false}
	Logger   *slog.Logger   // access log and errors; nil means slog.Default()
}

var (
	capsNoChat = []byte(`{"chat":false}`)
	capsChat   = []byte(`{"chat":true}`)

	errNotFound = web.NewError(http.StatusNotFound, "not_found", "no such route")
)

// Routes returns the route table of the loopback listener, each route with its class (web.Class): the
// pages and static files, the board, set and share routes, and the chat routes of `tele host`.
func Routes(cfg Config) *web.Router {
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	r := web.NewRouter(log)
	if a := cfg.Assets; a != nil {
		index, page, static := a.Page("index"), a.PageWith("board", firstView(cfg)), a.Static()
		boardPage := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !board.ValidID(httprouter.ParamsFromContext(r.Context()).ByName("board")) {
				notFound(w, r)
				return
			}
			page.ServeHTTP(w, r)
		})
		for _, m := range []string{http.MethodGet, http.MethodHead} {
			r.Handler(web.Page, m, "/", index)
			r.Handler(web.Page, m, "/b/:board", boardPage)
			r.Handler(web.Static, m, "/assets/*filepath", static)
		}
	}

	caps := capsNoChat
	if cfg.Chat != nil {
		caps = capsChat
	}
	r.Handle(web.Read, http.MethodGet, "/api/capabilities", func(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
		web.WriteJSON(w, http.StatusOK, caps)
	})
	boards := boardhttp.NewHandler(cfg.Store, cfg.BoardHub, log)
	boards.Register(r)
	boards.RegisterFormats(r, map[string]boardhttp.Format{
		"chordpro": {MediaType: "text/plain; charset=utf-8", Extension: ".cho", Write: chordpro.Write, Read: chordpro.ReadCharts},
		"ireal":    {MediaType: "text/plain; charset=utf-8", Extension: ".txt", Write: ireal.Write, Read: ireal.Read},
		"text":     {Read: chordtext.ReadCharts}, // chords over lyrics: import only
	})
	if cfg.Sets != nil {
		setlist.NewHandler(cfg.Sets, cfg.Store, cfg.BoardHub, log).Register(r)
	}
	band.NewLeader(cfg.Band, cfg.Store, cfg.Sets, log).Register(r)
	if cfg.Chat != nil {
		cfg.Chat.Register(r)
	}
	return r
}

// Handler returns the whole HTTP stack for a server listening on port (the port actually bound; the
// guard refuses any other in Host).
func Handler(cfg Config, port int) http.Handler {
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	guarded := web.Guard(web.GuardConfig{Port: port}, Routes(cfg))
	return bodyDeadline(BodyTimeout, accessLog(log, guarded))
}

// notFound answers every unknown path, page or API, with the API's JSON error: one error shape everywhere.
func notFound(w http.ResponseWriter, r *http.Request) {
	web.WriteError(w, r, errNotFound)
}
