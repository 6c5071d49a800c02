package chat

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/uuid"

	"tele/pairing"
	"tele/server"
	"tele/server/servertest"
	"tele/sse"
	"tele/sse/ssetest"
)

const waitLimit = 10 * time.Second // only ever reached when a test fails

// fakeBridge is the test double of the Pi bridge: it records every call.
type fakeBridge struct {
	mu        sync.Mutex
	calls     []bridgeCall
	sendErr   error
	abortErr  error
	gate      chan struct{}        // when set, Send waits for it (or ctx)
	abortGate chan struct{}        // when set, Abort waits for it (or ctx)
	entered   chan string          // when set, Send reports its command on entry
	onSend    func(command string) // runs inside Send before it returns
}

type bridgeCall struct{ Kind, Command, Arg string }

func (b *fakeBridge) Send(ctx context.Context, command, text string) error {
	b.mu.Lock()
	b.calls = append(b.calls, bridgeCall{"send", command, text})
	gate, entered, onSend, err := b.gate, b.entered, b.onSend, b.sendErr
	b.mu.Unlock()
	if entered != nil {
		entered <- command
	}
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if onSend != nil {
		onSend(command)
	}
	return err
}

func (b *fakeBridge) Abort(ctx context.Context, command, runID string) error {
	b.mu.Lock()
	b.calls = append(b.calls, bridgeCall{"abort", command, runID})
	gate, err := b.abortGate, b.abortErr
	b.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return err
}

func (b *fakeBridge) Calls() []bridgeCall {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]bridgeCall(nil), b.calls...)
}

// env is one gateway served by the whole HTTP stack of `tele host` (server.Handler: router, guard,
// access log, body deadline) over a fresh store. newEnv serves it on a real loopback listener, where a
// browser meets it; newBubbleEnv serves it over in-memory pipes, for the tests that run inside a
// testing/synctest bubble to let time pass (the bubble's fake clock only moves when every goroutine in
// it waits on something the bubble can see: a pipe, never a socket).
type env struct {
	t       testing.TB
	binding *pairing.Binding
	hub     *sse.Hub
	gw      *Gateway
	bridge  *fakeBridge
	srv     *httptest.Server
	client  *http.Client // reaches srv over the env's network
	origin  string
}

// testCapability stands for the bound board's capability, which a pairing hands to the page.
const testCapability = "cap-of-the-welcome-board"

// newEnv serves the gateway on 127.0.0.1, on a port the system picks.
func newEnv(t testing.TB) *env {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return startEnv(t, ln, ln.Addr().(*net.TCPAddr).Port, (&net.Dialer{}).DialContext)
}

// newBubbleEnv serves the gateway over in-memory pipes, for a test inside a synctest bubble.
func newBubbleEnv(t testing.TB) *env {
	t.Helper()
	pipes := servertest.NewPipes()
	return startEnv(t, pipes, servertest.Port, pipes.DialContext)
}

func startEnv(t testing.TB, ln net.Listener, port int, dial func(ctx context.Context, network, addr string) (net.Conn, error)) *env {
	t.Helper()
	binding, err := pairing.NewBinding()
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, binding: binding, bridge: &fakeBridge{}}
	e.hub = sse.NewHub(sse.Options{MaxPerTopic: MaxStreams, Heartbeat: -1})
	e.gw = NewGateway(Config{Board: "welcome", Binding: binding, Bridge: e.bridge, Hub: e.hub,
		Capability: func() (string, error) { return testCapability, nil }})
	store, boardHub, err := server.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	handler := server.Handler(server.Config{Store: store, BoardHub: boardHub, Chat: e.gw,
		Logger: slog.New(slog.DiscardHandler)}, port)
	e.srv = &httptest.Server{Listener: ln, Config: &http.Server{Handler: handler}}
	e.srv.Start()
	e.origin = e.srv.URL // http://127.0.0.1:<port>
	transport := &http.Transport{DialContext: dial}
	e.client = &http.Client{Transport: transport}
	t.Cleanup(func() { store.Close(); boardHub.Close() })
	t.Cleanup(transport.CloseIdleConnections)
	t.Cleanup(e.srv.Close)
	t.Cleanup(e.hub.Close) // runs first: ends the streams so the server can close
	return e
}

// advance lets d pass on the bubble's fake clock (the test runs in synctest.Test) and returns once
// every goroutine the timers woke has finished or is blocked again.
func advance(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

type resp struct {
	status int
	body   []byte
	header http.Header
}

func (r resp) code() string {
	var v struct {
		Error struct{ Code string } `json:"error"`
	}
	_ = json.Unmarshal(r.body, &v)
	return v.Error.Code
}

func (r resp) json(t testing.TB) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("body %q: %v", r.body, err)
	}
	return v
}

// do sends a request; hdr values "" delete the header.
func (e *env) do(method, path, body string, hdr map[string]string, cookie *http.Cookie) resp {
	e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	if cookie != nil {
		req.AddCookie(&http.Cookie{Name: cookie.Name, Value: cookie.Value})
	}
	res, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp{status: res.StatusCode, body: b, header: res.Header}
}

