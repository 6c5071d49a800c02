package link

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// peer is the other end of a Conn over two pipes.
type peer struct {
	t    *testing.T
	in   *io.PipeWriter // what the Conn reads
	out  *bufio.Reader  // what the Conn writes
	conn *Conn
	done chan error
	logs *syncBuf
}

type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuf) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

type testHandler struct {
	mu    sync.Mutex
	notes []string
	call  func(ctx context.Context, name string, args []byte) (any, error)
}

func (h *testHandler) Note(name string, _ []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.notes = append(h.notes, name)
}
func (h *testHandler) Call(ctx context.Context, name string, args []byte) (any, error) {
	if h.call != nil {
		return h.call(ctx, name, args)
	}
	switch name {
	case "echo":
		return json.RawMessage(args), nil
	}
	return nil, BadCall("unknown call %q", name)
}
func (h *testHandler) seen() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.notes...)
}

func newPeer(t *testing.T, h Handler, max int) *peer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	logs := &syncBuf{}
	c := NewConn(inR, outW, h, slog.New(slog.NewTextHandler(logs, nil)))
	if max > 0 {
		c.max = max
	}
	p := &peer{t: t, in: inW, out: bufio.NewReader(outR), conn: c, done: make(chan error, 1), logs: logs}
	go func() {
		p.done <- c.Run(context.Background())
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		go io.Copy(io.Discard, outR)
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			t.Error("Run did not return")
		}
	})
	return p
}

func (p *peer) send(s string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, s+"\n"); err != nil {
		p.t.Fatal(err)
	}
}

func (p *peer) recv() string {
	p.t.Helper()
	ch := make(chan string, 1)
	go func() {
		l, _ := p.out.ReadString('\n')
		ch <- l
	}()
	select {
	case l := <-ch:
		if !strings.HasSuffix(l, "\n") {
			p.t.Fatalf("frame without newline: %q", l)
		}
		return strings.TrimSuffix(l, "\n")
	case <-time.After(5 * time.Second):
		p.t.Fatal("no frame")
		return ""
	}
}

func TestConnCallsAndNotes(t *testing.T) {
	h := &testHandler{}
	p := newPeer(t, h, 0)
	p.send(`{"note":"one"}`)
	p.send(`{"id":1,"call":"echo","args":{"a":[1]}}`)
	if got := p.recv(); got != `{"id":1,"ok":{"a":[1]}}` {
		t.Fatalf("echo: %s", got)
	}
	p.send(`{"id":2,"call":"nope","args":{}}`)
	if got := p.recv(); got != `{"id":2,"err":{"code":"bad_call","message":"unknown call \"nope\""}}` {
		t.Fatalf("unknown call: %s", got)
	}
	p.send(`{"note":"unknown_note","x":1}`)
	p.send(`{"id":3,"call":"echo","args":{}}`)
	if got := p.recv(); got != `{"id":3,"ok":{}}` {
		t.Fatalf("echo after notes: %s", got)
	}
	if got := strings.Join(h.seen(), ","); got != "one,unknown_note" {
		t.Fatalf("notes %s", got)
	}
}

func TestConnMalformedFrames(t *testing.T) {
	p := newPeer(t, &testHandler{}, 256)
	secret := "private-words"
	p.send(`not json ` + secret)
	p.send(strings.Repeat(`{"note":"x","t":"`+secret+`"}`, 40)) // > 256 bytes
	p.send(`{"id":"4","call":"echo","args":{}}`)                // id of the wrong type: no usable id
	p.send(`{"id":99,"ok":null}`)                               // reply to an unknown id: never answered
	p.send(`{"id":5,"call":"echo","args":[]}`)                  // carries an id: answered
	if got := p.recv(); !strings.HasPrefix(got, `{"id":5,"err":{"code":"bad_frame","message":"malformed frame: call args must be an object"`) {
		t.Fatalf("malformed with id: %s", got)
	}
	p.send(`{"id":6,"call":"echo","args":{}}`)
	if got := p.recv(); got != `{"id":6,"ok":{}}` {
		t.Fatalf("after malformed: %s", got)
	}
	p.send(`{"id":6,"call":"echo","args":{}}`) // repeated id
	if got := p.recv(); !strings.Contains(got, `"id":6,"err":{"code":"bad_frame"`) {
		t.Fatalf("repeated id: %s", got)
	}
	logs := p.logs.String()
	if strings.Contains(logs, secret) {
		t.Fatalf("log carries frame content: %s", logs)
	}
	for _, want := range []string{"not valid JSON", "longer than 256 bytes", "id must be a positive integer", "reply to an unknown id"} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %q:\n%s", want, logs)
		}
	}
}

