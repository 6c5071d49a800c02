// Package sse serves Server-Sent Events streams (SPEC 8). It knows nothing about boards or chat: a Hub
// holds topics, a topic holds subscriptions, and Stream writes one subscription to one HTTP response.
//
// Invariants:
//
//   - Subscribe, then snapshot. A caller subscribes first, then reads its snapshot, then calls Stream with
//     the snapshot as the first event. Events published in between are queued; Stream skips those whose
//     Seq is not newer than the snapshot's, so the client sees no gap and no duplicate. Seq must increase
//     with every publish on a topic (a board revision, a snapshot counter).
//   - Publish never blocks. Each subscription has its own queue measured in bytes of encoded frames. When a
//     publish would make the unsent output of a subscription exceed MaxQueuedBytes, that subscription is
//     cut: it is closed at once (a write in progress is interrupted) and the others go on. That is the
//     slow-client rule.
//   - One writer per response. Only the goroutine running Stream touches the ResponseWriter; each write has
//     its own deadline and is flushed.
//   - Frames are `event: <name>\ndata: <json>\n\n`. The name is a server constant; a newline in the data is
//     written as a continuation `data:` line, so no payload can inject a field (CWE-93).
package sse

import (
	"bytes"
	"errors"
	"strings"
	"sync"
	"time"
)

// Defaults used when an Options field is zero.
const (
	// DefaultHeartbeat is the interval of comment heartbeats (SPEC 8: every 15 s). It keeps proxies and
	// the browser's EventSource from timing out an idle stream.
	DefaultHeartbeat = 15 * time.Second
	// DefaultMaxQueuedBytes is twice the largest chat projection (SPEC 8: about 512 KiB).
	DefaultMaxQueuedBytes = 512 << 10
	// DefaultWriteTimeout bounds each write to a client. A client that cannot take one frame in this
	// time is gone for practical purposes.
	DefaultWriteTimeout = 10 * time.Second
)

// Errors. Subscribe returns ErrTooManyStreams and ErrHubClosed; Subscription.Err reports why a
// subscription ended.
var (
	// ErrTooManyStreams is returned by Subscribe when the topic already has MaxPerTopic subscriptions.
	ErrTooManyStreams = errors.New("sse: too many streams on this topic")
	// ErrHubClosed is returned by Subscribe after Close, and is the Err of subscriptions ended by Close.
	ErrHubClosed = errors.New("sse: hub closed")
	// ErrTopicClosed is the Err of subscriptions ended by CloseTopic.
	ErrTopicClosed = errors.New("sse: topic closed")
	// ErrSlowClient is the Err of a subscription cut because its unsent output exceeded MaxQueuedBytes.
	ErrSlowClient = errors.New("sse: client too slow, stream closed")
	// ErrSubscriptionClosed is the Err of a subscription ended by its own Close.
	ErrSubscriptionClosed = errors.New("sse: subscription closed")
)

// Event is one server-sent event. Data is single-line JSON, encoded once by the publisher.
type Event struct {
	Name string // a server constant such as "board" or "snapshot"
	Seq  int64  // increases with every publish on a topic; Stream skips events not newer than `first`
	Data []byte
}

// Options configure a Hub. The zero value is usable.
type Options struct {
	MaxPerTopic    int           // 0 = unlimited; the chat hub uses 4
	MaxQueuedBytes int           // unsent bytes above this close the stream (slow client); 0 = DefaultMaxQueuedBytes
	Heartbeat      time.Duration // 0 = DefaultHeartbeat; < 0 disables heartbeats
	WriteTimeout   time.Duration // deadline of each write; 0 = DefaultWriteTimeout
	// NewTicker makes the heartbeat ticker of one stream: a channel and its stop function.
	// nil = time.NewTicker; tests inject their own to drive heartbeats without waiting.
	NewTicker func(time.Duration) (<-chan time.Time, func())
}

// Hub fans events out to the subscriptions of each topic. It is safe for concurrent use.
type Hub struct {
	opts Options

	mu     sync.Mutex
	topics map[string]map[*Subscription]struct{}
	closed bool
}

// NewHub returns a Hub with o's zero fields set to their defaults.
func NewHub(o Options) *Hub {
	if o.MaxQueuedBytes <= 0 {
		o.MaxQueuedBytes = DefaultMaxQueuedBytes
	}
	if o.Heartbeat == 0 {
		o.Heartbeat = DefaultHeartbeat
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.NewTicker == nil {
		o.NewTicker = func(d time.Duration) (<-chan time.Time, func()) {
			t := time.NewTicker(d)
			return t.C, t.Stop
		}
	}
	return &Hub{opts: o, topics: make(map[string]map[*Subscription]struct{})}
}

// Subscribe registers a new subscription on topic. Events published from now on are queued for it.
// It fails with ErrTooManyStreams when the topic is full and ErrHubClosed after Close.
func (h *Hub) Subscribe(topic string) (*Subscription, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrHubClosed
	}
	subs := h.topics[topic]
	if h.opts.MaxPerTopic > 0 && len(subs) >= h.opts.MaxPerTopic {
		return nil, ErrTooManyStreams
	}
	if subs == nil {
		subs = make(map[*Subscription]struct{})
		h.topics[topic] = subs
	}
	s := &Subscription{
		hub:   h,
		topic: topic,
		wake:  make(chan struct{}, 1),
		done:  make(chan struct{}),
	}
	subs[s] = struct{}{}
	return s, nil
}

