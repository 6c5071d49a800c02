// Package web holds the rules every HTTP request passes (docs/security.md) and the JSON plumbing every route
// shares: one error shape, strict body decoding, the exact-Origin check, the request guard and keyed rate
// limiters.
//
// The guard runs before any route. Every route is registered in a Router with its class (page, static,
// read, write, page-write, chat), and the guard applies the class of the route a request matches: in
// order it refuses a foreign Host (421, DNS rebinding), a cross-site or same-site fetch that is not a
// top-level navigation to a page (403 cross_site, Fetch Metadata), every preflight (403
// preflight_refused: there is no CORS), a foreign Origin on a write, a missing one on a chat write
// (403 bad_origin), and a page-write no page of this server made (403 cross_site). Before any of these
// checks it sets the security headers, so refusals carry them too. No response of this server ever
// carries an Access-Control-* header.
//
// The package holds no mutable package-level state and starts no goroutine.
package web
