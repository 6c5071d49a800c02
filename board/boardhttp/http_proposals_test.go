package boardhttp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"tele/board"
	"tele/board/store"
	"tele/server/servertest"
)

// proposalEnv is board "song" (servertest.ValidContent: one section of four bars) with a proposal by Pi
// against revision 1 that changes bars 1 and 2, and board "other".
func proposalEnv(t *testing.T) (*servertest.Env, servertest.Created, servertest.Created, store.Proposal) {
	t.Helper()
	e := servertest.New(t)
	song := e.Create("song", servertest.ValidContent)
	other := e.Create("other", "")
	c, _ := board.ParseContent([]byte(servertest.ValidContent))
	c = c.Clone()
	c.Sections[0].Bars[1] = board.PlainBar("A7")
	c.Sections[0].Bars[2] = board.PlainBar("Dm9")
	p, err := e.Store.Propose("song", 1, c, store.AuthorPi, "a secondary dominant")
	if err != nil {
		t.Fatal(err)
	}
	return e, song, other, p
}

func TestProposalReads(t *testing.T) {
	e, song, _, p := proposalEnv(t)
	c, _ := board.ParseContent([]byte(servertest.ValidContent))
	second, err := e.Store.Propose("song", 1, c, store.AuthorPi, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path       string
		wantStatus int
		wantCode   string
		want       string // a substring of the body
	}{
		{"/api/boards/song/proposals", 200, "", `"proposals":[{"id":"` + second.ID + `"`},
		{"/api/boards/song/proposals/" + p.ID, 200, "", `"note":"a secondary dominant"`},
		{"/api/boards/other/proposals", 200, "", `{"proposals":[]}`},
		{"/api/boards/nope/proposals", 404, "not_found", ""},
		{"/api/boards/song/proposals/nosuchthing", 404, "proposal_not_found", ""},
		{"/api/boards/other/proposals/" + p.ID, 404, "proposal_not_found", ""},
	} {
		w := e.Do(st{Method: "GET", Path: tc.path})
		if w.Code != tc.wantStatus || servertest.Code(w.Body.Bytes()) != tc.wantCode || !strings.Contains(w.Body.String(), tc.want) {
			t.Errorf("GET %s: %d %s", tc.path, w.Code, w.Body)
		}
		if strings.Contains(w.Body.String(), song.Capability) {
			t.Errorf("GET %s carries a capability: %s", tc.path, w.Body)
		}
	}
}

func TestAcceptProposal(t *testing.T) {
	tests := []struct {
		name       string
		path       string // "" is song's proposal
		body       string
		header     func(song, other servertest.Created) http.Header
		moveFirst  string // a bar change the browser makes first: "bar2" or ""
		wantStatus int
		wantCode   string
		wantBars   string // the conflict's bars, as JSON
	}{
		{name: "all", body: `{}`, wantStatus: 200},
		{name: "one-bar", body: `{"bars":[[0,1]]}`, wantStatus: 200},
		{name: "section", body: `{"sections":[0]}`, wantStatus: 200},
		{name: "unknown-board", path: "/api/boards/nope/proposals/x/accept", body: `{}`, wantStatus: 404, wantCode: "not_found"},
		{name: "unknown-proposal", path: "/api/boards/song/proposals/nosuchthing/accept", body: `{}`, wantStatus: 404, wantCode: "proposal_not_found"},
		{name: "no-authorization", body: `{}`, header: func(s, o servertest.Created) http.Header { return servertest.PutHeader("", `"1"`) }, wantStatus: 401, wantCode: "unauthorized"},
		{name: "other-capability", body: `{}`, header: func(s, o servertest.Created) http.Header { return servertest.PutHeader(o.Capability, `"1"`) }, wantStatus: 403, wantCode: "bad_capability"},
		{name: "no-if-match", body: `{}`, header: func(s, o servertest.Created) http.Header { return servertest.PutHeader(s.Capability, "") }, wantStatus: 428, wantCode: "precondition_required"},
		{name: "stale-if-match", body: `{}`, header: func(s, o servertest.Created) http.Header { return servertest.PutHeader(s.Capability, `"2"`) }, wantStatus: 412, wantCode: "revision_conflict"},
		{name: "bar-out-of-range", body: `{"bars":[[0,4]]}`, wantStatus: 422, wantCode: "bad_selection"},
		{name: "section-out-of-range", body: `{"sections":[1]}`, wantStatus: 422, wantCode: "bad_selection"},
		{name: "negative-bar", body: `{"bars":[[0,-1]]}`, wantStatus: 422, wantCode: "bad_selection"},
		{name: "empty-bars", body: `{"bars":[]}`, wantStatus: 422, wantCode: "bad_selection"},
		{name: "bar-not-a-pair", body: `{"bars":[[0]]}`, wantStatus: 400, wantCode: "bad_json"},
		{name: "unknown-field", body: `{"all":true}`, wantStatus: 400, wantCode: "bad_json"},
		{name: "conflict", body: `{}`, moveFirst: "bar2", wantStatus: 412, wantCode: "proposal_conflict", wantBars: `[[0,2]]`},
		{name: "no-conflict-elsewhere", body: `{"bars":[[0,1]]}`, moveFirst: "bar2", wantStatus: 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, song, other, p := proposalEnv(t)
			rev := 1
			if tc.moveFirst == "bar2" {
				body := strings.Replace(servertest.ValidContent, `["Dm7","G7"]`, `["Dm7","Db7"]`, 1)
				w := e.Do(st{Method: "PUT", Path: "/api/boards/song", Body: body, Header: servertest.PutHeader(song.Capability, `"1"`)})
				if w.Code != 200 {
					t.Fatalf("put: %d %s", w.Code, w.Body)
				}
				rev = 2
			}
			path := tc.path
			if path == "" {
				path = "/api/boards/song/proposals/" + p.ID + "/accept"
			}
			hdr := servertest.PutHeader(song.Capability, `"`+strconv.Itoa(rev)+`"`)
			if tc.header != nil {
				hdr = tc.header(song, other)
			}
			before := e.Snapshot()
			w := e.Do(st{Method: "POST", Path: path, Body: tc.body, Header: hdr})
			if w.Code != tc.wantStatus || servertest.Code(w.Body.Bytes()) != tc.wantCode {
				t.Fatalf("%d %s, want %d %s", w.Code, w.Body, tc.wantStatus, tc.wantCode)
			}
			if strings.Contains(w.Body.String(), song.Capability) || strings.Contains(w.Body.String(), other.Capability) {
				t.Errorf("the answer carries a capability: %s", w.Body)
			}
			if tc.wantStatus != 200 {
				if after := e.Snapshot(); len(after) != len(before) {
					t.Errorf("a refused accept changed the data directory")
				}
				if tc.wantBars != "" {
					var body struct {
						Error struct{ Bars json.RawMessage } `json:"error"`
					}
					json.Unmarshal(w.Body.Bytes(), &body)
					if string(body.Error.Bars) != tc.wantBars {
						t.Errorf("conflicting bars %s, want %s", body.Error.Bars, tc.wantBars)
					}
				}
				return
			}
			b, _ := e.Store.Get("song")
			if b.Revision != int64(rev+1) || b.Author != store.AuthorPi || b.Proposal != p.ID || w.Header().Get("Etag") != `"`+strconv.Itoa(rev+1)+`"` {
				t.Fatalf("after accept: revision %d by %s naming %q, ETag %s", b.Revision, b.Author, b.Proposal, w.Header().Get("Etag"))
			}
			h := e.Do(st{Method: "GET", Path: "/api/boards/song/revisions?limit=1"})
			if !strings.Contains(h.Body.String(), `"proposal":"`+p.ID+`"`) {
				t.Errorf("the history row does not name the proposal: %s", h.Body)
			}
			if g := e.Do(st{Method: "GET", Path: "/api/boards/song/proposals/" + p.ID}); g.Code != 404 {
				t.Errorf("the accepted proposal is still open: %d", g.Code)
			}
		})
	}
}

