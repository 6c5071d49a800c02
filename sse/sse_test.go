package sse

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"tele/sse/ssetest"
	"testing"
	"testing/synctest"
	"time"
)

// testTimeout bounds every wait in these tests; none of them waits on a clock otherwise.
const testTimeout = 20 * time.Second

// msg is one parsed SSE message: an event, or a comment.
type msg struct {
	Event   string
	Data    string
	Comment string
}

// sseReader parses a text/event-stream body into messages on a channel. The channel closes at EOF or
// on a read error; err then holds it.
type sseReader struct {
	C    chan msg
	resp *http.Response
	mu   sync.Mutex
	err  error
}

func (r *sseReader) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

func newSSEReader(body io.Reader) *sseReader {
	r := &sseReader{C: make(chan msg, 64)}
	go func() {
		defer close(r.C)
		err := ssetest.Read(body, func(ev ssetest.Event) { r.C <- msg{Event: ev.Name, Data: ev.Data, Comment: ev.Comment} })
		r.mu.Lock()
		r.err = err
		r.mu.Unlock()
	}()
	return r
}

// next returns the next message or fails the test.
func (r *sseReader) next(t *testing.T) msg {
	t.Helper()
	select {
	case m, ok := <-r.C:
		if !ok {
			t.Fatalf("stream ended: %v", r.Err())
		}
		return m
	case <-time.After(testTimeout):
		t.Fatal("no message within the test timeout")
	}
	return msg{}
}

// waitEnd waits until the stream ends.
func (r *sseReader) waitEnd(t *testing.T) {
	t.Helper()
	timeout := time.After(testTimeout)
	for {
		select {
		case _, ok := <-r.C:
			if !ok {
				return
			}
		case <-timeout:
			t.Fatal("stream did not end")
		}
	}
}

// fixture is a hub behind a real HTTP server. GET /<topic> subscribes, reports the subscription on
// subs, and streams with a snapshot event "snap" of Seq 0 (or the seq in ?seq=).
type fixture struct {
	hub  *Hub
	srv  *httptest.Server
	subs chan *Subscription
	// gate, when set, is waited on between Subscribe and Stream (the "take the snapshot" moment).
	gate chan struct{}
}

func newFixture(t *testing.T, o Options) *fixture {
	t.Helper()
	return newGatedFixture(t, o, nil)
}

func newGatedFixture(t *testing.T, o Options, gate chan struct{}) *fixture {
	t.Helper()
	f := &fixture{hub: NewHub(o), subs: make(chan *Subscription, 16), gate: gate}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sub, err := f.hub.Subscribe(strings.TrimPrefix(r.URL.Path, "/"))
		if errors.Is(err, ErrTooManyStreams) {
			http.Error(w, "too many streams", http.StatusTooManyRequests)
			return
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		f.subs <- sub
		if f.gate != nil {
			<-f.gate
		}
		var seq int64
		fmt.Sscan(r.URL.Query().Get("seq"), &seq)
		f.hub.Stream(w, r, sub, Event{Name: "snap", Seq: seq, Data: []byte(`{"snapshot":true}`)})
	}))
	t.Cleanup(func() {
		f.hub.Close()
		f.srv.Close()
	})
	return f
}

// open starts a stream on topic and returns its reader once the response headers arrived.
func (f *fixture) open(t *testing.T, path string) (*sseReader, *Subscription) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", f.srv.URL+path, nil)
	type result struct {
		resp *http.Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := f.srv.Client().Do(req)
		done <- result{resp, err}
	}()
	// The handler reports its subscription before it writes the headers, but the response may still be
	// seen first: a 200 is fine as long as a subscription follows.
	var sub *Subscription
	var res result
	select {
	case sub = <-f.subs:
		res = <-done
	case res = <-done:
		if res.err != nil {
			t.Fatal(res.err)
		}
		if res.resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s", path, res.resp.Status)
		}
		select {
		case sub = <-f.subs:
		case <-time.After(testTimeout):
			t.Fatal("200 without a subscription")
		}
	case <-time.After(testTimeout):
		t.Fatal("no subscription")
	}
	if res.err != nil {
		t.Fatal(res.err)
	}
	t.Cleanup(func() { res.resp.Body.Close() })
	r := newSSEReader(res.resp.Body)
	r.resp = res.resp
	return r, sub
}

