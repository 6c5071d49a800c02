package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// undoPiChange follows input 2, where the real Pi changed bar 1 through tele_board: the paired page
// shows the Pi-change banner as a polite status without taking the focus from the message box; Undo
// restores the revision before Pi's; the grid, GET /api/boards/:board and the history agree: …, pi,
// browser, the last restored from the revision before Pi's.
func (r *chatRig) undoPiChange(t *testing.T) string {
	a := r.tab
	pi := r.getBoard(t)
	var before boardDoc
	if code := apiJSON(t, "GET", fmt.Sprintf("%s/api/boards/%s/revisions/%d", r.base, chatBoardID, pi.Revision-1), nil, nil, &before); code != 200 {
		t.Fatalf("the revision before Pi's: %d", code)
	}
	old := before.Content.Sections[0].Bars[0]
	a.waitJS(`!document.getElementById('pi-banner').hidden && document.getElementById('pi-banner-text').textContent.includes('1 bar changed in')`, "the Pi banner")
	got := evalJS[map[string]any](a, `(() => ({
		focus: document.activeElement && document.activeElement.id,
		role: document.getElementById('pi-banner').getAttribute('role'),
		live: document.getElementById('pi-banner').getAttribute('aria-live'),
	}))()`)
	if got["focus"] != "chat-input" || got["role"] != "status" || got["live"] != "polite" {
		t.Errorf("the banner: %v (want the focus still in the message box, a polite status)", got)
	}
	r.shot(a, "pi-banner-desktop-en")

	a.do(chromedp.Click(chromedp.ID("pi-undo")))
	a.waitJS(barTextJS(0, 0)+` === `+jsString(old[0]), "the chord before Pi's change back in the grid")
	after := r.getBoard(t)
	if after.Revision != pi.Revision+1 || after.Content.Sections[0].Bars[0][0] != old[0] {
		t.Fatalf("GET after Undo: revision %d, bar 1 %v; want %d and %v", after.Revision, after.Content.Sections[0].Bars[0], pi.Revision+1, old)
	}
	var page struct{ Revisions []revisionRow }
	apiJSON(t, "GET", fmt.Sprintf("%s/api/boards/%s/revisions?limit=3", r.base, chatBoardID), nil, nil, &page)
	rows := page.Revisions
	if len(rows) != 3 || rows[0].Author != "browser" || rows[1].Author != "pi" || rows[0].RestoredFrom == nil || *rows[0].RestoredFrom != pi.Revision-1 {
		t.Fatalf("history: %+v", rows)
	}
	a.do(chromedp.Click(chromedp.ID("history-toggle")))
	a.waitJS(fmt.Sprintf(`document.querySelector('#history-list .history-row')?.dataset.rev === '%d'`, after.Revision), "the History panel with the restore on top")
	r.shot(a, "history-panel-desktop-en")
	a.do(chromedp.Click(chromedp.ID("history-toggle")))
	a.requireClean("after Undo")
	return fmt.Sprintf("banner for Pi's revision %d (focus stayed in the message box); Undo made revision %d restored from %d; history %s, %s, %s",
		pi.Revision, after.Revision, pi.Revision-1, rows[2].Author, rows[1].Author, rows[0].Author)
}
