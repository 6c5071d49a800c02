package host

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"tele/board/store"
	"tele/server/servertest"
	"tele/sse/ssetest"
)

// fakeBridge plays the Pi bridge frame by frame over pipes, with host.Run in process.
type fakeBridge struct {
	t    testing.TB
	dir  string
	in   *io.PipeWriter // the host's stdin
	out  io.Reader      // the host's stdout
	done chan error     // Run's result
	logs *servertest.LogBuffer

	notes   chan rawFrame // notes from the host
	replies chan rawFrame // replies to our calls
	calls   chan rawFrame // calls from the host (send, abort)
	raw     chan string   // every line the host wrote, in order
	nextID  int64
	readEnd chan struct{}
}

type rawFrame struct {
	line string
	m    map[string]json.RawMessage
}

func (f rawFrame) str(k string) string {
	var s string
	json.Unmarshal(f.m[k], &s)
	return s
}

func (f rawFrame) id() int64 {
	var n int64
	json.Unmarshal(f.m["id"], &n)
	return n
}

type hostOpts struct {
	port int
	dir  string
	ctx  context.Context
	cfg  func(*Config)
}

// startHost runs host.Run in process. Nothing is sent yet.
func startHost(t testing.TB, o hostOpts) *fakeBridge {
	t.Helper()
	if o.dir == "" {
		o.dir = t.TempDir() + "/data"
	}
	if o.ctx == nil {
		o.ctx = context.Background()
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	logs := &servertest.LogBuffer{}
	cfg := Config{Port: o.port, DataDir: o.dir, Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	if o.cfg != nil {
		o.cfg(&cfg)
	}
	fb := &fakeBridge{
		dir: o.dir, in: inW, out: outR, done: make(chan error, 1), logs: logs,
		notes: make(chan rawFrame, 64), replies: make(chan rawFrame, 64), calls: make(chan rawFrame, 64),
		raw: make(chan string, 256), readEnd: make(chan struct{}),
	}
	fb.t = t
	// Runs after the cleanup below has stopped the host: every goroutine it started must have ended.
	before := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, before) })
	go func() {
		fb.done <- Run(o.ctx, inR, outW, cfg)
		outW.Close()
	}()
	go fb.readLoop()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-fb.done:
		case <-time.After(15 * time.Second):
			t.Errorf("host.Run did not return")
		}
		<-fb.readEnd
		if t.Failed() {
			t.Logf("host logs:\n%s", logs.String())
		}
	})
	return fb
}

func (fb *fakeBridge) readLoop() {
	defer close(fb.readEnd)
	br := bufio.NewReaderSize(fb.out, 1<<20)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimSuffix(line, "\n")
		select {
		case fb.raw <- line:
		default:
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			panic(fmt.Sprintf("host wrote a line that is not JSON: %q", line))
		}
		f := rawFrame{line: line, m: m}
		switch {
		case m["note"] != nil:
			fb.notes <- f
		case m["call"] != nil:
			fb.calls <- f
		default:
			fb.replies <- f
		}
	}
}

func (fb *fakeBridge) send(s string) {
	fb.t.Helper()
	if _, err := io.WriteString(fb.in, s+"\n"); err != nil {
		fb.t.Fatalf("writing to the host: %v", err)
	}
}

func (fb *fakeBridge) sendJSON(v any) {
	fb.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		fb.t.Fatal(err)
	}
	fb.send(string(b))
}

func wait[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero
	}
}

func (fb *fakeBridge) note() rawFrame { fb.t.Helper(); return wait(fb.t, fb.notes, "a note") }

func (fb *fakeBridge) hello(board string) {
	fb.t.Helper()
	fb.sendJSON(map[string]any{"note": "hello", "protocol": 1, "bridge": "0.1.0", "pi": "0.73.1",
		"board": board, "session": map[string]any{"id": "sess-1", "name": "a session"}})
}

// ready says hello and waits for ready.
func (fb *fakeBridge) ready(board string) readyNote {
	fb.t.Helper()
	fb.hello(board)
	n := fb.note()
	if n.str("note") != "ready" {
		fb.t.Fatalf("want ready, got %s", n.line)
	}
	var r readyNote
	if err := json.Unmarshal([]byte(n.line), &r); err != nil {
		fb.t.Fatal(err)
	}
	u, err := url.Parse(r.URL)
	if err != nil {
		fb.t.Fatal(err)
	}
	_, p, _ := net.SplitHostPort(u.Host)
	fmt.Sscan(p, &r.port)
	r.origin = "http://" + u.Host
	return r
}

type readyNote struct {
	Note     string `json:"note"`
	Protocol int    `json:"protocol"`
	URL      string `json:"url"`
	Invite   string `json:"invite"`
	Binding  string `json:"binding"`
	Epoch    string `json:"epoch"`
	port     int
	origin   string
}

