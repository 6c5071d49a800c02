package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// lineOf reads line k of section s of board id from the server, as ChordPro writes a line.
func lineOf(t *testing.T, s *Server, id string, sec, k int) string {
	t.Helper()
	var doc struct {
		Content struct {
			Sections []struct {
				Lines []struct {
					Text   string `json:"text"`
					Chords []struct {
						At    int    `json:"at"`
						Chord string `json:"chord"`
					} `json:"chords"`
				} `json:"lines"`
			} `json:"sections"`
		} `json:"content"`
	}
	if status := apiJSON(t, "GET", s.URL+"/api/boards/"+id, nil, nil, &doc); status != 200 {
		t.Fatalf("GET board %s: status %d", id, status)
	}
	secs := doc.Content.Sections
	if sec >= len(secs) || k >= len(secs[sec].Lines) {
		return ""
	}
	l := secs[sec].Lines[k]
	units := []rune(l.Text) // the test's lines are in the Basic Multilingual Plane: a rune is a code unit
	var out strings.Builder
	at := 0
	for _, c := range l.Chords {
		out.WriteString(string(units[at:c.At]) + "[" + c.Chord + "]")
		at = c.At
	}
	return out.String() + string(units[at:])
}

// openLine opens the line editor on a line by keyboard: focus on the line, Enter.
func openLine(p *Page, path string) {
	p.t.Helper()
	evalJS[chromedp.Void](p, `document.querySelector('[data-path="`+path+`"]').focus()`)
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitJS(`document.getElementById('line-dialog').open && document.activeElement.id === 'line-text'`, "the line editor, its field focused")
}

