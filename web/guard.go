package web

import (
	"log/slog"
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
	// IsPage reports whether a path is a page (an HTML document a link may open). Only pages can be
	// opened by a cross-site top-level navigation. nil means no path is a page.
	IsPage func(path string) bool
	// OriginRequired reports whether an unsafe request must carry an Origin (docs/security.md: the chat
	// POSTs, which only the page makes). Elsewhere a missing Origin passes (curl, Pi), a present one
	// must still be ours. nil means no request requires one.
	OriginRequired func(r *http.Request) bool
	// Logger receives a debug line for every refusal. nil means slog.Default().
	Logger *slog.Logger
	// Host, when set, is the one Host accepted instead of the loopback names: the share listener's
	// <ip>:<port> (docs/band.md), which a follower's browser sends. Port is then unused.
	Host string
}

// Guard applies docs/security.md to every request before next sees it:
//
//  1. headers first, so every response, refusals included, carries them: the CSP, nosniff,
//     Referrer-Policy no-referrer, Cross-Origin-Opener-Policy and Cross-Origin-Resource-Policy
//     same-origin, and Cache-Control no-store under /api/;
//  2. Host must be 127.0.0.1:<port>, localhost:<port> or [::1]:<port>, else 421 misdirected_request: a
//     DNS-rebinding page reaches this listener under its own name and is refused before any handler;
//  3. Sec-Fetch-Site cross-site or same-site (or an unknown value) is 403 cross_site, except a top-level
//     GET navigation to a page (Sec-Fetch-Mode navigate and Sec-Fetch-Dest document), so a board link
//     from elsewhere opens but no other site can read or write the API. Same-site matters on loopback:
//     every other local server (any port on 127.0.0.1) is same-site. Requests without Fetch Metadata
//     (curl, Pi, old browsers) and with same-origin or none (typed URL, bookmark) pass;
//  4. every OPTIONS request is 403 preflight_refused: there is no CORS, so a preflight never succeeds
//     and no Access-Control-* header is ever written;
//  5. every unsafe method (POST, PUT, DELETE, ...) on every route is 403 bad_origin when its Origin is
//     present and not exactly "http://" + Host, or missing where OriginRequired says so: one check for
//     all routes, so a route added later cannot forget it.
func Guard(cfg GuardConfig, next http.Handler) http.Handler {
	port := strconv.Itoa(cfg.Port)
	g := &guard{
		next:           next,
		isPage:         cfg.IsPage,
		originRequired: cfg.OriginRequired,
		log:            cfg.Logger,
		hosts:          []string{"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port},
	}
	if cfg.Host != "" {
		g.hosts = []string{cfg.Host}
	}
	if g.isPage == nil {
		g.isPage = func(string) bool { return false }
	}
	if g.originRequired == nil {
		g.originRequired = func(*http.Request) bool { return false }
	}
	if g.log == nil {
		g.log = slog.Default()
	}
	return g
}

type guard struct {
	next           http.Handler
	isPage         func(string) bool
	originRequired func(*http.Request) bool
	log            *slog.Logger
	hosts          []string
}

var (
	errMisdirected = NewError(http.StatusMisdirectedRequest, "misdirected_request",
		"this server answers only to 127.0.0.1, localhost and [::1] on its own port")
	errCrossSite = NewError(http.StatusForbidden, "cross_site",
		"cross-site requests are refused")
	errPreflight = NewError(http.StatusForbidden, "preflight_refused",
		"cross-origin requests are not supported")
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

	var refusal *Error
	switch {
	case !g.hostAllowed(r.Host):
		refusal = errMisdirected
	case !g.fetchAllowed(r):
		refusal = errCrossSite
	case r.Method == http.MethodOptions:
		refusal = errPreflight
	case isUnsafe(r.Method):
		refusal = checkOrigin(r, g.originRequired(r))
	}
	if refusal != nil {
		g.log.Debug("request refused", "code", refusal.Code, "method", r.Method, "path", LogPath(r.URL.Path))
		refusal.write(w)
		return
	}
	g.next.ServeHTTP(w, r)
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

func (g *guard) fetchAllowed(r *http.Request) bool {
	switch first(r.Header["Sec-Fetch-Site"]) {
	case "", "same-origin", "none":
		return true
	}
	// cross-site, same-site or a value this server does not know: only a top-level page navigation.
	return r.Method == http.MethodGet &&
		first(r.Header["Sec-Fetch-Mode"]) == "navigate" &&
		first(r.Header["Sec-Fetch-Dest"]) == "document" &&
		g.isPage(r.URL.Path)
}

func first(vals []string) string {
	if len(vals) == 0 {
		return ""
	}
	return vals[0]
}
