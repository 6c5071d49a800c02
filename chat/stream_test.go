package chat

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"tele/projection"
	"testing"
	"testing/synctest"
	"time"

	"tele/sse"
)

func TestStreamStartsWithASnapshot(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	if err := e.gw.ApplyBranch(true, []byte(`[{"type":"message","id":"u1","message":{"role":"user","content":"hello"}}]`)); err != nil {
		t.Fatal(err)
	}
	s, r := e.openStream(c)
	if s == nil {
		t.Fatalf("stream: %d %s", r.status, r.body)
	}
	if r.header.Get("Content-Type") != "text/event-stream" || r.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("headers %v", r.header)
	}
	ev := s.next(t)
	st := e.do("GET", e.base()+"/status", "", nil, c)
	if ev.Name != "snapshot" || ev.Data != string(st.body) {
		t.Fatalf("first event %s %s, want the status document %s", ev.Name, ev.Data, st.body)
	}
	s.quiet(t)
}

func TestEveryChangeSendsACompleteSnapshot(t *testing.T) {
	synctest.Test(t, testEveryChangeSendsACompleteSnapshot)
}

func testEveryChangeSendsACompleteSnapshot(t *testing.T) {
	e := newBubbleEnv(t)
	c := e.pair()
	s, _ := e.openStream(c)
	s.next(t)

	snapshot := func() map[string]any {
		t.Helper()
		ev := s.next(t)
		var v map[string]any
		if ev.Name != "snapshot" || json.Unmarshal([]byte(ev.Data), &v) != nil || len(v) != 8 {
			t.Fatalf("event %s %s", ev.Name, ev.Data)
		}
		return v
	}
	e.gw.ApplyBranch(true, []byte(`[{"type":"message","id":"u1","message":{"role":"user","content":"hello"}}]`))
	if v := snapshot(); len(v["items"].([]any)) != 1 || v["status"] != "idle" {
		t.Fatalf("branch: %v", v)
	}
	e.gw.SetState(true, false, false) // no change: no event
	s.quiet(t)
	e.gw.AgentStart()
	if v := snapshot(); v["status"] != "running" || v["runId"] == nil || len(v["items"].([]any)) != 1 {
		t.Fatalf("agent_start: %v", v)
	}
	e.gw.SetStreaming([]byte(`{"role":"assistant","content":[{"type":"text","text":"Hel"}]}`))
	if v := snapshot(); len(v["items"].([]any)) != 2 {
		t.Fatalf("streaming: %v", v)
	}
	e.gw.ApplyBranch(false, []byte(`[{"type":"message","id":"a1","message":{"role":"assistant","content":[{"type":"text","text":"Hello"}],"stopReason":"stop"}}]`))
	if v := snapshot(); len(v["items"].([]any)) != 3 {
		t.Fatalf("persisted beside the stream: %v", v)
	}
	e.gw.TurnEnd()
	if v := snapshot(); len(v["items"].([]any)) != 2 {
		t.Fatalf("turn_end replaces the streaming item: %v", v)
	}
	e.gw.SetState(false, false, true)
	if v := snapshot(); v["status"] != "terminal-prompt" {
		t.Fatalf("prompt: %v", v)
	}
	e.gw.SetState(false, false, false)
	snapshot()
	e.gw.Settled()
	if v := snapshot(); v["status"] != "idle" || v["runId"] != nil || v["notice"] != "run-ended" || v["idleVersion"] != float64(2) {
		t.Fatalf("settled (one snapshot for the whole change): %v", v)
	}
	s.quiet(t)

	// A command's changes are streamed too.
	if r := e.send(c, newID(), "hi"); r.status != 202 {
		t.Fatal(r.status)
	}
	if v := snapshot(); v["status"] != "submitting" || v["notice"] != nil {
		t.Fatalf("reserved: %v", v)
	}
	if v := snapshot(); v["notice"] != "input-submitted" {
		t.Fatalf("submitted: %v", v)
	}
	advance(ObservationWindow)
	if v := snapshot(); v["notice"] != "input-unobserved" || v["status"] != "idle" {
		t.Fatalf("unobserved: %v", v)
	}
}

func TestFifthStreamIsRefused(t *testing.T) { synctest.Test(t, testFifthStreamIsRefused) }

func testFifthStreamIsRefused(t *testing.T) {
	e := newBubbleEnv(t)
	c := e.pair()
	var streams []*stream
	for i := range MaxStreams {
		s, r := e.openStream(c)
		if s == nil {
			t.Fatalf("stream %d: %d %s", i+1, r.status, r.body)
		}
		s.next(t)
		streams = append(streams, s)
	}
	s, r := e.openStream(c)
	if s != nil || r.status != 429 || r.code() != "too_many_streams" {
		t.Fatalf("fifth: %d %s", r.status, r.body)
	}
	// A client that leaves frees its place.
	streams[0].res.Body.Close()
	streams[0].waitEnd(t)
	synctest.Wait() // the server has seen the client go and ended its stream
	if s, r := e.openStream(c); s == nil {
		t.Fatalf("after one left: %d %s", r.status, r.body)
	}
}

