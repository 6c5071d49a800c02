package setlist_test

import (
	"strings"
	"testing"

	"tele/board/datadirtest"
	"tele/server/servertest"
	"tele/setlist"
)

// TestPutSetRefusals: a set's PUT refuses what a board's PUT refuses, in the same order, and every
// refusal leaves the data directory as it was.
func TestPutSetRefusals(t *testing.T) {
	e, other, good := gigEnv(t)
	put := servertest.WriteRoute{
		Path:  func(id string) string { return "/api/sets/" + id },
		Body:  `{"title":"Gig 2","boards":["b","a"]}`,
		Big:   `{"title":"` + strings.Repeat("x", setlist.MaxBodyBytes) + `"}`,
		Good:  good,
		Other: other.Capability,
	}
	for _, tc := range put.Refusals() {
		t.Run(tc.Name, func(t *testing.T) {
			path := tc.Path
			if path == "" {
				path = "/api/sets/gig"
			}
			before := e.Snapshot()
			w := e.Do(req{Method: "PUT", Path: path, Body: tc.Body, Header: tc.Header(), Chunked: tc.Chunked})
			if w.Code != tc.WantStatus || servertest.Code(w.Body.Bytes()) != tc.WantCode {
				t.Fatalf("%d %s, want %d %s", w.Code, w.Body, tc.WantStatus, tc.WantCode)
			}
			if tc.WantStatus == 412 && !strings.Contains(w.Body.String(), `"currentRevision":1`) {
				t.Errorf("412 without currentRevision: %s", w.Body)
			}
			if tc.WantStatus == 401 && w.Header().Get("WWW-Authenticate") == "" {
				t.Errorf("401 without WWW-Authenticate")
			}
			datadirtest.Same(t, tc.Name, before, e.Snapshot())
		})
	}
}
