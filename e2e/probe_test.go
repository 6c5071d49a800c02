package e2e

// The real-Pi probe: the pinned Pi in RPC mode, the bridge printed or installed by the
// built tele binary, `tele host` started by the bridge, and the fake model. Every probe runs isolated
// (temporary HOME, agent dir and data dir, port 0), stops every process it started, and writes a
// secret-free report to .audit/chat/probe.json.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
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

// probeExtension is the small test extension loaded before the bridge. `/probe release` lets go of
// inputs it holds (any input containing PROBE_HOLD waits in its `input` hook); `/probe prompt open|close`
// says a terminal dialog opened or closed on the shared bus; `/probe tree` moves the session tree leaf.
const probeExtension = `export default function (pi) {
	const held = [];
	pi.registerCommand("probe", {
		description: "probe controls (tests only)",
		handler: async (args, ctx) => {
			const [verb, arg] = String(args).trim().split(/\s+/);
			if (verb === "release") {
				const n = held.length;
				held.splice(0).forEach((release) => release());
				ctx.ui.notify("probe: released " + n, "info");
			} else if (verb === "prompt") {
				pi.events.emit("tele:terminal-prompt", { open: arg === "open" });
				ctx.ui.notify("probe: prompt " + arg, "info");
			} else if (verb === "tree") {
				const branch = ctx.sessionManager.getBranch();
				const target = branch[Math.max(0, branch.length - 3)].id;
				const r = await ctx.navigateTree(target, { summarize: false });
				ctx.ui.notify("probe: tree moved " + !r.cancelled, "info");
			}
		},
	});
	pi.on("input", async (event, ctx) => {
		if (!String(event.text).includes("PROBE_HOLD")) return;
		ctx.ui.notify("probe: holding input", "info");
		await new Promise((resolve) => held.push(resolve));
	});
}
`

// probeAfterExtension is loaded after the bridge (only with -e): its input hook runs after the bridge's, so
// a browser input it holds has already passed the bridge's generation check. Released after /tele off,
// it reaches agent_start, where the bridge's second line must abort it.
const probeAfterExtension = `export default function (pi) {
	const held = [];
	pi.registerCommand("probe-after", {
		description: "probe controls (tests only)",
		handler: async (_args, ctx) => {
			const n = held.length;
			held.splice(0).forEach((release) => release());
			ctx.ui.notify("probe-after: released " + n, "info");
		},
	});
	pi.on("input", async (event, ctx) => {
		if (!String(event.text).includes("PROBE_AFTERHOLD")) return;
		ctx.ui.notify("probe-after: holding input", "info");
		await new Promise((resolve) => held.push(resolve));
	});
}
`

const board = "demo"

var inviteRe = regexp.MustCompile(`http://127\.0\.0\.1:\d+/b/[A-Za-z0-9_-]+#\S+`)

// ---- the report ----

type probeCheck struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Ms     int64  `json:"ms"`
	Detail string `json:"detail,omitempty"`
}

type probeRun struct {
	Mode     string       `json:"mode"`
	Pi       string       `json:"pi"`       // package@version
	Node     string       `json:"node"`     // node --version of the Node that ran it
	Native   []string     `json:"native"`   // Pi events the bridge took as they are
	Imitated []string     `json:"imitated"` // the ones it imitated (settled: idle check; dialogs: pi.events only)
	OK       bool         `json:"ok"`
	Seconds  float64      `json:"seconds"`
	Checks   []probeCheck `json:"checks"`
}

var reportMu sync.Mutex