func TestConnConcurrentCallsReplyOutOfOrder(t *testing.T) {
	release := make(chan struct{})
	h := &testHandler{call: func(ctx context.Context, name string, args []byte) (any, error) {
		if name == "slow" {
			<-release
			return "slow", nil
		}
		return "fast", nil
	}}
	p := newPeer(t, h, 0)
	p.send(`{"id":1,"call":"slow","args":{}}`)
	p.send(`{"id":2,"call":"fast","args":{}}`)
	if got := p.recv(); got != `{"id":2,"ok":"fast"}` {
		t.Fatalf("first reply %s", got)
	}
	close(release)
	if got := p.recv(); got != `{"id":1,"ok":"slow"}` {
		t.Fatalf("second reply %s", got)
	}
}

func TestConnBusy(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, MaxConcurrentCalls)
	h := &testHandler{call: func(ctx context.Context, name string, args []byte) (any, error) {
		started <- struct{}{}
		<-release
		return nil, nil
	}}
	p := newPeer(t, h, 0)
	for i := 1; i <= MaxConcurrentCalls; i++ {
		p.send(`{"id":` + itoa(i) + `,"call":"hold","args":{}}`)
	}
	for i := 0; i < MaxConcurrentCalls; i++ {
		<-started
	}
	p.send(`{"id":1000,"call":"hold","args":{}}`)
	if got := p.recv(); !strings.HasPrefix(got, `{"id":1000,"err":{"code":"busy"`) {
		t.Fatalf("over the limit: %s", got)
	}
	close(release)
	for i := 0; i < MaxConcurrentCalls; i++ {
		if got := p.recv(); !strings.HasSuffix(got, `"ok":null}`) {
			t.Fatalf("held call: %s", got)
		}
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestConnOutgoingCall(t *testing.T) {
	p := newPeer(t, &testHandler{}, 0)
	type res struct {
		ok  []byte
		err error
	}
	ch := make(chan res, 2)
	go func() {
		ok, err := p.conn.Call(context.Background(), "send", map[string]string{"command": "c1", "text": "hi"})
		ch <- res{ok, err}
	}()
	got := p.recv()
	if got != `{"id":1,"call":"send","args":{"command":"c1","text":"hi"}}` {
		t.Fatalf("call frame %s", got)
	}
	p.send(`{"id":1,"ok":null}`)
	if r := <-ch; r.err != nil || string(r.ok) != "null" {
		t.Fatalf("reply %q %v", r.ok, r.err)
	}
	go func() {
		ok, err := p.conn.Call(context.Background(), "abort", nil)
		ch <- res{ok, err}
	}()
	if got := p.recv(); got != `{"id":2,"call":"abort","args":{}}` {
		t.Fatalf("call frame %s", got)
	}
	p.send(`{"id":2,"err":{"code":"busy","message":"no","retry":3}}`)
	r := <-ch
	var le *Error
	if !errors.As(r.err, &le) || le.Code != "busy" || le.Message != "no" {
		t.Fatalf("err reply: %v", r.err)
	}
	if b, _ := json.Marshal(le); string(b) != `{"code":"busy","message":"no","retry":3}` {
		t.Fatalf("err fields: %s", b)
	}
	// A reply nobody waits for any more (ctx gone) is logged as unknown, not fatal.
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		_, err := p.conn.Call(ctx, "send", nil)
		ch <- res{nil, err}
	}()
	p.recv()
	cancel()
	if r := <-ch; !errors.Is(r.err, context.Canceled) {
		t.Fatalf("cancelled call: %v", r.err)
	}
	p.send(`{"id":3,"ok":null}`)
	p.send(`{"id":9,"call":"echo","args":{}}`)
	if got := p.recv(); got != `{"id":9,"ok":{}}` {
		t.Fatalf("after late reply: %s", got)
	}
}

