package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBoardPage drives the board UI (issue 3) in a real headless Chromium against a real `tele serve`
// with a temporary data directory. One server and one browser serve every subtest; each subtest uses
// its own boards and tabs. Screenshots of each state go to .audit/board/.
func TestBoardPage(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	t.Run("board list and a new board", func(t *testing.T) { testBoardList(t, s, b) })
	t.Run("edit link: clean load, capability kept out of URLs and localStorage", func(t *testing.T) { testCapability(t, s, b) })
	t.Run("edit, save, reload, and a refused save", func(t *testing.T) { testEditSave(t, s, b) })
	t.Run("sections and bars: add, label, reorder, remove", func(t *testing.T) { testStructure(t, s, b) })
	t.Run("two pages: a save appears in the other without disturbing its edit", func(t *testing.T) { testLive(t, s, b) })
	t.Run("stale save: conflict flow, the edit survives, the stream comes back", func(t *testing.T) { testConflict(t, s, b) })
	t.Run("phone and desktop layout", func(t *testing.T) { testLayout(t, s, b) })
	t.Run("language switch", func(t *testing.T) { testLanguage(t, s, b) })
	t.Run("player", func(t *testing.T) { testPlayer(t, s, b) })
	t.Run("the clean-page check can fail", func(t *testing.T) { testProblemsAreCaught(t, s, b) })
}

// testProblemsAreCaught shows that requireClean is not vacuous: an inline script (refused by the CSP)
// and a console error on a real page are both reported.
func testProblemsAreCaught(t *testing.T, s *Server, b *Browser) {
	p := b.newPage(t)
	openBoard(p, s, "welcome", "")
	if pr := p.problems(); len(pr) != 0 {
		t.Fatalf("a clean page reports %v", pr)
	}
	evalJS[chromedp.Void](p, `(() => {
		const el = document.createElement('script');
		el.textContent = 'window.__inlineRan = true';
		document.body.append(el);
		console.error('probe: a console error');
	})()`)
	p.waitJS(`window.__probe.csp.length > 0`, "the CSP violation is recorded")
	if evalJS[bool](p, `window.__inlineRan === true`) {
		t.Error("an inline script ran despite the CSP")
	}
	var csp, consoleErr bool
	for _, pr := range p.problems() {
		csp = csp || strings.Contains(pr, "CSP violation: script-src")
		consoleErr = consoleErr || strings.Contains(pr, "probe: a console error")
	}
	if !csp || !consoleErr {
		t.Errorf("problems() missed the CSP violation (%v) or the console error (%v): %v", csp, consoleErr, p.problems())
	}
}

func testBoardList(t *testing.T, s *Server, b *Browser) {
	p := b.newPage(t)
	p.do(chromedp.Navigate(s.URL + "/"))
	p.waitJS(`document.documentElement.dataset.ready === "true"`, "the list page is ready")
	p.waitJS(`document.querySelector('#board-list a[href="/b/welcome"]')`, "the welcome board is listed")
	card := evalJS[string](p, `document.querySelector('#board-list .card').textContent`)
	for _, want := range []string{"Welcome to Tele", "welcome", "revision 1", "changed "} {
		if !strings.Contains(card, want) {
			t.Errorf("board card %q lacks %q", card, want)
		}
	}
	p.requireClean("board list loaded")
	p.screenshot("board", "list-desktop-en")

	// A new board opens in edit mode, with its capability in this tab's sessionStorage only.
	p.do(
		chromedp.SendKeys(chromedp.ID("new-id"), "friday-set"),
		chromedp.SendKeys(chromedp.ID("new-title"), "Friday set"),
		chromedp.Click(chromedp.ID("new-create")),
	)
	p.waitJS(`location.pathname === "/b/friday-set"`, "the new board opens")
	waitBoardReady(p)
	if v := evalJS[string](p, `document.getElementById('f-title').value`); v != "Friday set" {
		t.Errorf("new board title input = %q", v)
	}
	if !evalJS[bool](p, `!document.getElementById('meta-form').hidden && !document.getElementById('save-bar').hidden`) {
		t.Error("the new board did not open in edit mode")
	}
	capability := readCapability(t, s, "friday-set")
	checkCapabilityPlacement(t, p, "friday-set", capability)
	p.requireClean("new board opened")
	p.screenshot("board", "new-board-edit-desktop-en")
}

