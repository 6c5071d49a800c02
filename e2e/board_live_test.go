package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

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

// testToastsStack: the note that a new revision arrived under an unsaved edit stays until it is
// dismissed or the edit saved; a refusal said meanwhile goes above or below it in the same corner,
// and neither covers the other.
func testToastsStack(t *testing.T, s *Server, b *Browser) {
	for _, tc := range []struct {
		name string
		opts []PageOption
	}{{"phone-en", []PageOption{phone()}}, {"desktop-en", []PageOption{desktop()}}} {
		id := "toasts-" + tc.name
		c := sampleContent("Toasts")
		capability := apiCreateBoard(t, s, id, c)
		p := b.newPage(t, tc.opts...)
		openBoard(p, s, id, capability)
		p.do(chromedp.Click(chromedp.ID("f-description")), chromedp.KeyEvent(kb.End+" Slowly."))
		c.Sections[1].Bars[0] = []string{"Bb7"}
		apiPutBoard(t, s, id, capability, 1, c)
		p.waitJS(`!document.getElementById('rebased').hidden`, "the page says a new revision arrived under the edit")
		pasteOn(p, `[data-path="sections[0]"] .add-bar`, "| C | Hm |")
		p.waitJS(`!document.getElementById('refused').hidden`, "the refused paste is named")
		overlap := evalJS[bool](p, `(() => {
			const a = document.getElementById('rebased').getBoundingClientRect();
			const b = document.getElementById('refused').getBoundingClientRect();
			return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
		})()`)
		if overlap {
			t.Errorf("%s: the refusal covers the note of the new revision", tc.name)
		}
		requireInWindow(t, p, "rebased", tc.name+": the note of the new revision")
		requireInWindow(t, p, "refused", tc.name+": the refusal")
		p.screenshot("board", "toasts-stacked-"+tc.name)
		p.requireClean("two toasts")
	}
}
