package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestChordSpellings drives the bar editor with the spellings musicians type (issue 13 item 2, issue 23
// defect 2) in a real Chromium against a real `tele serve`: aliases, iReal Pro's ^ and the Mac's ∆
// (U+2206) among them, are written the catalogue's way; a refused symbol gets the suggestion the
// importers would make (H7 → B7), in English and in 简体中文, that one click applies; a symbol read
// completely that the catalogue lacks gets none; and the board file holds the catalogue's spelling.
// Screenshots go to .audit/board/.
func TestChordSpellings(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	capability := apiCreateBoard(t, s, "spellings", sampleContent("Spellings"))

	p := b.newPage(t)
	openBoard(p, s, "spellings", capability)
	openBarEditor(p, 0, 0)
	p.do(chromedp.KeyEvent("Dø G7♭9 Bb∆7 Bb^7"))
	p.waitJS(`document.getElementById('bar-respelled').textContent.includes('Dm7b5 G7b9 Bbmaj7 Bbmaj7')`, "the editor shows how the aliases will be written")
	p.screenshot("board", "chords-respelled-desktop-en")
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitJS(`!document.getElementById('bar-dialog').open`, "the bar dialog closes")
	if got := barText(p, 0, 0); got != "Dm7b5 G7b9 Bbmaj7 Bbmaj7" {
		t.Errorf("bar 1 shows %q, want the catalogue's spelling", got)
	}

	// A quality the catalogue lacks, read completely, gets no guess that would change a chord tone.
	openBarEditor(p, 0, 3)
	p.do(chromedp.KeyEvent("C7sus2"))
	p.waitJS(`document.getElementById('bar-error').textContent.includes('C7sus2')`, "C7sus2 is refused")
	if got := evalJS[string](p, `(() => { const b = document.getElementById('bar-suggest'); return b.hidden ? '' : b.textContent; })()`); got != "" {
		t.Errorf("C7sus2 got the suggestion %q", got)
	}
	p.do(chromedp.KeyEvent(kb.Escape))
	p.waitJS(`!document.getElementById('bar-dialog').open`, "the bar dialog closes")

	openBarEditor(p, 0, 1)
	p.do(chromedp.KeyEvent("H7" + kb.Enter))
	p.waitJS(`document.getElementById('bar-error').textContent.includes('Did you mean “B7”?')`, "the refusal suggests B7")
	if msg := evalJS[string](p, `document.getElementById('bar-error').textContent`); msg != "Not a chord Tele knows: “H7”. Did you mean “B7”?" {
		t.Errorf("refusal = %q", msg)
	}
	if !evalJS[bool](p, `document.getElementById('bar-dialog').open && document.getElementById('bar-chords').getAttribute('aria-invalid') === 'true'`) {
		t.Error("Enter applied a refused chord")
	}
	if got := evalJS[string](p, `(() => { const b = document.getElementById('bar-suggest'); return b.hidden ? '' : b.textContent; })()`); got != "Use B7" {
		t.Errorf("suggestion button %q", got)
	}
	p.screenshot("board", "chords-suggestion-desktop-en")
	p.do(chromedp.Click(chromedp.ID("bar-suggest")))
	if v := evalJS[string](p, `document.getElementById('bar-chords').value`); v != "B7" {
		t.Errorf("after using the suggestion the field holds %q", v)
	}
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitJS(`!document.getElementById('bar-dialog').open`, "the bar dialog closes")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('save-status').textContent.includes('revision 2')`, "the save is confirmed")
	if bars := apiGetBoard(t, s, "spellings").Content.Sections[0].Bars; strings.Join(bars[0], " ") != "Dm7b5 G7b9 Bbmaj7 Bbmaj7" || strings.Join(bars[1], " ") != "B7" {
		t.Errorf("board file bars %v", bars[:2])
	}
	p.requireClean("chord spellings, English")

	// 简体中文 on a phone in dark mode: the same refusal in Chinese.
	q := b.newPage(t, phone(), darkScheme(), storageDisabled(), browserLanguage("zh-CN"))
	openBoard(q, s, "spellings", capability)
	openBarEditor(q, 0, 2)
	q.do(chromedp.KeyEvent("Cdim7b"))
	q.waitJS(`document.getElementById('bar-error').textContent.includes('Cdim7')`, "the refusal suggests Cdim7")
	if msg := evalJS[string](q, `document.getElementById('bar-error').textContent`); msg != "Tele 不认识这个和弦：“Cdim7b”。你是想写“Cdim7”吗？" {
		t.Errorf("Chinese refusal = %q", msg)
	}
	if got := evalJS[string](q, `document.getElementById('bar-suggest').textContent`); got != "改用 Cdim7" {
		t.Errorf("Chinese suggestion button %q", got)
	}
	q.screenshot("board", "chords-suggestion-phone-zh-dark")
	q.requireClean("chord spellings, Chinese")
}

// openBarEditor opens bar b of section s with a click and waits for the chords field to have focus
// (with the bar's chords selected, so typing replaces them).
func openBarEditor(p *Page, s, b int) {
	p.t.Helper()
	// Bring the bar into view and let a frame be drawn before pressing: a bar off screen is not drawn
	// inside (content-visibility, app.css), and the browser draws the bars that came near the window
	// once a frame, so a press sent straight after the scroll (as chromedp.Click sends it) hits the
	// bar's box, not its button, and opens nothing. A person only ever presses on a bar drawn.
	evalJS[chromedp.Void](p, fmt.Sprintf(`(async () => {
		document.querySelector(%s).scrollIntoView({ block: 'center' });
		for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
	})()`, jsString(barButton(s, b))))
	p.do(chromedp.Click(chromedp.CSS(barButton(s, b))))
	p.waitJS(`document.getElementById('bar-dialog').open && document.activeElement.id === 'bar-chords'`, "the bar dialog opens with the chords field focused")
}

// apiGetBoard reads a board through GET /api/boards/:board, as another client would.
func apiGetBoard(t testing.TB, s *Server, id string) boardDoc {
	t.Helper()
	var doc boardDoc
	if status := apiJSON(t, "GET", s.URL+"/api/boards/"+id, nil, nil, &doc); status != 200 {
		t.Fatalf("GET board %s: status %d", id, status)
	}
	return doc
}