func testCapability(t *testing.T, s *Server, b *Browser) {
	p := b.newPage(t)
	p.do(chromedp.Navigate(s.EditLink))
	waitBoardReady(p)
	p.requireClean("the welcome board loaded from its edit link")
	capability := s.EditLink[strings.Index(s.EditLink, "#cap=")+len("#cap="):]
	checkCapabilityPlacement(t, p, "welcome", capability)
	if !evalJS[bool](p, `!document.getElementById('meta-form').hidden`) {
		t.Error("the edit link did not open the board in edit mode")
	}
	p.screenshot("board", "welcome-edit-desktop-en")

	// A reload of the tab keeps edit mode (sessionStorage) and still shows no fragment.
	p.do(chromedp.Reload())
	waitBoardReady(p)
	if !evalJS[bool](p, `!document.getElementById('meta-form').hidden`) {
		t.Error("after a reload the board is no longer editable")
	}
	checkCapabilityPlacement(t, p, "welcome", capability)
	p.requireClean("after a reload")

	// Without the capability the page is read-only and says how to get an edit link.
	r := b.newPage(t)
	openBoard(r, s, "welcome", "")
	note := evalJS[string](r, `(() => { const n = document.getElementById('readonly-note'); return n.hidden ? '' : n.textContent.replace(/\s+/g, ' ').trim(); })()`)
	if !strings.Contains(note, "tele board link welcome") {
		t.Errorf("read-only note = %q, want it to name `tele board link welcome`", note)
	}
	if evalJS[bool](r, `!document.getElementById('meta-form').hidden || !document.getElementById('save-bar').hidden || !!document.querySelector('.bar-btn, .add-bar, .add-section')`) {
		t.Error("the read-only page shows edit controls")
	}
	r.requireClean("read-only board loaded")
	r.screenshot("board", "welcome-readonly-desktop-en")
}

// checkCapabilityPlacement: the fragment is gone, the capability is in sessionStorage under
// tele.cap:<board>, and nowhere in localStorage, the URL, the navigation entry or the DOM.
func checkCapabilityPlacement(t *testing.T, p *Page, board, capability string) {
	t.Helper()
	got := evalJS[map[string]any](p, fmt.Sprintf(`(() => {
		const cap = %s;
		const local = [];
		for (let i = 0; i < localStorage.length; i++) { const k = localStorage.key(i); local.push(k + '=' + localStorage.getItem(k)); }
		return {
			hash: location.hash,
			inURL: location.href.includes(cap) || location.href.includes('cap='),
			inSession: sessionStorage.getItem('tele.cap:' + %s) === cap,
			inLocal: local.some((kv) => kv.includes(cap)),
			inDOM: document.documentElement.outerHTML.includes(cap),
		};
	})()`, jsString(capability), jsString(board)))
	if got["hash"] != "" || got["inURL"] != false {
		t.Errorf("the fragment was not erased: hash %q", got["hash"])
	}
	if got["inSession"] != true {
		t.Error("the capability is not in sessionStorage under tele.cap:" + board)
	}
	if got["inLocal"] != false {
		t.Error("the capability was written to localStorage")
	}
	if got["inDOM"] != false {
		t.Error("the capability appears in the page's DOM")
	}
}

// readCapability reads <data>/caps/<id>.
func readCapability(t *testing.T, s *Server, id string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(s.DataDir, "caps", id))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(data))
}

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

