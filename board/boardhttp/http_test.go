package boardhttp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"tele/board"
	"tele/board/boardhttp"
	"tele/board/datadirtest"
	"tele/server/servertest"
	"tele/sse/ssetest"
)

// Every test here runs through the whole stack (server.Handler: access log, guard, router, handler,
// store on disk); servertest.CheckResponse runs on every response.

type st = servertest.Request

func header(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

func TestGetBoard(t *testing.T) {
	e := servertest.New(t)
	c := e.Create("song", servertest.ValidContent)
	tests := []struct {
		name       string
		path       string
		header     http.Header
		wantStatus int
		wantCode   string
	}{
		{name: "current", path: "/api/boards/song", wantStatus: 200},
		{name: "if-none-match-current", path: "/api/boards/song", header: header("If-None-Match", `"1"`), wantStatus: 304},
		{name: "if-none-match-weak", path: "/api/boards/song", header: header("If-None-Match", `W/"1"`), wantStatus: 304},
		{name: "if-none-match-list", path: "/api/boards/song", header: header("If-None-Match", `"7", "1"`), wantStatus: 304},
		{name: "if-none-match-star", path: "/api/boards/song", header: header("If-None-Match", `*`), wantStatus: 304},
		{name: "if-none-match-stale", path: "/api/boards/song", header: header("If-None-Match", `"2"`), wantStatus: 200},
		{name: "if-none-match-garbage", path: "/api/boards/song", header: header("If-None-Match", `1`), wantStatus: 200},
		{name: "unknown-board", path: "/api/boards/nope", wantStatus: 404, wantCode: "not_found"},
		{name: "invalid-id-leading-dash", path: "/api/boards/-x", wantStatus: 404, wantCode: "not_found"},
		{name: "invalid-id-dot-dot", path: "/api/boards/..", wantStatus: 404, wantCode: "not_found"},
		{name: "invalid-id-too-long", path: "/api/boards/" + strings.Repeat("a", 65), wantStatus: 404, wantCode: "not_found"},
		{name: "invalid-id-percent", path: "/api/boards/a%20b", wantStatus: 404, wantCode: "not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := e.Do(st{Method: "GET", Path: tt.path, Header: tt.header})
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, tt.wantStatus, w.Body)
			}
			switch tt.wantStatus {
			case 200:
				b, _ := e.Store.Get("song")
				if !bytes.Equal(w.Body.Bytes(), b.JSON()) {
					t.Errorf("body is not the board's JSON:\n%s\n%s", w.Body, b.JSON())
				}
				if got := w.Header().Get("ETag"); got != `"1"` {
					t.Errorf("ETag = %q", got)
				}
				if got := w.Header().Get("Content-Type"); got != "application/json" {
					t.Errorf("Content-Type = %q", got)
				}
				if strings.Contains(w.Body.String(), c.Capability) || strings.Contains(w.Body.String(), "capability") {
					t.Errorf("a read carries the capability")
				}
			case 304:
				if w.Body.Len() != 0 || w.Header().Get("ETag") != `"1"` {
					t.Errorf("304 with body %q, ETag %q", w.Body, w.Header().Get("ETag"))
				}
			default:
				if got := servertest.Code(w.Body.Bytes()); got != tt.wantCode {
					t.Errorf("code = %q, want %q", got, tt.wantCode)
				}
			}
		})
	}
}