// A stream asked for while the server shuts down (its hub closed) is refused with 503 unavailable, the
// same answer as the board streams give.
func TestStreamAfterShutdownIsUnavailable(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	e.hub.Close()
	s, r := e.openStream(c)
	want := `{"error":{"code":"unavailable","message":"the server is shutting down"}}`
	if s != nil || r.status != 503 || string(r.body) != want {
		t.Fatalf("after shutdown: %d %s", r.status, r.body)
	}
}

func TestRevokeClosesEveryStream(t *testing.T) {
	e := newEnv(t)
	a, b := e.pair(), e.pair()
	var streams []*stream
	for _, cookie := range []*http.Cookie{a, a, b} {
		s, r := e.openStream(cookie)
		if s == nil {
			t.Fatalf("%d %s", r.status, r.body)
		}
		s.next(t)
		streams = append(streams, s)
	}
	e.gw.Revoke("session_switch")
	for _, s := range streams {
		s.waitEnd(t)
	}
	if s, r := e.openStream(a); s != nil || r.status != 410 {
		t.Fatalf("stream after revoke: %d", r.status)
	}
}

func TestExpiryClosesThatSessionsStreams(t *testing.T) {
	synctest.Test(t, testExpiryClosesThatSessionsStreams)
}

func testExpiryClosesThatSessionsStreams(t *testing.T) {
	e := newBubbleEnv(t)
	early := e.pair()
	advance(time.Hour)
	late := e.pair()
	s1, _ := e.openStream(early)
	s2, _ := e.openStream(late)
	s1.next(t)
	s2.next(t)
	advance(7*time.Hour - time.Second)
	e.gw.SetState(false, false, false)
	s1.next(t)
	s2.next(t)
	advance(time.Second) // the early session is 8 hours old
	s1.waitEnd(t)
	e.gw.SetState(true, false, false)
	if ev := s2.next(t); ev.Name != "snapshot" {
		t.Fatal(ev)
	}
	advance(time.Hour)
	s2.waitEnd(t)
}

// A snapshot is one `data:` line whatever the items hold: the document the gateway frames in place has
// no raw line break (every string is escaped), so it can never start a second field or event, and the
// frame is exactly what sse.Encode makes of the status document.
func TestSnapshotIsOneDataLine(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	req, _ := http.NewRequest("GET", e.srv.URL+e.base()+"/events", nil)
	req.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
	res, err := e.client.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("stream: %v %v", res, err)
	}
	defer res.Body.Close()
	br := bufio.NewReader(res.Body)
	event := func() string {
		t.Helper()
		var ev []byte
		for !bytes.HasSuffix(ev, []byte("\n\n")) {
			b, err := br.ReadByte()
			if err != nil {
				t.Fatal(err)
			}
			ev = append(ev, b)
		}
		return string(ev)
	}
	event()

	breaks := "a\nb\rc\r\nd\u2028e\u2029f\u0085g\x00\x1f\"\\</script>\n\nevent: evil\ndata: x\n\n"
	text, _ := json.Marshal(breaks)
	name, _ := json.Marshal("to\nol\r")
	check := func(n int) {
		t.Helper()
		ev := event()
		doc := e.do("GET", e.base()+"/status", "", nil, c).body
		if bytes.ContainsAny(doc, "\r\n") {
			t.Fatalf("raw line break in the document %q", doc)
		}
		if want := string(sse.Encode(sse.Event{Name: "snapshot", Data: doc})); ev != want {
			t.Fatalf("frame %q,\nwant %q", ev, want)
		}
		var v struct{ Items []projection.Item }
		if err := json.Unmarshal(doc, &v); err != nil || len(v.Items) != n {
			t.Fatalf("%s: %v", doc, err)
		}
		if v.Items[0].Text != breaks || v.Items[1].Text != breaks || v.Items[2].Name != "to\nol\r" || v.Items[n-1].Text != breaks {
			t.Fatalf("items %+v", v.Items)
		}
	}
	e.gw.ApplyBranch(true, []byte(`[{"type":"message","id":"u1","message":{"role":"user","content":`+string(text)+`}},`+
		`{"type":"message","id":"a1","message":{"role":"assistant","content":[{"type":"text","text":`+string(text)+`},`+
		`{"type":"toolCall","id":"c1","name":`+string(name)+`,"arguments":{}},{"type":"text","text":`+string(text)+`}]}}]`))
	check(4)
	e.gw.SetStreaming([]byte(`{"role":"assistant","content":[{"type":"text","text":` + string(text) + `}]}`))
	check(5)
}
