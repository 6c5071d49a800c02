package boardhttp

import "net/http"

// BearerToken returns the token of `Authorization: Bearer <token>`: the one reading of a capability
// for every route that takes one (boards here, sets in package setlist).
func BearerToken(h http.Header) (string, bool) { return bearer(h) }

// IfMatchRevision returns the revision named by If-Match, exactly one strong tag "<revision>", as
// board writes read it.
func IfMatchRevision(h http.Header) (int64, bool) { return ifMatch(h) }

// ETag is the entity tag of a revision: "<revision>".
func ETag(rev int64) string { return etag(rev) }
