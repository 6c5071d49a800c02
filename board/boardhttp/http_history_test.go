package boardhttp_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"

	"tele/board"
	"tele/board/boardhttp"
	"tele/board/datadirtest"
	"tele/board/store"
	"tele/server/servertest"
)

// historyEnv is a board "song" with revisions 1 (browser, create), 2 (pi), 3 (browser), and a second
// board "other".
func historyEnv(t *testing.T) (*servertest.Env, servertest.Created, servertest.Created) {
	t.Helper()
	e := servertest.New(t)
	song := e.Create("song", servertest.ValidContent)
	other := e.Create("other", "")
	c, _ := board.ParseContent([]byte(servertest.ValidContent))
	c.Title = "By Pi"
	if _, err := e.Store.Put("song", 1, c, store.AuthorPi); err != nil {
		t.Fatal(err)
	}
	c.Title = "Edited"
	if _, err := e.Store.Put("song", 2, c, store.AuthorBrowser); err != nil {
		t.Fatal(err)
	}
	return e, song, other
}

type revisionsPage struct {
	Revisions []struct {
		Revision     int64  `json:"revision"`
		Author       string `json:"author"`
		UpdatedAt    string `json:"updatedAt"`
		Title        string `json:"title"`
		RestoredFrom *int64 `json:"restoredFrom"`
	} `json:"revisions"`
	Next *int64 `json:"next"`
}

