package e2e

// The chat panel in the browser (issue 6, SPEC 11), end to end: the pinned Pi in RPC mode with the
// bridge from `tele pi print` (and a tiny test extension that can open a terminal dialog), `tele host`
// started by the bridge on port 0, the fake model, and a real headless Chromium on the board page. Three
// real inputs go from the page's message box; the session file, the tool calls and the board on the same
// page are checked. Screenshots of every state and a secret-free report go to .audit/chat/.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
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

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
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
	t        *testing.T
	start    time.Time
	fm       *FakeModel
	pi       *Pi
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

func startChatRig(t *testing.T) *chatRig {
	t.Helper()
	requirePi(t, piLines[0])
	requireTool(t, "Debian chromium", chromiumPath)
	r := &chatRig{t: t, start: time.Now(), report: chatReport{Board: chatBoardID}}
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
	r.pi = StartPi(t, r.fm, PiOptions{Line: piLines[0], Home: home, Extensions: []string{ext, bridge}})
	from := r.pi.Mark()
	r.pi.Prompt("/tele " + chatBoardID)
	r.takeInvitation(r.pi.WaitNotify(from, "one-time link"))
	return r
}

// takeInvitation parses the invitation URL of a notify and remembers its secrets (for the report check).
func (r *chatRig) takeInvitation(msg string) {
	t := r.t
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
	r.binding, r.invite, r.cap, r.inviteTo = frag.Get("binding"), frag.Get("invite"), frag.Get("cap"), raw
	if u.Path != "/b/"+chatBoardID || r.binding == "" || r.invite == "" || r.cap == "" {
		t.Fatalf("the invitation URL has the wrong shape (path %q)", u.Path)
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
	}
	return Reply{Text: "ok"}
}

// step runs one check, records it for the report and stops the test at a fatal failure.
func (r *chatRig) step(name string, fn func() string) {
	began := time.Now()
	failedBefore := r.t.Failed()
	ok := false
	var detail string
	defer func() {
		r.report.Steps = append(r.report.Steps, chatStep{Name: name, OK: ok && (failedBefore || !r.t.Failed()), Ms: time.Since(began).Milliseconds(), Detail: detail})
	}()
	detail = fn()
	ok = true
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
	dir := filepath.Join(repoRoot(p.t), ".audit", "chat")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	r.report.Screenshots = append(r.report.Screenshots, name+".png")
}

// writeReport writes .audit/chat/panel-report.json, refusing to write anything that holds a secret.
func (r *chatRig) writeReport() {
	r.report.Pi = piVersion()
	if out, err := exec.Command("node", "--version").Output(); err == nil {
		r.report.Node = strings.TrimSpace(string(out))
	}
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
	dir := filepath.Join(repoRoot(r.t), ".audit", "chat")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.t.Error(err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, "panel-report.json"), append(b, '\n'), 0o644); err != nil {
		r.t.Error(err)
	}
}

// ---- pages ----

// openChatPage opens url in a new tab of b with the fetch recorder installed, and waits for the board.
func (r *chatRig) openChatPage(b *Browser, target string, opts ...PageOption) *Page {
	r.t.Helper()
	p := b.newPage(r.t, opts...)
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: chatRecorderScript})
		return err
	}))
	p.do(chromedp.Navigate(target))
	waitBoardReady(p)
	return p
}

// closePage closes a tab at once (a profile holds at most six connections to one host; every board
// page keeps two streams open).
func closePage(p *Page) {
	_ = chromedp.Cancel(p.ctx)
}

func waitChatLive(p *Page) {
	p.t.Helper()
	p.waitJS(`document.getElementById('chat').dataset.conn === 'live' && document.getElementById('chat').dataset.paired === 'true' && !document.getElementById('chat').hidden`, "the chat panel is paired and live")
}

func waitChatIdle(p *Page) {
	p.t.Helper()
	p.waitJS(`document.getElementById('chat').dataset.conn === 'live' && document.getElementById('chat').dataset.status === 'idle'`, "the chat is idle")
}

type chatRow struct {
	Role   string `json:"role"`
	Text   string `json:"text"`
	Name   string `json:"name"`
	Status string `json:"status"`
	Code   string `json:"code"`
	Hidden bool   `json:"hidden"`
	Markup int    `json:"markup"` // element children of the text (must be 0: text is text)
	I18n   string `json:"i18n"`   // data-i18n on the text (must be empty for user and assistant rows)
}

const chatRowsJS = `[...document.querySelectorAll('#chat-items > li')].map((li) => {
  const text = li.querySelector('.chat-text') || li.querySelector('.chat-notice-text');
  return {
    role: li.dataset.role, text: text ? text.textContent : '', name: li.querySelector('.chat-tool-name')?.textContent || '',
    status: li.dataset.status || '', code: li.dataset.code || '', hidden: li.hidden,
    markup: text ? text.children.length : 0, i18n: (text && text.dataset.i18n) || '',
  };
})`

func chatRows(p *Page) []chatRow {
	p.t.Helper()
	return evalJS[[]chatRow](p, chatRowsJS)
}

// rowsAfter returns the rows after the last user row with text.
func rowsAfter(rows []chatRow, text string) []chatRow {
	for i := len(rows) - 1; i >= 0; i-- {
		if rows[i].Role == "user" && rows[i].Text == text {
			return rows[i+1:]
		}
	}
	return nil
}

// typeMessage clicks into the message box, types text as a user does and presses Enter.
func typeMessage(p *Page, text string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.ID("chat-input")))
	p.do(chromedp.KeyEvent(text))
	if v := evalJS[string](p, `document.getElementById('chat-input').value`); v != text {
		p.t.Fatalf("the message box holds %q after typing %q", v, text)
	}
	p.do(chromedp.KeyEvent(kb.Enter))
}

type chatFetch struct {
	URL    string `json:"url"`
	Method string `json:"method"`
	Hash   string `json:"hash"`
	Type   string `json:"type"`
	ID     string `json:"id"`
	Keys   string `json:"keys"`
}

func chatFetches(p *Page) []chatFetch {
	p.t.Helper()
	return evalJS[[]chatFetch](p, `window.__chatRec.fetches`)
}

func commandFetches(p *Page) []chatFetch {
	var out []chatFetch
	for _, f := range chatFetches(p) {
		if strings.HasSuffix(f.URL, "/command") {
			out = append(out, f)
		}
	}
	return out
}

// axName is the accessible name Chromium computes for the first element matching sel.
func axName(p *Page, sel string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS(sel)))
	if err != nil || len(nodes) == 0 {
		p.t.Fatalf("no node %s: %v", sel, err)
	}
	no := false
	res, err := chromedp.Call(ctx, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{BackendNodeID: nodes[0].BackendNodeID, FetchRelatives: &no})
	if err != nil {
		p.t.Fatalf("accessibility tree of %s: %v", sel, err)
	}
	for _, n := range res.Nodes {
		if n.BackendDOMNodeID == nodes[0].BackendNodeID && n.Name != nil {
			var s string
			_ = json.Unmarshal([]byte(n.Name.Value), &s)
			return s
		}
	}
	return ""
}

// switchLanguageScripted changes the header's select the way its change event does, without moving
// the focus (so a test can check that the switch itself leaves the message box alone).
func switchLanguageScripted(p *Page, loc string) {
	p.t.Helper()
	evalJS[chromedp.Void](p, fmt.Sprintf(`(() => { const s = document.getElementById('lang'); s.value = %s; s.dispatchEvent(new Event('change')); })()`, jsString(loc)))
	p.waitJS(fmt.Sprintf(`document.documentElement.lang === %s`, jsString(loc)), "the page switches to "+loc)
}

type inputState struct {
	Probe   bool   `json:"probe"`
	Focused bool   `json:"focused"`
	Start   int    `json:"start"`
	End     int    `json:"end"`
	Value   string `json:"value"`
}