func testLive(t *testing.T, s *Server, b *Browser) {
	capability := apiCreateBoard(t, s, "duet", sampleContent("Duet"))
	a := b.newPage(t)
	openBoard(a, s, "duet", capability)
	other := b.newPage(t, viewport(1280, 560))
	openBoard(other, s, "duet", capability)

	// The other page has an edit in progress: typing in the description, caret inside the text,
	// scrolled down a little.
	other.do(chromedp.Click(chromedp.ID("f-description")), chromedp.KeyEvent(kb.End+" Slowly."))
	before := evalJS[map[string]any](other, `(() => {
		const d = document.getElementById('f-description');
		d.setSelectionRange(4, 4);
		window.scrollTo(0, 240);
		window.__barNode = document.querySelector('[data-path="sections[1].bars[0]"]');
		window.__gridNode = document.getElementById('grid');
		return { value: d.value, scrollY: window.scrollY, gridTop: document.getElementById('grid').getBoundingClientRect().top };
	})()`)
	if before["scrollY"].(float64) < 100 {
		t.Fatalf("the page did not scroll (scrollY %v); the test needs a taller board", before["scrollY"])
	}

	editBar(a, 1, 0, "Bb7")
	// Both pages timestamp, in the page (one browser, one clock), the moment the save is confirmed in
	// the first and the moment the chord appears in the second: the delay measured is the app's, not
	// the test's polling.
	evalJS[chromedp.Void](a, `(() => {
		const el = document.getElementById('save-status');
		window.__savedAt = 0;
		new MutationObserver(() => { if (!window.__savedAt && el.textContent.includes('revision 2')) window.__savedAt = Date.now(); })
			.observe(el, { childList: true, subtree: true, characterData: true });
	})()`)
	evalJS[chromedp.Void](other, `(() => {
		const el = document.querySelector('[data-path="sections[1].bars[0]"] .chords');
		window.__updatedAt = 0;
		new MutationObserver(() => { if (!window.__updatedAt && el.textContent === 'Bb7') window.__updatedAt = Date.now(); })
			.observe(el, { childList: true, subtree: true, characterData: true });
	})()`)
	a.do(chromedp.Click(chromedp.ID("save")))
	a.waitJS(`window.__savedAt > 0`, "the first page saved")
	other.waitJS(`window.__updatedAt > 0`, "the other page shows the new chord")
	took := time.Duration(evalJS[float64](other, `window.__updatedAt`)-evalJS[float64](a, `window.__savedAt`)) * time.Millisecond
	t.Logf("the other page showed the saved chord %v after the first page had its save confirmed", took)
	if took > time.Second {
		t.Errorf("the live update took %v, want within a second", took)
	}
	after := evalJS[map[string]any](other, `(() => {
		const d = document.getElementById('f-description');
		return {
			value: d.value, focused: document.activeElement === d, caret: d.selectionStart + ':' + d.selectionEnd,
			scrollY: window.scrollY, gridTop: document.getElementById('grid').getBoundingClientRect().top,
			sameBar: window.__barNode === document.querySelector('[data-path="sections[1].bars[0]"]'),
			sameGrid: window.__gridNode === document.getElementById('grid'),
			rebased: !document.getElementById('rebased').hidden,
		};
	})()`)
	if after["value"] != before["value"] || after["focused"] != true || after["caret"] != "4:4" {
		t.Errorf("the edit in progress was disturbed: before %v, after %v", before, after)
	}
	if after["scrollY"] != before["scrollY"] || after["gridTop"] != before["gridTop"] {
		t.Errorf("the view moved: scroll %v → %v, grid top on screen %v → %v", before["scrollY"], after["scrollY"], before["gridTop"], after["gridTop"])
	}
	if after["sameBar"] != true || after["sameGrid"] != true {
		t.Error("the grid's DOM was replaced instead of patched")
	}
	if after["rebased"] != true {
		t.Error("the page does not say that a new revision arrived under the unsaved edit")
	}
	other.screenshot("board", "live-update-under-edit-desktop-en")

	// Saving the other page keeps both changes.
	other.do(chromedp.Click(chromedp.ID("save")))
	other.waitJS(`document.getElementById('save-status').textContent.includes('revision 3')`, "the other page saved")
	c := boardFile(t, s, "duet").Content
	if c.Sections[1].Bars[0][0] != "Bb7" || !strings.HasSuffix(c.Description, " Slowly.") {
		t.Errorf("board after both saves: bar %v, description %q", c.Sections[1].Bars[0], c.Description)
	}
	a.waitJS(`document.getElementById('f-description').value.endsWith(' Slowly.')`, "the first page shows the other's description")
	a.requireClean("first page")
	other.requireClean("second page")
}