func TestListRevisions(t *testing.T) {
	e, song, other := historyEnv(t)
	tests := []struct {
		name       string
		path       string
		wantStatus int
		wantCode   string
		wantRevs   []int64
		wantNext   int64 // 0: null
	}{
		{name: "default", path: "/api/boards/song/revisions", wantStatus: 200, wantRevs: []int64{3, 2, 1}},
		{name: "limit", path: "/api/boards/song/revisions?limit=2", wantStatus: 200, wantRevs: []int64{3, 2}, wantNext: 2},
		{name: "next-page", path: "/api/boards/song/revisions?before=2&limit=2", wantStatus: 200, wantRevs: []int64{1}},
		{name: "before-past-the-end", path: "/api/boards/song/revisions?before=1", wantStatus: 200, wantRevs: []int64{}},
		{name: "before-beyond-current", path: "/api/boards/song/revisions?before=99&limit=1", wantStatus: 200, wantRevs: []int64{3}, wantNext: 3},
		{name: "limit-100", path: "/api/boards/song/revisions?limit=100", wantStatus: 200, wantRevs: []int64{3, 2, 1}},
		{name: "other-board", path: "/api/boards/other/revisions", wantStatus: 200, wantRevs: []int64{1}},

		{name: "unknown-board", path: "/api/boards/nope/revisions", wantStatus: 404, wantCode: "not_found"},
		{name: "invalid-id", path: "/api/boards/a.b/revisions", wantStatus: 404, wantCode: "not_found"},
		{name: "unknown-board-bad-query", path: "/api/boards/nope/revisions?limit=0", wantStatus: 404, wantCode: "not_found"},
		{name: "limit-0", path: "/api/boards/song/revisions?limit=0", wantStatus: 400, wantCode: "bad_query"},
		{name: "limit-101", path: "/api/boards/song/revisions?limit=101", wantStatus: 400, wantCode: "bad_query"},
		{name: "limit-negative", path: "/api/boards/song/revisions?limit=-5", wantStatus: 400, wantCode: "bad_query"},
		{name: "limit-word", path: "/api/boards/song/revisions?limit=ten", wantStatus: 400, wantCode: "bad_query"},
		{name: "limit-empty", path: "/api/boards/song/revisions?limit=", wantStatus: 400, wantCode: "bad_query"},
		{name: "limit-leading-zero", path: "/api/boards/song/revisions?limit=05", wantStatus: 400, wantCode: "bad_query"},
		{name: "limit-twice", path: "/api/boards/song/revisions?limit=5&limit=6", wantStatus: 400, wantCode: "bad_query"},
		{name: "before-0", path: "/api/boards/song/revisions?before=0", wantStatus: 400, wantCode: "bad_query"},
		{name: "before-negative", path: "/api/boards/song/revisions?before=-1", wantStatus: 400, wantCode: "bad_query"},
		{name: "before-plus", path: "/api/boards/song/revisions?before=%2B3", wantStatus: 400, wantCode: "bad_query"},
		{name: "before-fraction", path: "/api/boards/song/revisions?before=2.5", wantStatus: 400, wantCode: "bad_query"},
		{name: "before-overflow", path: "/api/boards/song/revisions?before=99999999999999999999", wantStatus: 400, wantCode: "bad_query"},
		{name: "unknown-parameter", path: "/api/boards/song/revisions?after=2", wantStatus: 400, wantCode: "bad_query"},
		{name: "bad-escape", path: "/api/boards/song/revisions?before=%zz", wantStatus: 400, wantCode: "bad_query"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := e.Do(st{Method: "GET", Path: tt.path})
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, tt.wantStatus, w.Body)
			}
			if strings.Contains(w.Body.String(), song.Capability) || strings.Contains(w.Body.String(), other.Capability) {
				t.Fatal("the answer carries a capability")
			}
			if tt.wantStatus != 200 {
				if got := servertest.Code(w.Body.Bytes()); got != tt.wantCode {
					t.Errorf("code = %q, want %q", got, tt.wantCode)
				}
				return
			}
			if ct := w.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			var page revisionsPage
			if err := json.Unmarshal(w.Body.Bytes(), &page); err != nil {
				t.Fatalf("%v: %s", err, w.Body)
			}
			var got []int64
			for _, r := range page.Revisions {
				got = append(got, r.Revision)
			}
			if !reflect.DeepEqual(append([]int64{}, got...), append([]int64{}, tt.wantRevs...)) {
				t.Errorf("revisions %v, want %v", got, tt.wantRevs)
			}
			if (page.Next == nil) != (tt.wantNext == 0) || (page.Next != nil && *page.Next != tt.wantNext) {
				t.Errorf("next %v, want %d (0: null)", page.Next, tt.wantNext)
			}
			if !strings.Contains(w.Body.String(), `"next":`) || !strings.HasPrefix(w.Body.String(), `{"revisions":[`) {
				t.Errorf("body %s", w.Body)
			}
		})
	}
	// The rows say who wrote what, when.
	w := e.Do(st{Method: "GET", Path: "/api/boards/song/revisions"})
	var page revisionsPage
	json.Unmarshal(w.Body.Bytes(), &page)
	for i, want := range []struct{ author, title string }{{"browser", "Edited"}, {"pi", "By Pi"}, {"browser", "Test"}} {
		r := page.Revisions[i]
		b, _ := e.Store.GetRevision("song", r.Revision)
		if r.Author != want.author || r.Title != want.title || r.RestoredFrom != nil || r.UpdatedAt != b.UpdatedAt.Format("2006-01-02T15:04:05.000Z") {
			t.Errorf("row %d = %+v, want %+v", i, r, want)
		}
	}
	var raw map[string][]map[string]json.RawMessage
	json.Unmarshal(w.Body.Bytes(), &raw)
	if keys := len(raw["revisions"][0]); keys != 5 || string(raw["revisions"][0]["restoredFrom"]) != "null" {
		t.Errorf("row %v, want exactly revision, author, updatedAt, title, restoredFrom", raw["revisions"][0])
	}
}