func TestCreateBoard(t *testing.T) {
	e := servertest.New(t)
	e.Create("taken", "")
	tests := []struct {
		name       string
		body       string
		header     http.Header
		wantStatus int
		wantCode   string
		wantPath   string
	}{
		{name: "teaching-example", body: `{"id":"ex"}`, wantStatus: 201},
		{name: "content-null-is-example", body: `{"id":"ex2","content":null}`, wantStatus: 201},
		{name: "own-content", body: `{"id":"mine","content":` + servertest.ValidContent + `}`, wantStatus: 201},
		{name: "generated-id", body: `{}`, wantStatus: 201},
		{name: "same-origin-page", body: `{"id":"page"}`, header: header("Sec-Fetch-Site", "same-origin", "Sec-Fetch-Mode", "cors", "Sec-Fetch-Dest", "empty", "Origin", "http://127.0.0.1:4317"), wantStatus: 201},

		{name: "existing-id", body: `{"id":"taken"}`, wantStatus: 409, wantCode: "board_exists"},
		{name: "invalid-id", body: `{"id":"no spaces"}`, wantStatus: 422, wantCode: "invalid_content", wantPath: "id"},
		{name: "invalid-content", body: `{"id":"bad","content":` + strings.Replace(servertest.ValidContent, `"Am7"`, `"H7"`, 1) + `}`, wantStatus: 422, wantCode: "invalid_content", wantPath: "content.sections[0].bars[1][0]"},
		{name: "unknown-field", body: `{"id":"x","colour":"red"}`, wantStatus: 400, wantCode: "bad_json"},
		{name: "duplicate-key", body: `{"id":"x","id":"y"}`, wantStatus: 400, wantCode: "bad_json"},
		{name: "not-an-object", body: `["x"]`, wantStatus: 400, wantCode: "bad_json"},
		{name: "form-content-type", body: `{"id":"x"}`, header: header("Content-Type", "application/x-www-form-urlencoded"), wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "sec-fetch-site-none", body: `{"id":"typed"}`, header: header("Sec-Fetch-Site", "none"), wantStatus: 403, wantCode: "cross_site"},
		{name: "foreign-origin", body: `{"id":"csrf"}`, header: header("Origin", "http://evil.example"), wantStatus: 403, wantCode: "bad_origin"},
		{name: "null-origin", body: `{"id":"csrf"}`, header: header("Origin", "null"), wantStatus: 403, wantCode: "bad_origin"},
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
			before := e.Snapshot()
			w := e.Do(st{Method: "POST", Path: "/api/boards", Body: tt.body, Header: h})
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
			if !board.ValidID(c.ID) || c.Revision != 1 || len(c.Capability) < 43 {
				t.Errorf("created %+v", c)
			}
			if got := w.Header().Get("ETag"); got != `"1"` {
				t.Errorf("ETag = %q", got)
			}
			if got := w.Header().Get("Location"); got != "/api/boards/"+c.ID {
				t.Errorf("Location = %q", got)
			}
			b, err := e.Store.Get(c.ID)
			if err != nil {
				t.Fatal(err)
			}
			// The answer is the board plus the capability, and the capability opens the board.
			var got, want map[string]any
			json.Unmarshal(w.Body.Bytes(), &got)
			json.Unmarshal(b.JSON(), &want)
			delete(got, "capability")
			if !reflect.DeepEqual(got, want) {
				t.Errorf("answer %v, board %v", got, want)
			}
			if err := e.Store.Authorize(c.ID, c.Capability); err != nil {
				t.Errorf("capability does not open the board: %v", err)
			}
			if strings.Contains(tt.body, `"content":{`) {
				var sent, stored any
				json.Unmarshal([]byte(servertest.ValidContent), &sent)
				json.Unmarshal(c.Content, &stored)
				if !reflect.DeepEqual(sent, stored) {
					t.Errorf("content %s, sent %s", c.Content, servertest.ValidContent)
				}
			} else if b.Content.Title != board.Example().Title {
				t.Errorf("content is not the teaching example: %q", b.Content.Title)
			}
		})
	}
}

