package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/julienschmidt/httprouter"
)

// Class is what a route is to the guard (docs/security.md): who may reach it, and how. Every route is
// registered with its class, and the guard applies the class's rules to a request before the route
// runs, so the rules live where the route is declared and a new route cannot be added without them.
type Class uint8

const (
	_ Class = iota // no class: a request that matches no route (answered 404 or 405)
	// Page is an HTML document (GET, HEAD): the one kind of request a link from elsewhere may make, as
	// a top-level navigation.
	Page
	// Static is a file of the user interface (GET, HEAD): read like the API.
	Static
	// Read is a read of the API (GET, HEAD): anyone on this machine, and no other site.
	Read
	// Write is a write a secret authorizes (a board's or a set's capability, a claim code, the leader
	// token, the band's join key): an unsafe method; a present Origin must be this server's.
	Write
	// PageWrite is a write only this server's own pages make (a creation, which spends the server's
	// budget and answers a capability): as Write, and a present Sec-Fetch-Site must be same-origin
	// (not none, which no page sends). Clients without Fetch Metadata (curl, Pi) pass.
	PageWrite
	// Chat is a write of the paired chat page (pairing, commands): as Write, and the Origin is required.
	Chat
)

var classNames = [...]string{"none", "page", "static", "read", "write", "page-write", "chat"}

func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return fmt.Sprintf("Class(%d)", c)
}

// safe reports whether the class's routes only read (GET, HEAD).
func (c Class) safe() bool { return c == Page || c == Static || c == Read }

// Route is one registered route: its class, method and path pattern.
type Route struct {
	Class  Class
	Method string
	Path   string
}

// Router is the route table of one listener, behind the guard (Guard): httprouter, with only explicit
// matches and the API's JSON error for an unknown path or method.
type Router struct {
	mux    *httprouter.Router
	routes []Route
	log    *slog.Logger
}

var (
	errNoRoute  = NewError(http.StatusNotFound, "not_found", "no such route")
	errNoMethod = NewError(http.StatusMethodNotAllowed, "method_not_allowed", "this route does not take that method")
)

// NewRouter returns an empty route table. log receives a debug line for every refusal of the guard;
// nil means slog.Default(). A request that matches no route passes the guard's rules for no class
// (no other site, no preflight, a present Origin must be ours) and is then 404 not_found, or 405
// method_not_allowed with Allow for a known path asked with another method.
func NewRouter(log *slog.Logger) *Router {
	if log == nil {
		log = slog.Default()
	}
	rt := &Router{mux: httprouter.New(), log: log}
	m := rt.mux
	// Only explicit matches (docs/api.md lists every route): no redirects to a cleaned or case-folded
	// path, or to one with or without a trailing slash, so a path reaches exactly one handler or none.
	m.RedirectTrailingSlash = false
	m.RedirectFixedPath = false
	// No automatic OPTIONS answers: there is no CORS (the guard refuses every OPTIONS).
	m.HandleOPTIONS = false
	m.HandleMethodNotAllowed = true
	m.MethodNotAllowed = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The router has set Allow: a refusal carries none, and 405 lists no OPTIONS, which the guard
		// refuses on every path.
		h := w.Header()
		allow := strings.Split(h.Get("Allow"), ", ")
		h.Del("Allow")
		if rt.refused(w, r, 0) {
			return
		}
		h.Set("Allow", strings.Join(slices.DeleteFunc(allow, func(m string) bool { return m == http.MethodOptions }), ", "))
		WriteError(w, r, errNoMethod)
	})
	m.NotFound = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !rt.refused(w, r, 0) {
			WriteError(w, r, errNoRoute)
		}
	})
	// Panics are recovered by the server's outermost layer, not by the router.
	m.PanicHandler = nil
	return rt
}

// NotFoundForOtherMethods makes a known path asked with another method as unknown as any other path:
// 404, with no Allow to list what the path takes (the share listener).
func (rt *Router) NotFoundForOtherMethods() { rt.mux.HandleMethodNotAllowed = false }