// writeProbeReport merges run into ../.audit/chat/probe.json, refusing to write anything that contains
// one of the secrets seen during the run.
func writeProbeReport(t *testing.T, name string, run probeRun, secrets []string) {
	t.Helper()
	reportMu.Lock()
	defer reportMu.Unlock()
	path := filepath.Join("..", ".audit", "chat", "probe.json")
	doc := struct {
		UpdatedAt string              `json:"updatedAt"`
		Runs      map[string]probeRun `json:"runs"`
	}{Runs: map[string]probeRun{}}
	if b, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(b, &doc)
		if doc.Runs == nil {
			doc.Runs = map[string]probeRun{}
		}
	}
	for k := range doc.Runs {
		if !strings.Contains(k, "/") {
			delete(doc.Runs, k) // a run from before the report was kept per Pi line
		}
	}
	doc.UpdatedAt = time.Now().UTC().Format(time.RFC3339)
	doc.Runs[name] = run
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secrets {
		if s != "" && bytes.Contains(b, []byte(s)) {
			t.Fatalf("the probe report would contain a secret; not written")
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
}

// ---- the probe ----

type probe struct {
	t       *testing.T
	line    piLine
	mode    string
	fm      *FakeModel
	pi      *Pi
	teleBin string // the binary as the bridge names it (symlinks resolved)
	start   time.Time
	run     probeRun
	secrets []string
	stopped bool // a step failed: the rest are skipped
	// secondLine: probeAfterExtension is loaded after the bridge
	secondLine bool

	mu          sync.Mutex
	hold        chan struct{} // replies of PROBE_SLOW / PROBE_BROWSER wait on it
	boardRead   gjson.Result  // the content the model read in the edit step
	defaultTool []string      // the tool set before /tele
}

// step runs one check as a subtest and records it; after a failure the later steps are skipped.
func (p *probe) step(name string, fn func(t *testing.T) string) {
	if p.stopped {
		p.run.Checks = append(p.run.Checks, probeCheck{Name: name, Detail: "not run: an earlier step failed"})
		return
	}
	began := time.Now()
	var detail string
	ok := p.t.Run(name, func(t *testing.T) { detail = fn(t) })
	p.run.Checks = append(p.run.Checks, probeCheck{Name: name, OK: ok, Ms: time.Since(began).Milliseconds(), Detail: detail})
	if !ok {
		p.stopped = true
	}
}

func (p *probe) finish(name string) {
	p.run.Mode = p.mode
	p.run.Pi = p.line.Package + "@" + p.line.Version()
	p.run.Node = p.line.NodeVersion()
	p.run.Native = append([]string{}, p.line.Native...)
	p.run.Imitated = []string{}
	for _, e := range []string{"agent_settled", "ui_prompt"} {
		if !p.line.Has(e) {
			p.run.Imitated = append(p.run.Imitated, e)
		}
	}
	p.run.Seconds = time.Since(p.start).Round(time.Millisecond).Seconds()
	if p.run.Checks == nil {
		p.run.Checks = []probeCheck{} // its subtests are the checks (native-events)
	}
	p.run.OK = !p.t.Failed()
	for _, c := range p.run.Checks {
		p.run.OK = p.run.OK && c.OK
	}
	writeProbeReport(p.t, p.line.Name()+"/"+name, p.run, p.secrets)
}

func (p *probe) secret(s ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.secrets = append(p.secrets, s...)
}

func (p *probe) newHold() chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hold = make(chan struct{})
	return p.hold
}

func (p *probe) currentHold() chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hold
}

// model scripts the fake model by markers in the last user message.
func (p *probe) model(r *ModelRequest) Reply {
	user := r.LastUser()
	var tools []ModelMessage // tool results after the last user message
	for i := len(r.Messages) - 1; i >= 0 && r.Messages[i].Role != "user"; i-- {
		if r.Messages[i].Role == "tool" {
			tools = append([]ModelMessage{r.Messages[i]}, tools...)
		}
	}
	switch {
	case strings.HasPrefix(user, "PROBE_EDIT"):
		switch len(tools) {
		case 0:
			return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: `{"action":"get"}`}}}
		case 1:
			got := gjson.Parse(tools[0].Text())
			p.mu.Lock()
			p.boardRead = got.Get("content")
			p.mu.Unlock()
			content := map[string]any{}
			_ = json.Unmarshal([]byte(got.Get("content").Raw), &content)
			content["title"] = "Probe Title"
			args, _ := json.Marshal(map[string]any{"action": "put", "expectedRevision": got.Get("revision").Int(), "content": content})
			return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: string(args)}}}
		}
		return Reply{Text: "edited"}
	case strings.HasPrefix(user, "PROBE_CONFLICT"):
		if len(tools) == 0 {
			p.mu.Lock()
			content := p.boardRead.Raw
			p.mu.Unlock()
			return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: `{"action":"put","expectedRevision":1,"content":` + content + `}`}}}
		}
		return Reply{Text: "conflict seen"}
	case strings.HasPrefix(user, "PROBE_BASH"):
		if len(tools) == 0 {
			return Reply{ToolCalls: []ToolCall{{Name: "bash", Arguments: `{"command":"echo hi"}`}}}
		}
		return Reply{Text: "bash result seen"}
	case strings.HasPrefix(user, "PROBE_FAIL"):
		return Reply{Status: 400, Error: "scripted failure"}
	case strings.HasPrefix(user, "PROBE_SLOW"):
		return Reply{Text: "a slow reply that streams for a while", Chunks: 4, Hold: p.currentHold()}
	case strings.HasPrefix(user, "PROBE_BROWSER"):
		return Reply{Thinking: "private thoughts", Text: "browser reply text", Chunks: 2, Hold: p.currentHold()}
	}
	return Reply{Text: "reply to " + user}
}

// ---- one connection seen from the browser side ----