// TestPutBoard covers every status of a board write (docs/api.md) and the order of the checks: each row
// breaks one or more things of a good request, and the first check in putBoard's documented order wins.
// Every refused request leaves the data directory byte-for-byte as it was.
func TestPutBoard(t *testing.T) {
	e := servertest.New(t)
	song := e.Create("song", servertest.ValidContent)
	other := e.Create("other", "")
	edited := strings.Replace(servertest.ValidContent, `"Test"`, `"Edited"`, 1)
	invalid := strings.Replace(servertest.ValidContent, `"Dm7","G7"`, `"Dm7","X9"`, 1)
	big := `{"title":"` + strings.Repeat("x", boardhttp.MaxBodyBytes) + `"}`

	rev := func() string { b, _ := e.Store.Get("song"); return `"` + strconv.FormatInt(b.Revision, 10) + `"` }
	good := func() http.Header { return servertest.PutHeader(song.Capability, rev()) }

	put := servertest.WriteRoute{Path: func(id string) string { return "/api/boards/" + id }, Body: edited, Big: big, Good: good, Other: other.Capability}
	tests := append(put.Refusals(), []servertest.WriteCase{
		{Name: "unknown-chord", Body: invalid, Header: good, WantStatus: 422, WantCode: "invalid_content", WantPath: "sections[0].bars[2][1]"},
		{Name: "tempo-out-of-range", Body: strings.Replace(servertest.ValidContent, `"tempo":120`, `"tempo":301`, 1), Header: good, WantStatus: 422, WantCode: "invalid_content", WantPath: "tempo"},
		{Name: "unknown-field", Body: strings.Replace(servertest.ValidContent, `{"title"`, `{"colour":"red","title"`, 1), Header: good, WantStatus: 400, WantCode: "bad_json"},
		{Name: "duplicate-key", Body: strings.Replace(servertest.ValidContent, `{"title":"Test"`, `{"title":"Test","title":"Two"`, 1), Header: good, WantStatus: 400, WantCode: "bad_json"},
		{Name: "trailing-data", Body: edited + ` x`, Header: good, WantStatus: 400, WantCode: "bad_json"},
		{Name: "two-objects", Body: edited + edited, Header: good, WantStatus: 400, WantCode: "bad_json"},
		{Name: "not-an-object", Body: `[` + edited + `]`, Header: good, WantStatus: 400, WantCode: "bad_json"},
		{Name: "wrong-type", Body: strings.Replace(servertest.ValidContent, `"tempo":120`, `"tempo":"120"`, 1), Header: good, WantStatus: 400, WantCode: "bad_json"},

		// Order: the earlier check wins when several fail.
		{Name: "order-capability-before-body", Body: `{"nonsense"`, Header: headerWith(good, "Authorization", "Bearer wrong"), WantStatus: 403, WantCode: "bad_capability"},
		{Name: "order-if-match-before-stale-body", Body: `garbage`, Header: headerWith(good, "If-Match", ""), WantStatus: 428, WantCode: "precondition_required"},
		{Name: "order-stale-before-body", Body: invalid, Header: headerWith(good, "If-Match", `"9"`), WantStatus: 412, WantCode: "revision_conflict"},

		{Name: "success", Body: edited, Header: good, WantStatus: 200},
		{Name: "success-again-on-new-revision", Body: servertest.ValidContent, Header: good, WantStatus: 200},
	}...)
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			path := tt.Path
			if path == "" {
				path = "/api/boards/song"
			}
			beforeBoard, _ := e.Store.Get("song")
			before := e.Snapshot()
			w := e.Do(st{Method: "PUT", Path: path, Body: tt.Body, Header: tt.Header(), Chunked: tt.Chunked})
			if w.Code != tt.WantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, tt.WantStatus, w.Body)
			}
			if tt.WantStatus != 200 {
				wantWriteRefused(t, e, tt, before, w, beforeBoard.Revision)
				return
			}
			after, _ := e.Store.Get("song")
			if after.Revision != beforeBoard.Revision+1 {
				t.Fatalf("revision %d → %d", beforeBoard.Revision, after.Revision)
			}
			if !bytes.Equal(w.Body.Bytes(), after.JSON()) {
				t.Errorf("answer is not the new board")
			}
			if got, want := w.Header().Get("ETag"), `"`+strconv.FormatInt(after.Revision, 10)+`"`; got != want {
				t.Errorf("ETag = %q, want %q", got, want)
			}
			var sent, stored any
			json.Unmarshal([]byte(tt.Body), &sent)
			json.Unmarshal(mustRead(t, filepath.Join(e.Dir, "boards", "song", strconv.FormatInt(after.Revision, 10)+".json")), &stored)
			if c := stored.(map[string]any)["content"]; !reflect.DeepEqual(c, sent) {
				t.Errorf("on disk %v, sent %v", c, sent)
			}
		})
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPutRateLimit runs in a testing/synctest bubble: the bubble's clock stands still while the test
// writes (nothing in it sleeps), so the bucket does not refill however slow the machine is.
func TestPutRateLimit(t *testing.T) { synctest.Test(t, testPutRateLimit) }

