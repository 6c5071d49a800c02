package boardhttp_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tele/server/servertest"
)

// writeCase is one request to a board write that takes a body, the board's capability and If-Match
// (PUT and restore), and what it must answer.
type writeCase struct {
	name       string
	path       string // "" is the write on board song
	body       string
	header     func() http.Header
	chunked    bool
	wantStatus int
	wantCode   string
	wantPath   string
}

// writeRoute is such a write on board song, for the rows every one of them shares.
type writeRoute struct {
	path  func(board string) string
	body  string // a good body
	big   string // a body over the write's limit
	good  func() http.Header
	other string // another board's capability
}

// refusals are the rules every such write checks, in the documented order: the origin, the board, the
// Content-Type, the length, the capability, If-Match; then the rows where several fail and the earlier
// check wins. Each write adds the rows of its own body.
func (r writeRoute) refusals() []writeCase {
	body, good, with := r.body, r.good, func(kv ...string) func() http.Header { return headerWith(r.good, kv...) }
	return []writeCase{
		{name: "unknown-board", path: r.path("nope"), body: body, header: good, wantStatus: 404, wantCode: "not_found"},
		{name: "invalid-id", path: r.path("a.b"), body: body, header: good, wantStatus: 404, wantCode: "not_found"},
		{name: "text-plain", body: body, header: with("Content-Type", "text/plain"), wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "no-content-type", body: body, header: with("Content-Type", ""), wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "too-large-by-length", body: r.big, header: good, wantStatus: 413, wantCode: "too_large"},
		{name: "too-large-chunked", body: r.big, chunked: true, header: good, wantStatus: 413, wantCode: "too_large"},
		{name: "no-authorization", body: body, header: with("Authorization", ""), wantStatus: 401, wantCode: "unauthorized"},
		{name: "basic-authorization", body: body, header: with("Authorization", "Basic "+strings.Repeat("A", 43)), wantStatus: 401, wantCode: "unauthorized"},
		{name: "empty-bearer", body: body, header: with("Authorization", "Bearer "), wantStatus: 401, wantCode: "unauthorized"},
		{name: "wrong-capability", body: body, header: with("Authorization", "Bearer "+strings.Repeat("A", 43)), wantStatus: 403, wantCode: "bad_capability"},
		{name: "capability-of-another-board", body: body, header: with("Authorization", "Bearer "+r.other), wantStatus: 403, wantCode: "bad_capability"},
		{name: "no-if-match", body: body, header: with("If-Match", ""), wantStatus: 428, wantCode: "precondition_required"},
		{name: "if-match-star", body: body, header: with("If-Match", "*"), wantStatus: 428, wantCode: "precondition_required"},
		{name: "if-match-weak", body: body, header: with("If-Match", `W/"1"`), wantStatus: 428, wantCode: "precondition_required"},
		{name: "if-match-unquoted", body: body, header: with("If-Match", `1`), wantStatus: 428, wantCode: "precondition_required"},
		{name: "if-match-other", body: body, header: with("If-Match", `"77"`), wantStatus: 412, wantCode: "revision_conflict"},
		{name: "if-match-zero", body: body, header: with("If-Match", `"0"`), wantStatus: 412, wantCode: "revision_conflict"},
		{name: "foreign-origin", body: body, header: with("Origin", "http://evil.example"), wantStatus: 403, wantCode: "bad_origin"},
		{name: "null-origin", body: body, header: with("Origin", "null"), wantStatus: 403, wantCode: "bad_origin"},
		{name: "cross-site", body: body, header: with("Sec-Fetch-Site", "cross-site"), wantStatus: 403, wantCode: "cross_site"},

		{name: "order-origin-before-unknown-board", path: r.path("nope"), body: body, header: with("Origin", "http://evil.example"), wantStatus: 403, wantCode: "bad_origin"},
		{name: "order-unknown-board-before-content-type", path: r.path("nope"), body: body, header: with("Content-Type", "text/plain"), wantStatus: 404, wantCode: "not_found"},
		{name: "order-content-type-before-authorization", body: body, header: with("Content-Type", "text/plain", "Authorization", ""), wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "order-length-before-authorization", body: r.big, header: with("Authorization", ""), wantStatus: 413, wantCode: "too_large"},
		{name: "order-authorization-before-if-match", body: body, header: with("Authorization", "", "If-Match", ""), wantStatus: 401, wantCode: "unauthorized"},
		{name: "order-capability-before-stale", body: body, header: with("Authorization", "Bearer wrong", "If-Match", `"77"`), wantStatus: 403, wantCode: "bad_capability"},
		{name: "order-chunked-size-after-stale", body: r.big, chunked: true, header: with("If-Match", `"77"`), wantStatus: 412, wantCode: "revision_conflict"},
	}
}

// wantWriteRefused: the refusal of wantRefused, on a board still at revision current, saying what a
// refused write also says: the board's revision (412) and how to authenticate (401).
func wantWriteRefused(t *testing.T, e *servertest.Env, tc writeCase, before map[string]string, w *httptest.ResponseRecorder, current int64) {
	t.Helper()
	wantRefused(t, e, tc.name, before, w, tc.wantCode, tc.wantPath)
	if after, _ := e.Store.Get("song"); after.Revision != current {
		t.Errorf("revision moved %d → %d", current, after.Revision)
	}
	var eb servertest.ErrorBody
	json.Unmarshal(w.Body.Bytes(), &eb)
	if tc.wantPath != "" && eb.Error.Rule == "" {
		t.Errorf("no rule with path %q", tc.wantPath)
	}
	if tc.wantStatus == 412 && eb.Error.CurrentRevision != current {
		t.Errorf("currentRevision = %d, want %d", eb.Error.CurrentRevision, current)
	}
	if tc.wantStatus == 401 && w.Header().Get("WWW-Authenticate") == "" {
		t.Errorf("401 without WWW-Authenticate")
	}
}