func testConflict(t *testing.T, s *Server, b *Browser) {
	capability := apiCreateBoard(t, s, "stale", sampleContent("Stale"))
	a := b.newPage(t)
	openBoard(a, s, "stale", capability)
	// The second page's live stream cannot connect (a network that drops it), so it misses A's save.
	stale := b.newPage(t, blockURL(s.URL+"/api/boards/stale/events"))
	stale.do(chromedp.Navigate(s.URL + "/b/stale#cap=" + capability))
	stale.waitJS(`document.documentElement.dataset.ready === "true" && !document.getElementById('board-body').hidden`, "the board is shown")
	stale.waitJS(`document.getElementById('conn').dataset.state === 'offline'`, "the page says the stream is down")
	if txt := evalJS[string](stale, `document.getElementById('conn').textContent`); !strings.Contains(txt, "Connection lost") || strings.ContainsAny(txt, "{}") {
		t.Errorf("connection state text = %q", txt)
	}
	stale.screenshot("board", "offline-desktop-en")

	typeInto(a, "#f-title", "Stale, renamed elsewhere")
	a.do(chromedp.Click(chromedp.ID("save")))
	a.waitJS(`document.getElementById('save-status').textContent.includes('revision 2')`, "the first page saved")

	editBar(stale, 0, 0, "Bb7")
	stale.do(chromedp.Click(chromedp.ID("save")))
	stale.waitJS(`!document.getElementById('conflict').hidden`, "the conflict panel opens")
	panel := evalJS[map[string]string](stale, `({
		theirs: document.getElementById('conflict-theirs').textContent,
		yours: document.getElementById('conflict-yours').textContent,
		focus: document.activeElement.id,
	})`)
	if !strings.Contains(panel["theirs"], "Stale, renamed elsewhere") || !strings.Contains(panel["yours"], "Bb7") {
		t.Errorf("conflict panel: theirs %q, yours %q", panel["theirs"], panel["yours"])
	}
	if panel["focus"] != "conflict-heading" {
		t.Errorf("focus after the conflict is on %q", panel["focus"])
	}
	if got := barText(stale, 0, 0); got != "Bb7" {
		t.Errorf("the user's edit is not shown during the conflict: %q", got)
	}
	if c := boardFile(t, s, "stale"); c.Revision != 2 || c.Content.Sections[0].Bars[0][0] != "Am7" {
		t.Errorf("the stale save changed the board: revision %d, bar %v", c.Revision, c.Content.Sections[0].Bars[0])
	}
	stale.screenshot("board", "conflict-desktop-en")

	stale.do(chromedp.Click(chromedp.ID("conflict-reapply")))
	stale.waitJS(`document.getElementById('conflict').hidden`, "the conflict panel closes")
	if got := evalJS[string](stale, `document.getElementById('f-title').value`); got != "Stale, renamed elsewhere" {
		t.Errorf("after re-applying, the title is %q (the other save must be kept)", got)
	}
	if got := barText(stale, 0, 0); got != "Bb7" {
		t.Errorf("after re-applying, bar 1 is %q (the user's edit must survive)", got)
	}
	stale.screenshot("board", "conflict-reapplied-desktop-en")
	stale.do(chromedp.Click(chromedp.ID("save")))
	stale.waitJS(`document.getElementById('save-status').textContent.includes('revision 3')`, "the re-applied save is confirmed")
	c := boardFile(t, s, "stale").Content
	if c.Title != "Stale, renamed elsewhere" || c.Sections[0].Bars[0][0] != "Bb7" {
		t.Errorf("board after the re-applied save: title %q, bar %v", c.Title, c.Sections[0].Bars[0])
	}

	// The network comes back: the page reconnects (at once when the tab becomes visible) and resyncs.
	stale.do(blockAction(nil))
	evalJS[chromedp.Void](stale, `document.dispatchEvent(new Event('visibilitychange'))`)
	stale.waitJS(`document.getElementById('conn').dataset.state === 'live'`, "the stream reconnects")
	next := c
	next.Tempo = 132
	apiPutBoard(t, s, "stale", capability, 3, next)
	stale.waitJSWithin(`document.getElementById('f-tempo').value === '132'`, "a later save arrives live", 5*time.Second)
	a.requireClean("first page")
}

