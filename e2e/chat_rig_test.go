package e2e

// The rig of TestChatPanel: the fake model scripted by the inputs, Pi with the bridge and the test
// extension, the paired tab, the report, and the board as another client sees it over HTTP.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tidwall/gjson"
)

const (
	chatBoardID = "session-tune"
	// The three inputs typed into the page. The first builds history (and holds markup that must stay
	// text); the second asks for a board change that only that history explains; the third is stopped.
	chatInput1 = "Remember this chord for later: Ebmaj7. <b>not bold</b> & <i>plain</i>"
	chatInput2 = "Now put the chord I asked you to remember into the first bar of the board."
	chatInput3 = "Tell me a long story about this tune."
	chatReply1 = "Noted: Ebmaj7 is saved for later."
	chatReply2 = "Done: bar 1 is now Ebmaj7."
	chatDraft  = "draft: keep me while Pi streams"
)

var (
	chatInviteRe  = regexp.MustCompile(`http://127\.0\.0\.1:\d+/b/[A-Za-z0-9_-]+#\S+`)
	chatHistoryRe = regexp.MustCompile(`Remember this chord for later: ([A-G][#b]?[a-z0-9#]*)\.`)
	chatUUIDRe    = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	chatStory     = strings.Repeat("The tune walks down from Ebmaj7, and the band follows. ", 40)
)

// chatProbeExtension is the test extension loaded before the bridge: `/chatprobe prompt open|close`
// says on Pi's shared bus that a terminal dialog opened or closed (what a confirming extension does).
const chatProbeExtension = `export default function (pi) {
	pi.registerCommand("chatprobe", {
		description: "chat panel test controls (tests only)",
		handler: async (args, ctx) => {
			const [verb, arg] = String(args).trim().split(/\s+/);
			if (verb === "prompt") {
				pi.events.emit("tele:terminal-prompt", { open: arg === "open" });
				ctx.ui.notify("chatprobe: prompt " + arg, "info");
			} else if (verb === "confirm") {
				const ok = await ctx.ui.confirm("Tele chat probe", "a dialog of Pi's own");
				ctx.ui.notify("chatprobe: confirm closed " + ok, "info");
			}
		},
	});
}
`

// chatRecorderScript runs before the page's scripts: it records every fetch the page makes (URL,
// method, the command type and id, the key names of the body — never a value that could be a secret)
// and location.hash at that moment, and whether the first document URL carried an invitation.
const chatRecorderScript = `(() => {
  const rec = { fetches: [], hadInvite: location.hash.includes('invite=') };
  Object.defineProperty(window, '__chatRec', { value: rec });
  const orig = window.fetch;
  window.fetch = function (input, init) {
    let body = null;
    try { body = init && typeof init.body === 'string' ? JSON.parse(init.body) : null; } catch (e) { body = null; }
    rec.fetches.push({
      url: String((input && input.url) || input), method: (init && init.method) || 'GET', hash: location.hash,
      type: (body && body.type) || '', id: (body && body.id) || '', keys: body ? Object.keys(body).sort().join(',') : '',
    });
    return orig.apply(this, arguments);
  };
})();`

// ---- the rig: fake model, Pi with the bridge, one connection ----

type chatRig struct {
	t        *testing.T // the whole panel test: the report and everything that lives as long as it
	line     piLine
	start    time.Time
	fm       *FakeModel
	pi       *Pi
	browser  *Browser
	tab      *Page  // the paired desktop tab, open throughout
	base     string // http://127.0.0.1:<port> of the tele host
	binding  string
	invite   string
	inviteTo string // the whole invitation URL
	cap      string
	secrets  []string
	report   chatReport

	mu           sync.Mutex
	historyChord string // what the model found in the history for input 2
}

type chatReport struct {
	Pi          string     `json:"pi"`
	Node        string     `json:"node"`
	Native      []string   `json:"native"` // Pi events the bridge took as they are; it imitated the rest
	Chromium    string     `json:"chromium"`
	Board       string     `json:"board"`
	UpdatedAt   string     `json:"updatedAt"`
	Seconds     float64    `json:"seconds"`
	OK          bool       `json:"ok"`
	Steps       []chatStep `json:"steps"`
	Screenshots []string   `json:"screenshots"`
}

type chatStep struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Ms     int64  `json:"ms"`
	Detail string `json:"detail,omitempty"`
}