func TestStreamHeadersAndSnapshotFirst(t *testing.T) {
	f := newFixture(t, Options{})
	r, _ := f.open(t, "/a")
	h := r.resp.Header
	for k, want := range map[string]string{
		"Content-Type":      "text/event-stream",
		"Cache-Control":     "no-store",
		"X-Accel-Buffering": "no",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if m := r.next(t); m.Event != "snap" || m.Data != `{"snapshot":true}` {
		t.Fatalf("first message = %+v, want the snapshot", m)
	}
	f.hub.Publish("a", Event{Name: "board", Seq: 1, Data: []byte(`{"revision":1}`)})
	if m := r.next(t); m.Event != "board" || m.Data != `{"revision":1}` {
		t.Fatalf("second message = %+v", m)
	}
}

// Events published between Subscribe and the snapshot are queued; only those newer than the snapshot
// are sent, so there is no gap and no duplicate.
func TestSubscribeThenSnapshotSkipsOlderEvents(t *testing.T) {
	gate := make(chan struct{})
	f := newGatedFixture(t, Options{}, gate)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", f.srv.URL+"/b?seq=2", nil)
	respc := make(chan *http.Response, 1)
	go func() {
		resp, err := f.srv.Client().Do(req)
		if err != nil {
			t.Error(err)
			close(respc)
			return
		}
		respc <- resp
	}()
	select {
	case <-f.subs:
	case <-time.After(testTimeout):
		t.Fatal("no subscription")
	}
	// Subscribed, snapshot not yet taken: these are already part of the snapshot (seq 2).
	f.hub.Publish("b", Event{Name: "board", Seq: 1, Data: []byte(`{"revision":1}`)})
	f.hub.Publish("b", Event{Name: "board", Seq: 2, Data: []byte(`{"revision":2}`)})
	// Taken after the snapshot was read but before Stream ran: must be delivered.
	f.hub.Publish("b", Event{Name: "board", Seq: 3, Data: []byte(`{"revision":3}`)})
	close(gate)

	resp := <-respc
	if resp == nil {
		t.FailNow()
	}
	defer resp.Body.Close()
	r := newSSEReader(resp.Body)
	if m := r.next(t); m.Event != "snap" {
		t.Fatalf("first = %+v, want snapshot", m)
	}
	if m := r.next(t); m.Data != `{"revision":3}` {
		t.Fatalf("second = %+v, want revision 3", m)
	}
	f.hub.Publish("b", Event{Name: "board", Seq: 4, Data: []byte(`{"revision":4}`)})
	if m := r.next(t); m.Data != `{"revision":4}` {
		t.Fatalf("third = %+v, want revision 4", m)
	}
	// Seq 0 is a notice outside the sequence: written although 0 < 4, and the sequence goes on after it.
	f.hub.Publish("b", Event{Name: "capability", Data: []byte(`{"id":"b"}`)})
	if m := r.next(t); m.Event != "capability" {
		t.Fatalf("fourth = %+v, want the notice", m)
	}
	f.hub.Publish("b", Event{Name: "board", Seq: 4, Data: []byte(`{"revision":4}`)})
	f.hub.Publish("b", Event{Name: "board", Seq: 5, Data: []byte(`{"revision":5}`)})
	if m := r.next(t); m.Data != `{"revision":5}` {
		t.Fatalf("fifth = %+v, want revision 5 (4 again is not newer)", m)
	}
}

func TestPerTopicLimit(t *testing.T) {
	f := newFixture(t, Options{MaxPerTopic: 4})
	var subs []*Subscription
	for i := 0; i < 4; i++ {
		r, sub := f.open(t, "/chat")
		r.next(t)
		subs = append(subs, sub)
	}
	resp, err := f.srv.Client().Get(f.srv.URL + "/chat")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("fifth stream: %s, want 429", resp.Status)
	}
	// Another topic has its own slots.
	r, _ := f.open(t, "/other")
	r.next(t)

	// Closing one subscription releases its slot, and Close is idempotent.
	subs[0].Close()
	subs[0].Close()
	if n := f.hub.Count("chat"); n != 3 {
		t.Fatalf("Count = %d after one Close, want 3", n)
	}
	r, _ = f.open(t, "/chat")
	r.next(t)
	if _, err := f.hub.Subscribe("chat"); !errors.Is(err, ErrTooManyStreams) {
		t.Fatalf("Subscribe on a full topic: %v, want ErrTooManyStreams", err)
	}
}