func testLayout(t *testing.T, s *Server, b *Browser) {
	capability := apiCreateBoard(t, s, "wide", sampleContent("Wide"))
	for _, c := range []struct {
		name string
		opt  PageOption
		cols int
	}{{"phone", phone(), 2}, {"desktop", desktop(), 8}} {
		for _, mode := range []string{"edit", "readonly"} {
			p := b.newPage(t, c.opt)
			capa := capability
			if mode == "readonly" {
				capa = ""
			}
			openBoard(p, s, "wide", capa)
			m := evalJS[map[string]any](p, `(() => {
				const bars = document.querySelector('.bars');
				const chords = [...document.querySelectorAll('[data-path="sections[1].bars[2]"] .chord')].map((e) => e.getBoundingClientRect().width);
				return {
					scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
					cols: getComputedStyle(bars).gridTemplateColumns.split(' ').length,
					container: bars.getBoundingClientRect().width,
					chordA: chords[0], chordB: chords[1],
				};
			})()`)
			if m["scrollWidth"].(float64) > m["innerWidth"].(float64) {
				t.Errorf("%s %s: horizontal overflow, scrollWidth %v > innerWidth %v", c.name, mode, m["scrollWidth"], m["innerWidth"])
			}
			if int(m["cols"].(float64)) != c.cols {
				t.Errorf("%s %s: %v bars per row (grid %vpx wide), want %d", c.name, mode, m["cols"], m["container"], c.cols)
			}
			if d := m["chordA"].(float64) - m["chordB"].(float64); d > 1 || d < -1 {
				t.Errorf("%s %s: two chords of one bar are %v and %v px wide, want equal shares", c.name, mode, m["chordA"], m["chordB"])
			}
			p.requireClean(c.name + " " + mode)
			p.screenshot("board", fmt.Sprintf("layout-%s-%s-en", mode, c.name))
		}
	}
	// Dark colour scheme: the same page in prefers-color-scheme: dark, for the audit screenshots.
	for _, c := range []struct {
		name string
		opt  PageOption
	}{{"phone", phone()}, {"desktop", desktop()}} {
		p := b.newPage(t, c.opt, darkScheme())
		openBoard(p, s, "wide", capability)
		if !evalJS[bool](p, `matchMedia('(prefers-color-scheme: dark)').matches && getComputedStyle(document.body).backgroundColor !== 'rgb(246, 242, 234)'`) {
			t.Errorf("%s: the dark colour scheme is not applied", c.name)
		}
		p.requireClean(c.name + " dark")
		p.screenshot("board", "layout-edit-"+c.name+"-dark-en")
	}
}

