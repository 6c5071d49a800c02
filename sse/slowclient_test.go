package sse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The slow-client rule over real sockets: a reader that stops is cut, and publishing never waits for it.

// dialSlow opens a stream from a client that never reads, with a tiny receive buffer.
func dialSlow(t *testing.T, srvURL, path string) net.Conn {
	t.Helper()
	d := net.Dialer{Control: func(network, address string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) {
			serr = setReceiveBuffer(fd, 4096)
		})
		if err != nil {
			return err
		}
		return serr
	}}
	conn, err := d.Dial("tcp", strings.TrimPrefix(srvURL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: test\r\n\r\n", path)
	return conn
}

// A client that never reads is cut once its unsent output passes MaxQueuedBytes, while a fast
// subscriber of the same topic keeps receiving every event.
func TestSlowClientIsCut(t *testing.T) {
	// An hour-long write timeout proves the cut interrupts the blocked write itself.
	f := newFixture(t, Options{MaxQueuedBytes: 256 << 10, WriteTimeout: time.Hour})
	fast, _ := f.open(t, "/t")
	fast.next(t)

	slowConn := dialSlow(t, f.srv.URL, "/t")
	var slow *Subscription
	select {
	case slow = <-f.subs:
	case <-time.After(testTimeout):
		t.Fatal("no subscription for the slow client")
	}

	payload := []byte(`{"x":"` + strings.Repeat("a", 64<<10) + `"}`)
	cut := false
	var seq int64
	for seq = 1; seq <= 2000 && !cut; seq++ {
		f.hub.Publish("t", Event{Name: "big", Seq: seq, Data: payload})
		if m := fast.next(t); m.Event != "big" || len(m.Data) != len(payload) {
			t.Fatalf("fast client got %q (%d bytes)", m.Event, len(m.Data))
		}
		select {
		case <-slow.done:
			cut = true
		default:
		}
	}
	if !cut {
		t.Fatalf("slow client not cut after %d publishes of %d bytes", seq-1, len(payload))
	}
	if !errors.Is(endReason(slow), errSlowClient) {
		t.Fatalf("slow Err = %v, want errSlowClient", endReason(slow))
	}
	t.Logf("slow client cut after %d publishes", seq-1)

	// The slow client's connection is closed: draining it reaches EOF (or a reset), not a timeout.
	slowConn.SetReadDeadline(time.Now().Add(testTimeout))
	_, err := io.Copy(io.Discard, slowConn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("slow client's connection still open")
	}

	// The fast client is unaffected.
	f.hub.Publish("t", Event{Name: "small", Seq: seq + 1, Data: []byte(`{"after":"cut"}`)})
	if m := fast.next(t); m.Data != `{"after":"cut"}` {
		t.Fatalf("fast client after the cut got %+v", m)
	}
	if n := f.hub.Count("t"); n != 1 {
		t.Fatalf("Count = %d after the cut, want 1", n)
	}
}

// A single event larger than the whole budget cuts the subscriber immediately instead of queueing.
func TestPublishNeverBlocks(t *testing.T) {
	h := NewHub(Options{MaxQueuedBytes: 1024})
	sub, err := h.Subscribe("x")
	if err != nil {
		t.Fatal(err)
	}
	// Nobody streams this subscription: publishes queue up to the limit and then cut, never block.
	for i := int64(1); i <= 100; i++ {
		h.Publish("x", Event{Name: "e", Seq: i, Data: bytes.Repeat([]byte("a"), 100)})
	}
	if !errors.Is(endReason(sub), errSlowClient) {
		t.Fatalf("Err = %v, want errSlowClient", endReason(sub))
	}
	if h.Count("x") != 0 {
		t.Fatal("cut subscription still counted")
	}
	sub.Close() // idempotent after a cut
}

// A client that stops reading with output still under the byte budget is ended by the write deadline.
func TestWriteDeadlineEndsStuckStream(t *testing.T) {
	f := newFixture(t, Options{MaxQueuedBytes: 64 << 20, WriteTimeout: 100 * time.Millisecond})
	dialSlow(t, f.srv.URL, "/t")
	var sub *Subscription
	select {
	case sub = <-f.subs:
	case <-time.After(testTimeout):
		t.Fatal("no subscription")
	}
	payload := []byte(`"` + strings.Repeat("a", 64<<10) + `"`)
	for seq := int64(1); seq <= 200; seq++ {
		f.hub.Publish("t", Event{Name: "big", Seq: seq, Data: payload})
	}
	select {
	case <-sub.done:
	case <-time.After(testTimeout):
		t.Fatal("stuck stream not ended by its write deadline")
	}
	if f.hub.Count("t") != 0 {
		t.Fatal("stuck stream still counted")
	}
}
