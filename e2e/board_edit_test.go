package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

func testEditSave(t *testing.T, s *Server, b *Browser) {
	capability := apiCreateBoard(t, s, "edit-me", sampleContent("Edit me"))
	p := b.newPage(t)
	openBoard(p, s, "edit-me", capability)

	// Keyboard: a bar's button opens its editor with Enter; Escape closes it and focus goes back.
	p.do(chromedp.Focus(chromedp.CSS(barButton(1, 3))), chromedp.KeyEvent(kb.Enter))
	p.waitJS(`document.getElementById('bar-dialog').open && document.activeElement.id === 'bar-chords'`, "Enter opens the bar editor")
	if v := evalJS[string](p, `document.getElementById('bar-chords').value`); v != "C#m7b5 F#7" {
		t.Errorf("the editor of bar 12 holds %q", v)
	}
	p.screenshot("board", "bar-editor-desktop-en")
	p.do(chromedp.KeyEvent(kb.Escape))
	p.waitJS(`!document.getElementById('bar-dialog').open`, "Escape closes the bar editor")
	if !evalJS[bool](p, fmt.Sprintf(`document.activeElement === document.querySelector(%s)`, jsString(barButton(1, 3)))) {
		t.Error("focus did not return to the bar after Escape")
	}
	if evalJS[bool](p, `!document.getElementById('save').disabled`) {
		t.Error("cancelling the editor left an unsaved change")
	}

	typeInto(p, "#f-title", "Autumn in G")
	// Typing a chord.
	editBar(p, 0, 0, "F#m7b5/C#")
	// Picking one from the catalogue: root, quality, bass.
	p.do(chromedp.Click(chromedp.CSS(barButton(0, 1))))
	p.waitJS(`document.getElementById('bar-dialog').open`, "the bar dialog opens")
	evalJS[chromedp.Void](p, `(() => {
		const set = (id, v) => { const el = document.getElementById(id); el.value = v; el.dispatchEvent(new Event('change', { bubbles: true })); };
		set('pick-root', 'Bb'); set('pick-quality', '7'); set('pick-bass', 'D');
	})()`)
	p.do(chromedp.Click(chromedp.ID("pick-replace")))
	if v := evalJS[string](p, `document.getElementById('bar-chords').value`); v != "Bb7/D" {
		t.Errorf("picked chord = %q, want Bb7/D", v)
	}
	p.do(chromedp.Click(chromedp.ID("bar-apply")))
	p.waitJS(`!document.getElementById('bar-dialog').open`, "the bar dialog closes")
	if got := barText(p, 0, 1); got != "Bb7/D" {
		t.Errorf("bar 2 shows %q", got)
	}
	p.waitJS(`!document.getElementById('save').disabled`, "Save is enabled")
	p.screenshot("board", "edit-unsaved-desktop-en")

	// One save is one PUT with If-Match and the capability.
	puts := recordPUTs(p)
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('save-status').textContent.includes('revision 2')`, "the save is confirmed")
	reqs := puts()
	if len(reqs) != 1 {
		t.Fatalf("one save sent %d PUT requests, want 1", len(reqs))
	}
	if h := reqs[0].Headers; h["If-Match"] != `"1"` || h["Authorization"] != "Bearer "+capability || !strings.HasPrefix(fmt.Sprint(h["Content-Type"]), "application/json") {
		t.Errorf("the PUT carries If-Match %v, Content-Type %v, and the capability: %v", h["If-Match"], h["Content-Type"], h["Authorization"] == "Bearer "+capability)
	}

	onDisk := boardFile(t, s, "edit-me")
	if onDisk.Revision != 2 || onDisk.Content.Title != "Autumn in G" ||
		strings.Join(onDisk.Content.Sections[0].Bars[0], " ") != "F#m7b5/C#" ||
		strings.Join(onDisk.Content.Sections[0].Bars[1], " ") != "Bb7/D" {
		t.Errorf("board file after the save: revision %d, title %q, bars %v", onDisk.Revision, onDisk.Content.Title, onDisk.Content.Sections[0].Bars[:2])
	}

	p.do(chromedp.Reload())
	waitBoardReady(p)
	if v := evalJS[string](p, `document.getElementById('f-title').value`); v != "Autumn in G" {
		t.Errorf("after reload the title is %q", v)
	}
	if got := barText(p, 0, 0) + " " + barText(p, 0, 1); got != "F#m7b5/C# Bb7/D" {
		t.Errorf("after reload bars 1-2 show %q", got)
	}
	if title := evalJS[string](p, `document.title`); !strings.Contains(title, "Autumn in G") {
		t.Errorf("document.title = %q", title)
	}
	p.requireClean("after the save and a reload")
	p.screenshot("board", "edit-saved-reloaded-desktop-en")

	// A save the server refuses (422) shows the rule and marks the field; nothing changes on disk.
	typeInto(p, "#f-tempo", "999")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`!document.getElementById('message').hidden`, "the refusal is shown")
	msg := evalJS[string](p, `document.getElementById('message').textContent`)
	if !strings.Contains(msg, "Tempo") || !strings.Contains(msg, "300") {
		t.Errorf("422 message = %q, want the field and the rule", msg)
	}
	if !evalJS[bool](p, `document.getElementById('f-tempo').getAttribute('aria-invalid') === 'true' && document.activeElement.id === 'f-tempo'`) {
		t.Error("the tempo field is not marked invalid and focused")
	}
	if v := evalJS[string](p, `document.getElementById('f-tempo').value`); v != "999" {
		t.Errorf("the typed tempo was lost: %q", v)
	}
	if rev := boardFile(t, s, "edit-me").Revision; rev != 2 {
		t.Errorf("a refused save changed the board: revision %d", rev)
	}
	p.screenshot("board", "invalid-tempo-desktop-en")
	typeInto(p, "#f-tempo", "96")
	if evalJS[bool](p, `document.getElementById('f-tempo').hasAttribute('aria-invalid') || !document.getElementById('message').hidden`) {
		t.Error("fixing the field does not clear the mark")
	}
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('save-status').textContent.includes('revision 3')`, "the fixed save is confirmed")
	if c := boardFile(t, s, "edit-me").Content; c.Tempo != 96 {
		t.Errorf("tempo on disk = %d", c.Tempo)
	}
}