func TestSubscriptionCloseEndsStream(t *testing.T) {
	f := newFixture(t, Options{})
	r, sub := f.open(t, "/a")
	r.next(t)
	sub.Close()
	r.waitEnd(t)
	if !errors.Is(endReason(sub), errSubscriptionClosed) {
		t.Fatalf("Err = %v", endReason(sub))
	}
}

func TestClientLeavingReleasesSlot(t *testing.T) {
	f := newFixture(t, Options{MaxPerTopic: 1})
	r, sub := f.open(t, "/a")
	r.next(t)
	r.resp.Body.Close()
	select {
	case <-sub.done:
	case <-time.After(testTimeout):
		t.Fatal("subscription not released after the client left")
	}
	r2, _ := f.open(t, "/a")
	r2.next(t)
}

// TestHeartbeat runs in a testing/synctest bubble, so the stream's ticker runs on the bubble's fake
// clock: the test lets exactly the heartbeat interval pass and sees exactly one comment per interval.
// The stream writes to an in-process recorder (a loopback socket would keep the bubble's clock still).
func TestHeartbeat(t *testing.T) { synctest.Test(t, testHeartbeat) }

func testHeartbeat(t *testing.T) {
	hub := NewHub(Options{})
	defer hub.Close()
	sub, err := hub.Subscribe("a")
	if err != nil {
		t.Fatal(err)
	}
	w := &streamRecorder{header: http.Header{}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		hub.Stream(w, httptest.NewRequest("GET", "/a", nil).WithContext(ctx), sub, Event{Name: "snap", Data: []byte(`{}`)})
	}()
	synctest.Wait()
	want := "event: snap\ndata: {}\n\n"
	if got := w.text(); got != want {
		t.Fatalf("at the start the stream holds %q, want %q", got, want)
	}
	for i := range 3 {
		time.Sleep(DefaultHeartbeat - time.Millisecond)
		synctest.Wait()
		if got := w.text(); got != want {
			t.Fatalf("heartbeat %d came early: %q", i+1, got)
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		want += ": hb\n\n"
		if got := w.text(); got != want {
			t.Fatalf("after %d heartbeat intervals the stream holds %q, want %q", i+1, got, want)
		}
	}
	// Events and heartbeats interleave on the same writer.
	hub.Publish("a", Event{Name: "board", Seq: 1, Data: []byte(`{}`)})
	synctest.Wait()
	want += "event: board\ndata: {}\n\n"
	time.Sleep(DefaultHeartbeat)
	synctest.Wait()
	want += ": hb\n\n"
	if got := w.text(); got != want {
		t.Fatalf("the stream holds %q, want %q", got, want)
	}
	sub.Close()
	<-ended
}

// TestHeartbeatAfterQuiet: the heartbeat follows the last write by one interval. A stream with an event
// more often than that never gets a comment (its events are the traffic), and a comment comes exactly one
// interval after the stream fell quiet (with a ticker it came on the ticker's beat, mid-burst).
func TestHeartbeatAfterQuiet(t *testing.T) { synctest.Test(t, testHeartbeatAfterQuiet) }

func testHeartbeatAfterQuiet(t *testing.T) {
	hub := NewHub(Options{})
	defer hub.Close()
	sub, err := hub.Subscribe("a")
	if err != nil {
		t.Fatal(err)
	}
	w := &streamRecorder{header: http.Header{}}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		hub.Stream(w, httptest.NewRequest("GET", "/a", nil), sub, Event{Name: "snap", Data: []byte(`{}`)})
	}()
	synctest.Wait()
	want := "event: snap\ndata: {}\n\n"
	for i := range 5 {
		time.Sleep(DefaultHeartbeat * 2 / 3)
		hub.Publish("a", Event{Name: "board", Seq: int64(i + 1), Data: []byte(`{}`)})
		synctest.Wait()
		want += "event: board\ndata: {}\n\n"
	}
	if got := w.text(); got != want {
		t.Fatalf("a stream with an event every 2/3 of the interval holds %q, want only its events %q", got, want)
	}
	time.Sleep(DefaultHeartbeat - time.Millisecond)
	synctest.Wait()
	if got := w.text(); got != want {
		t.Fatalf("a heartbeat came before the stream was quiet for an interval: %q", got)
	}
	time.Sleep(time.Millisecond)
	synctest.Wait()
	want += ": hb\n\n"
	if got := w.text(); got != want {
		t.Fatalf("one interval after the last event the stream holds %q, want %q", got, want)
	}
	sub.Close()
	<-ended
}

