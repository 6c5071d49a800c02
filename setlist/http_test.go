package setlist_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"

	"tele/board/datadirtest"
	"tele/server"
	"tele/server/servertest"
	"tele/setlist"
)

type req = servertest.Request

// newEnv is the whole HTTP stack with the set routes, over a fresh data directory with boards a and b.
func newEnv(t *testing.T) *servertest.Env {
	t.Helper()
	e := servertest.New(t, func(c *server.Config) {
		sets, err := setlist.Open(c.Store, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.Sets = sets
	})
	e.Create("a", "")
	e.Create("b", "")
	return e
}

type created struct {
	ID         string   `json:"id"`
	Revision   int64    `json:"revision"`
	Title      string   `json:"title"`
	Boards     []string `json:"boards"`
	UpdatedAt  string   `json:"updatedAt"`
	Capability string   `json:"capability"`
}

func createSet(t *testing.T, e *servertest.Env, body string) created {
	t.Helper()
	w := e.Do(req{Method: "POST", Path: "/api/sets", Body: body, Header: http.Header{"Content-Type": {"application/json"}}})
	if w.Code != 201 {
		t.Fatalf("create %s: %d %s", body, w.Code, w.Body)
	}
	var c created
	if err := json.Unmarshal(w.Body.Bytes(), &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCreateSet covers POST /api/sets: what a good create answers, and every refusal, each leaving the
// data directory as it was.
func TestCreateSet(t *testing.T) {
	e := newEnv(t)
	c := createSet(t, e, `{"id":"Gig","title":"Friday","boards":["a","b","a"]}`)
	if c.ID != "Gig" || c.Revision != 1 || c.Title != "Friday" || strings.Join(c.Boards, ",") != "a,b,a" || len(c.Capability) != 43 || c.UpdatedAt == "" {
		t.Fatalf("created %+v", c)
	}
	if r := createSet(t, e, `{"title":"No id"}`); len(r.ID) != 10 || r.Boards == nil {
		t.Fatalf("a random id and an empty list: %+v", r)
	}
	json := http.Header{"Content-Type": {"application/json"}}
	with := func(k, v string) http.Header {
		h := json.Clone()
		h.Set(k, v)
		return h
	}
	tests := []struct {
		name, body string
		header     http.Header
		status     int
		code, path string
	}{
		{"taken id", `{"id":"Gig","title":"x"}`, json, 409, "set_exists", ""},
		{"taken id in another case", `{"id":"gIG","title":"x"}`, json, 409, "set_exists", ""},
		{"invalid id", `{"id":"a.b","title":"x"}`, json, 422, "invalid_set", "id"},
		{"no title", `{"boards":["a"]}`, json, 422, "invalid_set", "title"},
		{"blank title", `{"title":"  "}`, json, 422, "invalid_set", "title"},
		{"title with a line break", `{"title":"a\nb"}`, json, 422, "invalid_set", "title"},
		{"long title", `{"title":"` + strings.Repeat("x", 121) + `"}`, json, 422, "invalid_set", "title"},
		{"bad board id", `{"title":"x","boards":["a","no/pe"]}`, json, 422, "invalid_set", "boards[1]"},
		{"unknown board", `{"title":"x","boards":["a","nope"]}`, json, 422, "invalid_set", "boards[1]"},
		{"too many boards", `{"title":"x","boards":[` + strings.Repeat(`"a",`, 200) + `"a"]}`, json, 422, "invalid_set", "boards"},
		{"unknown member", `{"title":"x","capability":"y"}`, json, 400, "bad_json", ""},
		{"not json", `{"title":"x"}`, http.Header{"Content-Type": {"text/plain"}}, 415, "unsupported_media_type", ""},
		{"too large", `{"title":"` + strings.Repeat("x", 17<<10) + `"}`, json, 413, "too_large", ""},
		{"not from a page", `{"title":"x"}`, with("Sec-Fetch-Site", "none"), 403, "cross_site", ""},
		{"cross-site", `{"title":"x"}`, with("Sec-Fetch-Site", "cross-site"), 403, "cross_site", ""},
		{"foreign origin", `{"title":"x"}`, with("Origin", "http://evil.example"), 403, "bad_origin", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := e.Snapshot()
			w := e.Do(req{Method: "POST", Path: "/api/sets", Body: tt.body, Header: tt.header})
			if w.Code != tt.status || servertest.Code(w.Body.Bytes()) != tt.code {
				t.Fatalf("%d %s, want %d %s", w.Code, w.Body, tt.status, tt.code)
			}
			if tt.path != "" && !strings.Contains(w.Body.String(), `"path":"`+tt.path+`"`) {
				t.Errorf("%s does not name path %s", w.Body, tt.path)
			}
			if strings.Contains(w.Body.String(), c.Capability) {
				t.Error("a refusal carries a capability")
			}
			datadirtest.Same(t, tt.name, before, e.Snapshot())
		})
	}
	// Same page: a page of this server may create a set.
	createSet(t, e, `{"title":"from the page"}`)
	w := e.Do(req{Method: "POST", Path: "/api/sets", Body: `{"title":"x"}`, Header: with("Sec-Fetch-Site", "same-origin")})
	if w.Code != 201 {
		t.Fatalf("same-origin create: %d %s", w.Code, w.Body)
	}
}

// TestCreateSetRateLimit: sets spend a creation budget of the board's size (a burst of 20); beyond,
// 429 with Retry-After and nothing written.
func TestCreateSetRateLimit(t *testing.T) { synctest.Test(t, testCreateSetRateLimit) }

func testCreateSetRateLimit(t *testing.T) {
	e := newEnv(t)
	for range 20 {
		createSet(t, e, `{"title":"x"}`)
	}
	before := e.Snapshot()
	w := e.Do(req{Method: "POST", Path: "/api/sets", Body: `{"title":"x"}`, Header: http.Header{"Content-Type": {"application/json"}}})
	if w.Code != 429 || servertest.Code(w.Body.Bytes()) != "rate_limited" || w.Header().Get("Retry-After") == "" {
		t.Fatalf("21st create: %d %s %v", w.Code, w.Body, w.Header())
	}
	datadirtest.Same(t, "over the budget", before, e.Snapshot())
}

// TestReadSets: GET /api/sets lists every set without capabilities; GET /api/sets/:set answers the
// set with its ETag and 304 on If-None-Match; an unknown set, or one named in another case, is 404.
func TestReadSets(t *testing.T) {
	e := newEnv(t)
	g := createSet(t, e, `{"id":"gig","title":"Gig","boards":["b","a"]}`)
	createSet(t, e, `{"id":"alpha","title":"Alpha"}`)
	w := e.Do(req{Method: "GET", Path: "/api/sets"})
	want := `{"sets":[{"id":"alpha","revision":1,"title":"Alpha","boards":[],"updatedAt":`
	if w.Code != 200 || !strings.HasPrefix(w.Body.String(), want) || strings.Contains(w.Body.String(), "capability") || strings.Contains(w.Body.String(), g.Capability) {
		t.Fatalf("list: %d %s", w.Code, w.Body)
	}
	w = e.Do(req{Method: "GET", Path: "/api/sets/gig"})
	if w.Code != 200 || w.Header().Get("ETag") != `"1"` || !strings.Contains(w.Body.String(), `"boards":["b","a"]`) || strings.Contains(w.Body.String(), g.Capability) {
		t.Fatalf("get: %d %v %s", w.Code, w.Header(), w.Body)
	}
	if w := e.Do(req{Method: "GET", Path: "/api/sets/gig", Header: http.Header{"If-None-Match": {`"1"`}}}); w.Code != 304 {
		t.Fatalf("If-None-Match: %d", w.Code)
	}
	for _, p := range []string{"/api/sets/GIG", "/api/sets/nope", "/api/sets/a.b"} {
		if w := e.Do(req{Method: "GET", Path: p}); w.Code != 404 || servertest.Code(w.Body.Bytes()) != "not_found" {
			t.Errorf("GET %s: %d %s", p, w.Code, w.Body)
		}
	}
}

// gigEnv is newEnv with set gig (of board a) and set other, and the headers of a good write to gig.
func gigEnv(t *testing.T) (e *servertest.Env, other created, good func() http.Header) {
	t.Helper()
	e = newEnv(t)
	g := createSet(t, e, `{"id":"gig","title":"Gig","boards":["a"]}`)
	other = createSet(t, e, `{"id":"other","title":"Other"}`)
	return e, other, func() http.Header {
		return http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer " + g.Capability}, "If-Match": {`"1"`}}
	}
}

// TestPutAndDeleteSet: the refusals of a write that are a set's own (the rules every write shares are
// TestPutSetRefusals') and every refusal of a deletion, in the order of the board routes, each changing
// nothing; then a write and a deletion that work.
func TestPutAndDeleteSet(t *testing.T) {
	e, other, base := gigEnv(t)
	good := func(kv ...string) http.Header { return servertest.HeaderWith(base, kv...)() }
	const body = `{"title":"Gig 2","boards":["b","a"]}`
	tests := []struct {
		name, method, path, body string
		header                   http.Header
		status                   int
		code                     string
	}{
		{"put other case", "PUT", "/api/sets/GIG", body, good(), 404, "not_found"},
		{"put bad body", "PUT", "", `{"title":"x","extra":1}`, good(), 400, "bad_json"},
		{"put unknown board", "PUT", "", `{"title":"x","boards":["zz"]}`, good(), 422, "invalid_set"},
		{"put capability before if-match", "PUT", "", body, good("Authorization", "Bearer x", "If-Match", ""), 403, "bad_capability"},
		{"delete no capability", "DELETE", "", "", good("Authorization", ""), 401, "unauthorized"},
		{"delete wrong capability", "DELETE", "", "", good("Authorization", "Bearer "+other.Capability), 403, "bad_capability"},
		{"delete with a body", "DELETE", "", `{}`, good(), 400, "bad_json"},
		{"delete no if-match", "DELETE", "", "", good("If-Match", ""), 428, "precondition_required"},
		{"delete stale", "DELETE", "", "", good("If-Match", `"3"`), 412, "revision_conflict"},
		{"delete unknown", "DELETE", "/api/sets/nope", "", good(), 404, "not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path
			if path == "" {
				path = "/api/sets/gig"
			}
			before := e.Snapshot()
			w := e.Do(req{Method: tt.method, Path: path, Body: tt.body, Header: tt.header})
			if w.Code != tt.status || servertest.Code(w.Body.Bytes()) != tt.code {
				t.Fatalf("%d %s, want %d %s", w.Code, w.Body, tt.status, tt.code)
			}
			if tt.status == 412 && !strings.Contains(w.Body.String(), `"currentRevision":1`) {
				t.Errorf("412 without currentRevision: %s", w.Body)
			}
			datadirtest.Same(t, tt.name, before, e.Snapshot())
		})
	}
	w := e.Do(req{Method: "PUT", Path: "/api/sets/gig", Body: body, Header: good()})
	if w.Code != 200 || w.Header().Get("ETag") != `"2"` || !strings.Contains(w.Body.String(), `"title":"Gig 2","boards":["b","a"]`) {
		t.Fatalf("put: %d %v %s", w.Code, w.Header(), w.Body)
	}
	if w := e.Do(req{Method: "DELETE", Path: "/api/sets/gig", Header: good("If-Match", `"2"`, "Content-Type", "")}); w.Code != 204 {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	if w := e.Do(req{Method: "GET", Path: "/api/sets/gig"}); w.Code != 404 {
		t.Fatalf("after delete: %d", w.Code)
	}
	if _, ok := e.Snapshot()["sets/gig.json"]; ok {
		t.Fatal("the deleted set's file is still there")
	}
	// The id is free again, in any case.
	createSet(t, e, `{"id":"GIG","title":"Again"}`)
}

// TestPutSetRateLimit: writes to one set spend the board's write budget (a burst of 40).
func TestPutSetRateLimit(t *testing.T) { synctest.Test(t, testPutSetRateLimit) }

func testPutSetRateLimit(t *testing.T) {
	e := newEnv(t)
	g := createSet(t, e, `{"id":"gig","title":"Gig"}`)
	for rev := 1; rev <= 40; rev++ {
		h := http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer " + g.Capability}, "If-Match": {`"` + strconv.Itoa(rev) + `"`}}
		if w := e.Do(req{Method: "PUT", Path: "/api/sets/gig", Body: `{"title":"x"}`, Header: h}); w.Code != 200 {
			t.Fatalf("write %d: %d %s", rev, w.Code, w.Body)
		}
	}
	h := http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer " + g.Capability}, "If-Match": {`"41"`}}
	if w := e.Do(req{Method: "PUT", Path: "/api/sets/gig", Body: `{"title":"x"}`, Header: h}); w.Code != 429 {
		t.Fatalf("41st write: %d %s", w.Code, w.Body)
	}
	before := e.Snapshot()
	if w := e.Do(req{Method: "PUT", Path: "/api/sets/gig", Body: `{"title":"x"}`, Header: h}); w.Code != 429 {
		t.Fatalf("41st write: %d %s", w.Code, w.Body)
	}
	datadirtest.Same(t, "over the budget", before, e.Snapshot())
}

// TestSetEvents covers GET /api/set-events: the list at once, then the list again after a create, a
// write and a delete (what keeps every open page's sets as they are), and nothing after a refusal.
func TestSetEvents(t *testing.T) {
	e := newEnv(t)
	live := e.Start()
	stream, _ := http.NewRequest("GET", live.URL+"/api/set-events", nil)
	stream.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(stream)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET /api/set-events: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	lines := bufio.NewScanner(res.Body)
	lines.Buffer(nil, 1<<20)
	// next returns the ids and titles of the next event's sets.
	next := func() string {
		t.Helper()
		name := ""
		for lines.Scan() {
			line := lines.Text()
			if v, ok := strings.CutPrefix(line, "event: "); ok {
				name = v
			}
			if v, ok := strings.CutPrefix(line, "data: "); ok {
				if name != setlist.EventName {
					t.Fatalf("event %q", name)
				}
				var list struct{ Sets []created }
				if err := json.Unmarshal([]byte(v), &list); err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, s := range list.Sets {
					out = append(out, s.ID+":"+s.Title+":"+strings.Join(s.Boards, ","))
				}
				return strings.Join(out, " ")
			}
		}
		t.Fatalf("the stream ended: %v", lines.Err())
		return ""
	}
	if got := next(); got != "" {
		t.Fatalf("first event: %q, want no sets", got)
	}
	c := createSet(t, e, `{"id":"gig","title":"Friday","boards":["a"]}`)
	if got := next(); got != "gig:Friday:a" {
		t.Fatalf("after the create: %q", got)
	}
	// A refused write sends nothing; the write after it does.
	if w := e.Do(req{Method: "PUT", Path: "/api/sets/gig", Body: `{"title":"Saturday","boards":["a"]}`, Header: servertest.PutHeader("wrong", "\"1\"")}); w.Code != 403 {
		t.Fatalf("a write with another capability: %d", w.Code)
	}
	if w := e.Do(req{Method: "PUT", Path: "/api/sets/gig", Body: `{"title":"Saturday","boards":["b","a"]}`, Header: servertest.PutHeader(c.Capability, "\"1\"")}); w.Code != 200 {
		t.Fatalf("the write: %d %s", w.Code, w.Body)
	}
	if got := next(); got != "gig:Saturday:b,a" {
		t.Fatalf("after the write: %q", got)
	}
	del := servertest.PutHeader(c.Capability, "\"2\"")
	del.Del("Content-Type")
	if w := e.Do(req{Method: "DELETE", Path: "/api/sets/gig", Header: del}); w.Code != 204 {
		t.Fatalf("the delete: %d %s", w.Code, w.Body)
	}
	if got := next(); got != "" {
		t.Fatalf("after the delete: %q", got)
	}
}