func testStructure(t *testing.T, s *Server, b *Browser) {
	capability := apiCreateBoard(t, s, "shape", sampleContent("Shape"))
	p := b.newPage(t)
	openBoard(p, s, "shape", capability)
	section := func(i int) string { return fmt.Sprintf(`[data-path="sections[%d]"]`, i) }

	// A new section C at the end, labelled "Coda", moved above B.
	p.do(chromedp.Click(chromedp.CSS(".add-section")))
	p.waitJS(`document.querySelectorAll('.section').length === 3 && document.activeElement.matches('[data-path="sections[2].label"]')`, "a third section, its label focused")
	typeInto(p, `[data-path="sections[2].label"]`, "Coda")
	p.do(chromedp.Click(chromedp.CSS(section(2) + " .move-up")))
	if got := evalJS[string](p, `[...document.querySelectorAll('.mark-input')].map((e) => e.value).join(',')`); got != "A,Coda,B" {
		t.Errorf("section order %q, want A,Coda,B", got)
	}
	if !evalJS[bool](p, `document.activeElement === document.querySelector('[data-path="sections[1]"] .move-up')`) {
		t.Error("focus did not follow the moved section")
	}
	// In section A: bar 1 moves later, bar 3 goes, a bar is added to the end of Coda.
	p.do(chromedp.Click(chromedp.CSS(barButton(0, 0))))
	p.waitJS(`document.getElementById('bar-dialog').open`, "the bar editor opens")
	p.do(chromedp.Click(chromedp.ID("bar-move-next")))
	p.waitJS(`!document.getElementById('bar-dialog').open`, "the bar editor closes")
	p.do(chromedp.Click(chromedp.CSS(barButton(0, 2))))
	p.waitJS(`document.getElementById('bar-dialog').open`, "the bar editor opens")
	p.do(chromedp.Click(chromedp.ID("bar-remove")))
	p.waitJS(`!document.getElementById('bar-dialog').open`, "the bar editor closes")
	p.do(chromedp.Click(chromedp.CSS(section(1) + " .add-bar")))
	p.screenshot("board", "structure-unsaved-desktop-en")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('save-status').textContent.includes('revision 2')`, "the save is confirmed")

	c := boardFile(t, s, "shape").Content
	var labels []string
	for _, sec := range c.Sections {
		labels = append(labels, fmt.Sprintf("%s:%d", sec.Label, len(sec.Bars)))
	}
	if got := strings.Join(labels, " "); got != "A:7 Coda:5 B:8" {
		t.Errorf("sections on disk %q, want A:7 Coda:5 B:8", got)
	}
	if got := fmt.Sprint(c.Sections[0].Bars[:3]); got != "[[D7] [Am7] [Cmaj7]]" {
		t.Errorf("section A starts %s, want [[D7] [Am7] [Cmaj7]]", got)
	}
	// Removing the new section again.
	p.do(chromedp.Click(chromedp.CSS(section(1) + " .remove")))
	p.waitJS(`document.querySelectorAll('.section').length === 2`, "the section is removed")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('save-status').textContent.includes('revision 3')`, "the save is confirmed")
	if n := len(boardFile(t, s, "shape").Content.Sections); n != 2 {
		t.Errorf("%d sections on disk after removing one", n)
	}
	p.requireClean("structure edits")
}