// streamRecorder is an in-process ResponseWriter for a stream: it keeps what was written and can be
// flushed (which http.ResponseController needs); it has no write deadlines.
type streamRecorder struct {
	header http.Header
	mu     sync.Mutex
	buf    bytes.Buffer
}

func (w *streamRecorder) Header() http.Header { return w.header }
func (w *streamRecorder) WriteHeader(int)     {}
func (w *streamRecorder) Flush()              {}

func (w *streamRecorder) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *streamRecorder) text() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

func TestCloseTopicEndsOnlyThatTopic(t *testing.T) {
	f := newFixture(t, Options{})
	a1, s1 := f.open(t, "/a")
	a2, s2 := f.open(t, "/a")
	b, _ := f.open(t, "/b")
	for _, r := range []*sseReader{a1, a2, b} {
		r.next(t)
	}
	f.hub.CloseTopic("a")
	a1.waitEnd(t)
	a2.waitEnd(t)
	for _, s := range []*Subscription{s1, s2} {
		if !errors.Is(endReason(s), errTopicClosed) {
			t.Fatalf("Err = %v, want errTopicClosed", endReason(s))
		}
	}
	f.hub.Publish("b", Event{Name: "board", Seq: 1, Data: []byte(`{"still":"here"}`)})
	if m := b.next(t); m.Data != `{"still":"here"}` {
		t.Fatalf("topic b got %+v", m)
	}
	// The topic can be used again (a new binding would use a new topic anyway).
	a3, _ := f.open(t, "/a")
	a3.next(t)
}

func TestCloseEndsAll(t *testing.T) {
	f := newFixture(t, Options{})
	var rs []*sseReader
	var subs []*Subscription
	for _, p := range []string{"/a", "/b", "/c"} {
		r, s := f.open(t, p)
		r.next(t)
		rs = append(rs, r)
		subs = append(subs, s)
	}
	f.hub.Close()
	for i, r := range rs {
		r.waitEnd(t)
		if !errors.Is(endReason(subs[i]), ErrHubClosed) {
			t.Fatalf("Err = %v, want ErrHubClosed", endReason(subs[i]))
		}
	}
	if _, err := f.hub.Subscribe("a"); !errors.Is(err, ErrHubClosed) {
		t.Fatalf("Subscribe after Close: %v", err)
	}
	f.hub.Publish("a", Event{Name: "x", Seq: 1}) // no-op, no panic
}

// endReason is why sub ended; nil while it is live.
func endReason(sub *Subscription) error {
	sub.mu.Lock()
	defer sub.mu.Unlock()
	return sub.err
}
