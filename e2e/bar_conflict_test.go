package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSameBarConflict is issue 13 item 6's first defect, which failed before its fix: page A changes bar 3
// without saving, someone else saves bar 3, and A's change used to win silently (their chord gone, a
// collapsed note only). Now A is shown the bar in conflict and chooses; saving waits for the choice.
func TestSameBarConflict(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	c := sampleContent("Duet")
	capability := apiCreateBoard(t, s, "duet", c)
	p := b.newPage(t)
	openBoard(p, s, "duet", capability)

	editBar(p, 0, 2, "Am7")
	theirs := sampleContent("Duet")
	theirs.Sections[0].Bars[2] = []string{"G7"}
	apiPutBoard(t, s, "duet", capability, 1, theirs)
	p.waitJS(`!document.getElementById('bar-conflicts').hidden`, "the bar in conflict is shown")
	if got := text(p, "bar-conflicts-list"); !strings.Contains(got, "Bar 3: changed elsewhere to G7; yours is Am7.") {
		t.Errorf("conflict list %q", got)
	}
	if !evalJS[bool](p, `document.getElementById('save').disabled`) {
		t.Error("Save is enabled before the conflict is settled")
	}
	p.screenshot("board", "same-bar-conflict-desktop-en")
	p.do(chromedp.Click(chromedp.CSS(`#bar-conflicts-list button:last-child`))) // Use theirs (G7)
	p.waitJS(`document.getElementById('bar-conflicts').hidden`, "the conflict is settled")
	if got := barText(p, 0, 2); got != "G7" {
		t.Errorf("after 'Use theirs' bar 3 shows %q", got)
	}
	if !evalJS[bool](p, `document.getElementById('save').disabled`) {
		t.Error("taking theirs left an unsaved change")
	}

	// Again, keeping mine: the save writes it, on top of their revision.
	editBar(p, 0, 2, "Am7")
	theirs.Sections[0].Bars[2] = []string{"E7"}
	apiPutBoard(t, s, "duet", capability, 2, theirs)
	p.waitJS(`!document.getElementById('bar-conflicts').hidden`, "the second conflict is shown")
	p.do(chromedp.Click(chromedp.CSS(`#bar-conflicts-list button:first-child`))) // Keep mine (Am7)
	p.waitJS(`document.getElementById('bar-conflicts').hidden && !document.getElementById('save').disabled`, "mine kept, Save enabled")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('save-status').textContent.includes('revision 4')`, "the save is confirmed")
	if got := apiGetBoard(t, s, "duet").Content.Sections[0].Bars[2]; strings.Join(got, " ") != "Am7" {
		t.Errorf("saved bar 3 = %v", got)
	}
	p.requireClean("same-bar conflict")
}

// TestSameBarConflictForm: the same conflict on a chart with form (content version 2), where their bar
// is written as an object: the list used to throw "c.theirs.join is not a function" and show nothing.
// Their bar is named with its form, as a chart writes it.
func TestSameBarConflictForm(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	capability := apiCreateBoard(t, s, "duet-form", json.RawMessage(richChart))
	p := b.newPage(t)
	openBoard(p, s, "duet-form", capability)

	editBar(p, 0, 2, "Am7")
	theirs := strings.Replace(richChart, `{"chords":["Bb7"],"ending":1,"repeatEnd":2}`, `{"chords":["G7"],"ending":1,"repeatEnd":2}`, 1)
	if status := apiJSON(t, "PUT", s.URL+"/api/boards/duet-form", map[string]string{"Authorization": "Bearer " + capability, "If-Match": `"1"`},
		json.RawMessage(theirs), nil); status != 200 {
		t.Fatalf("their save: status %d", status)
	}
	p.waitJS(`!document.getElementById('bar-conflicts').hidden`, "the bar in conflict is shown")
	if got := text(p, "bar-conflicts-list"); !strings.Contains(got, "Bar 3: changed elsewhere to 1. G7 :|; yours is Am7.") {
		t.Errorf("conflict list %q", got)
	}
	p.do(chromedp.Click(chromedp.CSS(`#bar-conflicts-list button:first-child`))) // Keep mine (Am7)
	p.waitJS(`document.getElementById('bar-conflicts').hidden && !document.getElementById('save').disabled`, "mine kept, Save enabled")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('save-status').textContent.includes('revision 3')`, "the save is confirmed")
	var got histDoc
	apiJSON(t, "GET", s.URL+"/api/boards/duet-form", nil, nil, &got)
	if bar := string(got.Content.Sections[0].Bars[2]); !sameJSON(bar, `{"chords":["Am7"],"ending":1,"repeatEnd":2}`) {
		t.Errorf("saved bar 3 = %s, want Am7 with its ending and end repeat", bar)
	}
	p.requireClean("same-bar conflict on a chart with form")
}