// Publish queues ev for every subscription of topic. It never blocks: a subscription whose unsent output
// would exceed MaxQueuedBytes is cut instead. Publishing to a topic without subscriptions, or after
// Close, does nothing. It panics if ev.Name is empty or holds a line break (a programming error).
func (h *Hub) Publish(topic string, ev Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	subs := h.topics[topic]
	if len(subs) == 0 {
		return
	}
	f := frame{seq: ev.Seq, data: Encode(ev)}
	for s := range subs {
		if !s.enqueue(f, h.opts.MaxQueuedBytes) {
			h.removeLocked(s)
		}
	}
}

// CloseTopic ends every subscription of topic (revocation, expiry): their streams return at once.
func (h *Hub) CloseTopic(topic string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.topics[topic] {
		s.end(ErrTopicClosed)
	}
	delete(h.topics, topic)
}

// Close ends every subscription and refuses new ones (shutdown).
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for topic, subs := range h.topics {
		for s := range subs {
			s.end(ErrHubClosed)
		}
		delete(h.topics, topic)
	}
}

// Count returns the number of live subscriptions on topic.
func (h *Hub) Count(topic string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.topics[topic])
}

func (h *Hub) removeLocked(s *Subscription) {
	subs := h.topics[s.topic]
	delete(subs, s)
	if len(subs) == 0 {
		delete(h.topics, s.topic)
	}
}

// frame is an encoded event waiting to be written.
type frame struct {
	seq  int64
	data []byte
}

// Subscription is one stream's place in a topic. Its queue is written by Stream.
type Subscription struct {
	hub   *Hub
	topic string
	wake  chan struct{} // capacity 1: "the queue is not empty"
	done  chan struct{} // closed when the subscription ends

	mu      sync.Mutex
	queue   []frame
	pending int    // bytes queued or being written
	err     error  // why it ended; nil while live
	writing bool   // a write to the client is in progress
	kick    func() // interrupts that write (set by Stream)
}

// Topic returns the topic the subscription belongs to.
func (s *Subscription) Topic() string { return s.topic }

// Done is closed when the subscription ends, for whatever reason.
func (s *Subscription) Done() <-chan struct{} { return s.done }

// Err reports why the subscription ended: ErrSlowClient, ErrTopicClosed, ErrHubClosed or
// ErrSubscriptionClosed; nil while it is live.
func (s *Subscription) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close ends the subscription and releases its slot in the topic. It is idempotent.
func (s *Subscription) Close() {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	if s.end(ErrSubscriptionClosed) {
		s.hub.removeLocked(s)
	}
}

// enqueue adds f to the queue, or cuts the subscription when its unsent output would exceed max.
// It reports whether the subscription is still live. The caller holds hub.mu.
func (s *Subscription) enqueue(f frame, max int) bool {
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		return false
	}
	if s.pending+len(f.data) > max {
		s.mu.Unlock()
		s.end(ErrSlowClient)
		return false
	}
	s.queue = append(s.queue, f)
	s.pending += len(f.data)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return true
}

// end marks the subscription ended with err, wakes its stream and interrupts a write in progress.
// It reports whether this call ended it. The caller removes it from the hub.
func (s *Subscription) end(err error) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return false
	}
	s.err = err
	s.queue = nil
	s.pending = 0
	close(s.done)
	if s.writing && s.kick != nil {
		s.kick()
	}
	return true
}

// take returns the queued frames; their bytes stay pending until written (see wrote).
func (s *Subscription) take() []frame {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.queue
	s.queue = nil
	return q
}

// wrote releases n pending bytes after a frame was written or skipped.
func (s *Subscription) wrote(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.pending -= n
	}
}

// Encode returns the wire form of ev: `event: <name>\ndata: <data>\n\n`. A line break in Data becomes a
// continuation `data:` line (the client joins them with "\n"), so data can never start a new field.
// It panics if the name is empty or holds a line break: names are server constants.
func Encode(ev Event) []byte {
	if ev.Name == "" || strings.ContainsAny(ev.Name, "\r\n") {
		panic("sse: bad event name " + strings.ReplaceAll(strings.ReplaceAll(ev.Name, "\r", `\r`), "\n", `\n`))
	}
	var b bytes.Buffer
	b.Grow(len("event: ") + len(ev.Name) + len("\ndata: ") + len(ev.Data) + 2)
	b.WriteString("event: ")
	b.WriteString(ev.Name)
	b.WriteString("\ndata: ")
	data := ev.Data
	for {
		i := lineBreak(data)
		if i < 0 {
			b.Write(data)
			break
		}
		b.Write(data[:i])
		b.WriteString("\ndata: ")
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
	}
	b.WriteString("\n\n")
	return b.Bytes()
}

// lineBreak returns the index of the first '\r' or '\n' in p, or -1. Two IndexByte scans (vectorised)
// beat one IndexAny (a byte loop) several times over on the large, single-line JSON snapshots streams carry.
func lineBreak(p []byte) int {
	n := bytes.IndexByte(p, '\n')
	if n < 0 {
		n = len(p)
	}
	if r := bytes.IndexByte(p[:n], '\r'); r >= 0 {
		return r
	}
	if n == len(p) {
		return -1
	}
	return n
}
