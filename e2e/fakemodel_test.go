package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// chatChunk is the part of a streamed chunk the tests read.
type chatChunk struct {
	Choices []struct {
		Delta struct {
			Content          *string `json:"content"`
			ReasoningContent string  `json:"reasoning_content"`
			ToolCalls        []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		TotalTokens int `json:"total_tokens"`
	} `json:"usage"`
}

type streamed struct {
	status    int
	text      string
	thinking  string
	toolName  string
	toolArgs  string
	finish    string
	done      bool
	usage     bool
	errorBody string
}

func postChat(t *testing.T, ctx context.Context, f *FakeModel, body string, onChunk func(chatChunk)) streamed {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "POST", f.URL+"/chat/completions", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s streamed
	s.status = resp.StatusCode
	if resp.StatusCode != 200 {
		var b strings.Builder
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			b.WriteString(sc.Text())
		}
		s.errorBody = b.String()
		return s
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			t.Fatalf("unexpected SSE line %q", line)
		}
		if data == "[DONE]" {
			s.done = true
			continue
		}
		var c chatChunk
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatalf("chunk %q: %v", data, err)
		}
		if onChunk != nil {
			onChunk(c)
		}
		if c.Usage != nil {
			s.usage = true
		}
		ch := c.Choices[0]
		if ch.Delta.Content != nil {
			s.text += *ch.Delta.Content
		}
		s.thinking += ch.Delta.ReasoningContent
		for _, tc := range ch.Delta.ToolCalls {
			if tc.Function.Name != "" {
				s.toolName = tc.Function.Name
			}
			s.toolArgs += tc.Function.Arguments
		}
		if ch.FinishReason != nil {
			s.finish = *ch.FinishReason
		}
	}
	return s
}

const chatBody = `{"model":"fake-model","stream":true,"messages":[
 {"role":"system","content":"sys"},
 {"role":"user","content":[{"type":"text","text":"hello "},{"type":"text","text":"there"}]},
 {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"tele_board","arguments":"{}"}}]},
 {"role":"tool","tool_call_id":"c1","content":"result text"}],
 "tools":[{"type":"function","function":{"name":"tele_board","parameters":{}}},{"type":"function","function":{"name":"bash"}}]}`

func TestFakeModelRecordsAndScripts(t *testing.T) {
	f := StartFakeModel(t)
	ctx := ctxFor(t)

	// Default reply, and the request record.
	s := postChat(t, ctx, f, chatBody, nil)
	if s.status != 200 || s.text != "ok" || s.finish != "stop" || !s.done || !s.usage {
		t.Fatalf("default reply: %+v", s)
	}
	r := f.Request(1)
	if f.Count() != 1 || r == nil || r.N != 1 || r.Model != "fake-model" {
		t.Fatalf("record: count %d, %+v", f.Count(), r)
	}
	if strings.Join(r.Tools, ",") != "tele_board,bash" {
		t.Errorf("tools %v", r.Tools)
	}
	if r.LastUser() != "hello there" || r.Last().Role != "tool" || r.Last().Text() != "result text" || r.Last().ToolCallID != "c1" {
		t.Errorf("messages: last user %q, last %+v", r.LastUser(), r.Last())
	}
	if r.Messages[2].ToolCalls[0].Function.Name != "tele_board" {
		t.Errorf("assistant tool call not recorded: %+v", r.Messages[2])
	}
	if done, gone := r.Finished(); !done || gone {
		t.Errorf("finished %v gone %v", done, gone)
	}

	// The queue comes before the script; the script sees the request.
	f.Script(func(r *ModelRequest) Reply { return Reply{Text: "echo: " + r.LastUser()} })
	f.Enqueue(Reply{Text: "queued", Chunks: 3})
	if s := postChat(t, ctx, f, chatBody, nil); s.text != "queued" {
		t.Errorf("queued reply %q", s.text)
	}
	if s := postChat(t, ctx, f, chatBody, nil); s.text != "echo: hello there" {
		t.Errorf("scripted reply %q", s.text)
	}
	if f.Count() != 3 {
		t.Errorf("count %d", f.Count())
	}
}