func testPutRateLimit(t *testing.T) {
	e := servertest.New(t)
	c := e.Create("busy", servertest.ValidContent)
	e.Create("quiet", "")
	put := func(id, capability string, rev int64) *bytes.Buffer {
		w := e.Do(st{Method: "PUT", Path: "/api/boards/" + id, Body: servertest.ValidContent,
			Header: servertest.PutHeader(capability, `"`+strconv.FormatInt(rev, 10)+`"`)})
		if w.Code == 429 {
			if got := w.Header().Get("Retry-After"); got != "1" {
				t.Errorf("Retry-After = %q, want 1", got)
			}
		}
		return bytes.NewBufferString(strconv.Itoa(w.Code) + " " + w.Body.String())
	}
	for i := range boardhttp.WriteBurst {
		if got := put("busy", c.Capability, int64(i+1)); !strings.HasPrefix(got.String(), "200") {
			t.Fatalf("write %d of the burst: %s", i+1, got)
		}
	}
	before := e.Snapshot()
	got := put("busy", c.Capability, boardhttp.WriteBurst+1)
	if !strings.HasPrefix(got.String(), "429") {
		t.Fatalf("write past the burst: %s", got)
	}
	var eb servertest.ErrorBody
	json.Unmarshal(got.Bytes()[4:], &eb)
	if eb.Error.Code != "rate_limited" || eb.Error.RetryAfterMs <= 0 || eb.Error.RetryAfterMs > 1000 {
		t.Errorf("error = %+v", eb.Error)
	}
	datadirtest.Same(t, "a throttled write", before, e.Snapshot())
	// The limit is per board.
	q, _ := e.Store.Get("quiet")
	cq, _ := e.Store.Capability("quiet")
	if got := put("quiet", cq, q.Revision); !strings.HasPrefix(got.String(), "200") {
		t.Errorf("another board throttled too: %s", got)
	}
}

// TestRacingWriters sends N writes of the same revision at once over real HTTP: exactly one wins, every
// other gets 412 with the winner's revision, and the file on disk is the winner's board.
func TestRacingWriters(t *testing.T) {
	const n = 16
	l := servertest.New(t).Start()
	c := l.Create("race", servertest.ValidContent)

	type result struct {
		status int
		body   []byte
		title  string
	}
	results := make([]result, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			title := fmt.Sprintf("writer %d", i)
			body := strings.Replace(servertest.ValidContent, `"Test"`, strconv.Quote(title), 1)
			req, _ := http.NewRequest("PUT", l.URL+"/api/boards/race", strings.NewReader(body))
			req.Header = servertest.PutHeader(c.Capability, `"1"`)
			<-start
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer res.Body.Close()
			servertest.CheckResponse(t, "/api/boards/race", res)
			b, _ := io.ReadAll(res.Body)
			results[i] = result{res.StatusCode, b, title}
		})
	}
	close(start)
	wg.Wait()

	var winner *result
	for i := range results {
		r := &results[i]
		switch r.status {
		case 200:
			if winner != nil {
				t.Fatalf("two winners: %q and %q", winner.title, r.title)
			}
			winner = r
		case 412:
			var eb servertest.ErrorBody
			json.Unmarshal(r.body, &eb)
			if eb.Error.Code != "revision_conflict" || eb.Error.CurrentRevision != 2 {
				t.Errorf("loser got %s", r.body)
			}
		default:
			t.Errorf("status %d: %s", r.status, r.body)
		}
	}
	if winner == nil {
		t.Fatal("no winner")
	}
	var onDisk, answered map[string]any
	json.Unmarshal(mustRead(t, filepath.Join(l.Dir, "boards", "race", "2.json")), &onDisk)
	json.Unmarshal(winner.body, &answered)
	if !reflect.DeepEqual(onDisk, answered) {
		t.Errorf("on disk:\n%v\nwinner:\n%v", onDisk, answered)
	}
	if title := onDisk["content"].(map[string]any)["title"]; title != winner.title {
		t.Errorf("title on disk %q, winner %q", title, winner.title)
	}
}

