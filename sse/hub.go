// Package sse serves Server-Sent Events streams (docs/api.md). It knows nothing about boards or chat: a Hub
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
//     written as a continuation `data:` line, so no payload can inject a field (CWE-93). Only this package
//     makes frames (Encode, AppendFrame), so a pre-encoded Frame keeps the rule too.
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
	// DefaultHeartbeat is how long a stream may stay quiet before a comment heartbeat (docs/api.md:
	// 15 s). It keeps proxies and the browser's EventSource from timing out an idle stream.
	DefaultHeartbeat = 15 * time.Second
	// DefaultMaxQueuedBytes is twice the largest chat projection (docs/api.md: about 512 KiB).
	DefaultMaxQueuedBytes = 512 << 10
	// DefaultWriteTimeout bounds each write to a client. A client that cannot take one frame in this
	// time is gone for practical purposes.
	DefaultWriteTimeout = 10 * time.Second
)

// Errors. Subscribe returns ErrTooManyStreams and ErrHubClosed. A subscription keeps why it ended (its
// err): ErrHubClosed, errTopicClosed, errSlowClient or errSubscriptionClosed.
var (
	// ErrTooManyStreams is returned by Subscribe when the topic already has MaxPerTopic subscriptions
	// or the hub MaxStreams.
	ErrTooManyStreams = errors.New("sse: too many streams")
	// ErrHubClosed is returned by Subscribe after Close, and ends the subscriptions Close ends.
	ErrHubClosed = errors.New("sse: hub closed")
)

// Why a subscription ended, besides ErrHubClosed.
var (
	errTopicClosed        = errors.New("sse: topic closed")                   // by CloseTopic
	errSlowClient         = errors.New("sse: client too slow, stream closed") // its unsent output exceeded MaxQueuedBytes
	errSubscriptionClosed = errors.New("sse: subscription closed")            // by its own Close
)

// Event is one server-sent event. Data is single-line JSON, encoded once by the publisher.
type Event struct {
	Name string // a server constant such as "board" or "snapshot"
	// Seq increases with every publish on a topic; Stream skips events not newer than `first`. Seq 0 is
	// a notice outside the sequence (a board's capability was replaced): always written, and it does not
	// move the sequence.
	Seq  int64
	Data []byte
}

// Options configure a Hub. The zero value is usable.
type Options struct {
	MaxPerTopic    int           // 0 = unlimited; the chat hub uses 4
	MaxStreams     int           // subscriptions over all topics; 0 = unlimited
	MaxQueuedBytes int           // unsent bytes above this close the stream (slow client); 0 = DefaultMaxQueuedBytes
	Heartbeat      time.Duration // 0 = DefaultHeartbeat; < 0 disables heartbeats
	WriteTimeout   time.Duration // deadline of each write; 0 = DefaultWriteTimeout
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
	return &Hub{opts: o, topics: make(map[string]map[*Subscription]struct{})}
}

// Subscribe registers a new subscription on topic. Events published from now on are queued for it.
// It fails with ErrTooManyStreams when the topic or the hub is full and ErrHubClosed after Close.
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
	if h.opts.MaxStreams > 0 && h.countLocked() >= h.opts.MaxStreams {
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
	checkName(ev.Name)
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.topics[topic]) > 0 {
		h.publishLocked(topic, frameOf(ev))
	}
}

