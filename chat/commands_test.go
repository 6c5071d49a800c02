package chat

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func noCalls(t *testing.T, e *env) {
	t.Helper()
	if calls := e.bridge.Calls(); len(calls) != 0 {
		t.Fatalf("a refused command reached the bridge: %v", calls)
	}
}

func TestSendAccepted(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	id := newID()
	text := "  play the A section 再来一次 🎸\nslower"
	r := e.send(c, id, text)
	if r.status != 202 || string(r.body) != `{"id":"`+id+`","type":"send","status":"submitted"}` {
		t.Fatalf("send: %d %s", r.status, r.body)
	}
	if calls := e.bridge.Calls(); len(calls) != 1 || calls[0] != (bridgeCall{"send", id, text}) {
		t.Fatalf("bridge calls %v (text must be verbatim)", calls)
	}
	st := e.status(c)
	if st["status"] != "submitting" || st["notice"] != "input-submitted" || st["runId"] != nil {
		t.Fatalf("after send: %v", st)
	}
}

func TestSendRefusalsNeverReachTheBridge(t *testing.T) {
	synctest.Test(t, testSendRefusalsNeverReachTheBridge)
}

func testSendRefusalsNeverReachTheBridge(t *testing.T) {
	e := newBubbleEnv(t)
	c := e.pair()
	ep := e.binding.Epoch()
	emoji := strings.Repeat("🎸", 4000) // 8000 UTF-16 units
	cases := []struct {
		name, body string
		status     int
		code       string
	}{
		{"empty text", sendBody(newID(), ep, 1, ""), 422, "bad_text"},
		{"blank text", sendBody(newID(), ep, 1, " \n\t "), 422, "bad_text"},
		{"slash command", sendBody(newID(), ep, 1, "/tele off"), 422, "bad_text"},
		{"slash after blanks", sendBody(newID(), ep, 1, " \n /model"), 422, "bad_text"},
		{"shell", sendBody(newID(), ep, 1, "!rm -rf /"), 422, "bad_text"},
		{"shell after blanks", sendBody(newID(), ep, 1, "\u3000 !!ls"), 422, "bad_text"},
		{"8001 units", sendBody(newID(), ep, 1, emoji+"x"), 422, "bad_text"},
		{"8001 ascii", sendBody(newID(), ep, 1, strings.Repeat("a", 8001)), 422, "bad_text"},
		{"no id", `{"type":"send","epoch":"` + ep + `","idleVersion":1,"text":"hi"}`, 400, "bad_command"},
		{"id not a uuid", sendBody("cmd-1", ep, 1, "hi"), 400, "bad_command"},
		{"id upper case", sendBody(strings.ToUpper(newID()), ep, 1, "hi"), 400, "bad_command"},
		{"no epoch", `{"type":"send","id":"` + newID() + `","idleVersion":1,"text":"hi"}`, 400, "bad_command"},
		{"no idleVersion", `{"type":"send","id":"` + newID() + `","epoch":"` + ep + `","text":"hi"}`, 400, "bad_command"},
		{"null text", `{"type":"send","id":"` + newID() + `","epoch":"` + ep + `","idleVersion":1,"text":null}`, 400, "bad_command"},
		{"runId on send", `{"type":"send","id":"` + newID() + `","epoch":"` + ep + `","idleVersion":1,"text":"hi","runId":"r"}`, 400, "bad_command"},
		{"unknown type", `{"type":"steer","id":"` + newID() + `","epoch":"` + ep + `"}`, 400, "bad_command"},
		{"unknown field", `{"type":"send","id":"` + newID() + `","epoch":"` + ep + `","idleVersion":1,"text":"hi","x":1}`, 400, "bad_json"},
		{"fractional idleVersion", `{"type":"send","id":"` + newID() + `","epoch":"` + ep + `","idleVersion":1.5,"text":"hi"}`, 400, "bad_json"},
		{"duplicate key", `{"type":"send","type":"send","id":"` + newID() + `","epoch":"` + ep + `","idleVersion":1,"text":"hi"}`, 400, "bad_json"},
		{"not an object", `["send"]`, 400, "bad_json"},
		{"too large", sendBody(newID(), ep, 1, strings.Repeat("\u0001", 12000)), 413, "too_large"},
		{"stale epoch", sendBody(newID(), "old-epoch", 1, "hi"), 409, "stale_epoch"},
		{"stale idleVersion", sendBody(newID(), ep, 0, "hi"), 409, "stale_idle_version"},
		{"future idleVersion", sendBody(newID(), ep, 2, "hi"), 409, "stale_idle_version"},
		{"abort without a run", abortBody(newID(), ep, "run"), 409, "stale_run"},
	}
	for _, k := range cases {
		advance(time.Second) // keep under the command rate limit
		r := e.command(c, k.body)
		if r.status != k.status || r.code() != k.code {
			t.Errorf("%s: %d %s, want %d %s", k.name, r.status, r.body, k.status, k.code)
		}
	}
	noCalls(t, e)
	// The boundary is inclusive: exactly 8000 units (emoji count two) is accepted.
	if r := e.send(c, newID(), emoji); r.status != 202 {
		t.Fatalf("8000 units: %d %s", r.status, r.body)
	}
}

