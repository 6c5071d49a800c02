package e2e

// Helpers of TestBoardPage: addressing bars, typing into the page, recording its saves.

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

func barButton(s, b int) string {
	return fmt.Sprintf(`[data-path="sections[%d].bars[%d]"] .bar-btn`, s, b)
}

func barTextJS(s, b int) string {
	return fmt.Sprintf(`document.querySelector('[data-path="sections[%d].bars[%d]"] .chords').textContent`, s, b)
}

// barText is the chords a bar shows, e.g. "Em Em/D" for two chords (joined with a space).
func barText(p *Page, s, b int) string {
	p.t.Helper()
	return evalJS[string](p, fmt.Sprintf(`[...document.querySelectorAll('[data-path="sections[%d].bars[%d]"] .chord')].map((e) => e.textContent).join(' ')`, s, b))
}

// editBar opens the bar editor with a click, types chords and presses Enter.
func editBar(p *Page, s, b int, chords string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(barButton(s, b))))
	p.waitJS(`document.getElementById('bar-dialog').open && document.activeElement.id === 'bar-chords'`, "the bar dialog opens with the chords field focused")
	// The field opens with the bar's chords selected: typing replaces them.
	p.do(chromedp.KeyEvent(chords + kb.Enter))
	p.waitJS(`!document.getElementById('bar-dialog').open`, "the bar dialog closes")
	if got := barText(p, s, b); got != chords {
		p.t.Fatalf("bar %d of section %d shows %q after typing %q", b+1, s+1, got, chords)
	}
}

// typeInto replaces a field's text by typing, as a user would (select the old text, type over it).
func typeInto(p *Page, sel, text string) {
	p.t.Helper()
	p.do(chromedp.Focus(chromedp.CSS(sel)))
	// Select all and one Backspace, as a user clears a field: one key per old character costs a browser
	// round trip each, and a long description ran out of the test's time on a loaded machine.
	evalJS[bool](p, fmt.Sprintf(`(document.querySelector(%s).select(), true)`, jsString(sel)))
	p.do(chromedp.KeyEvent(kb.Backspace + text))
	if v := evalJS[string](p, fmt.Sprintf(`document.querySelector(%s).value`, jsString(sel))); v != text {
		p.t.Fatalf("typing into %s gave %q", sel, v)
	}
}

// putRequest is a PUT the page sent.
type putRequest struct {
	URL     string
	Headers map[string]any
}

// recordPUTs records the PUT requests the page sends from now on; call the result to read them.
func recordPUTs(p *Page) func() []putRequest {
	var mu sync.Mutex
	var reqs []putRequest
	events := chromedp.Events(p.ctx, network.RequestWillBeSent)
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			if ev.Request.Method != "PUT" {
				continue
			}
			h := map[string]any{}
			_ = json.Unmarshal(mustJSON(ev.Request.Headers), &h)
			mu.Lock()
			reqs = append(reqs, putRequest{URL: ev.Request.URL, Headers: h})
			mu.Unlock()
		}
	}()
	return func() []putRequest {
		evalJS[int](p, `1`) // let events already sent arrive
		mu.Lock()
		defer mu.Unlock()
		return append([]putRequest(nil), reqs...)
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// requireInWindow fails the test unless the element of that id is shown whole inside the window.
func requireInWindow(t *testing.T, p *Page, id, what string) {
	t.Helper()
	if !evalJS[bool](p, fmt.Sprintf(`(() => {
		const r = document.getElementById(%s).getBoundingClientRect();
		return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
	})()`, jsString(id))) {
		t.Errorf("%s (#%s) are not in the window", what, id)
	}
}