func startChatRig(t *testing.T, line piLine) *chatRig {
	t.Helper()
	requirePi(t, line)
	requireTool(t, "Debian chromium", chromiumPath)
	r := &chatRig{t: t, line: line, start: time.Now(), report: chatReport{Board: chatBoardID}}
	r.fm = StartFakeModel(t)
	r.fm.Script(r.model)
	home := t.TempDir()
	bridge := filepath.Join(home, "bridge", "tele.js")
	if err := os.MkdirAll(filepath.Dir(bridge), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bridge, teleCmd(t, home, []string{"HOME=" + home}, "pi", "print"), 0o644); err != nil {
		t.Fatal(err)
	}
	ext := filepath.Join(home, "chat-probe.js")
	if err := os.WriteFile(ext, []byte(chatProbeExtension), 0o644); err != nil {
		t.Fatal(err)
	}
	r.pi = StartPi(t, r.fm, PiOptions{Line: line, Home: home, Extensions: []string{ext, bridge}})
	from := r.pi.Mark()
	r.pi.Prompt("/tele " + chatBoardID)
	r.takeInvitation(t, r.pi.WaitNotify(from, "one-time link"))
	r.browser = newBrowser(t)
	r.tab = r.newChatTab(t, r.browser)
	return r
}

// takeInvitation parses the invitation URL of a notify and remembers its secrets (for the report check).
func (r *chatRig) takeInvitation(t testing.TB, msg string) {
	t.Helper()
	raw := chatInviteRe.FindString(msg)
	u, err := url.Parse(raw)
	if raw == "" || err != nil {
		t.Fatalf("no invitation URL in the notify")
	}
	frag, err := url.ParseQuery(u.Fragment)
	if err != nil {
		t.Fatal(err)
	}
	if r.binding != "" && frag.Get("binding") != r.binding {
		t.Fatalf("a new invitation for another binding")
	}
	r.base = "http://" + u.Host
	r.binding, r.invite, r.inviteTo = frag.Get("binding"), frag.Get("invite"), raw
	if u.Path != "/b/"+chatBoardID || r.binding == "" || r.invite == "" {
		t.Fatalf("the invitation URL has the wrong shape (path %q)", u.Path)
	}
	// Only one-time secrets in the link: the board's capability reaches the page in the pairing answer.
	capFile, err := os.ReadFile(filepath.Join(r.pi.DataDir, "caps", chatBoardID))
	if err != nil {
		t.Fatal(err)
	}
	r.cap = strings.TrimSpace(string(capFile))
	if len(frag) != 2 || strings.Contains(raw, "cap=") || strings.Contains(raw, r.cap) {
		t.Fatalf("the invitation URL carries more than binding and invitation: %d parameters", len(frag))
	}
	r.secrets = append(r.secrets, raw, r.invite, r.cap)
}

// model scripts the fake model by the last user message.
func (r *chatRig) model(req *ModelRequest) Reply {
	user := req.LastUser()
	var tools []ModelMessage // tool results after the last user message
	for i := len(req.Messages) - 1; i >= 0 && req.Messages[i].Role != "user"; i-- {
		if req.Messages[i].Role == "tool" {
			tools = append([]ModelMessage{req.Messages[i]}, tools...)
		}
	}
	switch user {
	case chatInput1:
		return Reply{Text: chatReply1, Chunks: 3, Every: 30 * time.Millisecond}
	case chatInput2:
		switch len(tools) {
		case 0:
			// The chord is only in the history: an earlier user message of this request.
			chord := ""
			for _, u := range req.UserTexts()[:len(req.UserTexts())-1] {
				if m := chatHistoryRe.FindStringSubmatch(u); m != nil {
					chord = m[1]
				}
			}
			r.mu.Lock()
			r.historyChord = chord
			r.mu.Unlock()
			if chord == "" {
				return Reply{Text: "I find no chord in our history."}
			}
			return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: `{"action":"get"}`}}}
		case 1:
			got := gjson.Parse(tools[0].Text())
			var content map[string]any
			if err := json.Unmarshal([]byte(got.Get("content").Raw), &content); err != nil {
				return Reply{Text: "the board could not be read"}
			}
			r.mu.Lock()
			chord := r.historyChord
			r.mu.Unlock()
			sections, _ := content["sections"].([]any)
			if len(sections) == 0 {
				return Reply{Text: "the board has no sections"}
			}
			first := sections[0].(map[string]any)
			bars, _ := first["bars"].([]any)
			if len(bars) == 0 {
				return Reply{Text: "the first section has no bars"}
			}
			bars[0] = []any{chord}
			args, _ := json.Marshal(map[string]any{"action": "put", "expectedRevision": got.Get("revision").Int(), "content": content})
			return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: string(args)}}}
		}
		return Reply{Text: chatReply2}
	case chatInput3:
		return Reply{Text: chatStory, Chunks: 400, Every: 60 * time.Millisecond}
	case chatFormInput:
		return formModel(tools)
	}
	return Reply{Text: "ok"}
}

