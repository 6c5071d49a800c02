package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBoardPage drives the board UI (issue 3) in a real headless Chromium against a real `tele serve`
// with a temporary data directory. One server and one browser serve every subtest; each subtest uses
// its own boards and tabs. Screenshots of each state go to .audit/board/.
func TestBoardPage(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	t.Run("board list and a new board", func(t *testing.T) { testBoardList(t, s, b) })
	t.Run("list page forms: labels above their boxes, hints under them", func(t *testing.T) { testListForms(t, s, b) })
	t.Run("edit link: clean load, capability kept out of URLs and localStorage", func(t *testing.T) { testCapability(t, s, b) })
	t.Run("edit, save, reload, and a refused save", func(t *testing.T) { testEditSave(t, s, b) })
	t.Run("sections and bars: add, label, reorder, remove", func(t *testing.T) { testStructure(t, s, b) })
	t.Run("two pages: a save appears in the other without disturbing its edit", func(t *testing.T) { testLive(t, s, b) })
	t.Run("a refusal and the note of a new revision, both in view", func(t *testing.T) { testToastsStack(t, s, b) })
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
	p.waitConsole("probe: a console error")
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