const inputStateJS = `(() => { const el = document.getElementById('chat-input'); return { probe: el.__probe === 1 && el.isConnected, focused: document.activeElement === el, start: el.selectionStart, end: el.selectionEnd, value: el.value }; })()`

// checkInput asserts the message box is the same node with the same draft and selection (and focus).
func checkInput(t *testing.T, p *Page, after string, want inputState) {
	t.Helper()
	got := evalJS[inputState](p, inputStateJS)
	if got != want {
		t.Errorf("after %s the message box changed: got %+v, want %+v", after, got, want)
	}
}

// problemsExcept lists the page's console errors and CSP violations, leaving out network errors a
// test caused on purpose (an HTTP status the page handles, a dropped connection).
func problemsExcept(p *Page, allowed ...string) []string {
	var out []string
	for _, pr := range p.problems() {
		if slices.ContainsFunc(allowed, func(a string) bool { return strings.Contains(pr, a) }) {
			continue
		}
		out = append(out, pr)
	}
	return out
}

type chatGeom struct {
	AL, AR, AT, AB, AW, AH float64
	ML, MR, MT, MB, MW     float64
	IW, IH, SW             float64
}

const chatGeomJS = `(() => {
  const a = document.getElementById('chat').getBoundingClientRect();
  const m = document.getElementById('board').getBoundingClientRect();
  return { AL: a.left, AR: a.right, AT: a.top, AB: a.bottom, AW: a.width, AH: a.height,
    ML: m.left, MR: m.right, MT: m.top, MB: m.bottom, MW: m.width,
    IW: innerWidth, IH: innerHeight, SW: document.documentElement.scrollWidth };
})()`

// langReachable: the header's language select is visible inside the viewport and not covered.
const langReachableJS = `(() => {
  const s = document.getElementById('lang');
  const r = s.getBoundingClientRect();
  if (r.width < 10 || r.height < 10 || r.left < 0 || r.right > innerWidth || r.top < 0 || r.bottom > innerHeight) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit === s || s.contains(hit);
})()`

// ---- board over HTTP (as another client would) ----

func (r *chatRig) getBoard() boardDoc {
	r.t.Helper()
	var doc boardDoc
	if code := apiJSON(r.t, "GET", r.base+"/api/boards/"+chatBoardID, nil, nil, &doc); code != http.StatusOK {
		r.t.Fatalf("GET board: %d", code)
	}
	return doc
}

func (r *chatRig) putBoard(rev int64, c boardContent) boardDoc {
	r.t.Helper()
	var doc boardDoc
	code := apiJSON(r.t, "PUT", r.base+"/api/boards/"+chatBoardID,
		map[string]string{"Authorization": "Bearer " + r.cap, "If-Match": fmt.Sprintf(`"%d"`, rev)}, c, &doc)
	if code != http.StatusOK {
		r.t.Fatalf("PUT board over revision %d: %d", rev, code)
	}
	return doc
}

func (r *chatRig) boardFileBytes() []byte {
	b, err := os.ReadFile(filepath.Join(r.pi.DataDir, "boards", chatBoardID+".json"))
	if err != nil {
		r.t.Fatal(err)
	}
	return b
}

