package e2e

import (
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
