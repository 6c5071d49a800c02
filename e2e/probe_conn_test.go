package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/tidwall/gjson"
)

const board = "demo"

var inviteRe = regexp.MustCompile(`http://127\.0\.0\.1:\d+/b/[A-Za-z0-9_-]+#\S+`)

// teleConn is one connection seen from the browser side.
type teleConn struct {
	base    string // http://127.0.0.1:<port>
	port    string
	binding string
	invite  string
	cap     string
	hostPID int
	epoch   string
	client  *http.Client
	views   *viewStream // the chat's event stream, from pairing on
}

func (c *teleConn) request(t *testing.T, method, path string, body any) (int, gjson.Result) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", c.base)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		req.Header.Set("Sec-Fetch-Mode", "cors")
	}
	resp, err := c.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, gjson.ParseBytes(b)
}

func (c *teleConn) status(t *testing.T) gjson.Result {
	t.Helper()
	code, v := c.request(t, "GET", "/api/chat/"+c.binding+"/status", nil)
	if code != 200 {
		t.Fatalf("status: %d %s", code, v.Raw)
	}
	return v
}

// waitView waits until the chat view holds cond: the view at the time of the call or any later
// snapshot of the chat's event stream.
func (c *teleConn) waitView(t *testing.T, what string, cond func(v gjson.Result) bool) gjson.Result {
	t.Helper()
	if c.views == nil {
		t.Fatalf("waiting for %s before pairing", what)
	}
	return c.views.wait(t, 30*time.Second, what+" in the chat view", cond)
}

func (c *teleConn) send(t *testing.T, text string) (int, gjson.Result) {
	t.Helper()
	v := c.status(t)
	return c.request(t, "POST", "/api/chat/"+c.binding+"/command", map[string]any{
		"type": "send", "id": uuid.NewString(), "epoch": v.Get("epoch").String(),
		"idleVersion": v.Get("idleVersion").Int(), "text": text,
	})
}

func (c *teleConn) abort(t *testing.T, runID string) (int, gjson.Result) {
	t.Helper()
	return c.request(t, "POST", "/api/chat/"+c.binding+"/command", map[string]any{
		"type": "abort", "id": uuid.NewString(), "epoch": c.epoch, "runId": runID,
	})
}

// viewStream reads the chat's SSE stream (GET /api/chat/:binding/events: a snapshot first, then one
// after every change) and keeps every snapshot, so a wait sees each state the view went through.
type viewStream struct {
	mu      sync.Mutex
	views   []gjson.Result
	changed chan struct{} // closed and replaced on every snapshot and at the end
	ended   error         // why the stream ended; nil while it runs
}

// openViews starts reading the stream with the connection's cookie; it stops when the host ends the
// stream (revocation) or when t's test ends.
func openViews(t *testing.T, c *teleConn) *viewStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", c.base+"/api/chat/"+c.binding+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := (&http.Client{Jar: c.client.Jar}).Do(req) // no client timeout: the stream stays open
	if err != nil {
		cancel()
		t.Fatalf("the chat stream: %v", err)
	}
	if resp.StatusCode != 200 {
		resp.Body.Close()
		cancel()
		t.Fatalf("the chat stream: %d", resp.StatusCode)
	}
	s := &viewStream{changed: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.end(s.read(resp.Body))
	}()
	t.Cleanup(func() {
		cancel()
		resp.Body.Close()
		<-done
	})
	return s
}

func (s *viewStream) read(body io.Reader) error {
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), 8<<20)
	var event string
	var data []byte
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if event == "snapshot" && data != nil {
				s.mu.Lock()
				s.views = append(s.views, gjson.ParseBytes(data))
				close(s.changed)
				s.changed = make(chan struct{})
				s.mu.Unlock()
			}
			event, data = "", nil
		case bytes.HasPrefix(line, []byte("event: ")):
			event = string(line[len("event: "):])
		case bytes.HasPrefix(line, []byte("data: ")):
			if data != nil {
				data = append(data, '\n')
			}
			data = append(data, line[len("data: "):]...)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return io.EOF
}

func (s *viewStream) end(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended = err
	close(s.changed)
}

// wait returns the first view, from the latest one on, that holds cond.
func (s *viewStream) wait(t *testing.T, timeout time.Duration, what string, cond func(gjson.Result) bool) gjson.Result {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	s.mu.Lock()
	from := max(0, len(s.views)-1)
	s.mu.Unlock()
	for {
		s.mu.Lock()
		views, ended, ch := s.views[from:], s.ended, s.changed
		from = len(s.views)
		s.mu.Unlock()
		for _, v := range views {
			if cond(v) {
				return v
			}
		}
		if ended != nil {
			t.Fatalf("the chat stream ended (%v) while waiting for %s", ended, what)
		}
		select {
		case <-ch:
		case <-deadline.C:
			last := "none"
			if n := len(views); n > 0 {
				last = tail(views[n-1].Raw, 600)
			}
			t.Fatalf("timed out after %v waiting for %s; last view: %s", timeout, what, last)
		}
	}
}

