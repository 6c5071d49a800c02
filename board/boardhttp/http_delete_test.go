package boardhttp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"tele/board/boardhttp"
	"tele/board/datadirtest"
	"tele/server/servertest"
)

// TestDeleteBoard covers every status of DELETE /api/boards/:board (docs/api.md) and the order of its
// checks; every refusal leaves the data directory byte-for-byte as it was and the board readable. Then
// a good deletion answers 204, and the board is gone: GET 404, not listed, no files.
func TestDeleteBoard(t *testing.T) {
	e := servertest.New(t)
	song := e.Create("song", servertest.ValidContent)
	other := e.Create("other", "")
	if w := e.Do(st{Method: "PUT", Path: "/api/boards/song", Body: servertest.ValidContent, Header: servertest.PutHeader(song.Capability, `"1"`)}); w.Code != 200 {
		t.Fatalf("PUT: %d %s", w.Code, w.Body)
	}
	good := func() http.Header {
		return http.Header{"Authorization": {"Bearer " + song.Capability}, "If-Match": {`"2"`}}
	}
	with := func(kv ...string) func() http.Header { return headerWith(good, kv...) }
	tests := []struct {
		name       string
		path       string
		body       string
		header     func() http.Header
		wantStatus int
		wantCode   string
		wantRev    int64 // currentRevision of a 412
	}{
		{name: "unknown-board", path: "/api/boards/nope", header: good, wantStatus: 404, wantCode: "not_found"},
		{name: "invalid-id", path: "/api/boards/a.b", header: good, wantStatus: 404, wantCode: "not_found"},
		{name: "no-capability", header: with("Authorization", ""), wantStatus: 401, wantCode: "unauthorized"},
		{name: "not-bearer", header: with("Authorization", "Basic "+song.Capability), wantStatus: 401, wantCode: "unauthorized"},
		{name: "bad-capability", header: with("Authorization", "Bearer "+strings.Repeat("A", 43)), wantStatus: 403, wantCode: "bad_capability"},
		{name: "capability-of-another-board", header: with("Authorization", "Bearer "+other.Capability), wantStatus: 403, wantCode: "bad_capability"},
		{name: "missing-if-match", header: with("If-Match", ""), wantStatus: 428, wantCode: "precondition_required"},
		{name: "if-match-star", header: with("If-Match", "*"), wantStatus: 428, wantCode: "precondition_required"},
		{name: "weak-if-match", header: with("If-Match", `W/"2"`), wantStatus: 428, wantCode: "precondition_required"},
		{name: "stale-if-match", header: with("If-Match", `"1"`), wantStatus: 412, wantCode: "revision_conflict", wantRev: 2},
		{name: "future-if-match", header: with("If-Match", `"3"`), wantStatus: 412, wantCode: "revision_conflict", wantRev: 2},
		{name: "a-body", body: `{"sure":true}`, header: good, wantStatus: 400, wantCode: "bad_json"},
		{name: "foreign-origin", header: with("Origin", "http://evil.example"), wantStatus: 403, wantCode: "bad_origin"},
		{name: "cross-site", header: with("Sec-Fetch-Site", "cross-site"), wantStatus: 403, wantCode: "cross_site"},
		// The order: who does not hold the capability learns nothing about the revision or the body.
		{name: "order-capability-before-if-match", header: with("Authorization", "Bearer wrong", "If-Match", ""), wantStatus: 403, wantCode: "bad_capability"},
		{name: "order-capability-before-body", body: "x", header: with("Authorization", ""), wantStatus: 401, wantCode: "unauthorized"},
		{name: "order-unknown-board-before-capability", path: "/api/boards/nope", header: with("Authorization", ""), wantStatus: 404, wantCode: "not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path
			if path == "" {
				path = "/api/boards/song"
			}
			before := e.Snapshot()
			w := e.Do(st{Method: "DELETE", Path: path, Body: tt.body, Header: tt.header()})
			var eb servertest.ErrorBody
			if w.Code != tt.wantStatus || servertest.Code(w.Body.Bytes()) != tt.wantCode {
				t.Fatalf("%d %s, want %d %s", w.Code, w.Body, tt.wantStatus, tt.wantCode)
			}
			if tt.wantRev != 0 {
				if err := json.Unmarshal(w.Body.Bytes(), &eb); err != nil || eb.Error.CurrentRevision != tt.wantRev {
					t.Errorf("412 body %s, want currentRevision %d", w.Body, tt.wantRev)
				}
			}
			if tt.wantStatus == 401 && w.Header().Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
			datadirtest.Same(t, tt.name, before, e.Snapshot())
			if w := e.Do(st{Method: "GET", Path: "/api/boards/song"}); w.Code != 200 {
				t.Fatalf("after a refused deletion GET answers %d", w.Code)
			}
		})
	}

	w := e.Do(st{Method: "DELETE", Path: "/api/boards/song", Header: good()})
	if w.Code != 204 || w.Body.Len() != 0 {
		t.Fatalf("deletion: %d %q", w.Code, w.Body)
	}
	if w := e.Do(st{Method: "GET", Path: "/api/boards/song"}); w.Code != 404 || servertest.Code(w.Body.Bytes()) != "not_found" {
		t.Fatalf("GET after the deletion: %d %s", w.Code, w.Body)
	}
	if w := e.Do(st{Method: "GET", Path: "/api/boards"}); strings.Contains(w.Body.String(), `"song"`) {
		t.Fatalf("the list after the deletion: %s", w.Body)
	}
	for name := range e.Snapshot() {
		if strings.Contains(name, "song") {
			t.Errorf("a file of the deleted board is left: %s", name)
		}
	}
	// Deleting again, writing or rotating with the old capability: the board is not found.
	for _, r := range []st{
		{Method: "DELETE", Path: "/api/boards/song", Header: good()},
		{Method: "PUT", Path: "/api/boards/song", Body: servertest.ValidContent, Header: servertest.PutHeader(song.Capability, `"2"`)},
		{Method: "POST", Path: "/api/boards/song/capability", Body: "{}", Header: servertest.PutHeader(song.Capability, "")},
	} {
		if w := e.Do(r); w.Code != 404 {
			t.Errorf("%s after the deletion: %d %s", r.Method, w.Code, w.Body)
		}
	}
	if w := e.Do(st{Method: "GET", Path: "/api/boards/other"}); w.Code != 200 {
		t.Fatalf("the other board: %d", w.Code)
	}
}

