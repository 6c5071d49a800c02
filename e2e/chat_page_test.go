package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// ---- pages ----

// newChatTab opens a tab in b with the fetch recorder installed; it closes when t ends.
func (r *chatRig) newChatTab(t testing.TB, b *Browser, opts ...PageOption) *Page {
	t.Helper()
	p := b.newPage(t, opts...)
	addInitScript(p, chatRecorderScript)
	return p
}

// openChatPage opens target in a new tab of b with the fetch recorder installed, and waits for the board.
func (r *chatRig) openChatPage(t testing.TB, b *Browser, target string, opts ...PageOption) *Page {
	t.Helper()
	p := r.newChatTab(t, b, opts...)
	r.navigate(p, target)
	return p
}

// navigate loads target in p and waits for the board.
func (r *chatRig) navigate(p *Page, target string) {
	p.t.Helper()
	p.do(chromedp.Navigate(target))
	waitBoardReady(p)
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