func TestGetRevision(t *testing.T) {
	e, song, other := historyEnv(t)
	tests := []struct {
		name       string
		path       string
		wantStatus int
		wantCode   string
		wantRev    int64
	}{
		{name: "first", path: "/api/boards/song/revisions/1", wantStatus: 200, wantRev: 1},
		{name: "by-pi", path: "/api/boards/song/revisions/2", wantStatus: 200, wantRev: 2},
		{name: "current", path: "/api/boards/song/revisions/3", wantStatus: 200, wantRev: 3},
		{name: "never-written", path: "/api/boards/song/revisions/4", wantStatus: 404, wantCode: "revision_not_found"},
		{name: "zero", path: "/api/boards/song/revisions/0", wantStatus: 404, wantCode: "revision_not_found"},
		{name: "leading-zero", path: "/api/boards/song/revisions/01", wantStatus: 404, wantCode: "revision_not_found"},
		{name: "negative", path: "/api/boards/song/revisions/-1", wantStatus: 404, wantCode: "revision_not_found"},
		{name: "word", path: "/api/boards/song/revisions/latest", wantStatus: 404, wantCode: "revision_not_found"},
		{name: "huge", path: "/api/boards/song/revisions/99999999999999999999", wantStatus: 404, wantCode: "revision_not_found"},
		{name: "unknown-board", path: "/api/boards/nope/revisions/1", wantStatus: 404, wantCode: "not_found"},
		{name: "invalid-id", path: "/api/boards/..%2F/revisions/1", wantStatus: 404, wantCode: "not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := e.Do(st{Method: "GET", Path: tt.path})
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, tt.wantStatus, w.Body)
			}
			if strings.Contains(w.Body.String(), song.Capability) || strings.Contains(w.Body.String(), other.Capability) || strings.Contains(w.Body.String(), "capability") {
				t.Fatal("the answer carries a capability")
			}
			if tt.wantStatus != 200 {
				if got := servertest.Code(w.Body.Bytes()); got != tt.wantCode {
					t.Errorf("code = %q, want %q", got, tt.wantCode)
				}
				return
			}
			b, err := e.Store.GetRevision("song", tt.wantRev)
			if err != nil || w.Body.String() != string(b.JSON()) {
				t.Fatalf("body %s, revision %s (%v)", w.Body, b.JSON(), err)
			}
			var doc map[string]json.RawMessage
			json.Unmarshal(w.Body.Bytes(), &doc)
			if len(doc) != 6 || doc["author"] == nil || doc["restoredFrom"] == nil {
				t.Errorf("document %s, want id, revision, content, updatedAt, author, restoredFrom", w.Body)
			}
		})
	}
}