func TestFakeModelToolCallThinkingAndFailure(t *testing.T) {
	f := StartFakeModel(t)
	ctx := ctxFor(t)
	f.Enqueue(
		Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: `{"action":"get"}`}}},
		Reply{Thinking: "hmm", Text: "thought"},
		Reply{Status: 400, Error: "scripted failure"},
	)
	s := postChat(t, ctx, f, chatBody, nil)
	if s.toolName != "tele_board" || s.toolArgs != `{"action":"get"}` || s.finish != "tool_calls" || s.text != "" {
		t.Errorf("tool call: %+v", s)
	}
	s = postChat(t, ctx, f, chatBody, nil)
	if s.thinking != "hmm" || s.text != "thought" || s.finish != "stop" {
		t.Errorf("thinking: %+v", s)
	}
	s = postChat(t, ctx, f, chatBody, nil)
	if s.status != 400 || !strings.Contains(s.errorBody, "scripted failure") {
		t.Errorf("failure: %+v", s)
	}
}

func TestFakeModelHoldAndClientGone(t *testing.T) {
	f := StartFakeModel(t)
	release := make(chan struct{})
	f.Enqueue(Reply{Text: "aaaa bbbb", Chunks: 2, Hold: release})

	got := make(chan streamed, 1)
	first := make(chan struct{}, 4)
	go func() {
		got <- postChat(t, context.Background(), f, chatBody, func(c chatChunk) {
			if c.Choices[0].Delta.Content != nil && *c.Choices[0].Delta.Content != "" {
				first <- struct{}{}
			}
		})
	}()
	select {
	case <-first:
	case <-time.After(10 * time.Second):
		t.Fatal("no first delta")
	}
	select {
	case s := <-got:
		t.Fatalf("reply ended while held: %+v", s)
	default:
	}
	close(release)
	s := <-got
	if s.text != "aaaa bbbb" || !s.done {
		t.Fatalf("released reply: %+v", s)
	}

	// A client that leaves mid-stream is recorded as gone.
	f.Enqueue(Reply{Text: "x", Chunks: 1, Hold: make(chan struct{})})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		req, _ := http.NewRequestWithContext(ctx, "POST", f.URL+"/chat/completions", strings.NewReader(chatBody))
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			buf := make([]byte, 1)
			resp.Body.Read(buf)
			cancel()
			resp.Body.Close()
		}
	}()
	r := f.WaitCount(t, 2, 10*time.Second)
	<-done
	if gone := f.WaitFinished(t, r, 10*time.Second); !gone {
		t.Error("client departure not recorded")
	}
	cancel()
}

func TestFakeModelSlowStream(t *testing.T) {
	f := StartFakeModel(t)
	f.Enqueue(Reply{Text: "0123456789", Chunks: 5, Every: 20 * time.Millisecond})
	start := time.Now()
	var deltas int
	s := postChat(t, ctxFor(t), f, chatBody, func(c chatChunk) {
		if c.Choices[0].Delta.Content != nil && *c.Choices[0].Delta.Content != "" {
			deltas++
		}
	})
	if s.text != "0123456789" || deltas != 5 {
		t.Errorf("slow stream: %q in %d deltas", s.text, deltas)
	}
	if el := time.Since(start); el < 80*time.Millisecond {
		t.Errorf("5 deltas 20ms apart took only %v", el)
	}
}

func TestFakeModelModelsJSON(t *testing.T) {
	f := StartFakeModel(t)
	dir := filepath.Join(t.TempDir(), "agent")
	if err := f.WriteModelsJSON(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "models.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Providers map[string]struct {
			BaseURL string `json:"baseUrl"`
			API     string `json:"api"`
			Models  []struct{ ID string }
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	p := doc.Providers["fake"]
	if p.BaseURL != f.URL || p.API != "openai-completions" || len(p.Models) != 1 || p.Models[0].ID != "fake-model" {
		t.Errorf("models.json: %s", b)
	}
}

func TestSplitText(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{{"", 3, ""}, {"abc", 0, "abc"}, {"abcdef", 3, "ab|cd|ef"}, {"ab", 5, "a|b"}, {"日本語", 2, "日|本語"}} {
		if got := strings.Join(splitText(c.s, c.n), "|"); got != c.want {
			t.Errorf("splitText(%q,%d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}
