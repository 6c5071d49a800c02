package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestFieldConflict (issue 28): a board's fields both sides changed, differently, are the musician's to
// choose, field by field, as bars are: keep mine / use theirs against another page's save, and keep the
// board's / take Pi's against a proposal's accept (412 proposal_conflict naming fields), by keyboard,
// in English and Chinese. Before, another page's title silently lost to this page's unsaved one, and
// an accept whose conflict named only fields said "Not applied: proposal_conflict".
func TestFieldConflict(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	capability := apiCreateBoard(t, s, "duo", sampleContent("Duo"))
	p := b.newPage(t)
	openBoard(p, s, "duo", capability)

	// This page retitles the board and sets a tempo; another saves other ones first.
	typeInto(p, "#f-title", "Duo in G")
	typeInto(p, "#f-tempo", "100")
	theirs := sampleContent("Duo (live)")
	theirs.Tempo = 96
	apiPutBoard(t, s, "duo", capability, 1, theirs)
	p.waitJS(`!document.getElementById('bar-conflicts').hidden`, "the fields in conflict are shown")
	list := text(p, "bar-conflicts-list")
	for _, want := range []string{"Title: changed elsewhere to “Duo (live)”; yours is “Duo in G”.", "Tempo (BPM): changed elsewhere to “96”; yours is “100”."} {
		if !strings.Contains(list, want) {
			t.Errorf("conflict list %q lacks %q", list, want)
		}
	}
	if h := text(p, "bar-conflicts-heading"); h != "The same thing was changed in two places" {
		t.Errorf("heading %q", h)
	}
	if !evalJS[bool](p, `document.getElementById('save').disabled`) {
		t.Error("Save is enabled before the conflicts are settled")
	}
	p.screenshot("board", "field-conflict-desktop-en")
	// By keyboard: keep my title, use their tempo.
	p.do(chromedp.Focus(`#bar-conflicts-list li:first-child button:first-child`), chromedp.KeyEvent(kb.Enter))
	p.waitJS(`document.querySelectorAll('#bar-conflicts-list li').length === 1`, "the title is settled")
	p.do(chromedp.Focus(`#bar-conflicts-list li:first-child button:last-child`), chromedp.KeyEvent(kb.Enter))
	p.waitJS(`document.getElementById('bar-conflicts').hidden && !document.getElementById('save').disabled`, "both settled, Save enabled")
	if v := evalJS[string](p, `document.getElementById('f-tempo').value`); v != "96" {
		t.Errorf("after 'Use theirs' the tempo field shows %q", v)
	}
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('save-status').textContent.includes('revision 3')`, "the save is confirmed")
	if got := apiGetBoard(t, s, "duo").Content; got.Title != "Duo in G" || got.Tempo != 96 {
		t.Errorf("saved title %q tempo %d, want mine and theirs", got.Title, got.Tempo)
	}

	// A page in Chinese says it in Chinese.
	zh := b.newPage(t, browserLanguage("zh-CN"))
	openBoard(zh, s, "duo", capability)
	typeInto(zh, "#f-title", "二重奏")
	again := sampleContent("Duo at last")
	again.Tempo = 96
	apiPutBoard(t, s, "duo", capability, 3, again)
	zh.waitJS(`!document.getElementById('bar-conflicts').hidden`, "the field in conflict, in Chinese")
	if got := text(zh, "bar-conflicts-list"); !strings.Contains(got, "标题：别处改成了“Duo at last”；你的是“二重奏”。") || !strings.Contains(got, "采用别处的（Duo at last）") {
		t.Errorf("Chinese conflict list %q", got)
	}
	zh.do(chromedp.Focus(`#bar-conflicts-list button:last-child`), chromedp.KeyEvent(kb.Enter))
	zh.waitJS(`document.getElementById('bar-conflicts').hidden && document.getElementById('f-title').value === 'Duo at last' && document.getElementById('save').disabled`, "theirs taken, nothing left to save")
	zh.requireClean("a field conflict in Chinese")

	// Pi proposes a title, a tempo and a bar for another board; the board's title changes since. (A
	// server reads a board's proposal files once: this one is written before anything asks for them.)
	trioCap := apiCreateBoard(t, s, "trio", sampleContent("Trio"))
	var cur histDoc
	apiJSON(t, "GET", s.URL+"/api/boards/trio", nil, nil, &cur)
	pi := cur.Content
	pi.Title = "Trio (Pi)"
	pi.Tempo = 132
	pi.Sections = append([]histSection(nil), cur.Content.Sections...)
	pi.Sections[0].Bars = append([]json.RawMessage(nil), cur.Content.Sections[0].Bars...)
	pi.Sections[0].Bars[0] = json.RawMessage(`["A7"]`)
	writeProposal(t, s.DataDir, "trio", "fieldfield", cur.Revision, pi, "A brighter start", time.Now())
	apiPutBoard(t, s, "trio", trioCap, cur.Revision, sampleContent("Trio (band)"))
	openBoard(p, s, "trio", trioCap)
	p.waitJS(`!document.getElementById('proposals').hidden`, "the proposal")
	p.do(chromedp.Click(chromedp.ID("prop-accept-all")))
	p.waitJS(`document.querySelector('#prop-conflicts li[data-key="title"]')`, "the title to choose")
	if got := text(p, "prop-conflicts"); !strings.Contains(got, "Title: the board has “Trio (band)”, Pi proposes “Trio (Pi)”.") || !strings.Contains(got, "Take Pi’s: Trio (Pi)") {
		t.Errorf("the proposal's field conflict: %q", got)
	}
	if focus := evalJS[string](p, `document.activeElement.className`); focus != "prop-keep-board" {
		t.Errorf("focus after the conflict: %q", focus)
	}
	p.screenshot("board", "proposal-field-conflict-desktop-en")
	p.do(chromedp.Focus(`#prop-conflicts .prop-take-pi`), chromedp.KeyEvent(kb.Enter))
	p.waitJS(`document.getElementById('save-status').dataset.i18n === 'edit.saved' && document.getElementById('f-title').value === 'Trio (Pi)'`, "Pi's title, chosen, saved")
	got := apiGetBoard(t, s, "trio")
	if got.Content.Title != "Trio (Pi)" || got.Content.Tempo != 132 || strings.Join(got.Content.Sections[0].Bars[0], " ") != "A7" {
		t.Errorf("after settling: title %q tempo %d bar 1 %v; want Pi's title, Pi's tempo and Pi's bar", got.Content.Title, got.Content.Tempo, got.Content.Sections[0].Bars[0])
	}
	if r := revisionRows(t, s.URL, "trio"); len(r) < 2 || r[1].Author != "pi" || r[1].Proposal != "fieldfield" || r[0].Author != "browser" {
		t.Errorf("history: the accept by pi naming the proposal, then the page's own edit: %+v", r[:min(2, len(r))])
	}
	// The conflict's 412 is the one expected failure in the console.
	for _, pr := range p.problems() {
		if !strings.Contains(pr, "412 (Precondition Failed)") || !strings.Contains(pr, "/proposals/fieldfield/accept") {
			t.Errorf("after the field conflicts: %s", pr)
		}
	}
}