func TestRequestRulesForCommands(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	body := sendBody(newID(), e.binding.Epoch(), 1, "hi")
	path := e.base() + "/command"
	cases := []struct {
		name   string
		hdr    map[string]string
		status int
		code   string
	}{
		{"no Origin", map[string]string{"Content-Type": "application/json"}, 403, "bad_origin"},
		{"foreign Origin", map[string]string{"Origin": "http://localhost:1", "Content-Type": "application/json"}, 403, "bad_origin"},
		{"wrong content type", map[string]string{"Origin": e.origin, "Content-Type": "text/plain"}, 415, "unsupported_media_type"},
		{"cross-site", map[string]string{"Origin": e.origin, "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, 403, "cross_site"},
		{"same-site", map[string]string{"Origin": e.origin, "Content-Type": "application/json", "Sec-Fetch-Site": "same-site"}, 403, "cross_site"},
		{"foreign Host", map[string]string{"Origin": e.origin, "Content-Type": "application/json", "Host": "evil.example"}, 421, "misdirected_request"},
	}
	for _, k := range cases {
		hdr := k.hdr
		r := e.doHost("POST", path, body, hdr, c)
		if r.status != k.status || r.code() != k.code {
			t.Errorf("%s: %d %s, want %d %s", k.name, r.status, r.body, k.status, k.code)
		}
	}
	if r := e.command(c, body); r.status != 202 {
		t.Fatalf("the same command done right: %d %s", r.status, r.body)
	}
	if n := len(e.bridge.Calls()); n != 1 {
		t.Fatalf("%d bridge calls", n)
	}
}

// doHost is do with the Host header taken from hdr["Host"] when present.
func (e *env) doHost(method, path, body string, hdr map[string]string, cookie *http.Cookie) resp {
	e.t.Helper()
	host, ok := hdr["Host"]
	if !ok {
		return e.do(method, path, body, hdr, cookie)
	}
	rest := map[string]string{}
	for k, v := range hdr {
		if k != "Host" {
			rest[k] = v
		}
	}
	req, _ := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
	req.Host = host
	for k, v := range rest {
		req.Header.Set(k, v)
	}
	req.AddCookie(&http.Cookie{Name: cookie.Name, Value: cookie.Value})
	res, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return resp{status: res.StatusCode, body: b, header: res.Header}
}

func TestSendAcceptedOnlyWhenPiIsFree(t *testing.T) {
	synctest.Test(t, testSendAcceptedOnlyWhenPiIsFree)
}

func testSendAcceptedOnlyWhenPiIsFree(t *testing.T) {
	e := newBubbleEnv(t)
	c := e.pair()
	check := func(name, code string) {
		t.Helper()
		advance(time.Second)
		if r := e.send(c, newID(), "hi"); r.status != 409 || r.code() != code {
			t.Fatalf("%s: %d %s, want 409 %s", name, r.status, r.body, code)
		}
	}
	e.gw.SetState(false, false, false)
	check("Pi busy", "busy")
	e.gw.SetState(true, true, false)
	check("messages queued", "busy")
	e.gw.SetState(true, false, true)
	check("terminal dialog", "terminal_prompt")
	if st := e.status(c); st["status"] != "terminal-prompt" {
		t.Fatalf("status %v", st)
	}
	e.gw.SetState(false, false, true)
	check("terminal dialog while busy", "terminal_prompt")
	e.gw.SetState(true, false, false)
	e.gw.AgentStart()
	check("a run is active", "busy")
	noCalls(t, e)
}

func TestBusyWhileASendIsReserved(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	gate := make(chan struct{})
	e.bridge.gate, e.bridge.entered = gate, make(chan string, 1)
	first := newID()
	done := make(chan resp, 1)
	go func() { done <- e.send(c, first, "one") }()
	<-e.bridge.entered // the first send is at the bridge, its reservation taken

	if st := e.status(c); st["status"] != "submitting" || st["notice"] != nil {
		t.Fatalf("while reserved: %v", st)
	}
	if r := e.send(c, newID(), "two"); r.status != 409 || r.code() != "busy" {
		t.Fatalf("second send while reserved: %d %s", r.status, r.body)
	}
	// The same command again waits for, and gets, the original receipt; Pi is not asked twice.
	again := make(chan resp, 1)
	go func() { again <- e.send(c, first, "one") }()
	close(gate)
	r1, r2 := <-done, <-again
	if r1.status != 202 || r2.status != 202 || string(r1.body) != string(r2.body) {
		t.Fatalf("receipts %d %s / %d %s", r1.status, r1.body, r2.status, r2.body)
	}
	if calls := e.bridge.Calls(); len(calls) != 1 || calls[0].Command != first {
		t.Fatalf("bridge calls %v", calls)
	}
}

func TestConcurrentSendsOnlyOneWins(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	var wg sync.WaitGroup
	results := make(chan int, 8)
	for range 8 {
		wg.Go(func() { results <- e.send(c, newID(), "hi").status })
	}
	wg.Wait()
	close(results)
	won := 0
	for s := range results {
		switch s {
		case 202:
			won++
		case 409:
		default:
			t.Fatalf("status %d", s)
		}
	}
	if won != 1 || len(e.bridge.Calls()) != 1 {
		t.Fatalf("%d accepted, %d bridge calls", won, len(e.bridge.Calls()))
	}
}

func TestReplayReturnsTheOriginalReceipt(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	id := newID()
	body := sendBody(id, e.binding.Epoch(), 1, "hello")
	r1 := e.command(c, body)
	if r1.status != 202 {
		t.Fatal(r1.status)
	}
	// The state has moved on since (a run started): the replay still answers as the original did.
	e.gw.AgentStart()
	r2 := e.command(c, body)
	// Same command, other whitespace and key order: the same command.
	r3 := e.command(c, `{ "text":"hello", "idleVersion":1, "epoch":"`+e.binding.Epoch()+`", "id":"`+id+`", "type":"send" }`)
	for _, r := range []resp{r2, r3} {
		if r.status != r1.status || string(r.body) != string(r1.body) {
			t.Fatalf("replay %d %s, original %d %s", r.status, r.body, r1.status, r1.body)
		}
	}
	if n := len(e.bridge.Calls()); n != 1 {
		t.Fatalf("%d bridge calls, want 1", n)
	}
	// The same id with another body is refused.
	for _, other := range []string{
		sendBody(id, e.binding.Epoch(), 1, "hello!"),
		sendBody(id, e.binding.Epoch(), 2, "hello"),
		abortBody(id, e.binding.Epoch(), e.runID()),
	} {
		if r := e.command(c, other); r.status != 409 || r.code() != "duplicate_command" {
			t.Fatalf("same id, other body: %d %s", r.status, r.body)
		}
	}
	if n := len(e.bridge.Calls()); n != 1 {
		t.Fatalf("%d bridge calls, want 1", n)
	}
}

func TestRefusedCommandIsNotRemembered(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	e.gw.SetState(false, false, false)
	id := newID()
	body := sendBody(id, e.binding.Epoch(), 1, "hi")
	if r := e.command(c, body); r.code() != "busy" {
		t.Fatal(r.status)
	}
	e.gw.SetState(true, false, false)
	if r := e.command(c, body); r.status != 202 {
		t.Fatalf("retry of a refused id once Pi is free: %d %s", r.status, r.body)
	}
}

func TestSubmissionUncertain(t *testing.T) { synctest.Test(t, testSubmissionUncertain) }

func testSubmissionUncertain(t *testing.T) {
	e := newBubbleEnv(t)
	c := e.pair()
	e.bridge.sendErr = errors.New("link call timed out")
	id := newID()
	body := sendBody(id, e.binding.Epoch(), 1, "hi")
	r := e.command(c, body)
	if r.status != 502 || r.code() != "submission_uncertain" {
		t.Fatalf("uncertain: %d %s", r.status, r.body)
	}
	if st := e.status(c); st["notice"] != "submission-uncertain" || st["status"] != "submitting" {
		t.Fatalf("view %v", st)
	}
	// Asking again with the same id answers the same, without a second submit.
	e.bridge.sendErr = nil
	r2 := e.command(c, body)
	if r2.status != r.status || string(r2.body) != string(r.body) {
		t.Fatalf("replay %d %s", r2.status, r2.body)
	}
	// Another send is busy while the first may still arrive.
	if r := e.send(c, newID(), "again"); r.code() != "busy" {
		t.Fatalf("send during the window: %d %s", r.status, r.body)
	}
	advance(ObservationWindow)
	if st := e.status(c); st["notice"] != "submission-uncertain" || st["status"] != "idle" {
		t.Fatalf("after the window: %v", st)
	}
	if n := len(e.bridge.Calls()); n != 1 {
		t.Fatalf("%d bridge calls", n)
	}
}

func TestBridgeTimeoutIsUncertain(t *testing.T) { synctest.Test(t, testBridgeTimeoutIsUncertain) }

func testBridgeTimeoutIsUncertain(t *testing.T) {
	e := newBubbleEnv(t)
	e.gw.bridgeTimeout = 20 * time.Millisecond // real time: the context deadline of the link call
	e.bridge.gate = make(chan struct{})        // never opened: Send waits for its context
	c := e.pair()
	if r := e.send(c, newID(), "hi"); r.status != 502 || r.code() != "submission_uncertain" {
		t.Fatalf("timeout: %d %s", r.status, r.body)
	}
}

func TestCommandLimit(t *testing.T) { synctest.Test(t, testCommandLimit) }

func testCommandLimit(t *testing.T) {
	e := newBubbleEnv(t)
	c := e.pair()
	e.gw.AgentStart()
	run := e.runID()
	ep := e.binding.Epoch()
	var firstBody string
	for i := range MaxCommands {
		advance(CommandEvery)
		body := abortBody(newID(), ep, run)
		if i == 0 {
			firstBody = body
		}
		if r := e.command(c, body); r.status != 202 {
			t.Fatalf("command %d: %d %s", i+1, r.status, r.body)
		}
	}
	advance(CommandEvery)
	r := e.command(c, abortBody(newID(), ep, run))
	if r.status != 429 || r.code() != "command_limit" {
		t.Fatalf("257th: %d %s", r.status, r.body)
	}
	advance(CommandEvery)
	if r := e.send(c, newID(), "hi"); r.code() != "command_limit" {
		t.Fatalf("257th send: %d %s", r.status, r.body)
	}
	// Known ids still replay; nothing was evicted.
	advance(CommandEvery)
	if r := e.command(c, firstBody); r.status != 202 {
		t.Fatalf("replay at the limit: %d %s", r.status, r.body)
	}
	if n := len(e.bridge.Calls()); n != 1 {
		t.Fatalf("%d bridge calls (only the first abort asks Pi)", n)
	}
}

func TestCommandRateLimit(t *testing.T) { synctest.Test(t, testCommandRateLimit) }

func testCommandRateLimit(t *testing.T) {
	e := newBubbleEnv(t)
	c := e.pair()
	body := sendBody(newID(), "stale", 1, "hi") // refused by state, never remembered
	for i := range CommandBurst {
		if r := e.command(c, body); r.code() != "stale_epoch" {
			t.Fatalf("command %d: %d %s", i, r.status, r.body)
		}
	}
	r := e.command(c, body)
	if r.status != 429 || r.code() != "rate_limited" || r.header.Get("Retry-After") != "1" {
		t.Fatalf("21st: %d %v %s", r.status, r.header, r.body)
	}
	advance(CommandEvery)
	if r := e.command(c, body); r.code() != "stale_epoch" {
		t.Fatalf("after 100 ms: %d %s", r.status, r.body)
	}
	noCalls(t, e)
}