// post is a same-origin JSON POST, as the page sends it.
func (e *env) post(path, body string, cookie *http.Cookie) resp {
	e.t.Helper()
	return e.do("POST", path, body, map[string]string{"Origin": e.origin, "Content-Type": "application/json"}, cookie)
}

// invite mints an invitation of b.
func invite(b *pairing.Binding) string {
	secret, _ := b.NewInvitation()
	return secret
}

func (e *env) pairBody(invitation string) string {
	b, _ := json.Marshal(map[string]string{"binding": e.binding.ID(), "invitation": invitation})
	return string(b)
}

// pair redeems a fresh invitation and returns the session cookie.
func (e *env) pair() *http.Cookie {
	e.t.Helper()
	r := e.post("/api/chat/pair", e.pairBody(invite(e.binding)), nil)
	if r.status != 200 {
		e.t.Fatalf("pair: %d %s", r.status, r.body)
	}
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == pairing.CookieName {
			return c
		}
	}
	e.t.Fatal("pair: no cookie")
	return nil
}

func (e *env) base() string { return "/api/chat/" + e.binding.ID() }

func (e *env) command(cookie *http.Cookie, body string) resp {
	e.t.Helper()
	return e.post(e.base()+"/command", body, cookie)
}

func (e *env) status(cookie *http.Cookie) map[string]any {
	e.t.Helper()
	r := e.do("GET", e.base()+"/status", "", nil, cookie)
	if r.status != 200 {
		e.t.Fatalf("status: %d %s", r.status, r.body)
	}
	return r.json(e.t)
}

func sendBody(id, epoch string, idleVersion int64, text string) string {
	b, _ := json.Marshal(map[string]any{"type": "send", "id": id, "epoch": epoch, "idleVersion": idleVersion, "text": text})
	return string(b)
}

func abortBody(id, epoch, runID string) string {
	b, _ := json.Marshal(map[string]any{"type": "abort", "id": id, "epoch": epoch, "runId": runID})
	return string(b)
}

func (e *env) send(cookie *http.Cookie, id, text string) resp {
	e.t.Helper()
	return e.command(cookie, sendBody(id, e.binding.Epoch(), int64(e.served()["idleVersion"].(float64)), text))
}

// served is the view document the gateway serves right now (GET …/status answers it; a revoked binding
// answers 410 instead, so tests that look past a revoke read it here).
func (e *env) served() map[string]any {
	e.t.Helper()
	e.gw.mu.Lock()
	doc := e.gw.snapshot
	e.gw.mu.Unlock()
	var v map[string]any
	if err := json.Unmarshal(doc, &v); err != nil {
		e.t.Fatalf("snapshot %s: %v", doc, err)
	}
	return v
}

// runID is the served view's runId, "" when null.
func (e *env) runID() string {
	e.t.Helper()
	id, _ := e.served()["runId"].(string)
	return id
}

func newID() string { return uuid.NewString() }

// stream is one open SSE connection.
type stream struct {
	res    *http.Response
	events chan sseEvent
	ended  chan struct{}
}

type sseEvent struct{ Name, Data string }

func (e *env) openStream(cookie *http.Cookie) (*stream, resp) {
	e.t.Helper()
	req, _ := http.NewRequest("GET", e.srv.URL+e.base()+"/events", nil)
	if cookie != nil {
		req.AddCookie(&http.Cookie{Name: cookie.Name, Value: cookie.Value})
	}
	res, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	if res.StatusCode != 200 {
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		return nil, resp{status: res.StatusCode, body: b, header: res.Header}
	}
	s := readStream(res)
	e.t.Cleanup(func() { res.Body.Close() })
	return s, resp{status: 200, header: res.Header}
}

// readStream parses the events of an SSE response in its own goroutine.
func readStream(res *http.Response) *stream {
	s := &stream{res: res, events: make(chan sseEvent, 64), ended: make(chan struct{})}
	go func() {
		defer close(s.ended)
		ssetest.Read(res.Body, func(ev ssetest.Event) {
			if ev.Name != "" {
				s.events <- sseEvent{Name: ev.Name, Data: ev.Data}
			}
		})
	}()
	return s
}

func (s *stream) next(t testing.TB) sseEvent {
	t.Helper()
	select {
	case ev := <-s.events:
		return ev
	case <-s.ended:
		t.Fatal("stream ended while an event was expected")
	case <-time.After(waitLimit):
		t.Fatal("no event")
	}
	return sseEvent{}
}

// quiet checks that no event is pending right now (after the gateway's synchronous publishes).
func (s *stream) quiet(t testing.TB) {
	t.Helper()
	select {
	case ev := <-s.events:
		t.Fatalf("unexpected event %s %s", ev.Name, ev.Data)
	case <-time.After(50 * time.Millisecond):
	}
}

func (s *stream) waitEnd(t testing.TB) {
	t.Helper()
	select {
	case <-s.ended:
	case <-time.After(waitLimit):
		t.Fatal("stream did not end")
	}
}