func TestRejectProposal(t *testing.T) {
	e, song, other, p := proposalEnv(t)
	path := "/api/boards/song/proposals/" + p.ID + "/reject"
	for _, tc := range []struct {
		name       string
		path       string
		capability string
		wantStatus int
		wantCode   string
	}{
		{"no-authorization", path, "", 401, "unauthorized"},
		{"other-capability", path, other.Capability, 403, "bad_capability"},
		{"unknown-board", "/api/boards/nope/proposals/" + p.ID + "/reject", song.Capability, 404, "not_found"},
		{"unknown-proposal", "/api/boards/song/proposals/nosuchthing/reject", song.Capability, 404, "proposal_not_found"},
		{"reject", path, song.Capability, 204, ""},
		{"again", path, song.Capability, 404, "proposal_not_found"},
	} {
		before := e.Snapshot()
		w := e.Do(st{Method: "POST", Path: tc.path, Header: servertest.PutHeader(tc.capability, "")})
		if w.Code != tc.wantStatus || servertest.Code(w.Body.Bytes()) != tc.wantCode {
			t.Errorf("%s: %d %s", tc.name, w.Code, w.Body)
		}
		if tc.wantStatus != 204 && len(e.Snapshot()) != len(before) {
			t.Errorf("%s: a refused reject changed the data directory", tc.name)
		}
	}
	if b, _ := e.Store.Get("song"); b.Revision != 1 {
		t.Errorf("reject wrote revision %d", b.Revision)
	}
}

func TestProposalsEvent(t *testing.T) {
	l := servertest.New(t).Start()
	l.Create("live", servertest.ValidContent)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, _ := openEvents(t, ctx, l.URL+"/api/boards/live/events")
	if first := next(t, events); first.name != "board" {
		t.Fatalf("first event %q", first.name)
	}
	c, _ := board.ParseContent([]byte(servertest.ValidContent))
	p, err := l.Store.Propose("live", 1, c, store.AuthorPi, "tidy")
	if err != nil {
		t.Fatal(err)
	}
	ev := next(t, events)
	if ev.name != "proposals" || !strings.Contains(ev.data, `"proposals":[{"id":"`+p.ID+`"`) {
		t.Fatalf("event %q %s, want the list with the new proposal", ev.name, ev.data)
	}
	if err := l.Store.Reject("live", p.ID); err != nil {
		t.Fatal(err)
	}
	if ev := next(t, events); ev.name != "proposals" || ev.data != `{"board":"live","proposals":[]}` {
		t.Fatalf("event after reject %q %s", ev.name, ev.data)
	}
}