// Handle registers h for method and path (an httprouter pattern) as a route of class c. It panics when
// c is not a class or does not fit the method (a read class with an unsafe method, a write class with a
// safe one), or when httprouter refuses the pattern: a route table is built at startup, and every test
// of the server builds it.
func (rt *Router) Handle(c Class, method, path string, h httprouter.Handle) {
	if c == 0 || int(c) >= len(classNames) {
		panic(fmt.Sprintf("web: route %s %s registered without a class", method, path))
	}
	if c.safe() != !isUnsafe(method) || method == http.MethodOptions {
		panic(fmt.Sprintf("web: route %s %s cannot be of class %s", method, path, c))
	}
	rt.routes = append(rt.routes, Route{Class: c, Method: method, Path: path})
	rt.mux.Handle(method, path, func(w http.ResponseWriter, r *http.Request, ps httprouter.Params) {
		if !rt.refused(w, r, c) {
			h(w, r, ps)
		}
	})
}

// Handler registers h as Handle does; the route's parameters are in its request's context
// (httprouter.ParamsFromContext).
func (rt *Router) Handler(c Class, method, path string, h http.Handler) {
	rt.Handle(c, method, path, func(w http.ResponseWriter, r *http.Request, ps httprouter.Params) {
		if len(ps) > 0 {
			r = r.WithContext(context.WithValue(r.Context(), httprouter.ParamsKey, ps))
		}
		h.ServeHTTP(w, r)
	})
}

// Routes returns the route table, in the order of registration.
func (rt *Router) Routes() []Route { return slices.Clone(rt.routes) }

// refused applies the rules of class c (docs/security.md) to r and answers the refusal, if any:
//
//  1. Sec-Fetch-Site cross-site or same-site (or an unknown value) is 403 cross_site, except a
//     top-level GET navigation (Sec-Fetch-Mode navigate and Sec-Fetch-Dest document) to a Page, so a
//     board link from elsewhere opens but no other site can read or write the API. Same-site matters
//     on loopback: every other local server (any port on 127.0.0.1) is same-site. Requests without
//     Fetch Metadata (curl, Pi, old browsers) and with same-origin or none (typed URL, bookmark) pass;
//  2. every OPTIONS request is 403 preflight_refused: there is no CORS, so a preflight never succeeds
//     and no Access-Control-* header is ever written;
//  3. every unsafe method (POST, PUT, DELETE, ...) is 403 bad_origin when its Origin is present and
//     not exactly "http://" + Host, or missing on a Chat route;
//  4. a PageWrite whose Sec-Fetch-Site is present and not same-origin is 403 cross_site.
func (rt *Router) refused(w http.ResponseWriter, r *http.Request, c Class) bool {
	var refusal *Error
	switch {
	case !fetchAllowed(r, c):
		refusal = errCrossSite
	case r.Method == http.MethodOptions:
		refusal = errPreflight
	case isUnsafe(r.Method):
		if refusal = checkOrigin(r, c == Chat); refusal == nil && c == PageWrite {
			if site := r.Header["Sec-Fetch-Site"]; len(site) > 0 && site[0] != "same-origin" {
				refusal = errNotFromPage
			}
		}
	}
	if refusal == nil {
		return false
	}
	rt.log.Debug("request refused", "code", refusal.Code, "method", r.Method, "path", LogPath(r.URL.Path))
	refusal.write(w)
	return true
}

func fetchAllowed(r *http.Request, c Class) bool {
	switch first(r.Header["Sec-Fetch-Site"]) {
	case "", "same-origin", "none":
		return true
	}
	// cross-site, same-site or a value this server does not know: only a top-level page navigation.
	return c == Page && r.Method == http.MethodGet &&
		first(r.Header["Sec-Fetch-Mode"]) == "navigate" &&
		first(r.Header["Sec-Fetch-Dest"]) == "document"
}