// call sends a call and waits for its reply.
func (fb *fakeBridge) call(name string, args string) rawFrame {
	fb.t.Helper()
	fb.nextID++
	fb.send(fmt.Sprintf(`{"id":%d,"call":%q,"args":%s}`, fb.nextID, name, args))
	r := wait(fb.t, fb.replies, "reply to "+name)
	if r.id() != fb.nextID {
		fb.t.Fatalf("reply to id %d, want %d: %s", r.id(), fb.nextID, r.line)
	}
	return r
}

func (fb *fakeBridge) runResult() error {
	fb.t.Helper()
	select {
	case err := <-fb.done:
		fb.done <- err
		return err
	case <-time.After(10 * time.Second):
		fb.t.Fatal("host.Run did not return")
		return nil
	}
}

// fragment parses the invitation URL's fragment.
func fragment(t testing.TB, invite string) url.Values {
	t.Helper()
	u, err := url.Parse(invite)
	if err != nil {
		t.Fatal(err)
	}
	v, err := url.ParseQuery(u.Fragment)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// browser is a paired page: the origin and the session cookie.
type browser struct {
	t       testing.TB
	origin  string
	binding string
	epoch   string
	cookie  *http.Cookie
	client  *http.Client
	// capability is the board's, from the pairing answer.
	capability string
}

var noRedirect = &http.Client{Timeout: 20 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error {
	return http.ErrUseLastResponse
}}

// pair redeems the invitation URL as the board page does.
func pair(t testing.TB, r readyNote, invite string) (*browser, int) {
	t.Helper()
	frag := fragment(t, invite)
	body := fmt.Sprintf(`{"binding":%q,"invitation":%q}`, frag.Get("binding"), frag.Get("invite"))
	req, _ := http.NewRequest("POST", r.origin+"/api/chat/pair", strings.NewReader(body))
	req.Header.Set("Origin", r.origin)
	req.Header.Set("Content-Type", "application/json")
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return nil, resp.StatusCode
	}
	var answer struct{ Capability string }
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
		t.Fatalf("pairing answer: %v", err)
	}
	b := &browser{t: t, origin: r.origin, binding: r.Binding, epoch: r.Epoch, client: noRedirect, capability: answer.Capability}
	for _, c := range resp.Cookies() {
		b.cookie = c
	}
	if b.cookie == nil {
		t.Fatal("pairing set no cookie")
	}
	return b, 200
}

func (b *browser) post(path, body string) (*http.Response, string) {
	b.t.Helper()
	req, _ := http.NewRequest("POST", b.origin+path, strings.NewReader(body))
	req.Header.Set("Origin", b.origin)
	req.Header.Set("Content-Type", "application/json")
	req.AddCookie(b.cookie)
	resp, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	rb, _ := io.ReadAll(resp.Body)
	return resp, string(rb)
}

// sseClient reads one SSE stream.
type sseClient struct {
	resp   *http.Response
	events chan sseEvent
	ended  chan struct{}
	cancel context.CancelFunc
}

type sseEvent struct {
	name, data string
	at         time.Time
}

func openSSE(t testing.TB, url string, cookie *http.Cookie) *sseClient {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
	if cookie != nil {
		req.AddCookie(cookie)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		cancel()
		t.Fatalf("SSE %s: %d %s", url, resp.StatusCode, b)
	}
	c := &sseClient{resp: resp, events: make(chan sseEvent, 256), ended: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(c.ended)
		ssetest.Read(resp.Body, func(ev ssetest.Event) {
			if ev.Name != "" || ev.Data != "" {
				c.events <- sseEvent{name: ev.Name, data: ev.Data, at: time.Now()}
			}
		})
	}()
	t.Cleanup(func() { cancel(); resp.Body.Close(); <-c.ended })
	return c
}

func (c *sseClient) next(t testing.TB) sseEvent {
	t.Helper()
	return wait(t, c.events, "an SSE event")
}

func (c *sseClient) waitEnded(t testing.TB) {
	t.Helper()
	select {
	case <-c.ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not end")
	}
}

func getJSON(t testing.TB, url string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	return send(t, req)
}

// send makes the request and returns the answer's status and body.
func send(t testing.TB, req *http.Request) (int, string) {
	t.Helper()
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// released fails the test unless a stopped host let go of what it held: its port and the data
// directory's lock.
func released(t *testing.T, fb *fakeBridge, r readyNote) {
	t.Helper()
	if !portClosed(r.port) {
		t.Fatal("the port is still open")
	}
	s, err := store.Open(fb.dir, store.Options{})
	if err != nil {
		t.Fatalf("the lock was not released: %v", err)
	}
	s.Close()
}

func portClosed(port int) bool {
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
	if err != nil {
		return true
	}
	c.Close()
	return false
}

// compact returns JSON on one line, as a frame needs it.
func compact(b []byte) string {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		panic(err)
	}
	return out.String()
}