// PublishFrame is Publish of an event already encoded (AppendFrame): its bytes are queued as they are,
// for every stream, without another copy.
func (h *Hub) PublishFrame(topic string, f Frame) {
	if f.wire == nil {
		panic("sse: PublishFrame of a zero Frame")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.publishLocked(topic, f)
}

func (h *Hub) publishLocked(topic string, f Frame) {
	for s := range h.topics[topic] {
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
		s.end(errTopicClosed)
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

// countLocked counts the subscriptions of every topic: Subscribe is rare next to Publish, so the sum
// is cheaper than a counter every removal path must keep right.
func (h *Hub) countLocked() int {
	n := 0
	for _, subs := range h.topics {
		n += len(subs)
	}
	return n
}

func (h *Hub) removeLocked(s *Subscription) {
	subs := h.topics[s.topic]
	delete(subs, s)
	if len(subs) == 0 {
		delete(h.topics, s.topic)
	}
}

// Frame is one encoded event, as streams write it: `event: <name>\ndata: <data>\n\n`. Encode's rules
// hold for every Frame (only this package makes them), so publishing one cannot inject a field. The zero
// Frame is not a frame.
type Frame struct {
	seq  int64
	wire []byte // the bytes written to every stream; shared, never modified
	data []byte // the event's data as the caller gave it
}

// Seq returns the frame's sequence number.
func (f Frame) Seq() int64 { return f.seq }

// Data returns the event's data as it was appended (for a publisher that keeps it as its document).
// The bytes are shared: do not modify them.
func (f Frame) Data() []byte { return f.data }

// Bytes returns the wire form. The bytes are shared: do not modify them.
func (f Frame) Bytes() []byte { return f.wire }

// AppendFrame builds the frame of one event in one buffer, to publish a large event with a single copy of
// its data: it appends `event: <name>\ndata: ` to dst, calls data to append the event's data in place (it
// must only append), and ends the frame with a blank line. Data is checked for line breaks (one fast scan):
// data holding one is framed as Encode frames it, with continuation lines in a new buffer, so it can never
// start a field. The frame's bytes are dst's new bytes (or that new buffer); publish them, never modify
// them. It panics if the name is empty or holds a line break, or if data changed what was there before.
func AppendFrame(dst []byte, name string, seq int64, data func([]byte) []byte) Frame {
	checkName(name)
	start := len(dst)
	dst = append(dst, "event: "...)
	dst = append(dst, name...)
	dst = append(dst, "\ndata: "...)
	head := len(dst)
	out := data(dst)
	if len(out) < head || string(out[start:start+7]) != "event: " || string(out[start+7:head-7]) != name ||
		string(out[head-7:head]) != "\ndata: " {
		panic("sse: AppendFrame: data did not only append")
	}
	d := out[head:len(out):len(out)]
	if lineBreak(d) >= 0 {
		wire := appendWire(make([]byte, 0, head-start+len(d)+16), name, d)
		return Frame{seq: seq, wire: wire, data: d}
	}
	out = append(out, "\n\n"...)
	return Frame{seq: seq, wire: out[start:len(out):len(out)], data: d}
}

// frameOf encodes ev into a frame of its own; the caller checked the name.
func frameOf(ev Event) Frame {
	wire := appendWire(make([]byte, 0, len("event: ")+len(ev.Name)+len("\ndata: ")+len(ev.Data)+2), ev.Name, ev.Data)
	return Frame{seq: ev.Seq, wire: wire, data: ev.Data}
}

// Subscription is one stream's place in a topic. Its queue is written by Stream.
type Subscription struct {
	hub   *Hub
	topic string
	wake  chan struct{} // capacity 1: "the queue is not empty"
	done  chan struct{} // closed when the subscription ends

	mu      sync.Mutex
	queue   []Frame
	pending int    // bytes queued or being written
	err     error  // why it ended; nil while live
	writing bool   // a write to the client is in progress
	kick    func() // interrupts that write (set by Stream)
	last    bool   // the queue ends with the last event (PublishLast): the stream ends once it is written
}

// Close ends the subscription and releases its slot in the topic. It is idempotent.
func (s *Subscription) Close() {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	if s.end(errSubscriptionClosed) {
		s.hub.removeLocked(s)
	}
}

// enqueue adds f to the queue, or cuts the subscription when its unsent output would exceed max.
// It reports whether the subscription is still live. The caller holds hub.mu.
func (s *Subscription) enqueue(f Frame, max int) bool {
	return s.enqueueFrame(f, max, false)
}

// enqueueFrame is enqueue, and with last marks f as the subscription's last frame in the same step, so
// a stream that takes the queue sees the frame and the mark together.
func (s *Subscription) enqueueFrame(f Frame, max int, last bool) bool {
	s.mu.Lock()
	if s.err != nil || s.last {
		s.mu.Unlock()
		return false
	}
	if s.pending+len(f.wire) > max {
		s.mu.Unlock()
		s.end(errSlowClient)
		return false
	}
	s.queue = append(s.queue, f)
	s.pending += len(f.wire)
	s.last = last
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
func (s *Subscription) take() []Frame {
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
	checkName(ev.Name)
	return frameOf(ev).wire
}

// checkName panics on an empty name or one holding a line break: names are server constants.
func checkName(name string) {
	if name == "" || strings.ContainsAny(name, "\r\n") {
		panic("sse: bad event name " + strings.ReplaceAll(strings.ReplaceAll(name, "\r", `\r`), "\n", `\n`))
	}
}

// appendWire appends the wire form of the event name with data: a line break in data starts a
// continuation `data:` line.
func appendWire(b []byte, name string, data []byte) []byte {
	b = append(b, "event: "...)
	b = append(b, name...)
	b = append(b, "\ndata: "...)
	for {
		i := lineBreak(data)
		if i < 0 {
			b = append(b, data...)
			break
		}
		b = append(b, data[:i]...)
		b = append(b, "\ndata: "...)
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
	}
	return append(b, "\n\n"...)
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