func portClosed(port string) bool {
	conn, err := net.DialTimeout("tcp", "127.0.0.1:"+port, time.Second)
	if err != nil {
		return true
	}
	conn.Close()
	return false
}

func hasNotice(v gjson.Result, code string) bool {
	for _, it := range v.Get("items").Array() {
		if it.Get("role").String() == "notice" && it.Get("code").String() == code {
			return true
		}
	}
	return false
}

func assistantTexts(v gjson.Result) []string {
	var out []string
	for _, it := range v.Get("items").Array() {
		if it.Get("role").String() == "assistant" {
			out = append(out, it.Get("text").String())
		}
	}
	return out
}

// connect runs /tele demo while idle and returns the connection the notify describes (also p.c).
func (p *probe) connect(t *testing.T) *teleConn {
	t.Helper()
	from := p.pi.Mark()
	p.pi.Prompt("/tele " + board)
	msg := p.pi.WaitNotify(from, "one-time link")
	raw := inviteRe.FindString(msg)
	if raw == "" {
		t.Fatalf("no invitation URL in the notify")
	}
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	frag, err := url.ParseQuery(u.Fragment)
	if err != nil {
		t.Fatal(err)
	}
	c := &teleConn{base: "http://" + u.Host, port: u.Port(), binding: frag.Get("binding"), invite: frag.Get("invite")}
	// Only one-time secrets in the link: the board's capability reaches the page in the pairing answer.
	capFile, err := os.ReadFile(filepath.Join(p.pi.DataDir, "caps", board))
	if err != nil {
		t.Fatal(err)
	}
	c.cap = strings.TrimSpace(string(capFile))
	p.secret(raw, c.invite, c.cap)
	if u.Path != "/b/"+board || c.binding == "" || c.invite == "" || c.cap == "" || len(frag) != 2 || u.RawQuery != "" ||
		strings.Contains(raw, c.cap) {
		t.Fatalf("invitation URL has the wrong shape (path %q, query %q, fragment keys %v)", u.Path, u.RawQuery, keys(frag))
	}
	jar, _ := cookiejar.New(nil)
	c.client = &http.Client{Jar: jar, Timeout: 10 * time.Second}
	pids := childrenOf(p.pi.PID(), p.teleBin)
	if len(pids) != 1 {
		t.Fatalf("want one tele host child of pi, found %v", pids)
	}
	c.hostPID = pids[0]
	p.c = c
	return c
}

func keys(v url.Values) []string {
	var out []string
	for k := range v {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// pair redeems the invitation like the board page does, and follows the chat's event stream.
func (p *probe) pair(t *testing.T, c *teleConn) {
	t.Helper()
	code, v := c.request(t, "POST", "/api/chat/pair", map[string]any{"binding": c.binding, "invitation": c.invite})
	if code != 200 {
		t.Fatalf("pair: %d %s", code, v.Raw)
	}
	c.epoch = v.Get("epoch").String()
	if v.Get("binding").String() != c.binding || c.epoch == "" || v.Get("capability").String() != c.cap {
		t.Fatalf("pair answer %s", v.Raw)
	}
	u, _ := url.Parse(c.base + "/api/chat/" + c.binding + "/status")
	cookies := c.client.Jar.Cookies(u)
	if len(cookies) != 1 {
		t.Fatalf("want one cookie for the binding, got %d", len(cookies))
	}
	p.secret(cookies[0].Value)
	if c.views == nil {
		c.views = openViews(p.t, c) // owned by the whole probe, not by this step
	}
}

// assertHostGone waits until the host process has exited, then checks its port is closed and Pi has
// no host child left.
func (p *probe) assertHostGone(t *testing.T, c *teleConn) {
	t.Helper()
	waitExit(t, c.hostPID, 10*time.Second, "the tele host process to exit")
	if !portClosed(c.port) {
		t.Fatalf("port %s still accepts connections after the host exited", c.port)
	}
	if pids := childrenOf(p.pi.PID(), p.teleBin); len(pids) != 0 {
		t.Fatalf("tele host children left: %v", pids)
	}
}

// lastRequestTools runs a plain prompt and returns the tools of its model request.
func (p *probe) lastRequestTools(t *testing.T, text string) []string {
	t.Helper()
	n := p.fm.Count()
	p.pi.PromptAndWait(text)
	r := p.fm.WaitCount(t, n+1, 10*time.Second)
	if r.LastUser() != text {
		t.Fatalf("request %d answers %q, want %q", r.N, r.LastUser(), text)
	}
	return r.Tools
}

// sessionFileWith finds the session file under the agent dir that holds a user message with text.
func (p *probe) sessionFileWith(t *testing.T, text string) string {
	t.Helper()
	var found string
	root := filepath.Join(p.pi.AgentDir, "sessions")
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".jsonl") || found != "" {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return nil
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			l := gjson.ParseBytes(sc.Bytes())
			if l.Get("type").String() == "message" && l.Get("message.role").String() == "user" {
				for _, part := range l.Get("message.content").Array() {
					if part.Get("text").String() == text {
						found = path
					}
				}
				if l.Get("message.content").String() == text {
					found = path
				}
			}
		}
		return nil
	})
	return found
}