// sseEvent is one parsed server-sent event.
type sseEvent struct {
	name string
	data string
}

// openEvents connects to a board's stream and parses its events into a channel, which is closed when
// the stream ends.
func openEvents(t *testing.T, ctx context.Context, url string) (<-chan sseEvent, *http.Response) {
	t.Helper()
	status, res, body := streamStatus(t, ctx, url)
	if status != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("stream: %d %s %s", status, res.Header.Get("Content-Type"), body)
	}
	ch := make(chan sseEvent, 16)
	go func() {
		defer close(ch)
		ssetest.Read(res.Body, func(ev ssetest.Event) {
			if ev.Name != "" || ev.Data != "" {
				ch <- sseEvent{name: ev.Name, data: ev.Data}
			}
		})
	}()
	return ch, res
}

func next(t *testing.T, ch <-chan sseEvent) sseEvent {
	t.Helper()
	select {
	case ev, ok := <-ch:
		if !ok {
			t.Fatal("stream ended")
		}
		return ev
	case <-time.After(5 * time.Second):
		t.Fatal("no event within 5s")
	}
	return sseEvent{}
}

func TestBoardEvents(t *testing.T) {
	l := servertest.New(t).Start()
	c := l.Create("live", servertest.ValidContent)
	o := l.Create("elsewhere", "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	events, _ := openEvents(t, ctx, l.URL+"/api/boards/live/events")
	first := next(t, events)
	b, _ := l.Store.Get("live")
	if first.name != "board" || first.data != string(b.JSON()) {
		t.Fatalf("first event %q %s, want the current board %s", first.name, first.data, b.JSON())
	}

	put := func(id, capability string, rev int, title string) {
		body := strings.Replace(servertest.ValidContent, `"Test"`, strconv.Quote(title), 1)
		req, _ := http.NewRequest("PUT", l.URL+"/api/boards/"+id, strings.NewReader(body))
		req.Header = servertest.PutHeader(capability, `"`+strconv.Itoa(rev)+`"`)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("put %s: %d", id, res.StatusCode)
		}
	}
	put("elsewhere", o.Capability, 1, "not this one") // another board's commit is not on this stream
	put("live", c.Capability, 1, "second")
	ev := next(t, events)
	var got struct {
		ID       string `json:"id"`
		Revision int64  `json:"revision"`
		Content  struct{ Title string }
	}
	if err := json.Unmarshal([]byte(ev.data), &got); err != nil || ev.name != "board" {
		t.Fatalf("event %q %s: %v", ev.name, ev.data, err)
	}
	if got.ID != "live" || got.Revision != 2 || got.Content.Title != "second" {
		t.Fatalf("event after the write: %+v", got)
	}
	put("live", c.Capability, 2, "third")
	if ev := next(t, events); !strings.Contains(ev.data, `"revision":3`) {
		t.Fatalf("the event after one write is not the next revision: %s", ev.data)
	}
	select {
	case ev := <-events:
		t.Fatalf("unexpected extra event %q %s", ev.name, ev.data)
	case <-time.After(50 * time.Millisecond):
	}
}

