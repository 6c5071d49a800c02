package web

import (
	"net/http"
	"strconv"
	"strings"
)

// CSP is the Content-Security-Policy of every page and asset (docs/security.md): nothing inline, everything from
// this origin only, no framing, no <base>. The assets package serves its pages under the same policy.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
	"media-src 'self'; img-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; " +
	"form-action 'self'; frame-ancestors 'none'"

// APICSP is the policy of every /api/ response: JSON and event streams never load anything, so nothing is
// allowed at all. Should a browser ever render one as a document, it can run, load and frame nothing;
// it is stricter than CSP and a third of its size on the hottest responses.
const APICSP = "default-src 'none'; frame-ancestors 'none'"

// The security headers, as header-map values. They are shared by every response and never modified:
// assigning a shared one-element slice (len == cap, so an Add copies) saves an allocation per header
// per request over Header.Set.
var (
	hdrCSP      = []string{CSP}
	hdrAPICSP   = []string{APICSP}
	hdrNosniff  = []string{"nosniff"}
	hdrReferrer = []string{"no-referrer"}
	hdrSameOrig = []string{"same-origin"}
	hdrNoStore  = []string{"no-store"}
)

// GuardConfig configures Guard.
type GuardConfig struct {
	// Port is the port actually served (after a listen on port 0, the one the OS chose). Only requests
	// whose Host names a loopback authority with this port pass.
	Port int
	// Host, when set, is the one Host accepted instead of the loopback names: the share listener's
	// <ip>:<port> (docs/band.md), which a follower's browser sends. Port is then unused.
	Host string
}

// Guard applies docs/security.md to every request before a route of routes sees it:
//
//  1. headers first, so every response, refusals included, carries them: the CSP, nosniff,
//     Referrer-Policy no-referrer, Cross-Origin-Opener-Policy and Cross-Origin-Resource-Policy
//     same-origin, and Cache-Control no-store under /api/;
//  2. Host must be 127.0.0.1:<port>, localhost:<port> or [::1]:<port>, else 421 misdirected_request: a
//     DNS-rebinding page reaches this listener under its own name and is refused before any handler;
//  3. then the rules of the class of the route the request matches (Class, Router.refused: Fetch
//     Metadata, preflight, Origin, page-only writes), or of no class when it matches none: the class
//     is declared where the route is registered, so a route added later cannot forget them.
func Guard(cfg GuardConfig, routes *Router) http.Handler {
	port := strconv.Itoa(cfg.Port)
	g := &guard{
		routes: routes,
		hosts:  []string{"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port},
	}
	if cfg.Host != "" {
		g.hosts = []string{cfg.Host}
	}
	return g
}

type guard struct {
	routes *Router
	hosts  []string
}

var (
	errMisdirected = NewError(http.StatusMisdirectedRequest, "misdirected_request",
		"this server answers only to 127.0.0.1, localhost and [::1] on its own port")
	errCrossSite = NewError(http.StatusForbidden, "cross_site",
		"cross-site requests are refused")
	errPreflight = NewError(http.StatusForbidden, "preflight_refused",
		"cross-origin requests are not supported")
	errNotFromPage = NewError(http.StatusForbidden, "cross_site",
		"only this server's own pages can do this")
)

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h["X-Content-Type-Options"] = hdrNosniff
	h["Referrer-Policy"] = hdrReferrer
	h["Cross-Origin-Opener-Policy"] = hdrSameOrig
	h["Cross-Origin-Resource-Policy"] = hdrSameOrig
	if IsAPI(r.URL.Path) {
		h["Content-Security-Policy"] = hdrAPICSP
		h["Cache-Control"] = hdrNoStore
	} else {
		h["Content-Security-Policy"] = hdrCSP
	}
	if !g.hostAllowed(r.Host) {
		g.routes.log.Debug("request refused", "code", errMisdirected.Code, "method", r.Method, "path", LogPath(r.URL.Path))
		errMisdirected.write(w)
		return
	}
	g.routes.mux.ServeHTTP(w, r)
}

// IsAPI reports whether path is under /api/.
func IsAPI(path string) bool {
	return path == "/api" || strings.HasPrefix(path, "/api/")
}

func (g *guard) hostAllowed(host string) bool {
	for _, h := range g.hosts {
		if host == h || strings.EqualFold(host, h) {
			return true
		}
	}
	return false
}

func first(vals []string) string {
	if len(vals) == 0 {
		return ""
	}
	return vals[0]
}
