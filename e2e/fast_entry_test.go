package e2e

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestFastEntry drives keyboard entry on the grid (issue 13 item 5) in Chromium: arrow keys move between
// bars, typing a chord on a focused bar opens its editor with it, and a pasted chart line makes one bar
// per cell (into a focused bar, or into the bar editor's field).
func TestFastEntry(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	capability := apiCreateBoard(t, s, "fast", sampleContent("Fast"))
	p := b.newPage(t)
	openBoard(p, s, "fast", capability)
	focused := func() string {
		return evalJS[string](p, `document.activeElement.closest('li.bar')?.dataset.path || ''`)
	}

	p.do(chromedp.Focus(chromedp.CSS(barButton(0, 0))), chromedp.KeyEvent(kb.ArrowRight))
	if got := focused(); got != "sections[0].bars[1]" {
		t.Errorf("ArrowRight moved to %q", got)
	}
	p.do(chromedp.KeyEvent(kb.ArrowDown))
	if got := focused(); got != "sections[1].bars[1]" {
		t.Errorf("ArrowDown moved to %q (desktop: eight bars a row)", got)
	}
	p.do(chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowUp))
	if got := focused(); got != "sections[0].bars[0]" {
		t.Errorf("ArrowLeft, ArrowUp moved to %q", got)
	}

	// Typing a chord on a focused bar starts editing it.
	p.do(chromedp.KeyEvent("E"))
	p.waitJS(`document.getElementById('bar-dialog').open && document.getElementById('bar-chords').value === 'E'`, "typing opens the editor with the letter typed")
	p.do(chromedp.KeyEvent("b7" + kb.Enter))
	p.waitJS(`!document.getElementById('bar-dialog').open`, "the editor closes")
	if got := barText(p, 0, 0); got != "Eb7" {
		t.Errorf("bar 1 shows %q", got)
	}

	// A chart line pasted on a focused bar: one bar per cell, from that bar on.
	paste := func(target, text string) {
		evalJS[chromedp.Void](p, fmt.Sprintf(`(() => {
			const dt = new DataTransfer(); dt.setData('text/plain', %s);
			document.querySelector(%s).dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
		})()`, jsString(text), jsString(target)))
	}
	p.do(chromedp.Focus(chromedp.CSS(barButton(0, 2))))
	paste(barButton(0, 2), "| C | Am7 | F G | N.C. |")
	if got := gridText(p); got[:len("Eb7 | D7 | C | Am7 | F G | N.C. | Cmaj7")] != "Eb7 | D7 | C | Am7 | F G | N.C. | Cmaj7" {
		t.Errorf("after pasting on bar 3 the grid shows %q", got)
	}
	if got := focused(); got != "sections[0].bars[5]" {
		t.Errorf("focus after the paste is on %q, want the last pasted bar", got)
	}
	// Into the bar editor's field: the same.
	openBarEditor(p, 1, 0)
	paste("#bar-chords", "| Dø | G7♭9 |")
	p.waitJS(`!document.getElementById('bar-dialog').open`, "the editor closes after a multi-bar paste")
	if got := barText(p, 1, 0) + " | " + barText(p, 1, 1); got != "Dm7b5 | G7b9" {
		t.Errorf("pasted into the editor: %q", got)
	}
	p.screenshot("board", "fast-entry-pasted-desktop-en")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('save-status').textContent.includes('revision 2')`, "the save is confirmed")
	if got := apiGetBoard(t, s, "fast").Content.Sections[0].Bars; len(got) != 11 {
		t.Errorf("section A has %d bars after pasting four cells over one bar, want 11", len(got))
	}
	p.requireClean("fast entry")
}

// TestFastEntryForm: a pasted chart line keeps its repeat signs and % bars ("|: Cm7 | F7 | % | Bbmaj7 :|"),
// and "%" or iReal Pro's "x" typed for a bar's chords makes a % bar (issue 23, defect 8: the signs were
// dropped silently, and % and x refused as "not a chord"). Desktop in English, a phone in 简体中文, dark.
func TestFastEntryForm(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	capability := apiCreateBoard(t, s, "pasteform", sampleContent("Paste form"))
	p := b.newPage(t)
	openBoard(p, s, "pasteform", capability)
	paste := func(p *Page, target, text string) {
		evalJS[chromedp.Void](p, fmt.Sprintf(`(() => {
			const dt = new DataTransfer(); dt.setData('text/plain', %s);
			document.querySelector(%s).dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
		})()`, jsString(text), jsString(target)))
	}
	p.do(chromedp.Focus(chromedp.CSS(barButton(0, 0))))
	paste(p, barButton(0, 0), "|: Cm7 | F7 | % | Bbmaj7 :|")
	p.waitJS(`document.querySelector('[data-path="sections[0].bars[3]"]')?.dataset.repeatEnd === '2'`, "the pasted end repeat drawn")
	drawn := evalJS[string](p, `[0, 1, 2, 3].map((b) => { const li = document.querySelector('[data-path="sections[0].bars[' + b + ']"]');
		return (li.dataset.repeatStart !== undefined ? '|: ' : '') + li.querySelector('.chords').textContent + (li.dataset.repeatEnd ? ' :|' : ''); }).join(' | ')`)
	if drawn != "|: Cm7 | F7 | % | Bbmaj7 :|" {
		t.Errorf("after the paste the grid shows %q", drawn)
	}
	// Into the bar editor's field, with iReal Pro's x for the repeated bar and a count after the repeat.
	openBarEditor(p, 1, 0)
	paste(p, "#bar-chords", "|: Dm7 | x :| x3")
	p.waitJS(`!document.getElementById('bar-dialog').open && document.querySelector('[data-path="sections[1].bars[1]"]')?.dataset.repeatEnd === '3'`, "the editor closes after a paste with form")

	// "%" typed on a focused bar opens its editor with it; Enter makes the bar a % bar.
	p.do(chromedp.Focus(chromedp.CSS(barButton(1, 4))), chromedp.KeyEvent("%"))
	p.waitJS(`document.getElementById('bar-dialog').open && document.getElementById('bar-chords').value === '%'`, "typing % opens the editor with it")
	if hint := evalJS[string](p, `document.getElementById('bar-respelled').textContent + '|' + document.getElementById('bar-error').textContent`); hint != "A % bar: it plays the chords of the bar before.|" {
		t.Errorf("the editor says %q for a typed %%", hint)
	}
	p.screenshot("board", "fast-entry-percent-typed-desktop-en")
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitJS(`!document.getElementById('bar-dialog').open`, "the editor closes")
	// "x" typed in the field: the same.
	openBarEditor(p, 1, 6)
	p.do(chromedp.KeyEvent("x" + kb.Enter))
	p.waitJS(`!document.getElementById('bar-dialog').open`, "the editor closes")
	p.screenshot("board", "fast-entry-form-pasted-desktop-en")

	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('board').dataset.dirty === 'false'`, "the board is saved")
	var got struct {
		Content struct {
			Sections []struct{ Bars []json.RawMessage } `json:"sections"`
		} `json:"content"`
	}
	apiJSON(t, "GET", s.URL+"/api/boards/pasteform", nil, nil, &got)
	secs := got.Content.Sections
	want := [][]string{
		{`{"chords":["Cm7"],"repeatStart":true}`, `["F7"]`, `{"chords":"%"}`, `{"chords":["Bbmaj7"],"repeatEnd":2}`, `["D7"]`},
		{`{"chords":["Dm7"],"repeatStart":true}`, `{"chords":"%","repeatEnd":3}`, `["B7"]`, `["Em","Em/D"]`, `{"chords":"%"}`, `["Am7"]`, `{"chords":"%"}`, `["Gmaj7"]`},
	}
	for si, bars := range want {
		for bi, w := range bars {
			if bi >= len(secs[si].Bars) || !sameJSON(string(secs[si].Bars[bi]), w) {
				t.Errorf("saved bar %d of section %d: %s, want %s", bi+1, si+1, secs[si].Bars[min(bi, len(secs[si].Bars)-1)], w)
			}
		}
	}

	// A phone in Chinese, dark: the editor says the same in Chinese.
	phone := b.newPage(t, viewport(390, 844), darkScheme())
	openBoard(phone, s, "pasteform", capability)
	switchLanguageScripted(phone, "zh-CN")
	openBarEditor(phone, 0, 4)
	phone.do(chromedp.KeyEvent("%"))
	phone.waitJS(`document.getElementById('bar-respelled').textContent === '% 小节：演奏前一小节的和弦。' && !document.getElementById('bar-error').textContent`, "the % hint in Chinese")
	phone.screenshot("board", "fast-entry-percent-typed-phone-zh-dark")
	phone.do(chromedp.KeyEvent(kb.Escape))
	p.requireClean("pasting form")
	phone.requireClean("typing % on a phone")
}
