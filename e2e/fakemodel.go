package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// FakeModel is an OpenAI-compatible chat-completions server (streaming SSE) on 127.0.0.1 for Pi probes:
// the only model a probe's Pi knows (models.json points at URL). Each test scripts it: replies come from a queue (Enqueue) and, when
// the queue is empty, from a function of the request (Script); without either it answers "ok".
// It counts and records every request.
type FakeModel struct {
	URL string // base URL for models.json, ending in /v1

	srv *http.Server
	ln  net.Listener

	mu      sync.Mutex
	script  func(*ModelRequest) Reply
	queue   []Reply
	reqs    []*ModelRequest
	changed chan struct{} // closed and replaced on every change of reqs
}

// Reply is one scripted answer.
type Reply struct {
	Text      string
	Thinking  string        // streamed first as reasoning_content (a thinking block in Pi)
	ToolCalls []ToolCall    // finish_reason "tool_calls"
	Chunks    int           // split Text into this many deltas (default 1)
	Every     time.Duration // pause between deltas
	// Hold, when set, pauses the stream after the first delta until it is closed (or the client leaves).
	Hold <-chan struct{}
	// Status, when not 0 or 200, answers with that HTTP status and an OpenAI error body (Error as message).
	Status int
	Error  string
}

// ToolCall is a function call the fake model makes. Arguments is JSON text.
type ToolCall struct {
	ID, Name, Arguments string
}

// ModelRequest is one recorded request.
type ModelRequest struct {
	N        int // 1-based arrival order
	Body     []byte
	Model    string
	Messages []ModelMessage
	Tools    []string // function names offered to the model

	mu         sync.Mutex
	done       bool
	clientGone bool
}

// Finished reports whether the reply ended, and whether the client left before it did (an abort).
func (r *ModelRequest) Finished() (done, clientGone bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.done, r.clientGone
}

// ModelMessage is one chat message of a request.
type ModelMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// Text is the message's text: a string content, or its text parts joined.
func (m ModelMessage) Text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct{ Type, Text string }
	if json.Unmarshal(m.Content, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			if p.Type == "text" {
				b.WriteString(p.Text)
			}
		}
		return b.String()
	}
	return ""
}

// Last is the request's last message (zero when there is none).
func (r *ModelRequest) Last() ModelMessage {
	if len(r.Messages) == 0 {
		return ModelMessage{}
	}
	return r.Messages[len(r.Messages)-1]
}

// LastUser is the text of the last user message.
func (r *ModelRequest) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Text()
		}
	}
	return ""
}

// UserTexts lists the text of every user message, in order.
func (r *ModelRequest) UserTexts() []string {
	var out []string
	for _, m := range r.Messages {
		if m.Role == "user" {
			out = append(out, m.Text())
		}
	}
	return out
}

// StartFakeModel starts the server; t.Cleanup stops it.
func StartFakeModel(t testing.TB) *FakeModel {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &FakeModel{ln: ln, changed: make(chan struct{}), URL: "http://" + ln.Addr().String() + "/v1"}
	f.srv = &http.Server{Handler: http.HandlerFunc(f.serve), ReadHeaderTimeout: 10 * time.Second}
	go f.srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := f.srv.Shutdown(ctx); err != nil {
			f.srv.Close()
		}
	})
	return f
}

// Script sets the function that answers requests when the queue is empty (nil: "ok").
func (f *FakeModel) Script(fn func(*ModelRequest) Reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script = fn
}

// Enqueue adds replies used, in order, before the script.
func (f *FakeModel) Enqueue(r ...Reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queue = append(f.queue, r...)
}

// Count is the number of chat-completion requests received so far.
func (f *FakeModel) Count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

// Requests returns the requests received so far, oldest first.
func (f *FakeModel) Requests() []*ModelRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*ModelRequest(nil), f.reqs...)
}

// Request returns request n (1-based).
func (f *FakeModel) Request(n int) *ModelRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n < 1 || n > len(f.reqs) {
		return nil
	}
	return f.reqs[n-1]
}

// WaitFor blocks until cond holds for the recorded requests, or fails the test after timeout.
func (f *FakeModel) WaitFor(t testing.TB, timeout time.Duration, what string, cond func([]*ModelRequest) bool) []*ModelRequest {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		f.mu.Lock()
		reqs := append([]*ModelRequest(nil), f.reqs...)
		ch := f.changed
		f.mu.Unlock()
		if cond(reqs) {
			return reqs
		}
		select {
		case <-ch:
		case <-deadline.C:
			t.Fatalf("fake model: timed out after %v waiting for %s (%d requests)", timeout, what, len(reqs))
			return nil
		}
	}
}

// WaitCount waits until at least n requests arrived and returns request n.
func (f *FakeModel) WaitCount(t testing.TB, n int, timeout time.Duration) *ModelRequest {
	t.Helper()
	reqs := f.WaitFor(t, timeout, fmt.Sprintf("request %d", n), func(r []*ModelRequest) bool { return len(r) >= n })
	return reqs[n-1]
}

// WaitFinished waits until request r's reply ended (or its client left).
func (f *FakeModel) WaitFinished(t testing.TB, r *ModelRequest, timeout time.Duration) (clientGone bool) {
	t.Helper()
	f.WaitFor(t, timeout, fmt.Sprintf("the end of request %d", r.N), func([]*ModelRequest) bool {
		done, _ := r.Finished()
		return done
	})
	_, gone := r.Finished()
	return gone
}