// TestDeleteBoardEvent: an open stream of the board gets a last `deleted` event naming it, and ends;
// a stream of another board goes on.
func TestDeleteBoardEvent(t *testing.T) {
	l := servertest.New(t).Start()
	c := l.Create("live", servertest.ValidContent)
	l.Create("calm", servertest.ValidContent)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, _ := openEvents(t, ctx, l.URL+"/api/boards/live/events")
	calm, _ := openEvents(t, ctx, l.URL+"/api/boards/calm/events")
	if first := next(t, events); first.name != "board" {
		t.Fatalf("first event %q", first.name)
	}
	next(t, calm)
	req, _ := http.NewRequest("DELETE", l.URL+"/api/boards/live", nil)
	req.Header = http.Header{"Authorization": {"Bearer " + c.Capability}, "If-Match": {`"1"`}}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 204 {
		t.Fatalf("deletion: %d", res.StatusCode)
	}
	if ev := next(t, events); ev.name != boardhttp.DeletedEventName || ev.data != `{"id":"live"}` {
		t.Fatalf("event %q %s, want deleted", ev.name, ev.data)
	}
	select {
	case ev, ok := <-events:
		if ok {
			t.Fatalf("after the deleted event: %q %s", ev.name, ev.data)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stream of the deleted board did not end")
	}
	if n := l.Hub.Count(boardhttp.Topic("live")); n != 0 {
		t.Fatalf("%d streams left on the deleted board", n)
	}
	if res, err := http.Get(l.URL + "/api/boards/live/events"); err != nil || res.StatusCode != 404 {
		t.Fatalf("a new stream of the deleted board: %v %v", res.StatusCode, err)
	} else {
		res.Body.Close()
	}
	if n := l.Hub.Count(boardhttp.Topic("calm")); n != 1 {
		t.Fatalf("the other board's stream: %d", n)
	}
}

// TestDeleteBoardRateLimit: deletions spend the board's write budget, like every write; a throttled one
// changes nothing.
func TestDeleteBoardRateLimit(t *testing.T) { synctest.Test(t, testDeleteBoardRateLimit) }

func testDeleteBoardRateLimit(t *testing.T) {
	e := servertest.New(t)
	key := e.Create("busy", servertest.ValidContent).Capability
	for i := range boardhttp.WriteBurst {
		w := e.Do(st{Method: "PUT", Path: "/api/boards/busy", Body: servertest.ValidContent, Header: servertest.PutHeader(key, `"`+strconv.Itoa(i+1)+`"`)})
		if w.Code != 200 {
			t.Fatalf("write %d: %d %s", i+1, w.Code, w.Body)
		}
	}
	before := e.Snapshot()
	rev := `"` + strconv.Itoa(boardhttp.WriteBurst+1) + `"`
	w := e.Do(st{Method: "DELETE", Path: "/api/boards/busy", Header: http.Header{"Authorization": {"Bearer " + key}, "If-Match": {rev}}})
	if w.Code != 429 || servertest.Code(w.Body.Bytes()) != "rate_limited" || w.Header().Get("Retry-After") == "" {
		t.Fatalf("deletion past the burst: %d %s", w.Code, w.Body)
	}
	datadirtest.Same(t, "a throttled deletion", before, e.Snapshot())
}
