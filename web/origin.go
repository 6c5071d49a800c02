package web

import (
	"net/http"
	"strings"
)

var (
	errOriginMissing = NewError(http.StatusForbidden, "bad_origin", "the Origin header is required")
	errOriginForeign = NewError(http.StatusForbidden, "bad_origin", "the request comes from another origin")
)

// isUnsafe reports whether a method may change state (RFC 9110 section 9.2.1): every method but GET, HEAD,
// OPTIONS and TRACE. The guard checks the Origin of these, whatever the route.
func isUnsafe(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return false
	}
	return true
}

// checkOrigin refuses (403 bad_origin) a request whose Origin is not exactly this server's own origin,
// "http://" + Host. The guard has already pinned Host to a loopback authority of the served port, so
// the page's own origin is the only one that matches. "null" (sandboxed frames, some redirects) never
// matches. A missing Origin is refused when required (chat POSTs, docs/security.md) and allowed
// otherwise (board writes from curl or Pi carry none).
//
// This is stricter than http.CrossOriginProtection, which compares only the Origin's host with Host
// (so https:// or a second Origin would pass) and skips the Origin entirely when Sec-Fetch-Site is
// same-origin or none: web's tests check that every request it refuses is refused here too.
func checkOrigin(r *http.Request, required bool) *Error {
	vals := r.Header["Origin"]
	switch {
	case len(vals) == 0:
		if required {
			return errOriginMissing
		}
		return nil
	case len(vals) == 1 && isOwnOrigin(vals[0], r.Host):
		return nil
	}
	return errOriginForeign
}

func isOwnOrigin(origin, host string) bool {
	const scheme = "http://"
	return host != "" && len(origin) == len(scheme)+len(host) &&
		strings.HasPrefix(origin, scheme) && origin[len(scheme):] == host
}
