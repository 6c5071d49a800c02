// Package link speaks protocol v1 between the Pi bridge and `tele host` (docs/link-protocol.md): one JSON object per line,
// three shapes (call, reply, note), strict and bounded validation of every frame, concurrent calls with
// replies in any order. docs/link-protocol.md describes the protocol as implemented.
package link

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"sort"
	"sync"
	"sync/atomic"
)

// MaxConcurrentCalls bounds the incoming calls that run at once; one more is answered err "busy".
const MaxConcurrentCalls = 32

// Error codes the link itself answers with.
const (
	CodeBadFrame = "bad_frame" // a malformed frame that carried a call id
	CodeBadCall  = "bad_call"  // unknown call, or bad arguments
	CodeBusy     = "busy"      // too many calls in flight
	CodeInternal = "internal"  // the handler failed without a *Error
)

// ErrClosed is returned by Call and Note once the connection has ended (Run returned or is returning).
var ErrClosed = errors.New("link: connection closed")

// Error is an err reply: {"code","message", ...Fields}. Handlers return it to answer with that code; Call
// returns it when the peer answered err.
type Error struct {
	Code    string
	Message string
	Fields  map[string]any // extra members beside code and message, e.g. currentRevision
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// MarshalJSON writes code, message, then the extra fields in name order.
func (e *Error) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"code":`)
	c, _ := marshal(e.Code)
	b.Write(c)
	b.WriteString(`,"message":`)
	m, _ := marshal(e.Message)
	b.Write(m)
	keys := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		if k != "code" && k != "message" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, err := marshal(e.Fields[k])
		if err != nil {
			return nil, err
		}
		kb, _ := marshal(k)
		b.WriteByte(',')
		b.Write(kb)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// BadCall is the answer to an unknown call or bad arguments.
func BadCall(format string, a ...any) *Error {
	return &Error{Code: CodeBadCall, Message: fmt.Sprintf(format, a...)}
}

// marshal is json.Marshal without HTML escaping (frames are not HTML; `&` in URLs stays readable).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

type rawJSON []byte

func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }

// Handler receives what the peer sends. Note gets the note's whole JSON object (its "note" member
// included, the rest checked only for being valid JSON), which it may keep: every frame has its own
// buffer. Note runs on the reading goroutine, one note at a time in the order received, so it must not
// block for long and must not wait for Run. Call gets the raw JSON object of args and runs on a goroutine of its
// own; its ctx ends when the connection ends. A *Error result becomes an err reply with that code; any
// other error becomes err "internal" (its text is logged, never sent). The result is marshalled with
// encoding/json (a json.RawMessage passes through).
type Handler interface {
	Note(name string, note []byte)
	Call(ctx context.Context, name string, args []byte) (any, error)
}

// Conn is one end of a link.
type Conn struct {
	r   io.Reader
	w   io.Writer
	h   Handler
	log *slog.Logger
	max int

	wmu  sync.Mutex
	werr error

	nextID  atomic.Int64
	mu      sync.Mutex
	pending map[int64]chan reply
	closed  bool
	done    chan struct{}

	seen  idSet // ids of the peer's calls (reading goroutine only)
	slots chan struct{}
	wg    sync.WaitGroup
	ran   atomic.Bool
}

type reply struct {
	ok  []byte
	err error
}

// NewConn makes a connection that reads frames from r and writes frames to w. Nothing happens until Run.
func NewConn(r io.Reader, w io.Writer, h Handler, log *slog.Logger) *Conn {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Conn{
		r: r, w: w, h: h, log: log, max: MaxFrame,
		pending: map[int64]chan reply{},
		done:    make(chan struct{}),
		slots:   make(chan struct{}, MaxConcurrentCalls),
	}
}

// Run reads and dispatches frames until the end of input (nil), a read error (that error), or ctx ends
// (ctx.Err(); r is closed if it is an io.Closer, which unblocks a pending read on a pipe or a pollable
// file). Before it returns, pending outgoing calls fail with ErrClosed, incoming calls see their ctx end
// and have finished, and every goroutine it started has stopped. Run may be called once.
func (c *Conn) Run(ctx context.Context) error {
	if c.ran.Swap(true) {
		return errors.New("link: Run called twice")
	}
	callCtx, cancelCalls := context.WithCancel(ctx)
	stopWatch := make(chan struct{})
	watchDone := make(chan struct{})
	go func() { // closes the reader when ctx ends, so a blocked read returns
		defer close(watchDone)
		select {
		case <-ctx.Done():
			if cl, ok := c.r.(io.Closer); ok {
				cl.Close()
			}
		case <-stopWatch:
		}
	}()

	err := c.readLoop(ctx, callCtx)

	close(stopWatch)
	<-watchDone
	c.mu.Lock()
	c.closed = true
	close(c.done)
	c.mu.Unlock()
	cancelCalls()
	c.wg.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

func (c *Conn) readLoop(ctx, callCtx context.Context) error {
	lr := newLineReader(c.r, c.max)
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		line, size, tooLong, err := lr.next()
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if tooLong {
			c.malformed(&malformedError{Reason: fmt.Sprintf("longer than %d bytes", c.max), Size: size})
			continue
		}
		f, me := parseFrame(line)
		if me != nil {
			c.malformed(me)
			continue
		}
		c.dispatch(callCtx, f)
	}
}

func (c *Conn) malformed(me *malformedError) {
	c.log.Warn("link: malformed frame", "reason", me.Reason, "bytes", me.Size, "id", me.ID)
	if me.answerable() {
		c.writeReply(me.ID, nil, &Error{Code: CodeBadFrame, Message: "malformed frame: " + me.Reason})
	}
}

func (c *Conn) dispatch(ctx context.Context, f frame) {
	switch f.kind {
	case kindNote:
		c.runNote(f)
	case kindReply:
		c.mu.Lock()
		ch, ok := c.pending[f.id]
		delete(c.pending, f.id)
		c.mu.Unlock()
		if !ok {
			c.malformed(&malformedError{Reason: "reply to an unknown id", Size: f.size, ID: f.id, Reply: true})
			return
		}
		if f.err != nil {
			ch <- reply{err: f.err}
		} else {
			ch <- reply{ok: f.ok}
		}
	case kindCall:
		if !c.seen.add(f.id) {
			c.malformed(&malformedError{Reason: "call id used before", Size: f.size, ID: f.id})
			return
		}
		select {
		case c.slots <- struct{}{}:
		default:
			c.log.Warn("link: too many calls in flight", "call", f.name, "id", f.id)
			c.writeReply(f.id, nil, &Error{Code: CodeBusy, Message: fmt.Sprintf("more than %d calls in flight", MaxConcurrentCalls)})
			return
		}
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			defer func() { <-c.slots }()
			res, err := c.runCall(ctx, f)
			c.writeReply(f.id, res, err)
		}()
	}
}

func (c *Conn) runNote(f frame) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("link: note handler panicked", "note", f.name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	c.h.Note(f.name, f.note)
}

func (c *Conn) runCall(ctx context.Context, f frame) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("link: call handler panicked", "call", f.name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			res, err = nil, &Error{Code: CodeInternal, Message: "internal error"}
		}
	}()
	return c.h.Call(ctx, f.name, f.args)
}

// writeReply answers call id with ok:res, or with err when err != nil.
func (c *Conn) writeReply(id int64, res any, err error) {
	var b []byte
	if err == nil {
		ok, merr := marshal(res)
		if merr != nil {
			c.log.Error("link: cannot encode a reply", "id", id, "error", merr)
			err = &Error{Code: CodeInternal, Message: "internal error"}
		} else {
			b = make([]byte, 0, len(ok)+32)
			b = fmt.Appendf(b, `{"id":%d,"ok":`, id)
			b = append(b, ok...)
			b = append(b, '}')
		}
	}
	if err != nil {
		var le *Error
		if !errors.As(err, &le) {
			c.log.Error("link: call failed", "id", id, "error", err.Error())
			le = &Error{Code: CodeInternal, Message: "internal error"}
		}
		eb, merr := marshal(le)
		if merr != nil {
			eb = []byte(`{"code":"internal","message":"internal error"}`)
		}
		b = fmt.Appendf(nil, `{"id":%d,"err":%s}`, id, eb)
	}
	if werr := c.write(b); werr != nil {
		c.log.Warn("link: cannot write a reply", "id", id, "error", werr.Error())
	}
}

// write sends one frame: a whole line in one Write, behind the write mutex.
func (c *Conn) write(b []byte) error {
	if len(b) > c.max {
		return fmt.Errorf("link: frame of %d bytes exceeds %d", len(b), c.max)
	}
	line := make([]byte, len(b)+1)
	copy(line, b)
	line[len(b)] = '\n'
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.werr != nil {
		return c.werr
	}
	if _, err := c.w.Write(line); err != nil {
		c.werr = err
		return err
	}
	return nil
}

// Call sends call name with args (marshalled to a JSON object; nil means {}) and waits for its reply, ctx,
// or the end of the connection. It returns the raw JSON of ok, a *Error for an err reply, ctx.Err(), or
// ErrClosed. Call is safe for concurrent use, before or during Run.
func (c *Conn) Call(ctx context.Context, name string, args any) ([]byte, error) {
	if !validName(name, maxNameLen) {
		return nil, fmt.Errorf("link: bad call name %q", name)
	}
	a := []byte("{}")
	if args != nil {
		var err error
		if a, err = marshal(args); err != nil {
			return nil, err
		}
		if len(a) == 0 || a[0] != '{' {
			return nil, errors.New("link: call args must marshal to an object")
		}
	}
	id := c.nextID.Add(1)
	ch := make(chan reply, 1)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, ErrClosed
	}
	c.pending[id] = ch
	c.mu.Unlock()
	forget := func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}

	nb, _ := marshal(name)
	b := fmt.Appendf(nil, `{"id":%d,"call":%s,"args":%s}`, id, nb, a)
	if err := c.write(b); err != nil {
		forget()
		return nil, err
	}
	select {
	case r := <-ch:
		return r.ok, r.err
	case <-ctx.Done():
		forget()
		return nil, ctx.Err()
	case <-c.done:
		forget()
		select { // a reply that raced the end still counts
		case r := <-ch:
			return r.ok, r.err
		default:
		}
		return nil, ErrClosed
	}
}

// Note sends note name with the members of fields (marshalled to a JSON object; nil means none). fields
// must not have a member "note".
func (c *Conn) Note(name string, fields any) error {
	if !validName(name, maxNameLen) {
		return fmt.Errorf("link: bad note name %q", name)
	}
	nb, _ := marshal(name)
	b := append([]byte(`{"note":`), nb...)
	if fields != nil {
		fb, err := marshal(fields)
		if err != nil {
			return err
		}
		if len(fb) < 2 || fb[0] != '{' {
			return errors.New("link: note fields must marshal to an object")
		}
		if m, err := parseObject(fb); err != nil {
			return err
		} else if _, bad := m["note"]; bad {
			return errors.New(`link: note fields must not have a member "note"`)
		}
		if len(fb) > 2 {
			b = append(b, ',')
			b = append(b, fb[1:len(fb)-1]...)
		}
	}
	b = append(b, '}')
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return ErrClosed
	}
	return c.write(b)
}
