package boardhttp_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"testing"
	"testing/synctest"

	"tele/board"
	"tele/board/boardhttp"
	"tele/board/datadirtest"
	"tele/board/store"
	"tele/server/servertest"
)

// TestCopyBoard covers every status of POST /api/boards/:board/copy (docs/api.md): anyone who can read a
// board can copy it, to a new id with its own capability; every refusal leaves the data directory as
// it was.
func TestCopyBoard(t *testing.T) {
	e := servertest.New(t)
	song := e.Create("song", servertest.ValidContent)
	if w := e.Do(st{Method: "PUT", Path: "/api/boards/song", Body: servertest.ValidContent, Header: servertest.PutHeader(song.Capability, `"1"`)}); w.Code != 200 {
		t.Fatalf("PUT: %d %s", w.Code, w.Body)
	}
	e.Create("taken", "")
	page := header("Sec-Fetch-Site", "same-origin", "Sec-Fetch-Mode", "cors", "Sec-Fetch-Dest", "empty", "Origin", "http://127.0.0.1:4317")
	tests := []struct {
		name       string
		path       string
		body       string
		header     http.Header
		wantStatus int
		wantCode   string
		wantPath   string
	}{
		{name: "new-id-chosen-by-tele", body: `{}`, wantStatus: 201},
		{name: "own-id", body: `{"id":"song-copy"}`, wantStatus: 201},
		{name: "from-the-page-without-capability", body: `{"id":"from-page"}`, header: page, wantStatus: 201},
		{name: "a-capability-is-not-needed-and-not-looked-at", body: `{"id":"with-key"}`, header: header("Authorization", "Bearer wrong"), wantStatus: 201},

		{name: "unknown-board", path: "/api/boards/nope/copy", body: `{}`, wantStatus: 404, wantCode: "not_found"},
		{name: "invalid-board-id", path: "/api/boards/a.b/copy", body: `{}`, wantStatus: 404, wantCode: "not_found"},
		{name: "taken-id", body: `{"id":"taken"}`, wantStatus: 409, wantCode: "board_exists"},
		{name: "its-own-id", body: `{"id":"song"}`, wantStatus: 409, wantCode: "board_exists"},
		{name: "invalid-id", body: `{"id":"no spaces"}`, wantStatus: 422, wantCode: "invalid_content", wantPath: "id"},
		{name: "unknown-field", body: `{"content":{}}`, wantStatus: 400, wantCode: "bad_json"},
		{name: "not-an-object", body: `[]`, wantStatus: 400, wantCode: "bad_json"},
		{name: "empty-body", body: ``, wantStatus: 400, wantCode: "bad_json"},
		{name: "too-large", body: `{"id":"` + string(make([]byte, 2<<10)) + `"}`, wantStatus: 413, wantCode: "too_large"},
		{name: "form-content-type", body: `{}`, header: header("Content-Type", "application/x-www-form-urlencoded"), wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "sec-fetch-site-none", body: `{}`, header: header("Sec-Fetch-Site", "none"), wantStatus: 403, wantCode: "cross_site"},
		{name: "cross-site", body: `{}`, header: header("Sec-Fetch-Site", "cross-site"), wantStatus: 403, wantCode: "cross_site"},
		{name: "foreign-origin", body: `{}`, header: header("Origin", "http://evil.example"), wantStatus: 403, wantCode: "bad_origin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := tt.header.Clone()
			if h == nil {
				h = http.Header{}
			}
			if h.Get("Content-Type") == "" {
				h.Set("Content-Type", "application/json")
			}
			path := tt.path
			if path == "" {
				path = "/api/boards/song/copy"
			}
			before := e.Snapshot()
			w := e.Do(st{Method: "POST", Path: path, Body: tt.body, Header: h})
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, tt.wantStatus, w.Body)
			}
			if tt.wantStatus != 201 {
				wantRefused(t, e, tt.name, before, w, tt.wantCode, tt.wantPath)
				return
			}
			var c servertest.Created
			if err := json.Unmarshal(w.Body.Bytes(), &c); err != nil {
				t.Fatal(err)
			}
			if !board.ValidID(c.ID) || c.ID == "song" || c.Revision != 1 || len(c.Capability) != 43 || c.Capability == song.Capability {
				t.Fatalf("copy %+v", c)
			}
			if got := w.Header().Get("Location"); got != "/api/boards/"+c.ID {
				t.Errorf("Location = %q", got)
			}
			src, _ := e.Store.Get("song")
			cp, err := e.Store.Get(c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(cp.Content, src.Content) || cp.Author != store.AuthorBrowser {
				t.Errorf("the copy holds %+v by %s, the board %+v", cp.Content, cp.Author, src.Content)
			}
			if rows, _, err := e.Store.Revisions(c.ID, 0, 100); err != nil || len(rows) != 1 {
				t.Errorf("the copy's history has %d rows (%v), want only its first", len(rows), err)
			}
			// The new key opens the copy only; the board's own key does not open the copy.
			if err := e.Store.Authorize(c.ID, c.Capability); err != nil {
				t.Errorf("the copy's capability: %v", err)
			}
			if err := e.Store.Authorize(c.ID, song.Capability); err == nil {
				t.Error("the board's capability opens the copy")
			}
			if err := e.Store.Authorize("song", c.Capability); err == nil {
				t.Error("the copy's capability opens the board")
			}
		})
	}
}

// TestCopyRateLimit: copies spend the server's creation budget, like creations; a throttled copy
// changes nothing.
func TestCopyRateLimit(t *testing.T) { synctest.Test(t, testCopyRateLimit) }

func testCopyRateLimit(t *testing.T) {
	e := servertest.New(t)
	e.Create("song", servertest.ValidContent)
	for i := 1; i < boardhttp.CreateBurst; i++ {
		w := e.Do(st{Method: "POST", Path: "/api/boards/song/copy", Body: fmt.Sprintf(`{"id":"c%d"}`, i), Header: header("Content-Type", "application/json")})
		if w.Code != 201 {
			t.Fatalf("copy %d: %d %s", i, w.Code, w.Body)
		}
	}
	before := e.Snapshot()
	w := e.Do(st{Method: "POST", Path: "/api/boards/song/copy", Body: `{}`, Header: header("Content-Type", "application/json")})
	if w.Code != 429 || servertest.Code(w.Body.Bytes()) != "rate_limited" || w.Header().Get("Retry-After") == "" {
		t.Fatalf("copy past the burst: %d %s", w.Code, w.Body)
	}
	datadirtest.Same(t, "a throttled copy", before, e.Snapshot())
	// A creation after copies finds the same budget spent.
	if w := e.Do(st{Method: "POST", Path: "/api/boards", Body: `{}`, Header: header("Content-Type", "application/json")}); w.Code != 429 {
		t.Fatalf("a creation after the copies: %d", w.Code)
	}
}