func TestConnEOFEndsEverything(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	// The outgoing call is in flight once its frame was written.
	sendWritten := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(outR)
		seen := false
		for sc.Scan() {
			if !seen && strings.Contains(sc.Text(), `"call":"send"`) {
				seen = true
				close(sendWritten)
			}
		}
	}()
	callStarted, callCtxDone := make(chan struct{}), make(chan struct{})
	h := &testHandler{call: func(ctx context.Context, name string, args []byte) (any, error) {
		close(callStarted)
		<-ctx.Done()
		close(callCtxDone)
		return nil, ctx.Err()
	}}
	c := NewConn(inR, outW, h, nil)
	done := make(chan error, 1)
	go func() { done <- c.Run(context.Background()) }()
	callErr := make(chan error, 1)
	go func() {
		_, err := c.Call(context.Background(), "send", nil)
		callErr <- err
	}()
	io.WriteString(inW, `{"id":1,"call":"hold","args":{}}`+"\n")
	for what, ch := range map[string]chan struct{}{"the incoming call to start": callStarted, "the outgoing call to be written": sendWritten} {
		select {
		case <-ch:
		case <-time.After(5 * time.Second):
			t.Fatalf("waiting for %s", what)
		}
	}
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run at EOF: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return at EOF")
	}
	<-callCtxDone
	if err := <-callErr; !errors.Is(err, ErrClosed) {
		t.Fatalf("pending call: %v", err)
	}
	if _, err := c.Call(context.Background(), "send", nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("call after end: %v", err)
	}
	if err := c.Note("x", nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("note after end: %v", err)
	}
}

func TestConnContextCancelUnblocksRead(t *testing.T) {
	inR, _ := io.Pipe()
	r := &signalReader{r: inR, reading: make(chan struct{})}
	c := NewConn(r, io.Discard, &testHandler{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	select {
	case <-r.reading: // Run is blocked in a read that only cancellation can end
	case <-time.After(5 * time.Second):
		t.Fatal("Run never read")
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}

func TestConnPanicsAreContained(t *testing.T) {
	h := &testHandler{call: func(ctx context.Context, name string, args []byte) (any, error) {
		panic("boom")
	}}
	p := newPeer(t, h, 0)
	p.send(`{"id":1,"call":"x","args":{}}`)
	if got := p.recv(); got != `{"id":1,"err":{"code":"internal","message":"internal error"}}` {
		t.Fatalf("panic reply: %s", got)
	}
}

func TestConnNoteEncoding(t *testing.T) {
	var b strings.Builder
	c := NewConn(strings.NewReader(""), &b, &testHandler{}, nil)
	c.Note("ready", map[string]any{"protocol": 1, "url": "u"})
	c.Note("settled", nil)
	c.Note("fatal", struct {
		Code string `json:"code"`
	}{"protocol"})
	if err := c.Note("bad", map[string]any{"note": "x"}); err == nil {
		t.Fatal("note member accepted")
	}
	want := `{"note":"ready","protocol":1,"url":"u"}` + "\n" + `{"note":"settled"}` + "\n" + `{"note":"fatal","code":"protocol"}` + "\n"
	if b.String() != want {
		t.Fatalf("got %q", b.String())
	}
}

// signalReader closes reading at its first Read, so a test knows the reader is blocked in it.
type signalReader struct {
	r       io.ReadCloser
	once    sync.Once
	reading chan struct{}
}

func (s *signalReader) Read(p []byte) (int, error) {
	s.once.Do(func() { close(s.reading) })
	return s.r.Read(p)
}

// Close lets Conn end the read on cancellation, as it does with a real stdin.
func (s *signalReader) Close() error { return s.r.Close() }