// WriteModelsJSON writes <agentDir>/models.json with provider "fake", model "fake-model" pointing here.
func (f *FakeModel) WriteModelsJSON(agentDir string) error {
	doc := map[string]any{"providers": map[string]any{"fake": map[string]any{
		"baseUrl": f.URL,
		"api":     "openai-completions",
		"apiKey":  "fake-key",
		"compat":  map[string]any{"supportsDeveloperRole": false, "supportsReasoningEffort": false},
		"models": []any{map[string]any{
			"id": "fake-model", "name": "Fake Model", "reasoning": false, "input": []string{"text"},
			"contextWindow": 128000, "maxTokens": 4096,
		}},
	}}}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(agentDir, 0o700); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(agentDir, "models.json"), b, 0o600)
}

func (f *FakeModel) notify() { // with f.mu held
	close(f.changed)
	f.changed = make(chan struct{})
}

func (f *FakeModel) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		http.Error(w, "bad body", http.StatusBadRequest)
		return
	}
	var doc struct {
		Model    string         `json:"model"`
		Messages []ModelMessage `json:"messages"`
		Tools    []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		http.Error(w, "bad json", http.StatusBadRequest)
		return
	}
	req := &ModelRequest{Body: body, Model: doc.Model, Messages: doc.Messages, Tools: []string{}}
	for _, tl := range doc.Tools {
		req.Tools = append(req.Tools, tl.Function.Name)
	}

	f.mu.Lock()
	req.N = len(f.reqs) + 1
	f.reqs = append(f.reqs, req)
	var reply Reply
	var script func(*ModelRequest) Reply
	if len(f.queue) > 0 {
		reply, f.queue = f.queue[0], f.queue[1:]
	} else if f.script != nil {
		script = f.script
	} else {
		reply = Reply{Text: "ok"}
	}
	f.notify()
	f.mu.Unlock()
	if script != nil {
		reply = script(req)
	}

	gone := f.answer(w, r, req.N, reply)
	req.mu.Lock()
	req.done, req.clientGone = true, gone
	req.mu.Unlock()
	f.mu.Lock()
	f.notify()
	f.mu.Unlock()
}

var errClientGone = errors.New("client gone")

// answer writes the reply; it reports whether the client left before the end.
func (f *FakeModel) answer(w http.ResponseWriter, r *http.Request, n int, reply Reply) bool {
	if reply.Status != 0 && reply.Status != http.StatusOK {
		msg := reply.Error
		if msg == "" {
			msg = "scripted failure"
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(reply.Status)
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error"}})
		return false
	}
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	ctx := r.Context()
	id := fmt.Sprintf("chatcmpl-%d", n)
	send := func(delta map[string]any, finish any, usage bool) error {
		if ctx.Err() != nil {
			return errClientGone
		}
		chunk := map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": 0, "model": "fake-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		}
		if usage {
			chunk["usage"] = map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
		}
		b, _ := json.Marshal(chunk)
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return errClientGone
		}
		if flusher != nil {
			flusher.Flush()
		}
		return nil
	}
	pause := func(d time.Duration, hold <-chan struct{}) error {
		if d <= 0 && hold == nil {
			return nil
		}
		var tc <-chan time.Time
		if d > 0 {
			tm := time.NewTimer(d)
			defer tm.Stop()
			tc = tm.C
		}
		select {
		case <-tc:
		case <-hold:
		case <-ctx.Done():
			return errClientGone
		}
		return nil
	}
	run := func() error {
		if err := send(map[string]any{"role": "assistant", "content": ""}, nil, false); err != nil {
			return err
		}
		first := true
		step := func() error { // between deltas: the hold after the first one, then the pace
			if first && reply.Hold != nil {
				first = false
				return pause(0, reply.Hold)
			}
			first = false
			return pause(reply.Every, nil)
		}
		if reply.Thinking != "" {
			if err := send(map[string]any{"reasoning_content": reply.Thinking}, nil, false); err != nil {
				return err
			}
			if err := step(); err != nil {
				return err
			}
		}
		for i, part := range splitText(reply.Text, reply.Chunks) {
			if i > 0 {
				if err := step(); err != nil {
					return err
				}
			}
			if err := send(map[string]any{"content": part}, nil, false); err != nil {
				return err
			}
		}
		finish := "stop"
		for i, tc := range reply.ToolCalls {
			if reply.Text != "" || i > 0 || reply.Thinking != "" {
				if err := step(); err != nil {
					return err
				}
			}
			callID := tc.ID
			if callID == "" {
				callID = fmt.Sprintf("call_%d_%d", n, i)
			}
			if err := send(map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "id": callID, "type": "function", "function": map[string]any{"name": tc.Name, "arguments": ""},
			}}}, nil, false); err != nil {
				return err
			}
			if err := send(map[string]any{"tool_calls": []any{map[string]any{
				"index": i, "function": map[string]any{"arguments": tc.Arguments},
			}}}, nil, false); err != nil {
				return err
			}
			finish = "tool_calls"
		}
		if reply.Hold != nil && first { // nothing streamed after the first delta: still honour the hold
			if err := pause(0, reply.Hold); err != nil {
				return err
			}
		}
		if err := send(map[string]any{}, finish, true); err != nil {
			return err
		}
		if _, err := io.WriteString(w, "data: [DONE]\n\n"); err != nil {
			return errClientGone
		}
		if flusher != nil {
			flusher.Flush()
		}
		return nil
	}
	return run() != nil
}

// splitText cuts s into n pieces of about equal length (at rune boundaries); "" gives no pieces.
func splitText(s string, n int) []string {
	if s == "" {
		return nil
	}
	rs := []rune(s)
	if n < 1 {
		n = 1
	}
	if n > len(rs) {
		n = len(rs)
	}
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, string(rs[i*len(rs)/n:(i+1)*len(rs)/n]))
	}
	return out
}
