package servertest

import (
	"net/http"
	"strings"
)

// WriteCase is one request to a write that takes a JSON body, a capability and If-Match (a board's PUT
// and restore, a set's PUT), and what it must answer.
type WriteCase struct {
	Name       string
	Path       string // "" is the write on the route's own board or set
	Body       string
	Header     func() http.Header
	Chunked    bool
	WantStatus int
	WantCode   string
	WantPath   string // the error's path, for invalid content
}

// WriteRoute is such a write, for the rows every one of them shares.
type WriteRoute struct {
	Path  func(id string) string // the write's path on the board or set id
	Body  string                 // a good body
	Big   string                 // a body over the write's limit
	Good  func() http.Header     // the headers of a good request
	Other string                 // the capability of another board or set
}

// Refusals are the rules every such write checks, in the documented order (docs/api.md): the origin,
// the board or set, the Content-Type, the length, the capability, If-Match; then rows where several fail
// and the earlier check wins. Each write adds the rows of its own body.
func (r WriteRoute) Refusals() []WriteCase {
	body, good := r.Body, r.Good
	with := func(kv ...string) func() http.Header { return HeaderWith(good, kv...) }
	return []WriteCase{
		{Name: "unknown", Path: r.Path("nope"), Body: body, Header: good, WantStatus: 404, WantCode: "not_found"},
		{Name: "invalid-id", Path: r.Path("a.b"), Body: body, Header: good, WantStatus: 404, WantCode: "not_found"},
		{Name: "text-plain", Body: body, Header: with("Content-Type", "text/plain"), WantStatus: 415, WantCode: "unsupported_media_type"},
		{Name: "no-content-type", Body: body, Header: with("Content-Type", ""), WantStatus: 415, WantCode: "unsupported_media_type"},
		{Name: "too-large-by-length", Body: r.Big, Header: good, WantStatus: 413, WantCode: "too_large"},
		{Name: "too-large-chunked", Body: r.Big, Chunked: true, Header: good, WantStatus: 413, WantCode: "too_large"},
		{Name: "no-authorization", Body: body, Header: with("Authorization", ""), WantStatus: 401, WantCode: "unauthorized"},
		{Name: "basic-authorization", Body: body, Header: with("Authorization", "Basic "+strings.Repeat("A", 43)), WantStatus: 401, WantCode: "unauthorized"},
		{Name: "empty-bearer", Body: body, Header: with("Authorization", "Bearer "), WantStatus: 401, WantCode: "unauthorized"},
		{Name: "wrong-capability", Body: body, Header: with("Authorization", "Bearer "+strings.Repeat("A", 43)), WantStatus: 403, WantCode: "bad_capability"},
		{Name: "capability-of-another", Body: body, Header: with("Authorization", "Bearer "+r.Other), WantStatus: 403, WantCode: "bad_capability"},
		{Name: "no-if-match", Body: body, Header: with("If-Match", ""), WantStatus: 428, WantCode: "precondition_required"},
		{Name: "if-match-star", Body: body, Header: with("If-Match", "*"), WantStatus: 428, WantCode: "precondition_required"},
		{Name: "if-match-weak", Body: body, Header: with("If-Match", `W/"1"`), WantStatus: 428, WantCode: "precondition_required"},
		{Name: "if-match-unquoted", Body: body, Header: with("If-Match", `1`), WantStatus: 428, WantCode: "precondition_required"},
		{Name: "if-match-other", Body: body, Header: with("If-Match", `"77"`), WantStatus: 412, WantCode: "revision_conflict"},
		{Name: "if-match-zero", Body: body, Header: with("If-Match", `"0"`), WantStatus: 412, WantCode: "revision_conflict"},
		{Name: "foreign-origin", Body: body, Header: with("Origin", "http://evil.example"), WantStatus: 403, WantCode: "bad_origin"},
		{Name: "null-origin", Body: body, Header: with("Origin", "null"), WantStatus: 403, WantCode: "bad_origin"},
		{Name: "cross-site", Body: body, Header: with("Sec-Fetch-Site", "cross-site"), WantStatus: 403, WantCode: "cross_site"},

		{Name: "order-origin-before-unknown", Path: r.Path("nope"), Body: body, Header: with("Origin", "http://evil.example"), WantStatus: 403, WantCode: "bad_origin"},
		{Name: "order-unknown-before-content-type", Path: r.Path("nope"), Body: body, Header: with("Content-Type", "text/plain"), WantStatus: 404, WantCode: "not_found"},
		{Name: "order-content-type-before-authorization", Body: body, Header: with("Content-Type", "text/plain", "Authorization", ""), WantStatus: 415, WantCode: "unsupported_media_type"},
		{Name: "order-length-before-authorization", Body: r.Big, Header: with("Authorization", ""), WantStatus: 413, WantCode: "too_large"},
		{Name: "order-authorization-before-if-match", Body: body, Header: with("Authorization", "", "If-Match", ""), WantStatus: 401, WantCode: "unauthorized"},
		{Name: "order-capability-before-stale", Body: body, Header: with("Authorization", "Bearer wrong", "If-Match", `"77"`), WantStatus: 403, WantCode: "bad_capability"},
		{Name: "order-chunked-size-after-stale", Body: r.Big, Chunked: true, Header: with("If-Match", `"77"`), WantStatus: 412, WantCode: "revision_conflict"},
	}
}

// HeaderWith is base's headers with kv (name, value, …) set; an empty value removes the header.
func HeaderWith(base func() http.Header, kv ...string) func() http.Header {
	return func() http.Header {
		h := base()
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "" {
				h.Del(kv[i])
			} else {
				h.Set(kv[i], kv[i+1])
			}
		}
		return h
	}
}