type teleConn struct {
	base    string // http://127.0.0.1:<port>
	port    string
	binding string
	invite  string
	cap     string
	hostPID int
	epoch   string
	client  *http.Client
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

// waitView polls the chat status until cond holds.
func (c *teleConn) waitView(t *testing.T, what string, cond func(v gjson.Result) bool) gjson.Result {
	t.Helper()
	var v gjson.Result
	waitUntil(t, 20*time.Second, what+" in the chat view", func() bool {
		v = c.status(t)
		return cond(v)
	})
	return v
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

// connect runs /tele demo while idle and returns the connection the notify describes.
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

// pair redeems the invitation like the board page does.
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
}

// assertHostGone waits until the host process is gone and its port is closed.
func (p *probe) assertHostGone(t *testing.T, c *teleConn) {
	t.Helper()
	waitUntil(t, 10*time.Second, "the tele host process to exit", func() bool { return !alive(c.hostPID) })
	waitUntil(t, 5*time.Second, "the port to close", func() bool { return portClosed(c.port) })
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

// ---- the probe steps ----

func runPiProbe(t *testing.T, line piLine, mode string, start func(p *probe) *Pi) {
	p := &probe{t: t, line: line, mode: mode, start: time.Now()}
	defer p.finish(mode)
	bin := teleBinary(t)
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		t.Fatal(err)
	}
	p.teleBin = real
	p.fm = StartFakeModel(t)
	p.fm.Script(p.model)
	p.pi = start(p)
	pi := p.pi
	var c *teleConn
	firstSession := pi.SessionFile()
	t.Cleanup(func() {
		if h := p.currentHold(); h != nil {
			select {
			case <-h:
			default:
				close(h)
			}
		}
	})

	p.step("commands-and-flags", func(t *testing.T) string {
		cmds := pi.Command(map[string]any{"type": "get_commands"})
		n := 0
		for _, c := range cmds.Get("data.commands").Array() {
			if c.Get("name").String() == "tele" {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("want exactly one /tele command, got %d", n)
		}
		if errs := pi.ExtensionErrors(0); len(errs) > 0 {
			t.Fatalf("extension errors at start: %v", errs)
		}
		return "one /tele command; pi started with --tele-port 0 --tele-data"
	})

	p.step("busy-refused", func(t *testing.T) string {
		hold := p.newHold()
		from := pi.Mark()
		n := p.fm.Count()
		pi.Prompt("PROBE_SLOW while idle")
		pi.WaitType(from, "message_update")
		p.defaultTool = p.fm.Request(n + 1).Tools
		mark := pi.Mark()
		pi.Prompt("/tele " + board)
		msg := pi.WaitNotify(mark, "tele:")
		if !strings.Contains(msg, "busy") {
			t.Errorf("refusal does not say why: %q", msg)
		}
		if inviteRe.MatchString(msg) {
			t.Errorf("an invitation while busy")
		}
		if pids := childrenOf(pi.PID(), p.teleBin); len(pids) != 0 {
			t.Errorf("tele host started while busy: %v", pids)
		}
		if _, err := os.Stat(pi.DataDir); !os.IsNotExist(err) {
			t.Errorf("data directory created while busy (err %v)", err)
		}
		close(hold)
		pi.WaitType(from, "agent_end")
		if slices.Contains(p.defaultTool, "tele_board") || len(p.defaultTool) == 0 {
			t.Errorf("tools before /tele: %v", p.defaultTool)
		}
		return fmt.Sprintf("refused with a notify while streaming; no process, no data dir; tools before /tele %v", p.defaultTool)
	})

	p.step("connect", func(t *testing.T) string {
		c = p.connect(t)
		code, v := c.request(t, "GET", "/api/boards/"+board, nil)
		if code != 200 || v.Get("id").String() != board || v.Get("revision").Int() != 1 {
			t.Fatalf("board over HTTP: %d %s", code, v.Raw)
		}
		if _, err := os.Stat(filepath.Join(pi.DataDir, "boards", board, "1.json")); err != nil {
			t.Fatalf("board file: %v", err)
		}
		code, v = c.request(t, "GET", "/api/capabilities", nil)
		if code != 200 || !v.Get("chat").Bool() {
			t.Errorf("capabilities: %d %s", code, v.Raw)
		}
		if strings.Contains(v.Raw, c.cap) || strings.Contains(v.Raw, c.invite) {
			t.Error("a secret in /api/capabilities")
		}
		return "notify carries http://127.0.0.1:<port>/b/demo#binding&invite (no capability); board demo revision 1 on disk and over HTTP; one tele host child"
	})

	p.step("tool-gate-and-round-trip", func(t *testing.T) string {
		n := p.fm.Count()
		pi.PromptAndWait("PROBE_EDIT set the title")
		reqs := p.fm.Requests()[n:]
		if len(reqs) != 3 {
			t.Fatalf("want 3 model requests (get, put, text), got %d", len(reqs))
		}
		for _, r := range reqs {
			if !slices.Equal(r.Tools, []string{"tele_board"}) {
				t.Fatalf("request %d offered tools %v, want only tele_board", r.N, r.Tools)
			}
		}
		got := gjson.Parse(reqs[1].Last().Text())
		if got.Get("id").String() != board || got.Get("revision").Int() != 1 || !got.Get("content.title").Exists() {
			t.Fatalf("get result: %.300s", reqs[1].Last().Text())
		}
		put := gjson.Parse(reqs[2].Last().Text())
		if put.Get("revision").Int() != 2 || put.Get("content.title").String() != "Probe Title" {
			t.Fatalf("put result: %.300s", reqs[2].Last().Text())
		}
		for _, r := range reqs {
			if strings.Contains(string(r.Body), c.cap) {
				t.Fatal("the capability reached the model")
			}
		}
		disk, err := os.ReadFile(filepath.Join(pi.DataDir, "boards", board, "2.json"))
		if err != nil {
			t.Fatal(err)
		}
		if d := gjson.ParseBytes(disk); d.Get("revision").Int() != 2 || d.Get("content.title").String() != "Probe Title" || d.Get("author").String() != "pi" {
			t.Fatalf("board file after put: %.300s", disk)
		}
		code, v := c.request(t, "GET", "/api/boards/"+board, nil)
		if code != 200 || v.Get("revision").Int() != 2 || v.Get("content.title").String() != "Probe Title" {
			t.Fatalf("board over HTTP after put: %d %.300s", code, v.Raw)
		}
		return "model saw only tele_board; get then put (expectedRevision 1) made revision 2, on disk and over HTTP"
	})

	p.step("blocked-tool", func(t *testing.T) string {
		n := p.fm.Count()
		pi.PromptAndWait("PROBE_BASH try a shell")
		r := p.fm.WaitCount(t, n+2, 10*time.Second)
		if r.Last().Role != "tool" || !strings.Contains(r.Last().Text(), "not found") && !strings.Contains(r.Last().Text(), "Only tele_board") {
			t.Fatalf("bash call answered %q", r.Last().Text())
		}
		return "a bash call while connected fails: " + r.Last().Text()
	})

	p.step("conflict-is-a-tool-error", func(t *testing.T) string {
		n := p.fm.Count()
		pi.PromptAndWait("PROBE_CONFLICT put a stale revision")
		r := p.fm.WaitCount(t, n+2, 10*time.Second)
		msg := r.Last().Text()
		if r.Last().Role != "tool" || !strings.Contains(msg, "revision_conflict") || !strings.Contains(msg, "currentRevision") || !strings.Contains(msg, "2") {
			t.Fatalf("conflict reached the model as %q", msg)
		}
		// The session records the tool result as an error.
		msgs := pi.Command(map[string]any{"type": "get_messages"}).Get("data.messages").Array()
		var last gjson.Result
		for _, m := range msgs {
			if m.Get("role").String() == "toolResult" {
				last = m
			}
		}
		if !last.Get("isError").Bool() {
			t.Fatalf("the failed put is not isError: %.300s", last.Raw)
		}
		disk, err := os.ReadFile(newestRevisionFile(t, pi.DataDir, board))
		if err != nil {
			t.Fatal(err)
		}
		if gjson.GetBytes(disk, "revision").Int() != 2 {
			t.Fatal("a conflicting put changed the board")
		}
		return "stale put → isError tool result naming revision_conflict and currentRevision 2; board unchanged"
	})

	p.step("pair", func(t *testing.T) string {
		// Before pairing, chat routes refuse.
		if code, _ := c.request(t, "GET", "/api/chat/"+c.binding+"/status", nil); code != 401 {
			t.Errorf("status before pairing: %d, want 401", code)
		}
		// A foreign Origin is refused.
		req, _ := http.NewRequest("POST", c.base+"/api/chat/pair", strings.NewReader(`{"binding":"`+c.binding+`","invitation":"`+c.invite+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", "http://evil.example")
		if resp, err := c.client.Do(req); err != nil || resp.StatusCode != 403 {
			t.Fatalf("pair with a foreign Origin: %v %v", err, resp)
		} else {
			resp.Body.Close()
		}
		p.pair(t, c)
		if code, v := c.request(t, "POST", "/api/chat/pair", map[string]any{"binding": c.binding, "invitation": c.invite}); code != 403 || v.Get("error.code").String() != "invitation_invalid" {
			t.Errorf("second redemption: %d %s", code, v.Raw)
		}
		v := c.status(t)
		if v.Get("status").String() != "idle" || v.Get("epoch").String() != c.epoch {
			t.Fatalf("view after pairing: %s", v.Raw)
		}
		return "exact Origin + JSON pairs once (cookie set); a second redemption is invitation_invalid; foreign Origin 403"
	})

	const browserText = "PROBE_BROWSER hello from the page"
	p.step("browser-send", func(t *testing.T) string {
		hold := p.newHold()
		n := p.fm.Count()
		code, v := c.send(t, browserText)
		if code != 202 || v.Get("status").String() != "submitted" {
			t.Fatalf("send: %d %s", code, v.Raw)
		}
		r := p.fm.WaitCount(t, n+1, 10*time.Second)
		if r.LastUser() != browserText {
			t.Fatalf("the model got %q", r.LastUser())
		}
		c.waitView(t, "input-observed", func(v gjson.Result) bool { return v.Get("notice").String() == "input-observed" })
		close(hold)
		v = c.waitView(t, "the reply", func(v gjson.Result) bool {
			return v.Get("status").String() == "idle" && slices.Contains(assistantTexts(v), "browser reply text")
		})
		if strings.Contains(v.Raw, "private thoughts") {
			t.Error("thinking reached the view")
		}
		var users []string
		for _, it := range v.Get("items").Array() {
			if it.Get("role").String() == "user" {
				users = append(users, it.Get("text").String())
			}
		}
		if !slices.Contains(users, browserText) {
			t.Errorf("the view lacks the sent text: %v", users)
		}
		seen := 0
		for _, r := range p.fm.Requests() {
			if r.LastUser() == browserText {
				seen++
			}
		}
		if seen != 1 {
			t.Errorf("the text reached the model %d times", seen)
		}
		file := p.sessionFileWith(t, browserText)
		if file == "" {
			t.Fatal("the text is in no session file under the agent dir")
		}
		if cur := pi.SessionFile(); cur != file {
			t.Errorf("found in %s, but the session is %s", file, cur)
		}
		return "202 submitted; model got the text once; view showed input-observed, then the reply; in the session file"
	})

	var abortedRun string
	p.step("browser-abort", func(t *testing.T) string {
		hold := p.newHold()
		defer close(hold)
		n := p.fm.Count()
		if code, v := c.send(t, "PROBE_SLOW stop me"); code != 202 {
			t.Fatalf("send: %d %s", code, v.Raw)
		}
		r := p.fm.WaitCount(t, n+1, 10*time.Second)
		v := c.waitView(t, "a running run", func(v gjson.Result) bool {
			return v.Get("status").String() == "running" && v.Get("runId").String() != ""
		})
		abortedRun = v.Get("runId").String()
		code, a := c.abort(t, abortedRun)
		if code != 202 || a.Get("status").String() != "stop-requested" {
			t.Fatalf("abort: %d %s", code, a.Raw)
		}
		c.waitView(t, "reply-aborted", func(v gjson.Result) bool {
			return v.Get("status").String() == "idle" && hasNotice(v, "reply-aborted")
		})
		if !p.fm.WaitFinished(t, r, 10*time.Second) {
			t.Error("the model stream was not cut")
		}
		code, a = c.abort(t, abortedRun)
		if code != 409 || a.Get("error.code").String() != "stale_run" {
			t.Fatalf("abort of the previous run: %d %s", code, a.Raw)
		}
		return "abort of the running reply → reply-aborted notice, model stream cut; abort of that run again → 409 stale_run"
	})

	p.step("model-failure", func(t *testing.T) string {
		v := c.status(t)
		before := v.Get("idleVersion").Int()
		if code, v := c.send(t, "PROBE_FAIL this request fails"); code != 202 {
			t.Fatalf("send: %d %s", code, v.Raw)
		}
		v = c.waitView(t, "model-failed", func(v gjson.Result) bool {
			return v.Get("status").String() == "idle" && hasNotice(v, "model-failed") && v.Get("idleVersion").Int() > before
		})
		if strings.Contains(v.Raw, "scripted failure") {
			t.Error("the error detail reached the view")
		}
		return "HTTP 400 from the model → model-failed notice, settled (idleVersion+1), no error text in the view"
	})

	p.step("terminal-prompt", func(t *testing.T) string {
		pi.Prompt("/probe prompt open")
		c.waitView(t, "terminal-prompt", func(v gjson.Result) bool { return v.Get("status").String() == "terminal-prompt" })
		if code, v := c.send(t, "while a dialog is open"); code != 409 || v.Get("error.code").String() != "terminal_prompt" {
			t.Errorf("send during a dialog: %d %s", code, v.Raw)
		}
		pi.Prompt("/probe prompt close")
		c.waitView(t, "idle again", func(v gjson.Result) bool { return v.Get("status").String() == "idle" })
		return "tele:terminal-prompt on pi.events → status terminal-prompt, send 409 terminal_prompt"
	})

	p.step("late-input-and-off", func(t *testing.T) string {
		n := p.fm.Count()
		from := pi.Mark()
		if code, v := c.send(t, "PROBE_HOLD late input"); code != 202 {
			t.Fatalf("send: %d %s", code, v.Raw)
		}
		pi.WaitNotify(from, "probe: holding input")
		oldCookieClient := c.client
		pi.Prompt("/tele off")
		p.assertHostGone(t, c)
		pi.Prompt("/probe release")
		tools := p.lastRequestTools(t, "PROBE_AFTER after the late input")
		for _, r := range p.fm.Requests()[n:] {
			for _, u := range r.UserTexts() {
				if strings.Contains(u, "PROBE_HOLD") {
					t.Fatalf("the late input reached the model (request %d)", r.N)
				}
			}
		}
		if got := p.fm.Count() - n; got != 1 {
			t.Errorf("%d model requests since the late send, want 1 (the later prompt)", got)
		}
		// Dropped in the input hook (not merely aborted later): it is not even in the session.
		if msgs := pi.Command(map[string]any{"type": "get_messages"}).Get("data.messages").Raw; strings.Contains(msgs, "PROBE_HOLD") {
			t.Error("the late input is in the session history")
		}
		if !slices.Equal(tools, p.defaultTool) {
			t.Errorf("tools after /tele off: %v, want %v", tools, p.defaultTool)
		}
		if _, err := oldCookieClient.Get(c.base + "/api/chat/" + c.binding + "/status"); err == nil {
			t.Error("the old host still answers")
		}
		return "held input released after /tele off: zero model requests; host exited, port closed; previous tools back"
	})

	p.step("reconnect-old-cookie", func(t *testing.T) string {
		old := c
		c = p.connect(t)
		if c.binding == old.binding || c.invite == old.invite {
			t.Fatal("the new connection reuses the old binding or invitation")
		}
		// The old cookie (path /api/chat/<old binding>) and the old invitation do not work on the new host.
		req, _ := http.NewRequest("GET", c.base+"/api/chat/"+old.binding+"/status", nil)
		u, _ := url.Parse(old.base + "/api/chat/" + old.binding + "/status")
		for _, ck := range old.client.Jar.Cookies(u) {
			req.AddCookie(ck)
		}
		resp, err := c.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 401 && resp.StatusCode != 404 {
			t.Errorf("old cookie on the new host: %d", resp.StatusCode)
		}
		if code, _ := c.request(t, "POST", "/api/chat/pair", map[string]any{"binding": c.binding, "invitation": old.invite}); code != 403 {
			t.Errorf("old invitation on the new binding: %d", code)
		}
		// /tele demo again mints a fresh invitation for the same binding; the earlier one dies.
		from := pi.Mark()
		pi.Prompt("/tele " + board)
		u2, _ := url.Parse(inviteRe.FindString(pi.WaitNotify(from, "one-time link")))
		frag, _ := url.ParseQuery(u2.Fragment)
		p.secret(u2.String(), frag.Get("invite"))
		if frag.Get("binding") != c.binding || frag.Get("invite") == c.invite {
			t.Fatalf("/tele %s again: binding changed or the same invitation", board)
		}
		if code, _ := c.request(t, "POST", "/api/chat/pair", map[string]any{"binding": c.binding, "invitation": c.invite}); code != 403 {
			t.Errorf("the superseded invitation still pairs: %d", code)
		}
		c.invite = frag.Get("invite")
		p.pair(t, c)
		from = pi.Mark()
		pi.Prompt("/tele other-board")
		if msg := pi.WaitNotify(from, "tele:"); !strings.Contains(msg, "/tele off") {
			t.Errorf("another board while connected: %q", msg)
		}
		return "new binding; old cookie 401/404 and old invitation 403 on the new host; /tele demo again → fresh invitation, old one dead; another board refused"
	})

	if p.secondLine {
		p.step("late-input-second-line", func(t *testing.T) string {
			n := p.fm.Count()
			from := pi.Mark()
			if code, v := c.send(t, "PROBE_AFTERHOLD passed the input hook"); code != 202 {
				t.Fatalf("send: %d %s", code, v.Raw)
			}
			pi.WaitNotify(from, "probe-after: holding input")
			c.waitView(t, "input-observed", func(v gjson.Result) bool { return v.Get("notice").String() == "input-observed" })
			pi.Prompt("/tele off")
			p.assertHostGone(t, c)
			mark := pi.Mark()
			pi.Prompt("/probe-after")
			end := pi.WaitType(mark, "agent_end")
			msgs := end.Get("messages").Array()
			if len(msgs) == 0 || msgs[len(msgs)-1].Get("stopReason").String() != "aborted" {
				t.Fatalf("the stale run did not end aborted: %.400s", end.Raw)
			}
			if got := p.fm.Count() - n; got != 0 {
				t.Fatalf("%d model requests for the stale run", got)
			}
			c = p.connect(t)
			p.pair(t, c)
			return "an input that passed the bridge's hook before /tele off is aborted at agent_start: zero model requests"
		})
	}

	p.step("session-replacement-revokes", func(t *testing.T) string {
		var done []string
		replace := []struct {
			name string
			cmd  func() map[string]any
		}{
			{"new_session", func() map[string]any { return map[string]any{"type": "new_session"} }},
			{"switch_session", func() map[string]any { return map[string]any{"type": "switch_session", "sessionPath": firstSession} }},
			{"fork", func() map[string]any {
				fm := pi.Command(map[string]any{"type": "get_fork_messages"}).Get("data.messages").Array()
				if len(fm) == 0 {
					t.Fatal("nothing to fork from")
				}
				return map[string]any{"type": "fork", "entryId": fm[len(fm)-1].Get("entryId").String()}
			}},
			{"tree", nil},
		}
		for i, r := range replace {
			if i > 0 {
				c = p.connect(t)
				p.pair(t, c)
			}
			if r.cmd == nil {
				from := pi.Mark()
				pi.Prompt("/probe tree")
				pi.WaitNotify(from, "session tree moved")
			} else {
				if res := pi.Command(r.cmd()); res.Get("data.cancelled").Bool() {
					t.Fatalf("%s was cancelled", r.name)
				}
			}
			p.assertHostGone(t, c)
			if _, err := c.client.Get(c.base + "/api/chat/" + c.binding + "/status"); err == nil {
				t.Errorf("%s: the cookie still reaches a server", r.name)
			}
			done = append(done, r.name)
		}
		// After the tree move, the tool set is back (the session stays).
		if tools := p.lastRequestTools(t, "PROBE_AFTER tree"); !slices.Equal(tools, p.defaultTool) {
			t.Errorf("tools after the tree move: %v", tools)
		}
		return "revoked, host exited, port closed after " + strings.Join(done, ", ")
	})

	p.step("host-death", func(t *testing.T) string {
		c = p.connect(t)
		from := pi.Mark()
		host, err := os.FindProcess(c.hostPID)
		if err != nil {
			t.Fatal(err)
		}
		if err := host.Kill(); err != nil {
			t.Fatal(err)
		}
		msg := pi.WaitNotify(from, "stopped")
		if strings.Contains(msg, "\n") {
			t.Errorf("more than one line: %q", msg)
		}
		p.assertHostGone(t, c)
		if tools := p.lastRequestTools(t, "PROBE_AFTER host death"); !slices.Equal(tools, p.defaultTool) {
			t.Errorf("tools after the host died: %v", tools)
		}
		if n := len(pi.Notifies(from)); n != 1 {
			t.Errorf("%d notifies for one host death", n)
		}
		return "SIGKILL of the host → one notify line, tools restored, nothing running"
	})

	p.step("bad-board-fatal", func(t *testing.T) string {
		from := pi.Mark()
		pi.Prompt("/tele bad.board!")
		msg := pi.WaitNotify(from, "tele:")
		if inviteRe.MatchString(msg) {
			t.Fatalf("a bad board id connected")
		}
		if pids := childrenOf(pi.PID(), p.teleBin); len(pids) != 0 {
			t.Fatalf("host left running after a fatal start: %v", pids)
		}
		if tools := p.lastRequestTools(t, "PROBE_AFTER bad board"); !slices.Equal(tools, p.defaultTool) {
			t.Errorf("tools after a failed start: %v", tools)
		}
		return "host fatal → one notify (" + msg + "); nothing running; tools untouched"
	})

	p.step("quit-revokes", func(t *testing.T) string {
		c = p.connect(t)
		if err := pi.Quit(); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, 10*time.Second, "the host to exit after pi quit", func() bool { return !alive(c.hostPID) })
		waitUntil(t, 5*time.Second, "the port to close", func() bool { return portClosed(c.port) })
		if left := processesMentioning(pi.DataDir); len(left) != 0 {
			t.Fatalf("processes left: %v", left)
		}
		return "pi exits 0 on stdin EOF; host gone, port closed, no process names the data dir"
	})
	if !pi.Exited() {
		pi.Quit()
	}
	if errs := pi.ExtensionErrors(0); len(errs) > 0 {
		t.Errorf("extension errors: %v", errs)
	}
}

// writeProbeExtension writes the test extension into dir and returns its path.
func writeProbeExtension(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "probe-ext.js")
	if err := os.WriteFile(path, []byte(probeExtension), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// teleCmd runs the built tele binary with a clean environment.
func teleCmd(t *testing.T, dir string, env []string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(teleBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tele %v: %v\n%s", args, err, stderr.String())
	}
	return out
}

// TestPiProbeExtensionFlag: the bridge from `tele pi print`, loaded with -e, on each Pi line.
func TestPiProbeExtensionFlag(t *testing.T) {
	forEachPi(t, func(t *testing.T, line piLine) {
		requirePi(t, line)
		runPiProbe(t, line, "extension-flag", func(p *probe) *Pi {
			home := t.TempDir()
			bridge := filepath.Join(home, "bridge", "tele.js")
			os.MkdirAll(filepath.Dir(bridge), 0o700)
			src := teleCmd(t, home, []string{"HOME=" + home}, "pi", "print")
			if err := os.WriteFile(bridge, src, 0o644); err != nil {
				t.Fatal(err)
			}
			// The probe extension loads first, so its input hook runs before the bridge's; the second one after.
			after := filepath.Join(home, "probe-after.js")
			if err := os.WriteFile(after, []byte(probeAfterExtension), 0o644); err != nil {
				t.Fatal(err)
			}
			p.secondLine = true
			return StartPi(t, p.fm, PiOptions{Line: line, Home: home, Extensions: []string{writeProbeExtension(t, home), bridge, after}})
		})
	})
}

// TestPiProbeProjectInstall: the bridge installed by `tele pi install --project` and discovered by Pi in
// the project's .pi/extensions, on each Pi line (Pi 1.x loads it only in a trusted project: --approve).
func TestPiProbeProjectInstall(t *testing.T) {
	forEachPi(t, func(t *testing.T, line piLine) {
		requirePi(t, line)
		runPiProbe(t, line, "project-install", func(p *probe) *Pi {
			home := t.TempDir()
			project := filepath.Join(home, "project")
			os.MkdirAll(project, 0o700)
			out := teleCmd(t, project, []string{"HOME=" + home}, "pi", "install", "--project")
			want := filepath.Join(project, ".pi", "extensions", "tele.js")
			if strings.TrimSpace(string(out)) != want {
				t.Fatalf("tele pi install --project printed %q, want %q", out, want)
			}
			return StartPi(t, p.fm, PiOptions{Line: line, Home: home, Cwd: project, Trust: true, Extensions: []string{writeProbeExtension(t, home)}})
		})
	})
}

// TestPiGlobalInstall: `tele pi install` puts the bridge in <agent dir>/extensions, the agent dir named by
// PI_CODING_AGENT_DIR as Pi reads it; each Pi line discovers it there (no -e) and /tele connects.
func TestPiGlobalInstall(t *testing.T) {
	forEachPi(t, func(t *testing.T, line piLine) {
		requirePi(t, line)
		p := &probe{t: t, line: line, mode: "global-install", start: time.Now()}
		defer p.finish("global-install")
		bin, _ := filepath.EvalSymlinks(teleBinary(t))
		p.teleBin = bin
		p.fm = StartFakeModel(t)
		home := t.TempDir()
		agent := filepath.Join(home, "agent") // where StartPi points PI_CODING_AGENT_DIR
		out := teleCmd(t, home, []string{"HOME=" + home, "PI_CODING_AGENT_DIR=" + agent}, "pi", "install")
		if want := filepath.Join(agent, "extensions", "tele.js"); strings.TrimSpace(string(out)) != want {
			t.Fatalf("tele pi install printed %q, want %q", out, want)
		}
		p.pi = StartPi(t, p.fm, PiOptions{Line: line, Home: home})
		p.step("discovered-in-the-agent-dir", func(t *testing.T) string {
			n := 0
			for _, c := range p.pi.Command(map[string]any{"type": "get_commands"}).Get("data.commands").Array() {
				if c.Get("name").String() == "tele" {
					n++
				}
			}
			if n != 1 {
				t.Fatalf("%d /tele commands", n)
			}
			c := p.connect(t)
			if err := p.pi.Quit(); err != nil {
				t.Fatal(err)
			}
			waitUntil(t, 10*time.Second, "the host to exit", func() bool { return !alive(c.hostPID) })
			return "one /tele from $PI_CODING_AGENT_DIR/extensions/tele.js; /tele demo connected; quit stopped the host"
		})
	})
}

// TestPiBridgeLoadedTwice: two copies of the bridge in one Pi — one registers, the other says so once.
func TestPiBridgeLoadedTwice(t *testing.T) {
	forEachPi(t, testPiBridgeLoadedTwice)
}

func testPiBridgeLoadedTwice(t *testing.T, line piLine) {
	requirePi(t, line)
	p := &probe{t: t, line: line, mode: "loaded-twice", start: time.Now()}
	defer p.finish("loaded-twice")
	bin, _ := filepath.EvalSymlinks(teleBinary(t))
	p.teleBin = bin
	p.fm = StartFakeModel(t)
	home := t.TempDir()
	src := teleCmd(t, home, []string{"HOME=" + home}, "pi", "print")
	var paths []string
	for _, d := range []string{"a", "b"} {
		path := filepath.Join(home, d, "tele.js")
		os.MkdirAll(filepath.Dir(path), 0o700)
		os.WriteFile(path, src, 0o644)
		paths = append(paths, path)
	}
	p.pi = StartPi(t, p.fm, PiOptions{Line: line, Home: home, Extensions: paths})
	p.step("second-copy-refused", func(t *testing.T) string {
		msgs := p.pi.Notifies(0)
		if len(msgs) != 1 || !strings.Contains(msgs[0], "loaded twice") {
			t.Fatalf("startup notifies %q, want one saying the bridge is loaded twice", msgs)
		}
		n := 0
		for _, c := range p.pi.Command(map[string]any{"type": "get_commands"}).Get("data.commands").Array() {
			if c.Get("name").String() == "tele" {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%d /tele commands", n)
		}
		c := p.connect(t)
		if err := p.pi.Quit(); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, 10*time.Second, "the host to exit", func() bool { return !alive(c.hostPID) })
		return "one notify at session_start; one /tele command; connecting works"
	})
}