// TestLyricsEdit: a line of words edited by keyboard (a chord typed at the caret, a chord put at the
// caret from the chord field, a refused chord said in words), a block of chords over words pasted
// into lines, each saved as the server stores lines; the revision view marks the line that differs;
// two browsers editing the same line get the same-place conflict flow, for that line (issue 25).
func TestLyricsEdit(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	capability := apiCreateBoard(t, s, "grace-edit", lyricSong())
	p := b.newPage(t)
	openBoard(p, s, "grace-edit", capability)

	// Line 2 of Verse 1: "[G]That saved a [Em7]wretch like [D]me". A chord typed at the caret: Home, then
	// "[C]" after the first word.
	openLine(p, "sections[1].lines[1]")
	p.do(chromedp.KeyEvent(kb.Home))
	for range len("[G]That ") {
		p.do(chromedp.KeyEvent(kb.ArrowRight))
	}
	p.do(chromedp.KeyEvent("[Cmaj9]"))
	if got := evalJS[string](p, `document.querySelector('#line-preview .lc .chord:nth-child(1)') && [...document.querySelectorAll('#line-preview .lc .chord')].map((c) => c.textContent).join(' ')`); got != "G Cmaj9 Em7 D" {
		t.Errorf("the preview shows %q, want G Cmaj9 Em7 D", got)
	}
	// A chord the catalogue refuses is said, with its suggestion, and Done waits.
	p.do(chromedp.KeyEvent("[H7]"))
	p.waitJS(`document.getElementById('line-error').textContent.includes('Did you mean B7?')`, "the refused chord said")
	p.do(chromedp.KeyEvent(kb.Enter))
	if !evalJS[bool](p, `document.getElementById('line-dialog').open`) {
		t.Fatal("the editor closed on a refused chord")
	}
	for range len("[H7]") {
		p.do(chromedp.KeyEvent(kb.Backspace))
	}
	// The chord field puts a chord at the caret (the end): Tab to it, type, Enter.
	p.do(chromedp.KeyEvent(kb.End))
	evalJS[chromedp.Void](p, `document.getElementById('line-text').dispatchEvent(new KeyboardEvent('keyup'))`)
	evalJS[chromedp.Void](p, `document.getElementById('line-chord').focus()`)
	p.do(chromedp.KeyEvent("am7"), chromedp.KeyEvent(kb.Enter))
	p.waitJS(`document.getElementById('line-text').value.endsWith('[Am7]')`, "the chord put at the caret")
	p.screenshot("lyrics", "line-editor-desktop-en")
	p.do(chromedp.KeyEvent(kb.Enter)) // Done
	p.waitJS(`!document.getElementById('line-dialog').open`, "the editor closed")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('save-status').textContent.includes('revision 2')`, "the save is confirmed")
	if got := lineOf(t, s, "grace-edit", 1, 1); got != "[G]That [Cmaj9]saved a [Em7]wretch like [D]me[Am7]" {
		t.Errorf("saved line: %q", got)
	}

	// A block of chords over words pasted into the last chorus line makes three lines.
	openLine(p, "sections[3].lines[1]")
	block := "[Chorus]\nG              C\nThe Lord has promised good to me\n      D7        G\nHis word my hope secures\nEm  D\n"
	evalJS[chromedp.Void](p, `(() => {
		const dt = new DataTransfer();
		dt.setData('text/plain', `+jsString(block)+`);
		document.getElementById('line-text').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
	})()`)
	p.waitJS(`!document.getElementById('line-dialog').open && document.querySelectorAll('[data-path^="sections[3].lines"]').length === 4`, "three lines pasted")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('save-status').textContent.includes('revision 3')`, "the paste saved")
	for k, want := range []string{"[G]The Lord has pr[C]omised good to me", "His wo[D7]rd my hope[G] secures", "[Em]    [D]"} {
		if got := lineOf(t, s, "grace-edit", 3, k+1); got != want {
			t.Errorf("pasted line %d: %q, want %q", k+1, got, want)
		}
	}

	// The revision view: revision 1 against the current board marks the line edited.
	p.do(chromedp.Click(chromedp.ID("history-toggle")))
	p.waitJS(`document.querySelector('#history-list [data-rev="1"]') !== null`, "the history list")
	p.do(chromedp.Click(`#history-list [data-rev="1"]`))
	p.waitJS(`document.querySelectorAll('.history-line').length > 0`, "the revision's lines")
	marks := evalJS[[]string](p, `[...document.querySelectorAll('.history-section')].filter((s) => s.querySelector('h4').textContent === 'Verse 1').flatMap((s) => [...s.querySelectorAll('.history-line')].map((l) => l.dataset.mark))`)
	if strings.Join(marks, ",") != ",changed,,," {
		t.Errorf("Verse 1's lines marked %q, want the second changed", marks)
	}
	p.screenshot("lyrics", "history-lines-desktop-en")

	// Two browsers edit the same line: the second to save is shown that line in conflict.
	q := b.newPage(t, phone())
	openBoard(q, s, "grace-edit", capability)
	openLine(p, "sections[1].lines[0]")
	p.do(chromedp.KeyEvent(kb.End), chromedp.KeyEvent("!"), chromedp.KeyEvent(kb.Enter))
	p.waitJS(`!document.getElementById('line-dialog').open && !document.getElementById('save').disabled`, "A's line edited, not saved")
	openLine(q, "sections[1].lines[0]")
	q.do(chromedp.KeyEvent(kb.End), chromedp.KeyEvent("?"), chromedp.KeyEvent(kb.Enter))
	q.waitJS(`!document.getElementById('line-dialog').open`, "B's line edited")
	q.do(chromedp.Click(chromedp.ID("save")))
	q.waitJS(`document.getElementById('save-status').textContent.includes('revision 4')`, "B saved")
	p.waitJS(`!document.getElementById('bar-conflicts').hidden`, "the line in conflict shown to A")
	if got := text(p, "bar-conflicts-list"); !strings.Contains(got, "Section Verse 1, line 1: changed elsewhere to “A[G]mazing grace, [G7]how sweet the [C]sound?”; yours is “A[G]mazing grace, [G7]how sweet the [C]sound!”.") {
		t.Errorf("conflict list %q", got)
	}
	if got := text(p, "bar-conflicts-heading"); got != "The same bar or line was changed in two places" {
		t.Errorf("conflict heading %q", got)
	}
	if !evalJS[bool](p, `document.getElementById('save').disabled`) {
		t.Error("Save is enabled before the line's conflict is settled")
	}
	p.screenshot("lyrics", "line-conflict-desktop-en")
	p.do(chromedp.Click(`#bar-conflicts-list .line-keep`))
	p.waitJS(`document.getElementById('bar-conflicts').hidden && !document.getElementById('save').disabled`, "mine kept")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('save-status').textContent.includes('revision 5')`, "A saved over B")
	if got := lineOf(t, s, "grace-edit", 1, 0); got != "A[G]mazing grace, [G7]how sweet the [C]sound!" {
		t.Errorf("line after the conflict: %q", got)
	}
	q.waitJS(`document.querySelector('[data-path="sections[1].lines[0]"]').textContent.endsWith('sound!')`, "B's page follows")
	p.requireClean("lyrics editing")
	q.requireClean("lyrics editing, the other browser")
}