func testLanguage(t *testing.T, s *Server, b *Browser) {
	content := sampleContent("Autumn Leaves · 秋叶")
	capability := apiCreateBoard(t, s, "lingo", content)
	p := b.newPage(t, phone())
	openBoard(p, s, "lingo", capability)
	evalJS[chromedp.Void](p, `window.scrollTo(0, 500)`)
	before := languageState(p)
	if before.ScrollY < 400 {
		t.Fatalf("the phone page did not scroll (scrollY %v)", before.ScrollY)
	}
	if before.Lang != "en" {
		t.Fatalf("initial lang = %q, want en (browser language en-US, nothing stored)", before.Lang)
	}

	switchLanguage(p, kb.ArrowDown, "zh-CN")
	after := languageState(p)
	if after.Content != before.Content {
		t.Errorf("board content changed with the language:\n before %s\n after  %s", before.Content, after.Content)
	}
	if after.ScrollY != before.ScrollY {
		t.Errorf("scroll moved from %v to %v", before.ScrollY, after.ScrollY)
	}
	if after.Title == before.Title || !strings.Contains(after.Title, "和弦谱") || !strings.Contains(after.Title, content.Title) {
		t.Errorf("document.title %q → %q", before.Title, after.Title)
	}
	for name, want := range map[string]string{"play": "播放", "save": "保存", "langLabel": "语言", "section": "段落 A", "conn": "实时同步中"} {
		if after.Labels[name] != want {
			t.Errorf("%s label = %q, want %q", name, after.Labels[name], want)
		}
	}
	if !strings.HasPrefix(after.Labels["bar"], "编辑第 1 小节") || !strings.Contains(after.Labels["bar"], "Am7") {
		t.Errorf("bar button label = %q", after.Labels["bar"])
	}
	if got := evalJS[string](p, `localStorage.getItem('tele.locale')`); got != "zh-CN" {
		t.Errorf("tele.locale = %q", got)
	}
	p.requireClean("after switching to Chinese")
	p.screenshot("board", "language-switched-phone-zh")

	// The choice survives a reload.
	p.do(chromedp.Reload())
	waitBoardReady(p)
	if st := languageState(p); st.Lang != "zh-CN" || st.Labels["play"] != "播放" || st.Content != before.Content {
		t.Errorf("after reload: lang %q, play %q", st.Lang, st.Labels["play"])
	}
	p.screenshot("board", "edit-phone-zh")
	switchLanguage(p, kb.ArrowUp, "en")
	if st := languageState(p); st.Labels["play"] != "Play" || st.Labels["section"] != "Section A" {
		t.Errorf("back in English: %v", st.Labels)
	}

	// With storage disabled the page works (the capability lives in memory) and switching still works.
	q := b.newPage(t, storageDisabled())
	openBoard(q, s, "lingo", capability)
	if !evalJS[bool](q, `(() => { try { localStorage.length; return false; } catch { return true; } })()`) {
		t.Fatal("the storage-disabled page can reach localStorage")
	}
	if !evalJS[bool](q, `!document.getElementById('meta-form').hidden`) {
		t.Error("with storage disabled the edit link no longer gives edit mode")
	}
	switchLanguage(q, kb.ArrowDown, "zh-CN")
	if st := languageState(q); st.Labels["play"] != "播放" || !strings.Contains(st.Title, "和弦谱") {
		t.Errorf("with storage disabled: play %q, title %q", st.Labels["play"], st.Title)
	}
	q.requireClean("storage disabled")
	q.screenshot("board", "language-no-storage-desktop-zh")

	// Nothing stored: a Chinese browser gets Chinese.
	r := b.newPage(t, storageDisabled(), browserLanguage("zh-CN"))
	openBoard(r, s, "lingo", "")
	if st := languageState(r); st.Lang != "zh-CN" {
		t.Errorf("a zh-CN browser without a stored choice got lang %q", st.Lang)
	}
	r.requireClean("Chinese browser")
	r.screenshot("board", "readonly-desktop-zh")
}

type langState struct {
	Lang    string            `json:"lang"`
	Title   string            `json:"title"`
	Content string            `json:"content"`
	ScrollY float64           `json:"scrollY"`
	Labels  map[string]string `json:"labels"`
}

// languageState reads what a language switch must change (lang, title, labels) and what it must not
// (board content, scroll position).
func languageState(p *Page) langState {
	p.t.Helper()
	return evalJS[langState](p, `(() => {
		const text = (sel) => document.querySelector(sel)?.textContent ?? '';
		const val = (sel) => document.querySelector(sel)?.value ?? '';
		const content = JSON.stringify({
			grid: [...document.querySelectorAll('.chords')].map((e) => e.textContent),
			marks: [...document.querySelectorAll('.mark')].map((e) => e.value ?? e.textContent),
			title: val('#f-title') || text('#title'), description: val('#f-description') || text('#description'),
		});
		return {
			lang: document.documentElement.lang, title: document.title, content, scrollY: window.scrollY,
			labels: {
				play: text('#play-label'), save: text('#save'), langLabel: text('label[for="lang"]'),
				section: document.querySelector('.section').getAttribute('aria-label'),
				bar: (document.querySelector('.bar-btn') || document.querySelector('.bar')).getAttribute('aria-label'),
				conn: text('#conn-text'),
			},
		};
	})()`)
}

