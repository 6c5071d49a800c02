package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBoardPageNewEditLink (issue 11, finding 2): two pages edit a board with the same key; one makes a
// new edit link. That page keeps editing with the new key and shows the link to copy; the other falls
// back to read-only at once and says why, in English and in Chinese; the old key is refused.
func TestBoardPageNewEditLink(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	old := apiCreateBoard(t, s, "rotate", sampleContent("Rotate"))
	a := b.newPage(t)
	openBoard(a, s, "rotate", old)
	other := b.newPage(t)
	openBoard(other, s, "rotate", old)
	for _, p := range []*Page{a, other} {
		p.waitJS(`!document.getElementById('meta-form').hidden && !document.getElementById('new-link').hidden && document.getElementById('conn').dataset.state === 'live'`, "an editable, live page")
	}

	a.do(chromedp.Click(chromedp.ID("new-link")))
	a.waitJS(`!document.getElementById('new-link-panel').hidden && document.getElementById('new-link-url').value !== ''`, "the new link is shown")
	// The link shown carries a one-time claim code for the new key, never the key (issue 26, finding 6).
	fresh := readCapability(t, s, "rotate")
	if fresh == old {
		t.Fatal("the key was not replaced")
	}
	checkClaimLink(t, s, "rotate", evalJS[string](a, `document.getElementById('new-link-url').value`), "new edit link")
	if got := evalJS[string](a, `sessionStorage.getItem('tele.cap:rotate')`); got != fresh {
		t.Error("the rotating page does not hold the new key")
	}
	if evalJS[bool](a, fmt.Sprintf(`document.documentElement.outerHTML.includes(%s)`, jsString(fresh))) {
		t.Error("the new key is in the page's markup")
	}

	// The other page: read-only, with the reason, and without the old key.
	other.waitJS(`document.getElementById('meta-form').hidden && !document.getElementById('readonly-note').hidden && !document.getElementById('message').hidden`, "the other page falls back to read-only")
	msg := evalJS[string](other, `document.getElementById('message').textContent`)
	if !strings.Contains(msg, "new edit link") || !strings.Contains(msg, "tele board link rotate") {
		t.Errorf("the reason shown: %q", msg)
	}
	if got := evalJS[string](other, `sessionStorage.getItem('tele.cap:rotate') || ''`); got != "" {
		t.Error("the other page kept the replaced key")
	}
	other.screenshot("board", "edit-link-replaced-desktop-en")
	switchLanguageScripted(other, "zh-CN")
	if msg := evalJS[string](other, `document.getElementById('message').textContent`); !strings.Contains(msg, "新的编辑链接") {
		t.Errorf("the reason in Chinese: %q", msg)
	}
	other.screenshot("board", "edit-link-replaced-desktop-zh")

	// The old key is refused by the server; the rotating page still saves with the new one.
	doc := boardFile(t, s, "rotate")
	next := doc.Content
	next.Title = "Rotated"
	if code := apiJSON(t, "PUT", s.URL+"/api/boards/rotate", map[string]string{"Authorization": "Bearer " + old, "If-Match": fmt.Sprintf(`"%d"`, doc.Revision)}, next, nil); code != http.StatusForbidden {
		t.Fatalf("PUT with the replaced key: %d", code)
	}
	typeInto(a, "#f-title", "Rotated")
	a.do(chromedp.Click(chromedp.ID("save")))
	a.waitJS(fmt.Sprintf(`document.getElementById('save-status').textContent.includes('revision %d')`, doc.Revision+1), "the rotating page saves with the new key")
	other.waitJS(`document.getElementById('title').textContent === 'Rotated'`, "the read-only page follows the save")
	a.screenshot("board", "new-edit-link-desktop-en")
	a.requireClean("after a new edit link")
	other.requireClean("after the key was replaced")
}