// sessionEntries reads the current session file (JSON lines).
func (r *chatRig) sessionEntries(path string) []gjson.Result {
	r.t.Helper()
	f, err := os.Open(path)
	if err != nil {
		r.t.Fatal(err)
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

// ---- the test ----

// TestChatPanel drives the chat panel against a real Pi, a real headless Chromium and the fake model.
func TestChatPanel(t *testing.T) {
	r := startChatRig(t)
	defer r.writeReport()
	b := newBrowser(t)
	var a *Page // the paired desktop tab, open throughout

	r.step("pair-from-invitation", func() string {
		a = r.openChatPage(b, r.inviteTo)
		waitChatLive(a)
		st := evalJS[map[string]any](a, fmt.Sprintf(`(() => {
			const secrets = [%s, %s];
			const local = {};
			for (let i = 0; i < localStorage.length; i++) { const k = localStorage.key(i); local[k] = localStorage.getItem(k); }
			return {
				hash: location.hash, href: location.href, local,
				secretInLocal: Object.entries(local).some(([k, v]) => secrets.some((s) => k.includes(s) || v.includes(s))),
				secretInDOM: secrets.some((s) => document.documentElement.outerHTML.includes(s)),
				secretInURL: secrets.some((s) => location.href.includes(s)) || location.href.includes('invite='),
				hadInvite: window.__chatRec.hadInvite,
			};
		})()`, jsString(r.invite), jsString(r.cap)))
		if st["hash"] != "" || st["secretInURL"] != false {
			t.Errorf("the fragment was not erased: %v", st["hash"])
		}
		if st["hadInvite"] != true {
			t.Errorf("the first document URL did not carry the invitation (the recorder saw none)")
		}
		if st["secretInLocal"] != false || st["secretInDOM"] != false {
			t.Errorf("a secret in localStorage (%v) or the DOM (%v)", st["secretInLocal"], st["secretInDOM"])
		}
		local := st["local"].(map[string]any)
		if local["tele.chat.binding:"+chatBoardID] != r.binding {
			t.Errorf("localStorage tele.chat.binding:%s = %v, want the binding id", chatBoardID, local["tele.chat.binding:"+chatBoardID])
		}
		for k := range local {
			if !slices.Contains([]string{"tele.locale", "tele.chat.dock", "tele.chat.collapsed", "tele.chat.binding:" + chatBoardID}, k) {
				t.Errorf("unexpected localStorage key %q", k)
			}
		}
		// The pairing POST went out after the fragment was erased, with exactly {binding, invitation}.
		var pairs []chatFetch
		for _, f := range chatFetches(a) {
			if strings.HasSuffix(f.URL, "/api/chat/pair") {
				pairs = append(pairs, f)
			}
		}
		if len(pairs) != 1 || pairs[0].Method != "POST" || pairs[0].Hash != "" || pairs[0].Keys != "binding,invitation" {
			t.Errorf("pairing requests: %+v", pairs)
		}
		// The cookie is HttpOnly, scoped to the binding's path, and not readable by the page.
		res, err := chromedp.Call(a.ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{r.base + "/api/chat/" + r.binding + "/status"}})
		cookies := res.Cookies
		if err != nil || len(cookies) != 1 || !cookies[0].HTTPOnly || cookies[0].Path != "/api/chat/"+r.binding {
			t.Errorf("pairing cookie: %v %+v", err, cookies)
		} else {
			r.secrets = append(r.secrets, cookies[0].Value)
		}
		if evalJS[string](a, `document.cookie`) != "" {
			t.Error("the page can read a cookie")
		}
		if !evalJS[bool](a, `document.getElementById('chat-send').disabled && !document.getElementById('chat-input').disabled`) {
			t.Error("an empty draft can be sent, or the message box is disabled")
		}
		a.requireClean("paired")
		r.shot(a, "paired-desktop-en")
		return "invitation URL opened: fragment erased before the pairing POST {binding, invitation}; only tele.chat.binding:<board> stored; HttpOnly cookie on /api/chat/<binding>; panel live"
	})

	r.step("input-1-builds-history", func() string {
		n := r.fm.Count()
		typeMessage(a, chatInput1)
		a.waitJS(fmt.Sprintf(`[...document.querySelectorAll('#chat-items .chat-assistant .chat-text')].some((e) => e.textContent === %s)`, jsString(chatReply1)), "the reply to input 1")
		waitChatIdle(a)
		rows := chatRows(a)
		var user *chatRow
		for i := range rows {
			if rows[i].Role == "user" && rows[i].Text == chatInput1 {
				user = &rows[i]
			}
		}
		if user == nil || user.Markup != 0 || user.I18n != "" {
			t.Errorf("input 1 is not shown verbatim as text: %+v", user)
		}
		if evalJS[string](a, `document.getElementById('chat-input').value`) != "" {
			t.Error("the draft was not cleared after Pi accepted it")
		}
		cmds := commandFetches(a)
		if len(cmds) != 1 || cmds[0].Type != "send" || !chatUUIDRe.MatchString(cmds[0].ID) || cmds[0].Keys != "epoch,id,idleVersion,text,type" {
			t.Errorf("send commands: %+v", cmds)
		}
		if got := r.fm.Count() - n; got != 1 {
			t.Errorf("%d model requests for input 1", got)
		}
		return "typed + Enter: one send with a fresh canonical UUID; the text shown verbatim as text (no markup); the reply streamed in; draft cleared"
	})

	var rev1 boardDoc
	r.step("input-2-changes-the-board-from-history", func() string {
		rev1 = r.getBoard()
		evalJS[chromedp.Void](a, `window.__samePage = 1`)
		n := r.fm.Count()
		typeMessage(a, chatInput2)
		a.waitJS(barTextJS(0, 0)+` === 'Ebmaj7'`, "the grid shows the new chord without a reload")
		a.waitJS(fmt.Sprintf(`[...document.querySelectorAll('#chat-items .chat-assistant .chat-text')].some((e) => e.textContent === %s)`, jsString(chatReply2)), "the final reply to input 2")
		waitChatIdle(a)
		if !evalJS[bool](a, `window.__samePage === 1`) {
			t.Error("the page was reloaded")
		}
		r.mu.Lock()
		chord := r.historyChord
		r.mu.Unlock()
		if chord != "Ebmaj7" {
			t.Errorf("the model found %q in the history", chord)
		}
		reqs := r.fm.Requests()[n:]
		if len(reqs) != 3 {
			t.Fatalf("%d model requests for input 2, want 3 (get, put, text)", len(reqs))
		}
		hist := reqs[0]
		if !slices.Contains(hist.UserTexts(), chatInput1) || !strings.Contains(string(hist.Body), chatReply1) {
			t.Error("the request for input 2 lacks the history of input 1")
		}
		for _, q := range reqs {
			if !slices.Equal(q.Tools, []string{"tele_board"}) {
				t.Errorf("request %d offered %v", q.N, q.Tools)
			}
		}
		put := gjson.Parse(reqs[2].Last().Text())
		if put.Get("revision").Int() != rev1.Revision+1 || put.Get("content.sections.0.bars.0.0").String() != "Ebmaj7" {
			t.Errorf("put result: %.300s", reqs[2].Last().Text())
		}
		disk := gjson.ParseBytes(r.boardFileBytes())
		if disk.Get("revision").Int() != rev1.Revision+1 || disk.Get("content.sections.0.bars.0.0").String() != "Ebmaj7" {
			t.Errorf("board file: revision %d, bar 1 %q", disk.Get("revision").Int(), disk.Get("content.sections.0.bars.0.0").String())
		}
		after := rowsAfter(chatRows(a), chatInput2)
		var tools []chatRow
		for _, row := range after {
			if row.Role == "tool" {
				tools = append(tools, row)
			}
		}
		if len(tools) != 2 || tools[0].Name != "tele_board" || tools[0].Status != "completed" || tools[1].Name != "tele_board" || tools[1].Status != "completed" {
			t.Errorf("tool rows after input 2: %+v", tools)
		}
		if txt := evalJS[string](a, `document.querySelector('#chat-items .chat-tool .chat-tool-status').textContent`); txt != "completed" {
			t.Errorf("tool status text %q", txt)
		}
		a.requireClean("after the board change")
		r.shot(a, "board-changed-desktop-en")
		return fmt.Sprintf("the model read %s from the history, called tele_board get then put (revision %d→%d); two completed tool rows; the grid on the same page shows Ebmaj7 without a reload; board file holds it", chord, rev1.Revision, rev1.Revision+1)
	})

	r.step("input-3-streams-draft-survives-then-stop", func() string {
		n := r.fm.Count()
		typeMessage(a, chatInput3)
		req := r.fm.WaitCount(t, n+1, 15*time.Second)
		// The streamed reply is the assistant row whose text is a beginning of the story.
		streamLen := `(() => { const story = ` + jsString(chatStory) + `; const s = [...document.querySelectorAll('#chat-items .chat-assistant .chat-text')].filter((e) => e.textContent && story.startsWith(e.textContent)).pop(); return s ? s.textContent.length : 0; })()`
		a.waitJS(streamLen+` > 0`, "the reply starts streaming")
		// The question sits above its reply while the reply streams (the bridge sends the branch holding
		// the prompt as the reply starts, not only at turn end).
		rows := chatRows(a)
		if after := rowsAfter(rows, chatInput3); len(after) == 0 || after[len(after)-1].Role != "assistant" {
			t.Errorf("while the reply streams, the rows do not show input 3 followed by the reply: %+v", rows)
		}
		a.waitJS(`document.getElementById('chat').dataset.status === 'running' && !document.getElementById('chat-stop').disabled`, "stop is offered while Pi replies")
		if busy := evalJS[string](a, `document.getElementById('chat-log').getAttribute('aria-busy')`); busy != "true" {
			t.Errorf("the log is not aria-busy while the reply streams (%q)", busy)
		}

		// A draft with a selection range and the focus, while Pi streams.
		p := a
		p.do(chromedp.Click(chromedp.ID("chat-input")))
		p.do(chromedp.KeyEvent(chatDraft))
		evalJS[chromedp.Void](p, `(() => { const el = document.getElementById('chat-input'); el.__probe = 1; el.setSelectionRange(7, 14); })()`)
		want := inputState{Probe: true, Focused: true, Start: 7, End: 14, Value: chatDraft}
		checkInput(t, p, "typing the draft", want)
		cmdsBefore := len(commandFetches(p))
		if !evalJS[bool](p, `document.getElementById('chat-send').disabled && document.getElementById('chat').dataset.canSend === 'false'`) {
			t.Error("send is enabled while Pi replies")
		}
		// Enter while busy sends nothing and does not touch the draft.
		p.do(chromedp.KeyEvent(kb.Enter))
		checkInput(t, p, "Enter while Pi replies", want)

		// 1. streaming text arrives
		l0 := evalJS[int](p, streamLen)
		p.waitJS(fmt.Sprintf(`%s > %d`, streamLen, l0), "more streamed text")
		l1 := evalJS[int](p, streamLen)
		p.waitJS(fmt.Sprintf(`%s > %d`, streamLen, l1), "still more streamed text")
		checkInput(t, p, "streamed text", want)

		// 2. a language switch
		switchLanguageScripted(p, "zh-CN")
		if got := evalJS[string](p, `document.getElementById('chat-send').textContent`); got != "发送" {
			t.Errorf("send label after the switch: %q", got)
		}
		checkInput(t, p, "the language switch", want)
		r.shot(p, "streaming-draft-desktop-zh")

		// 3. a board update from another client (PUT with the capability)
		cur := r.getBoard()
		next := cur.Content
		next.Sections = append([]boardSection(nil), cur.Content.Sections...)
		next.Sections[0].Bars = append([][]string(nil), cur.Content.Sections[0].Bars...)
		next.Sections[0].Bars[1] = []string{"Gmaj7"}
		r.putBoard(cur.Revision, next)
		p.waitJS(barTextJS(0, 1)+` === 'Gmaj7'`, "the board update arrives")
		checkInput(t, p, "a board update", want)

		// 4. dock changes with the mouse
		for _, d := range []string{"left", "bottom", "right"} {
			p.do(chromedp.Click(chromedp.CSS(`.chat-dock-btn[data-dock="` + d + `"]`)))
			p.waitJS(fmt.Sprintf(`document.getElementById('chat').dataset.dock === %s`, jsString(d)), "dock "+d)
			checkInput(t, p, "docking "+d, want)
		}
		switchLanguageScripted(p, "en")
		checkInput(t, p, "switching back to English", want)
		p.waitJS(fmt.Sprintf(`%s > %d`, streamLen, evalJS[int](p, streamLen)), "the reply still streams")
		if got := len(commandFetches(p)); got != cmdsBefore {
			t.Errorf("%d commands sent while the draft sat in the box", got-cmdsBefore)
		}
		if st := evalJS[string](p, `document.getElementById('chat').dataset.status`); st != "running" {
			t.Errorf("the checks did not run while Pi streamed (status %q)", st)
		}
		r.shot(p, "streaming-draft-desktop-en")

		// 5. collapse and expand: the same node, draft and selection come back (the focus follows the click).
		p.do(chromedp.Click(chromedp.ID("chat-collapse")))
		p.waitJS(`document.getElementById('chat').dataset.collapsed === 'true' && document.getElementById('chat-body').hidden`, "collapsed")
		p.do(chromedp.Click(chromedp.ID("chat-collapse")))
		p.waitJS(`document.getElementById('chat').dataset.collapsed === 'false'`, "expanded")
		want.Focused = false
		checkInput(t, p, "collapse and expand", want)

		// Stop the reply with a click.
		p.do(chromedp.Click(chromedp.ID("chat-stop")))
		p.waitJS(`[...document.querySelectorAll('#chat-items > li')].some((li) => li.dataset.code === 'reply-aborted')`, "the reply-aborted notice")
		waitChatIdle(p)
		if !r.fm.WaitFinished(t, req, 10*time.Second) {
			t.Error("the model stream was not cut by the stop")
		}
		var aborts []chatFetch
		for _, f := range commandFetches(p) {
			if f.Type == "abort" {
				aborts = append(aborts, f)
			}
		}
		if len(aborts) != 1 || !chatUUIDRe.MatchString(aborts[0].ID) || aborts[0].Keys != "epoch,id,runId,type" {
			t.Errorf("abort commands: %+v", aborts)
		}
		checkInput(t, p, "stop", want)
		if busy := evalJS[string](p, `document.getElementById('chat-log').getAttribute('aria-busy')`); busy != "false" {
			t.Errorf("the log stays aria-busy after the reply (%q)", busy)
		}
		notice := evalJS[string](p, `[...document.querySelectorAll('#chat-items > li')].find((li) => li.dataset.code === 'reply-aborted').textContent`)
		if !strings.Contains(notice, "Reply stopped.") {
			t.Errorf("reply-aborted notice reads %q", notice)
		}
		p.requireClean("after stop")
		r.shot(p, "stopped-desktop-en")
		return "while the reply streamed: send disabled (Enter sent nothing); the message box kept node, focus, selection 7–14 and draft through streamed text, a language switch, a board PUT and dock changes left/bottom/right; node, draft and selection through collapse; Stop (one abort, fresh UUID) cut the model stream → reply-aborted"
	})

	r.step("session-file", func() string {
		file := r.pi.SessionFile()
		if file == "" || !strings.HasPrefix(file, filepath.Join(r.pi.AgentDir, "sessions")) {
			t.Fatalf("session file %q is not under the temporary agent dir", file)
		}
		entries := r.sessionEntries(file)
		count := map[string]int{}
		var puts, gets int
		aborted := false
		for _, e := range entries {
			if e.Get("type").String() != "message" {
				continue
			}
			m := e.Get("message")
			switch m.Get("role").String() {
			case "user":
				count[userText(m)]++
			case "assistant":
				for _, c := range m.Get("content").Array() {
					if c.Get("type").String() == "toolCall" && c.Get("name").String() == "tele_board" {
						switch c.Get("arguments.action").String() {
						case "get":
							gets++
						case "put":
							puts++
						}
					}
				}
				if m.Get("stopReason").String() == "aborted" {
					aborted = true
				}
			}
		}
		for _, in := range []string{chatInput1, chatInput2, chatInput3} {
			if count[in] != 1 {
				t.Errorf("input %q is %d times in the session file", in, count[in])
			}
		}
		if gets != 1 || puts != 1 {
			t.Errorf("tele_board calls in the session file: %d get, %d put", gets, puts)
		}
		if !aborted {
			t.Error("no aborted assistant message in the session file")
		}
		return fmt.Sprintf("%s: each input once; tele_board get and put; the stopped reply persisted with stopReason aborted", strings.TrimPrefix(file, r.pi.Home))
	})

	r.step("user-text-equal-to-a-notice-stays-verbatim", func() string {
		switchLanguageScripted(a, "zh-CN")
		zh := evalJS[string](a, `[...document.querySelectorAll('#chat-items > li')].find((li) => li.dataset.code === 'reply-aborted').querySelector('.chat-notice-text').textContent`)
		switchLanguageScripted(a, "en")
		if zh != "回复已停止。" {
			t.Fatalf("the Chinese reply-aborted notice reads %q", zh)
		}
		// The terminal user types exactly the localized notice text.
		r.pi.PromptAndWait(zh)
		a.waitJS(fmt.Sprintf(`[...document.querySelectorAll('#chat-items .chat-user .chat-text')].some((e) => e.textContent === %s)`, jsString(zh)), "the terminal's message appears")
		waitChatIdle(a)
		for _, loc := range []string{"en", "zh-CN", "en"} {
			switchLanguageScripted(a, loc)
			var user, notice *chatRow
			rows := chatRows(a)
			for i := range rows {
				if rows[i].Role == "user" && user == nil && rows[i].Text == zh {
					user = &rows[i]
				}
				if rows[i].Role == "notice" && rows[i].Code == "reply-aborted" {
					notice = &rows[i]
				}
			}
			if user == nil || user.I18n != "" {
				t.Errorf("%s: the user text equal to a notice is not verbatim: %+v", loc, user)
			}
			wantNotice := map[string]string{"en": "Reply stopped.", "zh-CN": zh}[loc]
			if notice == nil || notice.Text != wantNotice {
				t.Errorf("%s: the notice reads %+v, want %q", loc, notice, wantNotice)
			}
		}
		r.shot(a, "verbatim-notice-text-desktop-en")
		return "a user message equal to the Chinese reply-aborted notice shows verbatim in English and Chinese, while the real notice row is translated"
	})

	r.step("reading-history-never-jumps", func() string {
		scrollable := evalJS[bool](a, `(() => { const l = document.getElementById('chat-log'); return l.scrollHeight > l.clientHeight + 100; })()`)
		if !scrollable {
			t.Fatal("the log is too short to scroll")
		}
		evalJS[chromedp.Void](a, `document.getElementById('chat-log').scrollTop = 0`)
		a.waitJS(`document.getElementById('chat-log').scrollTop === 0`, "the log at its top")
		winY := evalJS[float64](a, `window.scrollY`)
		const msg = "A message from the terminal while the page reads older history."
		r.pi.PromptAndWait(msg)
		a.waitJS(fmt.Sprintf(`[...document.querySelectorAll('#chat-items .chat-user .chat-text')].some((e) => e.textContent === %s)`, jsString(msg)), "the new message arrives")
		a.waitJS(`!document.getElementById('chat-new').hidden`, "the new-messages button")
		if top := evalJS[float64](a, `document.getElementById('chat-log').scrollTop`); top != 0 {
			t.Errorf("the log jumped to %v while reading older history", top)
		}
		if y := evalJS[float64](a, `window.scrollY`); y != winY {
			t.Errorf("the page scrolled from %v to %v", winY, y)
		}
		r.shot(a, "new-messages-desktop-en")
		a.do(chromedp.Click(chromedp.ID("chat-new")))
		a.waitJS(`(() => { const l = document.getElementById('chat-log'); return l.scrollHeight - l.scrollTop - l.clientHeight < 30 && document.getElementById('chat-new').hidden; })()`, "the log at the end after the button")
		return "scrolled to the top: a new message leaves the log where it is and shows “New messages ↓”; clicking it goes to the end"
	})

	r.step("terminal-prompt", func() string {
		a.do(chromedp.Click(chromedp.ID("chat-input")))
		a.do(chromedp.KeyEvent(kb.End + " too"))
		r.pi.Prompt("/chatprobe prompt open")
		a.waitJS(`document.getElementById('chat').dataset.status === 'terminal-prompt'`, "terminal-prompt in the panel")
		run := evalJS[string](a, `document.getElementById('chat-run').textContent`)
		if !strings.HasPrefix(run, "Needs terminal action") {
			t.Errorf("terminal-prompt status reads %q", run)
		}
		if !evalJS[bool](a, `document.getElementById('chat-send').disabled`) {
			t.Error("send is enabled while a terminal dialog is open")
		}
		r.shot(a, "terminal-prompt-desktop-en")
		switchLanguageScripted(a, "zh-CN")
		if run := evalJS[string](a, `document.getElementById('chat-run').textContent`); !strings.HasPrefix(run, "需要终端操作") {
			t.Errorf("terminal-prompt status in Chinese reads %q", run)
		}
		r.shot(a, "terminal-prompt-desktop-zh")
		switchLanguageScripted(a, "en")
		r.pi.Prompt("/chatprobe prompt close")
		waitChatIdle(a)
		a.waitJS(`!document.getElementById('chat-send').disabled`, "send is enabled again with a draft")
		return "a terminal dialog: “Needs terminal action” / “需要终端操作”, send disabled; enabled again when it closes"
	})

	r.step("language-switch-both-languages", func() string {
		session := r.pi.SessionFile()
		before, _ := os.ReadFile(session)
		boardBefore := r.boardFileBytes()
		models, cmds := r.fm.Count(), len(commandFetches(a))
		rowsBefore := chatRows(a)
		check := func(loc string, want map[string]string) {
			got := map[string]string{
				"panel":    axName(a, "#chat"),
				"log":      axName(a, "#chat-log"),
				"message":  axName(a, "#chat-input"),
				"send":     axName(a, "#chat-send"),
				"stop":     axName(a, "#chat-stop"),
				"dock":     axName(a, ".chat-dock"),
				"collapse": axName(a, "#chat-collapse"),
				"language": axName(a, "#lang"),
				"heading":  evalJS[string](a, `document.getElementById('chat-heading').textContent`),
				"hint":     evalJS[string](a, `document.getElementById('chat-hint').textContent`),
				"conn":     evalJS[string](a, `document.getElementById('chat-conn-text').textContent`),
				"who":      evalJS[string](a, `document.querySelector('#chat-items .chat-user .chat-who').textContent`),
				"tool":     evalJS[string](a, `document.querySelector('#chat-items .chat-tool .chat-tool-status').textContent`),
			}
			for k, w := range want {
				if got[k] != w {
					t.Errorf("%s: %s = %q, want %q", loc, k, got[k], w)
				}
			}
			if lang := evalJS[string](a, `document.documentElement.lang`); lang != loc {
				t.Errorf("lang = %q, want %q", lang, loc)
			}
		}
		// Every status, notice code, tool status and error the panel can show has its words in both languages.
		if missing := evalJS[[]string](a, chatStringsCheckJS); len(missing) > 0 {
			t.Errorf("chat strings: %v", missing)
		}
		a.do(chromedp.Focus(chromedp.ID("lang")), chromedp.KeyEvent(kb.ArrowDown))
		a.waitJS(`document.documentElement.lang === 'zh-CN'`, "Chinese")
		check("zh-CN", map[string]string{"panel": "与 Pi 对话", "log": "对话记录", "message": "消息", "send": "发送", "stop": "停止",
			"dock": "面板位置", "collapse": "收起对话", "language": "语言", "heading": "与 Pi 对话", "hint": "Enter 发送 · Shift+Enter 换行",
			"conn": "已连接 Pi", "who": "你", "tool": "已完成"})
		r.shot(a, "language-desktop-zh")
		a.do(chromedp.Focus(chromedp.ID("lang")), chromedp.KeyEvent(kb.ArrowUp))
		a.waitJS(`document.documentElement.lang === 'en'`, "English")
		check("en", map[string]string{"panel": "Chat with Pi", "log": "Conversation", "message": "Message", "send": "Send", "stop": "Stop",
			"dock": "Panel position", "collapse": "Hide chat", "language": "Language", "heading": "Chat with Pi", "hint": "Enter sends · Shift+Enter for a new line",
			"conn": "Connected to Pi", "who": "You", "tool": "completed"})
		after, _ := os.ReadFile(session)
		if !bytes.Equal(before, after) {
			t.Error("the Pi session file changed with the language")
		}
		if !bytes.Equal(boardBefore, r.boardFileBytes()) {
			t.Error("the board changed with the language")
		}
		if r.fm.Count() != models || len(commandFetches(a)) != cmds {
			t.Error("a language switch made a model request or sent a command")
		}
		rowsAfter := chatRows(a)
		for i := range rowsBefore {
			if i < len(rowsAfter) && (rowsBefore[i].Role == "user" || rowsBefore[i].Role == "assistant") && rowsBefore[i] != rowsAfter[i] {
				t.Errorf("row %d changed with the language: %+v → %+v", i, rowsBefore[i], rowsAfter[i])
			}
		}
		a.requireClean("language switches")
		return "keyboard switch to 简体中文 and back: accessible names of panel, log, message box, send, stop, dock group, collapse and language select, visible texts in each; session file, board file, model requests and commands unchanged; user and assistant rows untouched"
	})

	r.step("docks-and-collapse", func() string {
		evalJS[chromedp.Void](a, `document.getElementById('chat-input').blur()`)
		for _, d := range []string{"left", "bottom", "right"} {
			a.do(chromedp.Click(chromedp.CSS(`.chat-dock-btn[data-dock="` + d + `"]`)))
			a.waitJS(fmt.Sprintf(`document.getElementById('chat').dataset.dock === %s && document.getElementById('layout').dataset.chatDock === %s`, jsString(d), jsString(d)), "dock "+d)
			g := evalJS[chatGeom](a, chatGeomJS)
			switch d {
			case "right":
				if g.AL < g.MR || g.AR > g.IW+0.5 {
					t.Errorf("dock right: panel %v–%v, board ends at %v", g.AL, g.AR, g.MR)
				}
			case "left":
				if g.AR > g.ML || g.AL < 0 {
					t.Errorf("dock left: panel %v–%v, board starts at %v", g.AL, g.AR, g.ML)
				}
			case "bottom":
				if g.AB < g.IH-2 || g.AB > g.IH+2 || g.AW < g.MW-2 {
					t.Errorf("dock bottom: panel bottom %v (viewport %v), width %v (board %v)", g.AB, g.IH, g.AW, g.MW)
				}
			}
			if g.SW > g.IW {
				t.Errorf("dock %s: horizontal overflow %v > %v", d, g.SW, g.IW)
			}
			if got := evalJS[string](a, `localStorage.getItem('tele.chat.dock')`); got != d {
				t.Errorf("tele.chat.dock = %q after docking %s", got, d)
			}
			if got := evalJS[string](a, fmt.Sprintf(`document.querySelector('.chat-dock-btn[data-dock=%s]').getAttribute('aria-pressed')`, jsString(d))); got != "true" {
				t.Errorf("dock %s button aria-pressed = %s", d, got)
			}
			r.shot(a, "dock-"+d+"-desktop-en")
		}
		a.do(chromedp.Click(chromedp.ID("chat-collapse")))
		a.waitJS(`document.getElementById('chat').dataset.collapsed === 'true' && document.getElementById('chat-body').hidden && document.getElementById('chat-collapse').getAttribute('aria-expanded') === 'false'`, "collapsed")
		if got := evalJS[string](a, `localStorage.getItem('tele.chat.collapsed')`); got != "true" {
			t.Errorf("tele.chat.collapsed = %q", got)
		}
		if !evalJS[bool](a, langReachableJS) {
			t.Error("the language switch is not reachable with the panel collapsed")
		}
		if name := axName(a, "#chat-collapse"); name != "Show chat" {
			t.Errorf("collapsed button name %q", name)
		}
		r.shot(a, "collapsed-desktop-en")
		if !evalJS[bool](a, `getComputedStyle(document.querySelector('.chat-dock')).display === 'none' && document.getElementById('chat').getBoundingClientRect().width < 200`) {
			t.Error("collapsed beside the board: not a narrow rail")
		}
		// Dock and collapse survive a reload.
		a.do(chromedp.Click(chromedp.ID("chat-collapse")))
		a.waitJS(`document.getElementById('chat').dataset.collapsed === 'false'`, "expanded")
		a.do(chromedp.Click(chromedp.CSS(`.chat-dock-btn[data-dock="left"]`)))
		a.do(chromedp.Click(chromedp.ID("chat-collapse")))
		a.waitJS(`document.getElementById('chat').dataset.collapsed === 'true' && document.getElementById('chat').dataset.dock === 'left'`, "collapsed on the left")
		a.do(chromedp.Reload())
		waitBoardReady(a)
		waitChatLive(a)
		if !evalJS[bool](a, `document.getElementById('chat').dataset.dock === 'left' && document.getElementById('chat').dataset.collapsed === 'true'`) {
			t.Error("dock left and collapsed did not survive a reload")
		}
		r.shot(a, "collapsed-left-reloaded-desktop-en")
		a.do(chromedp.Click(chromedp.ID("chat-collapse")))
		a.waitJS(`document.getElementById('chat').dataset.collapsed === 'false' && !document.getElementById('chat-body').hidden`, "expanded")
		a.waitJS(`(() => { const l = document.getElementById('chat-log'); return l.scrollHeight - l.scrollTop - l.clientHeight < 30; })()`, "the log at its end after expanding")
		a.requireClean("docks")
		return "right/left/bottom by click: geometry, tele.chat.dock, aria-pressed, no overflow; collapse stores tele.chat.collapsed, the header's language switch stays reachable; both survive a reload (the stored binding is reused)"
	})

	r.step("phone", func() string {
		// Tab A stores dock "left"; the phone pins the panel to the bottom without rewriting it.
		if got := evalJS[string](a, `localStorage.getItem('tele.chat.dock')`); got != "left" {
			t.Fatalf("stored dock %q", got)
		}
		q := r.openChatPage(b, r.base+"/b/"+chatBoardID, phone())
		defer closePage(q)
		waitChatLive(q)
		for _, f := range chatFetches(q) {
			if strings.HasSuffix(f.URL, "/api/chat/pair") {
				t.Error("a page without an invitation tried to pair")
			}
		}
		q.waitJS(`(() => { const l = document.getElementById('chat-log'); return l.clientHeight > 0 && l.scrollHeight - l.scrollTop - l.clientHeight < 30; })()`, "the log opens at its end")
		for _, loc := range []string{"en", "zh-CN"} {
			if loc != "en" {
				q.do(chromedp.Focus(chromedp.ID("lang")), chromedp.KeyEvent(kb.ArrowDown))
				q.waitJS(`document.documentElement.lang === 'zh-CN'`, "Chinese on the phone")
			}
			g := evalJS[chatGeom](q, chatGeomJS)
			if g.SW > g.IW {
				t.Errorf("phone %s: horizontal overflow %v > %v", loc, g.SW, g.IW)
			}
			if g.AB < g.IH-2 || g.AB > g.IH+2 || g.AW < g.IW-1 || g.AT < g.MT {
				t.Errorf("phone %s: the panel is not pinned to the bottom: %+v", loc, g)
			}
			if !evalJS[bool](q, langReachableJS) {
				t.Errorf("phone %s: the language switch is not reachable", loc)
			}
			if evalJS[bool](q, `getComputedStyle(document.querySelector('.chat-dock')).display !== 'none'`) {
				t.Errorf("phone %s: dock buttons shown where the panel is pinned", loc)
			}
			want := map[string]string{"en": "Message", "zh-CN": "消息"}[loc]
			if n := axName(q, "#chat-input"); n != want {
				t.Errorf("phone %s: message box name %q", loc, n)
			}
			q.requireClean("phone " + loc)
			r.shot(q, "phone-"+loc)
		}
		q.do(chromedp.Click(chromedp.ID("chat-collapse")))
		q.waitJS(`document.getElementById('chat').dataset.collapsed === 'true'`, "collapsed on the phone")
		if !evalJS[bool](q, langReachableJS) {
			t.Error("phone collapsed: the language switch is not reachable")
		}
		if g := evalJS[chatGeom](q, chatGeomJS); g.SW > g.IW || g.AB < g.IH-2 {
			t.Errorf("phone collapsed: %+v", g)
		}
		r.shot(q, "phone-collapsed-zh-CN")
		q.do(chromedp.Click(chromedp.ID("chat-collapse")))
		q.waitJS(`document.getElementById('chat').dataset.collapsed === 'false'`, "expanded on the phone")
		q.do(chromedp.Focus(chromedp.ID("lang")), chromedp.KeyEvent(kb.ArrowUp))
		q.waitJS(`document.documentElement.lang === 'en'`, "English on the phone")
		if got := evalJS[string](q, `localStorage.getItem('tele.chat.dock')`); got != "left" {
			t.Errorf("the phone rewrote the stored dock to %q", got)
		}
		return "390×844: the stored binding is reused (no pairing); panel pinned to the bottom, full width, no horizontal overflow, no dock buttons, tele.chat.dock stays \"left\"; the language switch is reachable expanded and collapsed, in English and Chinese"
	})

	r.step("refused-and-uncertain-sends-keep-the-draft", func() string {
		// The host's refusals and a lost answer, delivered to the page's real send path by the browser's
		// request interception (nothing reaches Pi): each shows its reason, keeps the draft, resends nothing.
		waitChatIdle(a)
		const draft = "Please double the tempo." // (the reload above dropped the earlier draft, as a refresh does)
		if got := evalJS[string](a, `document.getElementById('chat-input').value`); got != "" {
			t.Errorf("a draft survived the reload: %q", got)
		}
		a.do(chromedp.Click(chromedp.ID("chat-input")), chromedp.KeyEvent(draft))
		models := r.fm.Count()
		before := len(commandFetches(a))
		stop := interceptCommands(t, a, []fakeAnswer{
			{status: 409, code: "busy"}, {status: 409, code: "stale_idle_version"}, {status: 409, code: "terminal_prompt"},
			{status: 502, code: "submission_uncertain"}, {fail: true},
		})
		wants := []string{"Not sent: Pi is busy", "Not sent: the conversation moved on", "Not sent: needs terminal action",
			"No clear answer came back", "No clear answer came back"}
		for i, want := range wants {
			a.do(chromedp.Click(chromedp.ID("chat-input")), chromedp.KeyEvent(kb.Enter))
			// The send goes out (the button is disabled before the request), then its answer is handled.
			a.waitJS(fmt.Sprintf(`window.__chatRec.fetches.filter((f) => f.url.endsWith('/command')).length === %d`, before+i+1), "the send request")
			a.waitJS(`!document.getElementById('chat-send').disabled`, "the answer is handled")
			if got := evalJS[string](a, `(() => { const e = document.getElementById('chat-error'); return e.hidden ? '' : e.textContent; })()`); !strings.HasPrefix(got, want) {
				t.Errorf("answer %d: the panel says %q, want %q…", i+1, got, want)
			}
			if got := evalJS[string](a, `document.getElementById('chat-input').value`); got != draft {
				t.Errorf("answer %d: the draft became %q", i+1, got)
			}
			if n := len(commandFetches(a)) - before; n != i+1 {
				t.Errorf("answer %d: %d sends so far", i+1, n)
			}
		}
		stop()
		r.shot(a, "uncertain-desktop-en")
		switchLanguageScripted(a, "zh-CN")
		if got := evalJS[string](a, `document.getElementById('chat-error').textContent`); !strings.HasPrefix(got, "没有收到明确的答复") {
			t.Errorf("the uncertain message in Chinese reads %q", got)
		}
		r.shot(a, "uncertain-desktop-zh")
		switchLanguageScripted(a, "en")
		if n := len(commandFetches(a)) - before; n != len(wants) {
			t.Errorf("%d sends for %d presses of Enter: something was resent", n, len(wants))
		}
		if r.fm.Count() != models {
			t.Error("an intercepted send reached the model")
		}
		return "409 busy, 409 stale_idle_version, 409 terminal_prompt: the localized reason; 502 submission_uncertain and a dropped connection: “not certain … check the conversation and the Pi terminal … never resends”; the draft kept every time, one request per Enter, none repeated"
	})

	r.step("offline-reconnect-fresh-snapshot", func() string {
		// A tab that reaches the host through a proxy the test can cut, as a network drop does.
		px := startCutProxy(t, r.base)
		from := r.pi.Mark()
		r.pi.Prompt("/tele " + chatBoardID)
		r.takeInvitation(r.pi.WaitNotify(from, "one-time link"))
		o := r.openChatPage(b, strings.Replace(r.inviteTo, r.base, px.URL, 1))
		defer closePage(o)
		waitChatLive(o)
		rowsBefore := len(chatRows(o))
		px.setCut(true)
		o.waitJS(`document.getElementById('chat').dataset.conn === 'offline'`, "the panel says offline")
		run := evalJS[string](o, `document.getElementById('chat-run').textContent`)
		if !strings.HasPrefix(run, "The connection to Pi was lost") {
			t.Errorf("offline status reads %q", run)
		}
		if !evalJS[bool](o, `document.getElementById('chat-send').disabled && document.querySelector('.chat-status').getAttribute('aria-live') === 'polite' && document.getElementById('chat-conn-text').getAttribute('role') === 'status'`) {
			t.Error("offline: send enabled, or the state is not in a polite live region")
		}
		// The terminal talks while the page is cut off.
		const msg = "Said in the terminal while the page was offline."
		r.pi.PromptAndWait(msg)
		if got := len(chatRows(o)); got != rowsBefore {
			t.Errorf("offline: %d rows, had %d", got, rowsBefore)
		}
		// Let the backoff grow, then come back: a visible tab reconnects at once, not at the next retry.
		o.waitJS(`Number((document.getElementById('chat-conn-text').textContent.match(/(\d+) s/) || [])[1]) >= 4`, "a retry delay of 4 s or more")
		r.shot(o, "offline-desktop-en")
		px.setCut(false)
		began := time.Now()
		evalJS[chromedp.Void](o, `document.dispatchEvent(new Event('visibilitychange'))`)
		waitChatLive(o)
		took := time.Since(began)
		if took > 2500*time.Millisecond {
			t.Errorf("reconnecting on visibility took %v (the backoff was at least 3 s)", took)
		}
		o.waitJS(fmt.Sprintf(`[...document.querySelectorAll('#chat-items .chat-user .chat-text')].some((e) => e.textContent === %s)`, jsString(msg)), "the message said while offline, from the fresh snapshot")
		if pr := problemsExcept(o, "net::ERR_"); len(pr) > 0 {
			t.Errorf("problems: %v", pr)
		}
		return fmt.Sprintf("connection cut: “Connection to Pi was lost…” in polite live regions, send disabled, every row still readable, backoff grows; restored + tab visible: live again in %v with the fresh snapshot holding what the terminal said meanwhile", took.Round(time.Millisecond))
	})

	r.step("storage-disabled-spent-and-unpaired", func() string {
		b2 := newBrowser(t)
		spent := r.inviteTo
		from := r.pi.Mark()
		r.pi.Prompt("/tele " + chatBoardID)
		r.takeInvitation(r.pi.WaitNotify(from, "one-time link"))
		s := r.openChatPage(b2, r.inviteTo, storageDisabled(), darkScheme())
		waitChatLive(s)
		if !evalJS[bool](s, `(() => { try { localStorage.length; return false; } catch (e) { return true; } })()`) {
			t.Fatal("the storage-disabled tab can reach localStorage")
		}
		if n := len(chatRows(s)); n < 5 {
			t.Errorf("storage disabled: %d rows", n)
		}
		s.do(chromedp.Click(chromedp.CSS(`.chat-dock-btn[data-dock="bottom"]`)))
		s.waitJS(`document.getElementById('chat').dataset.dock === 'bottom'`, "dock bottom without storage")
		s.do(chromedp.Focus(chromedp.ID("lang")), chromedp.KeyEvent(kb.ArrowDown))
		s.waitJS(`document.documentElement.lang === 'zh-CN' && document.getElementById('chat-send').textContent === '发送'`, "Chinese without storage")
		s.do(chromedp.Click(chromedp.ID("chat-collapse")))
		s.waitJS(`document.getElementById('chat').dataset.collapsed === 'true'`, "collapsed without storage")
		s.do(chromedp.Click(chromedp.ID("chat-collapse")))
		s.waitJS(`document.getElementById('chat').dataset.collapsed === 'false'`, "expanded without storage")
		s.requireClean("storage disabled")
		r.shot(s, "storage-disabled-dark-desktop-zh")
		closePage(s)

		// A spent invitation says so and how to pair again.
		u := r.openChatPage(b2, spent)
		u.waitJS(`document.getElementById('chat').dataset.paired === 'false' && !document.getElementById('chat-pair').hidden && !document.getElementById('chat-pair-reason').hidden`, "the spent-invitation message")
		reason := evalJS[string](u, `document.getElementById('chat-pair-reason').textContent`)
		how := evalJS[string](u, `document.getElementById('chat-pair').textContent.replace(/\s+/g, ' ').trim()`)
		if !strings.Contains(reason, "expired or was already used") || !strings.Contains(how, "/tele "+chatBoardID) {
			t.Errorf("spent invitation: %q / %q", reason, how)
		}
		if evalJS[string](u, `location.hash`) != "" {
			t.Error("the spent invitation's fragment was not erased")
		}
		if pr := problemsExcept(u, "403"); len(pr) > 0 {
			t.Errorf("problems: %v", pr)
		}
		r.shot(u, "invitation-spent-desktop-en")
		closePage(u)

		// A browser that never paired: how to pair, no error.
		v := r.openChatPage(b2, r.base+"/b/"+chatBoardID, phone())
		v.waitJS(`document.getElementById('chat').dataset.paired === 'false' && !document.getElementById('chat-pair').hidden`, "the how-to-pair message")
		if !evalJS[bool](v, `document.getElementById('chat-pair-reason').hidden && document.getElementById('chat-form').hidden`) {
			t.Error("an unpaired page shows a reason or a message box")
		}
		if g := evalJS[chatGeom](v, chatGeomJS); g.SW > g.IW {
			t.Errorf("unpaired phone overflows: %+v", g)
		}
		v.requireClean("never paired")
		r.shot(v, "not-paired-phone-en")
		closePage(v)
		return "storage disabled: pairs from a fresh invitation, shows the conversation, docks, collapses and switches language; a spent invitation says it expired or was used and how to pair; a never-paired page says how to pair (/tele <board>)"
	})

	r.step("stored-binding-without-its-cookie", func() string {
		// The browser loses its pairing cookie (as after 8 hours): the stored binding no longer works.
		if _, err := chromedp.Call(a.ctx, network.ClearBrowserCookies, cdp.Empty{}); err != nil {
			t.Fatal(err)
		}
		q := r.openChatPage(b, r.base+"/b/"+chatBoardID)
		defer closePage(q)
		q.waitJS(`document.getElementById('chat').dataset.paired === 'false' && !document.getElementById('chat-pair-reason').hidden`, "the page says the pairing ended")
		reason := evalJS[string](q, `document.getElementById('chat-pair-reason').textContent`)
		how := evalJS[string](q, `document.getElementById('chat-pair').textContent.replace(/\s+/g, ' ').trim()`)
		if !strings.Contains(reason, "no longer paired") || !strings.Contains(how, "/tele "+chatBoardID) {
			t.Errorf("stale binding: %q / %q", reason, how)
		}
		if got := evalJS[string](q, fmt.Sprintf(`localStorage.getItem(%s) || ''`, jsString("tele.chat.binding:"+chatBoardID))); got != "" {
			t.Errorf("the dead binding stays stored: %q", got)
		}
		if pr := problemsExcept(q, "401"); len(pr) > 0 {
			t.Errorf("problems: %v", pr)
		}
		r.shot(q, "pairing-ended-desktop-en")
		return "a stored binding whose cookie is gone: GET status 401 → “no longer paired” and how to pair (/tele <board>); the dead binding id is forgotten"
	})

	r.step("tele-serve-has-no-panel", func() string {
		s := startServe(t)
		q := r.openChatPage(b, s.URL+"/b/welcome")
		defer closePage(q)
		q.waitJS(`document.documentElement.dataset.ready === 'true'`, "the page is ready")
		if !evalJS[bool](q, `document.getElementById('chat').hidden && !document.getElementById('layout').dataset.chat`) {
			t.Error("tele serve (chat:false) shows a chat panel to a browser that never paired")
		}
		for _, f := range chatFetches(q) {
			if strings.Contains(f.URL, "/api/chat/") {
				t.Errorf("a chat request on tele serve: %s", f.URL)
			}
		}
		q.requireClean("tele serve")
		// A binding stored by an earlier Pi connection on this origin: say Pi is gone, once, and forget it.
		evalJS[chromedp.Void](q, `localStorage.setItem('tele.chat.binding:welcome', 'an-old-binding')`)
		q.do(chromedp.Reload())
		waitBoardReady(q)
		q.waitJS(`!document.getElementById('chat').hidden && !document.getElementById('chat-pair-reason').hidden`, "the panel says Pi is not connected")
		if got := evalJS[string](q, `document.getElementById('chat-pair-reason').textContent`); !strings.Contains(got, "not connected") {
			t.Errorf("stored binding on tele serve: %q", got)
		}
		if evalJS[string](q, `localStorage.getItem('tele.chat.binding:welcome') || ''`) != "" {
			t.Error("the old binding stays stored")
		}
		r.shot(q, "tele-serve-old-binding-desktop-en")
		q.do(chromedp.Reload())
		waitBoardReady(q)
		if !evalJS[bool](q, `document.getElementById('chat').hidden`) {
			t.Error("the panel comes back on tele serve after the old binding was forgotten")
		}
		return "tele serve ({chat:false}): no panel and no chat request; a binding left from an earlier connection is reported once (Pi is not connected; how to pair) and forgotten"
	})

	r.step("tele-off-keeps-the-conversation", func() string {
		n := len(chatRows(a))
		r.pi.Prompt("/tele off")
		a.waitJS(`document.getElementById('chat').dataset.conn === 'offline' || document.getElementById('chat').dataset.paired === 'false'`, "the panel notices the host is gone")
		if got := len(chatRows(a)); got != n {
			t.Errorf("%d rows after /tele off, had %d", got, n)
		}
		if !evalJS[bool](a, `document.getElementById('chat-send').disabled`) {
			t.Error("send enabled after /tele off")
		}
		r.shot(a, "after-tele-off-desktop-en")
		return "after /tele off the page keeps every row readable, says the connection is lost and disables sending"
	})
}

// cutProxy is a reverse proxy in front of the tele host (loopback only) whose connections the test can
// cut: while cut, open connections are closed and new ones are dropped without an answer.
type cutProxy struct {
	URL string
	srv *http.Server

	mu    sync.Mutex
	cut   bool
	conns map[net.Conn]struct{}
}

func startCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	to, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	px := &cutProxy{URL: "http://" + ln.Addr().String(), conns: map[net.Conn]struct{}{}}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(to) // also the Host header: the host checks it
			if pr.In.Header.Get("Origin") == px.URL {
				pr.Out.Header.Set("Origin", target)
			}
		},
		FlushInterval: -1,
	}
	px.srv = &http.Server{
		ReadHeaderTimeout: 10 * time.Second,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if px.isCut() {
				if hj, ok := w.(http.Hijacker); ok {
					if c, _, err := hj.Hijack(); err == nil {
						c.Close()
					}
				}
				return
			}
			rp.ServeHTTP(w, r)
		}),
		ConnState: func(c net.Conn, s http.ConnState) {
			px.mu.Lock()
			defer px.mu.Unlock()
			switch s {
			case http.StateNew:
				px.conns[c] = struct{}{}
			case http.StateClosed, http.StateHijacked:
				delete(px.conns, c)
			}
		},
	}
	go px.srv.Serve(ln)
	t.Cleanup(func() { px.srv.Close() })
	return px
}