// switchLanguage changes the header's language select with the keyboard, as a user would.
func switchLanguage(p *Page, key, want string) {
	p.t.Helper()
	p.do(chromedp.Focus(chromedp.ID("lang")), chromedp.KeyEvent(key))
	p.waitJS(fmt.Sprintf(`document.documentElement.lang === %s`, jsString(want)), "the page switches to "+want)
}

func testPlayer(t *testing.T, s *Server, b *Browser) {
	content := sampleContent("Player")
	content.Tempo = 240 // one bar a second: the count-in and the cursor move quickly
	capability := apiCreateBoard(t, s, "player", content)
	p := b.newPage(t)
	openBoard(p, s, "player", capability)
	state := func() map[string]any {
		return evalJS[map[string]any](p, `({
			state: document.getElementById('player').dataset.state,
			audio: document.getElementById('player').dataset.audio || '',
			contexts: window.__probe.audioContexts,
			cursor: document.querySelector('.bar.is-current')?.dataset.path || '',
			label: document.getElementById('play-label').textContent,
		})`)
	}
	if st := state(); st["state"] != "stopped" || st["contexts"].(float64) != 0 {
		t.Fatalf("before any click: %v", st)
	}
	// A click that a script makes is not a user gesture: nothing starts.
	evalJS[chromedp.Void](p, `document.getElementById('play').click()`)
	if st := state(); st["state"] != "stopped" || st["contexts"].(float64) != 0 {
		t.Fatalf("a synthetic click started the player: %v", st)
	}

	p.do(chromedp.Click(chromedp.ID("play")))
	p.waitJS(`document.getElementById('player').dataset.state === 'playing'`, "the player starts after a click")
	p.waitJS(`document.getElementById('player').dataset.audio === 'running'`, "the audio context runs")
	p.waitJS(`document.querySelector('.bar.is-current')`, "the cursor reaches a bar after the count-in")
	first := state()["cursor"]

	switchLanguage(p, kb.ArrowDown, "zh-CN")
	st := state()
	if st["state"] != "playing" || st["audio"] != "running" || st["label"] != "停止" || st["contexts"].(float64) != 1 {
		t.Errorf("after the language switch: %v", st)
	}
	p.waitJS(fmt.Sprintf(`(document.querySelector('.bar.is-current')?.dataset.path || %s) !== %s`, jsString(fmt.Sprint(first)), jsString(fmt.Sprint(first))), "the cursor moves on after the switch")

	// A live update does not stop it either.
	next := content
	next.Sections = append([]boardSection(nil), content.Sections...)
	next.Sections[1].Bars = append([][]string(nil), content.Sections[1].Bars...)
	next.Sections[1].Bars[7] = []string{"G6"}
	apiPutBoard(t, s, "player", capability, 1, next)
	p.waitJS(fmt.Sprintf(`%s === 'G6'`, barTextJS(1, 7)), "the live update arrives")
	if st := state(); st["state"] != "playing" {
		t.Errorf("a live update stopped the player: %v", st)
	}
	p.screenshot("board", "player-playing-desktop-zh")

	p.do(chromedp.Click(chromedp.ID("play")))
	p.waitJS(`document.getElementById('player').dataset.state === 'stopped' && !document.querySelector('.bar.is-current')`, "the player stops on a click")
	p.requireClean("player")
}

// ---- helpers ----

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
	n := evalJS[int](p, fmt.Sprintf(`document.querySelector(%s).value.length`, jsString(sel)))
	p.do(chromedp.KeyEvent(kb.End + strings.Repeat(kb.Backspace, n) + text))
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