// TestRestoreBoard covers every status of POST /api/boards/:board/restore: the rules of a PUT, in the
// same order, plus revision_not_found. Every refused request leaves the data directory as it was.
func TestRestoreBoard(t *testing.T) {
	e, song, other := historyEnv(t)
	rev := func() string { b, _ := e.Store.Get("song"); return `"` + strconv.FormatInt(b.Revision, 10) + `"` }
	good := func() http.Header { return servertest.PutHeader(song.Capability, rev()) }
	body := `{"revision":1}`
	big := `{"revision":1` + strings.Repeat(" ", boardhttp.MaxRestoreBodyBytes) + `}`
	restore := servertest.WriteRoute{Path: func(id string) string { return "/api/boards/" + id + "/restore" }, Body: body, Big: big, Good: good, Other: other.Capability}
	tests := append(restore.Refusals(), []servertest.WriteCase{
		{Name: "never-written", Body: `{"revision":9}`, Header: good, WantStatus: 404, WantCode: "revision_not_found"},
		{Name: "revision-zero", Body: `{"revision":0}`, Header: good, WantStatus: 404, WantCode: "revision_not_found"},
		{Name: "no-revision", Body: `{}`, Header: good, WantStatus: 400, WantCode: "bad_json"},
		{Name: "revision-string", Body: `{"revision":"1"}`, Header: good, WantStatus: 400, WantCode: "bad_json"},
		{Name: "unknown-field", Body: `{"revision":1,"author":"pi"}`, Header: good, WantStatus: 400, WantCode: "bad_json"},
		{Name: "duplicate-key", Body: `{"revision":1,"revision":2}`, Header: good, WantStatus: 400, WantCode: "bad_json"},
		{Name: "trailing-data", Body: body + `x`, Header: good, WantStatus: 400, WantCode: "bad_json"},

		{Name: "order-capability-before-unknown-revision", Body: `{"revision":9}`, Header: headerWith(good, "Authorization", "Bearer wrong"), WantStatus: 403, WantCode: "bad_capability"},
		{Name: "order-stale-before-unknown-revision", Body: `{"revision":9}`, Header: headerWith(good, "If-Match", `"1"`), WantStatus: 412, WantCode: "revision_conflict"},

		{Name: "success", Body: body, Header: good, WantStatus: 200},
		{Name: "restore-a-restore", Body: `{"revision":4}`, Header: good, WantStatus: 200},
	}...)
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			path := tt.Path
			if path == "" {
				path = "/api/boards/song/restore"
			}
			before := e.Snapshot()
			beforeBoard, _ := e.Store.Get("song")
			w := e.Do(st{Method: "POST", Path: path, Body: tt.Body, Header: tt.Header(), Chunked: tt.Chunked})
			if w.Code != tt.WantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, tt.WantStatus, w.Body)
			}
			if strings.Contains(w.Body.String(), song.Capability) || strings.Contains(w.Body.String(), `"capability":`) {
				t.Fatal("the answer carries a capability")
			}
			if tt.WantStatus != 200 {
				wantWriteRefused(t, e, tt, before, w, beforeBoard.Revision)
				return
			}
			after, _ := e.Store.Get("song")
			var req struct{ Revision int64 }
			json.Unmarshal([]byte(tt.Body), &req)
			src, _ := e.Store.GetRevision("song", req.Revision)
			if after.Revision != beforeBoard.Revision+1 || after.Author != store.AuthorBrowser || after.RestoredFrom != req.Revision ||
				!reflect.DeepEqual(after.Content, src.Content) {
				t.Fatalf("after the restore: %s", after.JSON())
			}
			if w.Body.String() != string(after.JSON()) {
				t.Errorf("answer %s, board %s", w.Body, after.JSON())
			}
			if got, want := w.Header().Get("ETag"), `"`+strconv.FormatInt(after.Revision, 10)+`"`; got != want {
				t.Errorf("ETag = %q, want %q", got, want)
			}
			if !strings.Contains(w.Body.String(), fmt.Sprintf(`"author":"browser","restoredFrom":%d}`, req.Revision)) {
				t.Errorf("answer %s", w.Body)
			}
		})
	}
}

// TestRestoreRateLimit: a restore spends the board's write budget like a PUT, and a throttled restore
// changes nothing. In a synctest bubble, so the bucket does not refill while the test writes.
func TestRestoreRateLimit(t *testing.T) { synctest.Test(t, testRestoreRateLimit) }

func testRestoreRateLimit(t *testing.T) {
	e, song, _ := historyEnv(t)
	restore := func(rev int64) *http.Response {
		w := e.Do(st{Method: "POST", Path: "/api/boards/song/restore", Body: `{"revision":1}`,
			Header: servertest.PutHeader(song.Capability, `"`+strconv.FormatInt(rev, 10)+`"`)})
		return w.Result()
	}
	rev := int64(3)
	for i := range boardhttp.WriteBurst {
		if res := restore(rev); res.StatusCode != 200 {
			t.Fatalf("restore %d of the burst: %d", i+1, res.StatusCode)
		}
		rev++
	}
	before := e.Snapshot()
	res := restore(rev)
	if res.StatusCode != 429 || res.Header.Get("Retry-After") != "1" {
		t.Fatalf("restore past the burst: %d, Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
	datadirtest.Same(t, "a throttled restore", before, e.Snapshot())
}