func (px *cutProxy) isCut() bool {
	px.mu.Lock()
	defer px.mu.Unlock()
	return px.cut
}

func (px *cutProxy) setCut(cut bool) {
	px.mu.Lock()
	defer px.mu.Unlock()
	px.cut = cut
	if cut {
		for c := range px.conns {
			c.Close()
		}
	}
}

// chatStringsCheckJS imports the panel's dictionaries in the page and lists what is missing: every key
// in both languages, and words for every status, notice, tool status and error code the panel can show.
const chatStringsCheckJS = `(async () => {
  const src = document.querySelector('script[type=module]').src;
  const { STRINGS } = await import(src.slice(0, src.lastIndexOf('/')) + '/chat-strings.js');
  const en = STRINGS.en, zh = STRINGS['zh-CN'];
  const out = [];
  for (const k of new Set([...Object.keys(en), ...Object.keys(zh)])) {
    if (!en[k] || !zh[k]) out.push('missing ' + k);
  }
  const keys = [
    ...['input-submitted', 'input-unobserved', 'submission-uncertain', 'stop-requested', 'input-observed', 'settled-unobserved', 'run-ended'].map((c) => 'chat.notice.' + c),
    ...['context-compacted', 'model-failed', 'reply-aborted'].map((c) => 'chat.item.' + c),
    ...['idle', 'submitting', 'running', 'stopping', 'terminal-prompt'].map((c) => 'chat.run.' + c),
    ...['calling', 'completed', 'failed'].map((c) => 'chat.tool.' + c),
    ...['uncertain', 'busy', 'stale', 'terminal', 'staleEpoch', 'staleRun', 'abortFailed', 'abortUncertain', 'commandLimit', 'rateLimited', 'command', 'tooLong', 'failed'].map((c) => 'chat.err.' + c),
  ];
  for (const k of keys) {
    if (!en[k] || !zh[k] || en[k] === zh[k]) out.push('no words for ' + k);
  }
  for (const k of ['chat.notice.submission-uncertain', 'chat.err.uncertain']) {
    if (!/terminal/.test(en[k] || '') || !/终端/.test(zh[k] || '')) out.push(k + ' does not send the reader to the Pi terminal');
  }
  return out;
})()`

type fakeAnswer struct {
	status int64
	code   string
	fail   bool // the connection drops without an answer
}

// interceptCommands makes the tab's next POSTs to /command get answers (in order; the last repeats)
// from the browser's request interception instead of the host. The returned func stops it.
func interceptCommands(t *testing.T, p *Page, answers []fakeAnswer) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(p.ctx)
	events := chromedp.Events(ctx, fetch.RequestPaused)
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/command"}}})
		return err
	}))
	done := make(chan struct{})
	go func() {
		defer close(done)
		i := 0
		for ev, err := range events {
			if err != nil {
				return
			}
			a := answers[min(i, len(answers)-1)]
			i++
			if a.fail {
				_, _ = chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonConnectionReset})
				continue
			}
			body := fmt.Sprintf(`{"error":{"code":%q,"message":"answered by the test"}}`, a.code)
			_, _ = chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: a.status,
				ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "application/json"}}, Body: []byte(body)})
		}
	}()
	return func() {
		p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, fetch.Disable, cdp.Empty{})
			return err
		}))
		cancel()
		<-done
	}
}
