// Package server is the one HTTP stack of `tele serve` and `tele host`: the loopback listener, the
// router with the board routes, the pages and the static files, the optional chat routes, the request
// guard of docs/security.md, panic recovery, the access log, and a graceful shutdown.
//
// Outermost first, every request passes: the body's read deadline → recovery and access log → web.Guard (headers, Host, Fetch
// Metadata, preflight) → the router → the route's own checks.
package server

import (
	"log/slog"
	"net/http"
	"slices"
	"strings"

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
type ChatRoutes interface{ Register(r *httprouter.Router) }

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
	errMethod   = web.NewError(http.StatusMethodNotAllowed, "method_not_allowed",
		"this route does not take that method")
)

// isPage reports whether path is one of the pages (an HTML document a link from elsewhere may open):
// "/" and "/b/<board>".
func isPage(path string) bool {
	return path == "/" || (strings.HasPrefix(path, "/b/") && len(path) > len("/b/") &&
		!strings.Contains(path[len("/b/"):], "/"))
}

// originRequired reports whether a request must carry this server's Origin: the chat POSTs, which only
// the paired page makes (docs/security.md). The guard asks it for unsafe methods only.
func originRequired(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/api/chat/")
}

// Handler returns the whole HTTP stack for a server listening on port (the port actually bound; the
// guard refuses any other in Host).
func Handler(cfg Config, port int) http.Handler {
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	r := httprouter.New()
	// Only explicit matches (docs/api.md lists every route): no redirects to a cleaned or case-folded path,
	// or to one with or without a trailing slash, so a path reaches exactly one handler or none.
	r.RedirectTrailingSlash = false
	r.RedirectFixedPath = false
	// No automatic OPTIONS answers: there is no CORS (the guard refuses every OPTIONS before routing).
	r.HandleOPTIONS = false
	// 405 with Allow for a known path with another method, in the API's JSON error shape.
	r.HandleMethodNotAllowed = true
	r.MethodNotAllowed = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The router lists OPTIONS in Allow, but the guard refuses every OPTIONS request.
		h := w.Header()
		allow := strings.Split(h.Get("Allow"), ", ")
		h.Set("Allow", strings.Join(slices.DeleteFunc(allow, func(m string) bool { return m == http.MethodOptions }), ", "))
		web.WriteError(w, r, errMethod)
	})
	r.NotFound = http.HandlerFunc(notFound)
	// Panics are recovered by the outermost layer (it also covers the guard), not by the router.
	r.PanicHandler = nil

	if a := cfg.Assets; a != nil {
		index, page, static := a.Page("index"), a.Page("board"), a.Static()
		boardPage := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !board.ValidID(httprouter.ParamsFromContext(r.Context()).ByName("board")) {
				notFound(w, r)
				return
			}
			page.ServeHTTP(w, r)
		})
		for _, m := range []string{http.MethodGet, http.MethodHead} {
			r.Handler(m, "/", index)
			r.Handler(m, "/b/:board", boardPage)
			r.Handler(m, "/assets/*filepath", static)
		}
	}

	caps := capsNoChat
	if cfg.Chat != nil {
		caps = capsChat
	}
	r.GET("/api/capabilities", func(w http.ResponseWriter, r *http.Request, _ httprouter.Params) {
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

	guarded := web.Guard(web.GuardConfig{Port: port, IsPage: isPage, OriginRequired: originRequired, Logger: log}, r)
	return bodyDeadline(BodyTimeout, accessLog(log, guarded))
}

// notFound answers every unknown path, page or API, with the API's JSON error: one error shape everywhere.
func notFound(w http.ResponseWriter, r *http.Request) {
	web.WriteError(w, r, errNotFound)
}