func TestBoardEventsUnknownBoard(t *testing.T) {
	e := servertest.New(t)
	w := e.Do(st{Method: "GET", Path: "/api/boards/ghost/events"})
	if w.Code != 404 || servertest.Code(w.Body.Bytes()) != "not_found" {
		t.Fatalf("got %d %s", w.Code, w.Body)
	}
	if n := e.Hub.Count(boardhttp.Topic("ghost")); n != 0 {
		t.Fatalf("a subscription was left for an unknown board: %d", n)
	}
}

func TestCatalogue(t *testing.T) {
	e := servertest.New(t)
	w := e.Do(st{Method: "GET", Path: "/api/catalogue"})
	if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), board.CatalogueJSON()) {
		t.Fatalf("got %d %.200s", w.Code, w.Body)
	}
	if !json.Valid(w.Body.Bytes()) || w.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("not JSON")
	}
}

func TestListBoards(t *testing.T) {
	e := servertest.New(t)
	w := e.Do(st{Method: "GET", Path: "/api/boards"})
	if w.Code != 200 || w.Body.String() != `{"boards":[],"setAside":[]}` {
		t.Fatalf("empty list: %d %s", w.Code, w.Body)
	}
	b := e.Create("b", servertest.ValidContent)
	a := e.Create("a", "")
	w = e.Do(st{Method: "GET", Path: "/api/boards"})
	var got struct {
		Boards []struct {
			ID        string    `json:"id"`
			Title     string    `json:"title"`
			Revision  int64     `json:"revision"`
			UpdatedAt time.Time `json:"updatedAt"`
		} `json:"boards"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Boards) != 2 || got.Boards[0].ID != "a" || got.Boards[1].ID != "b" ||
		got.Boards[0].Title != board.Example().Title || got.Boards[1].Title != "Test" ||
		got.Boards[0].Revision != 1 || got.Boards[1].UpdatedAt.IsZero() {
		t.Fatalf("list: %s", w.Body)
	}
	if bd, _ := e.Store.Get("a"); !strings.Contains(string(bd.JSON()), `"updatedAt":"`+got.Boards[0].UpdatedAt.Format("2006-01-02T15:04:05.000Z07:00")+`"`) {
		t.Errorf("updatedAt is not spelled as in the board: %s vs %s", w.Body, bd.JSON())
	}
	for _, c := range []string{a.Capability, b.Capability} {
		if strings.Contains(w.Body.String(), c) {
			t.Fatalf("the list carries a capability")
		}
	}
}

func TestWriteFromTheSamePage(t *testing.T) {
	// What the browser sends for a save: same-origin Fetch Metadata and the exact Origin.
	e := servertest.New(t)
	c := e.Create("page", servertest.ValidContent)
	h := servertest.PutHeader(c.Capability, `"1"`)
	h.Set("Origin", "http://127.0.0.1:4317")
	h.Set("Sec-Fetch-Site", "same-origin")
	h.Set("Sec-Fetch-Mode", "cors")
	h.Set("Sec-Fetch-Dest", "empty")
	w := e.Do(st{Method: "PUT", Path: "/api/boards/page", Body: servertest.ValidContent, Header: h})
	if w.Code != 200 {
		t.Fatalf("got %d %s", w.Code, w.Body)
	}
}

// headerWith returns a header maker: base's header with each name in kv set to the value after it, or
// removed where that value is "".
func headerWith(base func() http.Header, kv ...string) func() http.Header {
	return servertest.HeaderWith(base, kv...)
}

// wantRefused: a refused request left the data directory as it was before and answered with the error
// code, and the path when one is wanted.
func wantRefused(t *testing.T, e *servertest.Env, name string, before map[string]string, w *httptest.ResponseRecorder, code, path string) {
	t.Helper()
	datadirtest.Same(t, name, before, e.Snapshot())
	var eb servertest.ErrorBody
	json.Unmarshal(w.Body.Bytes(), &eb)
	if eb.Error.Code != code || (path != "" && eb.Error.Path != path) {
		t.Errorf("error = %+v, want code %q path %q", eb.Error, code, path)
	}
}