// run runs one scenario as a subtest and records it for the report. The scenarios build on each
// other's state, so a fatal failure (a scenario that did not return) stops the whole test. While a
// scenario runs, the rig's Pi and the long-lived tab report their failures to it, not to the parent.
func (r *chatRig) run(name string, scenario func(*chatRig, *testing.T) string) {
	began := time.Now()
	var detail string
	returned := false
	ok := r.t.Run(name, func(t *testing.T) {
		r.pi.t, r.tab.t = t, t
		defer func() { r.pi.t, r.tab.t = r.t, r.t }()
		detail = scenario(r, t)
		returned = true
	})
	r.report.Steps = append(r.report.Steps, chatStep{Name: name, OK: ok, Ms: time.Since(began).Milliseconds(), Detail: detail})
	if !returned {
		r.t.FailNow()
	}
}

// shot writes what the viewport shows to .audit/chat/<name>.png: a full-page capture would resize the
// viewport and so misplace the panel, which sticks to the window.
func (r *chatRig) shot(p *Page, name string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot %s: %v", name, err)
	}
	dir := r.auditDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	r.report.Screenshots = append(r.report.Screenshots, name+".png")
}

// auditDir is .audit/chat/<pi line>/, where the screenshots and the report of that line's run go.
func (r *chatRig) auditDir() string {
	return filepath.Join(repoRoot(r.t), ".audit", "chat", r.line.Name())
}

// writeReport writes .audit/chat/<pi line>/panel-report.json, refusing to write anything that holds a secret.
func (r *chatRig) writeReport() {
	r.report.Pi = r.line.Package + "@" + r.line.Version()
	r.report.Node = r.line.NodeVersion()
	r.report.Native = r.line.Native
	if out, err := exec.Command(chromiumPath, "--version").Output(); err == nil {
		r.report.Chromium = strings.TrimSpace(string(out))
	}
	r.report.UpdatedAt = time.Now().UTC().Format(time.RFC3339)
	r.report.Seconds = time.Since(r.start).Round(time.Millisecond).Seconds()
	r.report.OK = !r.t.Failed()
	for _, s := range r.report.Steps {
		r.report.OK = r.report.OK && s.OK
	}
	b, err := json.MarshalIndent(r.report, "", "  ")
	if err != nil {
		r.t.Error(err)
		return
	}
	for _, s := range r.secrets {
		if s != "" && bytes.Contains(b, []byte(s)) {
			r.t.Errorf("the chat report would contain a secret; not written")
			return
		}
	}
	dir := r.auditDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.t.Error(err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, "panel-report.json"), append(b, '\n'), 0o644); err != nil {
		r.t.Error(err)
	}
}

// ---- board over HTTP (as another client would) ----

func (r *chatRig) getBoard(t testing.TB) boardDoc {
	t.Helper()
	var doc boardDoc
	if code := apiJSON(t, "GET", r.base+"/api/boards/"+chatBoardID, nil, nil, &doc); code != http.StatusOK {
		t.Fatalf("GET board: %d", code)
	}
	return doc
}

func (r *chatRig) putBoard(t testing.TB, rev int64, c boardContent) boardDoc {
	t.Helper()
	var doc boardDoc
	code := apiJSON(t, "PUT", r.base+"/api/boards/"+chatBoardID,
		map[string]string{"Authorization": "Bearer " + r.cap, "If-Match": fmt.Sprintf(`"%d"`, rev)}, c, &doc)
	if code != http.StatusOK {
		t.Fatalf("PUT board over revision %d: %d", rev, code)
	}
	return doc
}

func (r *chatRig) boardFileBytes(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(newestRevisionFile(t, r.pi.DataDir, chatBoardID))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sessionEntries reads the current session file (JSON lines).
func (r *chatRig) sessionEntries(t testing.TB, path string) []gjson.Result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []gjson.Result
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		out = append(out, gjson.ParseBytes(append([]byte(nil), sc.Bytes()...)))
	}
	return out
}

func userText(m gjson.Result) string {
	if s := m.Get("content"); s.Type == gjson.String {
		return s.String()
	}
	var b strings.Builder
	for _, part := range m.Get("content").Array() {
		if part.Get("type").String() == "text" {
			b.WriteString(part.Get("text").String())
		}
	}
	return b.String()
}
