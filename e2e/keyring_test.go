package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestKeyRing checks issue 23 item 7 in a real Chromium: a board this browser created on the list page
// and one whose edit link it opened are kept in the device's key ring, so a new tab's list says so and
// opens them editable; the page can undo its own last save (a new revision with the content before
// it); forgetting a key makes the board open read-only again. Before, a new tab opened every board
// read-only and a saved edit could only be undone through the history. 简体中文 on a phone in dark.
func TestKeyRing(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	song := sampleContent("Opened by link")
	linked := apiCreateBoard(t, s, "by-link", song)
	apiCreateBoard(t, s, "not-mine", sampleContent("Someone else's"))

	// Create one board on the list page, open another by its edit link.
	a := b.newPage(t)
	a.do(chromedp.Navigate(s.URL + "/"))
	a.waitJS(`document.documentElement.dataset.ready === "true"`, "the list is ready")
	a.do(chromedp.SendKeys(chromedp.ID("new-id"), "made-here"), chromedp.SendKeys(chromedp.ID("new-title"), "Made here"), chromedp.Click(chromedp.ID("new-create")))
	a.waitJS(`!document.getElementById('created').hidden`, "the board is made")
	openBoard(a, s, "by-link", linked)

	// A new tab (no sessionStorage of its own) opens both editable from the list, the other read-only.
	p := b.newPage(t)
	p.do(chromedp.Navigate(s.URL + "/"))
	p.waitJS(`document.querySelectorAll('#board-list .card').length === 4`, "four boards listed")
	held := evalJS[[]string](p, `[...document.querySelectorAll('#board-list .card')].filter((c) => c.querySelector('.card-key')).map((c) => c.dataset.board).sort()`)
	if strings.Join(held, ",") != "by-link,made-here" {
		t.Errorf("boards marked editable on this device: %v", held)
	}
	if got := evalJS[string](p, `document.querySelector('.card[data-board="by-link"] .card-forget').getAttribute('aria-label')`); got != "Forget the edit key of Opened by link on this device" {
		t.Errorf("forget button named %q", got)
	}
	p.screenshot("board", "keyring-list-desktop-en")
	// By keyboard: focus the card's link, Enter.
	p.do(chromedp.Focus(chromedp.CSS(`.card[data-board="by-link"] .card-link`)), chromedp.KeyEvent(kb.Enter))
	p.waitJS(`location.pathname === '/b/by-link'`, "the board opens")
	waitBoardReady(p)
	if !evalJS[bool](p, `!document.getElementById('save-bar').hidden`) {
		t.Fatal("a board of the key ring opened read-only from the list")
	}

	// Undo my last save: the bar comes back as a new revision.
	if evalJS[bool](p, `!document.getElementById('undo-save').hidden`) {
		t.Error("Undo is offered before any save")
	}
	editBar(p, 0, 0, "Bbmaj7")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('save-status').textContent === 'Saved as revision 2'`, "saved")
	p.waitJS(`!document.getElementById('undo-save').hidden`, "Undo my last save is offered")
	p.screenshot("board", "keyring-undo-offered-desktop-en")
	p.do(chromedp.Focus(chromedp.ID("undo-save")), chromedp.KeyEvent(kb.Enter))
	p.waitJS(`document.getElementById('save-status').dataset.i18n === 'edit.undone'`, "the save is undone")
	if st := text(p, "save-status"); st != "Your last save is undone: revision 3 has the content of revision 1." {
		t.Errorf("status %q", st)
	}
	if got := barText(p, 0, 0); got != "Am7" {
		t.Errorf("bar 1 after the undo shows %q", got)
	}
	if f := boardFile(t, s, "by-link"); f.Revision != 3 || f.Content.Sections[0].Bars[0][0] != "Am7" {
		t.Errorf("stored after the undo: revision %d, bar 1 %v", f.Revision, f.Content.Sections[0].Bars[0])
	}
	if evalJS[bool](p, `!document.getElementById('undo-save').hidden`) {
		t.Error("Undo is still offered after the undo")
	}
	// Someone else's save after mine: no undo of mine over theirs.
	editBar(p, 0, 1, "G7")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`!document.getElementById('undo-save').hidden`, "Undo offered again")
	apiPutBoard(t, s, "by-link", linked, 4, song)
	p.waitJS(`document.getElementById('undo-save').hidden`, "another save withdraws Undo")
	p.requireClean("undo")

	// Forget the key, in Chinese on a phone in dark: the board opens read-only from the list.
	q := b.newPage(t, phone(), darkScheme())
	q.do(chromedp.Navigate(s.URL + "/"))
	q.waitJS(`document.querySelectorAll('#board-list .card-forget').length === 2`, "two keys listed")
	switchLanguage(q, kb.ArrowDown, "zh-CN")
	if got := evalJS[string](q, `document.querySelector('.card[data-board="made-here"] .card-keys').textContent`); got != "此设备可编辑 忘记编辑密钥" {
		t.Errorf("zh key line %q", got)
	}
	q.screenshot("board", "keyring-list-phone-zh-dark")
	q.do(chromedp.Focus(chromedp.CSS(`.card[data-board="made-here"] .card-forget`)), chromedp.KeyEvent(kb.Enter))
	q.waitJS(`!!document.querySelector('.card[data-board="made-here"] .card-key-note')`, "the key is forgotten")
	if got := text(q, "board-list"); !strings.Contains(got, "此设备不再保存“made-here”的编辑密钥") {
		t.Errorf("zh forgotten note: %q", got)
	}
	if ring := evalJS[string](q, `localStorage.getItem('tele.keyring')`); strings.Contains(ring, "made-here") || !strings.Contains(ring, "by-link") {
		t.Errorf("key ring after forgetting: %s", ring)
	}
	q.screenshot("board", "keyring-forgotten-phone-zh-dark")
	q.do(chromedp.Click(chromedp.CSS(`.card[data-board="made-here"] .card-link`)))
	q.waitJS(fmt.Sprintf(`location.pathname === %s`, jsString("/b/made-here")), "the board opens")
	waitBoardReady(q)
	if evalJS[bool](q, `!document.getElementById('save-bar').hidden`) {
		t.Error("a forgotten key still opened the board editable")
	}
	q.requireClean("forgotten")
}
