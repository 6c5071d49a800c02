package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBoardManage drives board management in Chromium (issue 13 item 5): a new board's edit link
// shown at once, Copy edit link and the read-only note, copying a board, duplicating a section,
// pasting a chart line onto a section, a long title, and deleting a board with a confirmation dialog
// while another page has it open. Screenshots go to .audit/board/.
func TestBoardManage(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	t.Run("a new board shows its edit link with Copy", func(t *testing.T) { testCreatedLink(t, s, b) })
	t.Run("Copy edit link, and how a read-only page gets one", func(t *testing.T) { testEditLinkCopy(t, s, b) })
	t.Run("copy a board from a read-only page", func(t *testing.T) { testCopyBoard(t, s, b) })
	t.Run("duplicate a section, within the limits", func(t *testing.T) { testDuplicateSection(t, s, b) })
	t.Run("paste a chart line onto a section", func(t *testing.T) { testPasteOnSection(t, s, b) })
	t.Run("a long title", func(t *testing.T) { testLongTitle(t, s, b) })
	t.Run("delete a board, seen by another page", func(t *testing.T) { testDeleteBoard(t, s, b) })
}

// grantClipboard lets the page write and read the clipboard (a real one, in the headless browser).
func grantClipboard(p *Page, origin string) {
	p.t.Helper()
	p.do(chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		for _, name := range []string{"clipboard-read", "clipboard-write"} {
			_, err := cdp.Call(ctx, chromedp.FromContext(ctx).Browser, browser.SetPermission, browser.SetPermissionParams{
				Permission: &browser.PermissionDescriptor{Name: name}, Setting: browser.PermissionSettingGranted, Origin: origin})
			if err != nil {
				return err
			}
		}
		return nil
	}))
}

// clipboardText reads the clipboard from the page.
func clipboardText(p *Page) string {
	p.t.Helper()
	return evalJS[string](p, `navigator.clipboard.readText()`)
}

// noOverflow fails the test when the page is wider than its viewport (a long word pushing it out).
func noOverflow(t *testing.T, p *Page, when string) {
	t.Helper()
	if w := evalJS[[]float64](p, `[document.documentElement.scrollWidth, document.documentElement.clientWidth]`); w[0] > w[1] {
		t.Errorf("%s: the page is %v px wide in a %v px viewport", when, w[0], w[1])
	}
}

func pasteOn(p *Page, target, text string) bool {
	p.t.Helper()
	return evalJS[bool](p, fmt.Sprintf(`(() => {
		const dt = new DataTransfer(); dt.setData('text/plain', %s);
		return document.querySelector(%s).dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
	})()`, jsString(text), jsString(target)))
}

func testCreatedLink(t *testing.T, s *Server, b *Browser) {
	for _, tc := range []struct {
		name string
		opts []PageOption
		id   string
		want []string
	}{
		{"desktop-en", []PageOption{desktop()}, "set-list", []string{"Board “Set list” is ready", "Keep this link private: anyone who has it can edit the board.", "tele board link set-list"}},
		{"phone-zh-dark", []PageOption{phone(), browserLanguage("zh-CN"), darkScheme()}, "set-list-zh", []string{"和弦谱“Set list”已创建", "请妥善保管此链接", "tele board link set-list-zh"}},
	} {
		p := b.newPage(t, tc.opts...)
		p.do(chromedp.Navigate(s.URL + "/"))
		p.waitJS(`document.documentElement.dataset.ready === "true"`, "the list page is ready")
		grantClipboard(p, s.URL)
		p.do(
			chromedp.SendKeys(chromedp.ID("new-id"), tc.id),
			chromedp.SendKeys(chromedp.ID("new-title"), "Set list"),
			chromedp.KeyEvent(kb.Enter), // the form submits from the keyboard
		)
		p.waitJS(`!document.getElementById('created').hidden && document.activeElement.id === 'created-heading'`, "the new board's edit link is shown, its heading focused")
		// The link carries a one-time claim code, never the key itself.
		link := evalJS[string](p, `document.getElementById('created-url').value`)
		if want := s.URL + "/b/" + tc.id + "#claim="; !strings.HasPrefix(link, want) || len(link) <= len(want) || strings.Contains(link, readCapability(t, s, tc.id)) {
			t.Errorf("%s: the edit link shown is %q, want %s<code>", tc.name, link, want)
		}
		text := evalJS[string](p, `document.getElementById('created').innerText`)
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the new board's panel %q lacks %q", tc.name, text, w)
			}
		}
		if evalJS[bool](p, fmt.Sprintf(`!!document.querySelector('#board-list a[href="/b/%s"]')`, tc.id)) != true {
			p.waitJS(fmt.Sprintf(`!!document.querySelector('#board-list a[href="/b/%s"]')`, tc.id), "the new board is listed")
		}
		// Copy by keyboard: Tab from the heading reaches the Copy button.
		p.do(chromedp.Focus(chromedp.ID("created-copy")), chromedp.KeyEvent(kb.Enter))
		p.waitJS(`document.getElementById('created-status').textContent !== ''`, "the copy is confirmed")
		if got := clipboardText(p); got != link {
			t.Errorf("%s: the clipboard holds %q, want the edit link", tc.name, got)
		}
		noOverflow(t, p, tc.name)
		p.screenshot("board", "manage-created-link-"+tc.name)
		p.requireClean("a new board's edit link")
	}

	// Where the clipboard is refused, the link is selected to copy by hand, and the page says so.
	p := b.newPage(t)
	p.do(chromedp.Navigate(s.URL + "/"))
	p.waitJS(`document.documentElement.dataset.ready === "true"`, "the list page is ready")
	evalJS[chromedp.Void](p, `Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) } })`)
	p.do(
		chromedp.SendKeys(chromedp.ID("new-id"), "no-clipboard"),
		chromedp.SendKeys(chromedp.ID("new-title"), "No clipboard"),
		chromedp.Click(chromedp.ID("new-create")),
	)
	p.waitJS(`!document.getElementById('created').hidden`, "the edit link is shown")
	p.do(chromedp.Click(chromedp.ID("created-copy")))
	p.waitJS(`document.getElementById('created-status').textContent.includes('Could not copy')`, "the page says to copy by hand")
	if !evalJS[bool](p, `(() => { const i = document.getElementById('created-url'); return document.activeElement === i && i.selectionStart === 0 && i.selectionEnd === i.value.length; })()`) {
		t.Error("the edit link is not selected for copying by hand")
	}
	p.requireClean("a refused clipboard")
}

func testEditLinkCopy(t *testing.T, s *Server, b *Browser) {
	capability := apiCreateBoard(t, s, "linked", sampleContent("Linked"))
	p := b.newPage(t)
	openBoard(p, s, "linked", capability)
	grantClipboard(p, s.URL)
	if !evalJS[bool](p, `!document.getElementById('copy-edit-link').hidden && !document.getElementById('delete-board').hidden && !document.getElementById('copy-board').hidden`) {
		t.Fatal("a page with the edit link lacks Copy edit link, Delete board or Copy board")
	}
	p.do(chromedp.Focus(chromedp.ID("copy-edit-link")), chromedp.KeyEvent(kb.Enter))
	p.waitJS(`document.getElementById('manage-status').textContent.includes('Edit link copied')`, "the copy is confirmed")
	// The copied link carries a one-time claim code, never the key (issue 26, finding 6).
	checkClaimLink(t, s, "linked", clipboardText(p), "Copy edit link")
	if got := evalJS[string](p, `document.getElementById('manage-status').textContent`); !strings.Contains(got, "anyone who has it can edit") {
		t.Errorf("the confirmation %q does not say to keep the link private", got)
	}
	checkCapabilityPlacement(t, p, "linked", capability)
	// Every string of board management is in both languages.
	if missing := evalJS[[]string](p, `(async () => {
		const src = document.querySelector('script[type=module]').src;
		const { STRINGS } = await import(src.slice(0, src.lastIndexOf('/')) + '/manage-strings.js');
		const en = STRINGS.en, zh = STRINGS['zh-CN'];
		return [...new Set([...Object.keys(en), ...Object.keys(zh)])].filter((k) => !en[k] || !zh[k]);
	})()`); len(missing) > 0 {
		t.Errorf("strings missing in one language: %v", missing)
	}
	p.screenshot("board", "manage-edit-link-copied-desktop-en")
	p.requireClean("Copy edit link")

	// Read-only: no edit link to copy, no Delete; the note says how to get one, in both languages.
	for _, tc := range []struct {
		name string
		opts []PageOption
		want []string
	}{
		{"phone-en", []PageOption{phone()}, []string{"ask whoever made this board for its edit link", "or run tele board link linked on the computer running Tele"}},
		{"phone-zh-dark", []PageOption{phone(), browserLanguage("zh-CN"), darkScheme()}, []string{"请向创建此和弦谱的人索取编辑链接", "在运行 Tele 的电脑上运行 tele board link linked，然后打开"}},
	} {
		r := b.newPage(t, tc.opts...)
		openBoard(r, s, "linked", "")
		if evalJS[bool](r, `!document.getElementById('copy-edit-link').hidden || !document.getElementById('delete-board').hidden`) {
			t.Errorf("%s: a read-only page offers Copy edit link or Delete", tc.name)
		}
		note := evalJS[string](r, `document.getElementById('readonly-note').innerText.replace(/\s+/g, ' ')`)
		for _, w := range tc.want {
			if !strings.Contains(note, w) {
				t.Errorf("%s: the read-only note %q lacks %q", tc.name, note, w)
			}
		}
		noOverflow(t, r, tc.name)
		r.screenshot("board", "manage-readonly-note-"+tc.name)
		r.requireClean("read-only note")
	}
}

func testCopyBoard(t *testing.T, s *Server, b *Browser) {
	apiCreateBoard(t, s, "original", sampleContent("Original tune"))
	p := b.newPage(t, phone())
	openBoard(p, s, "original", "") // reading is enough to copy
	p.do(chromedp.Focus(chromedp.ID("copy-board")), chromedp.KeyEvent(kb.Enter))
	p.waitJS(`!document.getElementById('manage-panel').hidden && !document.getElementById('manage-open').hidden`, "the copy's edit link is shown")
	id := evalJS[string](p, `new URL(document.getElementById('manage-open').href).pathname.slice(3)`)
	if id == "" || id == "original" {
		t.Fatalf("the copy opens %q", id)
	}
	capability := readCapability(t, s, id)
	checkClaimLink(t, s, id, evalJS[string](p, `document.getElementById('manage-url').value`), "Copy board")
	text := evalJS[string](p, `document.getElementById('manage-panel').innerText`)
	for _, w := range []string{"A copy of the saved board is ready", "Original tune", id, "Keep this link private"} {
		if !strings.Contains(text, w) {
			t.Errorf("the copy's panel %q lacks %q", text, w)
		}
	}
	orig, cp := apiGetBoard(t, s, "original"), apiGetBoard(t, s, id)
	if fmt.Sprint(orig.Content) != fmt.Sprint(cp.Content) || cp.Revision != 1 {
		t.Errorf("the copy %+v is not the original %+v at revision 1", cp, orig)
	}
	noOverflow(t, p, "the copy's panel")
	p.screenshot("board", "manage-copy-made-phone-en")
	p.requireClean("copy a board")

	// The copy opens for editing in this tab, its key kept out of the address.
	p.do(chromedp.Click(chromedp.ID("manage-open")))
	p.waitJS(fmt.Sprintf(`location.pathname === %s`, jsString("/b/"+id)), "the copy opens")
	waitBoardReady(p)
	if !evalJS[bool](p, `!document.getElementById('meta-form').hidden`) {
		t.Error("the copy did not open for editing")
	}
	checkCapabilityPlacement(t, p, id, capability)
	p.requireClean("the copy opened")
}

func testDuplicateSection(t *testing.T, s *Server, b *Browser) {
	capability := apiCreateBoard(t, s, "dup", sampleContent("Duplicate"))
	p := b.newPage(t)
	openBoard(p, s, "dup", capability)
	dup := `[data-path="sections[0]"] .duplicate`
	if got := evalJS[string](p, fmt.Sprintf(`document.querySelector(%s).getAttribute('aria-label')`, jsString(dup))); got != "Duplicate section A" {
		t.Errorf("the duplicate control is named %q", got)
	}
	p.do(chromedp.Focus(chromedp.CSS(dup)), chromedp.KeyEvent(kb.Enter))
	p.waitJS(`document.querySelectorAll('#grid section.section').length === 3`, "a third section appears")
	if got := evalJS[string](p, `document.activeElement.dataset.path || ''`); got != "sections[1].label" {
		t.Errorf("focus after duplicating is on %q, want the copy's label", got)
	}
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('save-status').textContent.includes('revision 2')`, "the save is confirmed")
	got := apiGetBoard(t, s, "dup").Content.Sections
	if len(got) != 3 || got[1].Label != "A" || fmt.Sprint(got[1].Bars) != fmt.Sprint(got[0].Bars) || got[2].Label != "B" {
		t.Errorf("after duplicating section A the board has %+v", got)
	}
	p.screenshot("board", "manage-duplicated-desktop-en")
	p.requireClean("duplicate a section")

	// 512 bars: a copy of a section would pass the limit; the page says so in its language and adds
	// nothing.
	full := boardContent{Title: "Full", Tempo: 100, BeatsPerBar: 4}
	for i := range 8 {
		bars := make([][]string, 64)
		for j := range bars {
			bars[j] = []string{"C"}
		}
		full.Sections = append(full.Sections, boardSection{Label: fmt.Sprint(i + 1), Bars: bars})
	}
	many := boardContent{Title: "Many", Tempo: 100, BeatsPerBar: 4}
	for i := range 32 {
		many.Sections = append(many.Sections, boardSection{Label: fmt.Sprint(i + 1), Bars: [][]string{{"C"}}})
	}
	for _, tc := range []struct {
		id      string
		c       boardContent
		opts    []PageOption
		want    string
		section int
	}{
		{"full", full, []PageOption{phone(), browserLanguage("zh-CN")}, "未复制：和弦谱最多 512 个小节，复制段落 1 后将有 576 个。", 8},
		{"many", many, []PageOption{phone()}, "Not duplicated: a board holds at most 32 sections.", 32},
	} {
		key := apiCreateBoard(t, s, tc.id, tc.c)
		q := b.newPage(t, tc.opts...)
		openBoard(q, s, tc.id, key)
		q.do(chromedp.Click(chromedp.CSS(`[data-path="sections[0]"] .duplicate`)))
		q.waitJS(`!document.getElementById('refused').hidden`, "the limit is named")
		if got := evalJS[string](q, `document.getElementById('refused-text').textContent`); got != tc.want {
			t.Errorf("%s: the message is %q, want %q", tc.id, got, tc.want)
		}
		if n := evalJS[int](q, `document.querySelectorAll('#grid section.section').length`); n != tc.section || evalJS[string](q, `document.getElementById('board').dataset.dirty || ''`) == "true" {
			t.Errorf("%s: %d sections after a refused duplicate, or the board is dirty", tc.id, n)
		}
		noOverflow(t, q, tc.id)
		q.screenshot("board", "manage-duplicate-limit-"+tc.id)
		q.requireClean("a refused duplicate")
	}
}

func testPasteOnSection(t *testing.T, s *Server, b *Browser) {
	capability := apiCreateBoard(t, s, "paste", sampleContent("Paste"))
	p := b.newPage(t, phone())
	openBoard(p, s, "paste", capability)
	label := `[data-path="sections[0].label"]`
	p.do(chromedp.Focus(chromedp.CSS(label)))
	if pasteOn(p, label, "| C | Am7 | F G | N.C. |") {
		t.Error("the chart line pasted on a section label was also pasted as text")
	}
	if got := gridText(p); !strings.HasPrefix(got, "Am7 | D7 | Gmaj7 | Cmaj7 | F#m7b5 | B7 | Em | Em | C | Am7 | F G | N.C. | F#m7b5") {
		t.Errorf("after pasting on section A's label the grid shows %q", got)
	}
	if got := evalJS[string](p, `document.activeElement.closest('li.bar')?.dataset.path || ''`); got != "sections[0].bars[11]" {
		t.Errorf("focus after the paste is on %q, want the last bar added", got)
	}
	if got := evalJS[string](p, fmt.Sprintf(`document.querySelector(%s).value`, jsString(label))); got != "A" {
		t.Errorf("the label changed to %q", got)
	}
	// On the section's "Add bar" control: the same, at the end of section B.
	addBar := `[data-path="sections[1]"] .add-bar`
	p.do(chromedp.Focus(chromedp.CSS(addBar)))
	pasteOn(p, addBar, "| Dm7 | G7 |")
	if got := barText(p, 1, 8) + " | " + barText(p, 1, 9); got != "Dm7 | G7" {
		t.Errorf("pasted on section B's Add bar: %q", got)
	}
	// On a tool of the header (Duplicate): the same, at the end of section B.
	dupB := `[data-path="sections[1]"] .duplicate`
	p.do(chromedp.Focus(chromedp.CSS(dupB)))
	pasteOn(p, dupB, "| E7 |: Am :|")
	if got := barText(p, 1, 10) + " | " + barText(p, 1, 11); got != "E7 | Am" {
		t.Errorf("pasted on section B's Duplicate control: %q", got)
	}
	// A plain label pasted on the label is an ordinary paste.
	if !pasteOn(p, label, "Verse") {
		t.Error("an ordinary paste on a label was taken over")
	}
	// A cell that is not a chord: nothing added, the page says which.
	before := gridText(p)
	pasteOn(p, addBar, "| C | Hm |")
	p.waitJS(`!document.getElementById('refused').hidden`, "the refused chord is named")
	if gridText(p) != before {
		t.Error("a refused paste added bars")
	}
	if got := text(p, "refused-text"); !strings.Contains(got, "Hm") {
		t.Errorf("the refusal says %q, naming no chord", got)
	}
	requireInWindow(t, p, "refused", "the refused paste's words")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('save-status').textContent.includes('revision 2')`, "the save is confirmed")
	// Bars as the schema writes them: the pasted |: Am :| is a bar object with its repeat.
	var saved struct {
		Content struct {
			Sections []struct {
				Bars []json.RawMessage `json:"bars"`
			} `json:"sections"`
		} `json:"content"`
	}
	if status := apiJSON(t, "GET", s.URL+"/api/boards/paste", nil, nil, &saved); status != 200 {
		t.Fatalf("GET board paste: status %d", status)
	}
	got := saved.Content.Sections
	if len(got) < 2 || len(got[0].Bars) != 12 || len(got[1].Bars) != 12 {
		t.Fatalf("saved sections %v, want 12 and 12 bars", got)
	}
	if bar := string(got[1].Bars[11]); !strings.Contains(bar, `"repeatStart":true`) || !strings.Contains(bar, `"repeatEnd":2`) {
		t.Errorf("the pasted |: Am :| was saved as %s, want a bar with its repeat", bar)
	}
	p.screenshot("board", "manage-paste-on-section-phone-en")
	if pr := problemsExcept(p); len(pr) > 0 {
		t.Errorf("problems: %v", pr)
	}
}

func testLongTitle(t *testing.T, s *Server, b *Browser) {
	long := strings.Repeat("Autumn-Leaves-", 10) // 140 characters, no space to break at
	capability := apiCreateBoard(t, s, "long", sampleContent("Long"))
	for _, tc := range []struct {
		name string
		opts []PageOption
		want string
	}{
		{"phone-en", []PageOption{phone()}, "A title holds at most 120 characters"},
		{"phone-zh-dark", []PageOption{phone(), browserLanguage("zh-CN"), darkScheme()}, "标题最多 120 个字"},
	} {
		p := b.newPage(t, tc.opts...)
		openBoard(p, s, "long", capability)
		// Typed (or pasted) past the limit, the field keeps 120 and says why.
		p.do(chromedp.Focus(chromedp.ID("f-title")), chromedp.KeyEvent(kb.End+strings.Repeat(kb.Backspace, 4)), chromedp.SendKeys(chromedp.ID("f-title"), long))
		p.waitJS(`!document.getElementById('title-limit').hidden`, "the title's limit is named")
		if got := evalJS[string](p, `document.getElementById('title-limit').textContent`); !strings.Contains(got, tc.want) {
			t.Errorf("%s: the limit says %q, want %q", tc.name, got, tc.want)
		}
		if n := evalJS[int](p, `document.getElementById('f-title').value.length`); n != 120 {
			t.Errorf("%s: the title holds %d characters", tc.name, n)
		}
		noOverflow(t, p, tc.name+" editing")
		p.screenshot("board", "manage-long-title-edit-"+tc.name)
		p.requireClean("a long title")
	}

	// A title over the limit that reaches the server anyway (a script set the field) is refused in the
	// page's words, never "UTF-16 code units".
	p := b.newPage(t, phone(), browserLanguage("zh-CN"))
	openBoard(p, s, "long", capability)
	evalJS[chromedp.Void](p, fmt.Sprintf(`(() => { const i = document.getElementById('f-title'); i.value = %s; i.dispatchEvent(new Event('input')); })()`, jsString(long)))
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`!document.getElementById('message').hidden`, "the refusal is shown")
	if got := evalJS[string](p, `document.getElementById('message').textContent`); got != "未保存。标题：标题需要 1 到 120 个字。" {
		t.Errorf("the refusal of a long title says %q", got)
	}
	noOverflow(t, p, "a refused long title")
	if pr := problemsExcept(p, "422"); len(pr) > 0 {
		t.Errorf("problems: %v", pr)
	}

	// A title of 120 characters without a space, read on a phone and in the list: no overflow.
	c := sampleContent(long[:120])
	apiCreateBoard(t, s, "long-read", c)
	for _, tc := range []struct{ name, path string }{{"board", "/b/long-read"}, {"list", "/"}} {
		r := b.newPage(t, phone())
		r.do(chromedp.Navigate(s.URL + tc.path))
		r.waitJS(`document.documentElement.dataset.ready === "true"`, "the page is ready")
		if tc.name == "board" {
			waitBoardReady(r)
		}
		noOverflow(t, r, "a 120-character title on the "+tc.name)
		r.screenshot("board", "manage-long-title-"+tc.name+"-phone-en")
		r.requireClean("a long title read")
	}
}

func testDeleteBoard(t *testing.T, s *Server, b *Browser) {
	capability := apiCreateBoard(t, s, "doomed", sampleContent("Doomed"))
	p := b.newPage(t)
	openBoard(p, s, "doomed", capability)
	other := b.newPage(t, phone(), browserLanguage("zh-CN"), darkScheme())
	openBoard(other, s, "doomed", "")

	// The dialog opens with "Keep the board" focused; Escape keeps the board.
	p.do(chromedp.Focus(chromedp.ID("delete-board")), chromedp.KeyEvent(kb.Enter))
	p.waitJS(`document.getElementById('delete-dialog').open && document.activeElement.id === 'delete-cancel'`, "the confirmation opens on Keep")
	if got := evalJS[string](p, `document.getElementById('delete-text').textContent`); !strings.Contains(got, "“Doomed” and all its history will be deleted") {
		t.Errorf("the confirmation says %q", got)
	}
	p.screenshot("board", "manage-delete-dialog-desktop-en")
	p.do(chromedp.KeyEvent(kb.Escape))
	p.waitJS(`!document.getElementById('delete-dialog').open && document.activeElement.id === 'delete-board'`, "Escape closes the dialog, focus back on Delete")
	if res, err := http.Get(s.URL + "/api/boards/doomed"); err != nil || res.StatusCode != 200 {
		t.Fatalf("after Escape: %v %v", res.StatusCode, err)
	} else {
		res.Body.Close()
	}

	// Confirmed over a revision this page has not seen (its stream is blocked): not deleted, and the
	// dialog says why in the page's words.
	stale := b.newPage(t, blockURL(s.URL+"/api/boards/doomed/events"))
	stale.do(chromedp.Navigate(s.URL + "/b/doomed#cap=" + capability))
	stale.waitJS(`document.documentElement.dataset.ready === "true" && !document.getElementById('board-body').hidden`, "the board is shown without its stream")
	apiPutBoard(t, s, "doomed", capability, 1, sampleContent("Doomed, again"))
	stale.do(chromedp.Click(chromedp.ID("delete-board")))
	stale.waitJS(`document.getElementById('delete-dialog').open`, "the confirmation opens")
	stale.do(chromedp.Click(chromedp.ID("delete-confirm")))
	stale.waitJS(`!document.getElementById('delete-error').hidden`, "the refusal is shown in the dialog")
	if got := evalJS[string](stale, `document.getElementById('delete-error').textContent`); !strings.Contains(got, "Not deleted: someone changed the board since you opened it (it is now revision 2)") {
		t.Errorf("a stale deletion says %q", got)
	}
	stale.screenshot("board", "manage-delete-stale-desktop-en")
	if pr := problemsExcept(stale, "412", "events"); len(pr) > 0 {
		t.Errorf("problems: %v", pr)
	}
	if res, err := http.Get(s.URL + "/api/boards/doomed"); err != nil || res.StatusCode != 200 {
		t.Fatalf("after a stale deletion: %v %v", res.StatusCode, err)
	} else {
		res.Body.Close()
	}
	p.waitJS(`document.getElementById('title-sr').textContent === 'Doomed, again'`, "the deleting page has the new revision")

	// Confirmed by keyboard: the board is gone, here and on the other page.
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitJS(`document.getElementById('delete-dialog').open`, "the confirmation opens again")
	p.do(chromedp.Focus(chromedp.ID("delete-confirm")), chromedp.KeyEvent(kb.Enter))
	p.waitJS(`!document.getElementById('board-gone').hidden && document.activeElement.id === 'board-gone-text'`, "the page says the board was deleted")
	if got := evalJS[string](p, `document.getElementById('board-gone').innerText`); !strings.Contains(got, "This board was deleted.") || !strings.Contains(got, "Go to all boards") {
		t.Errorf("the deleting page shows %q", got)
	}
	if evalJS[bool](p, `!document.getElementById('board-body').hidden || document.getElementById('delete-dialog').open`) {
		t.Error("the deleted board's editor is still shown")
	}
	other.waitJS(`!document.getElementById('board-gone').hidden`, "the other page learns the board is gone")
	if got := evalJS[string](other, `document.getElementById('board-gone').innerText`); !strings.Contains(got, "这个和弦谱已被删除。") || !strings.Contains(got, "前往全部和弦谱") {
		t.Errorf("the other page shows %q", got)
	}
	if res, err := http.Get(s.URL + "/api/boards/doomed"); err != nil || res.StatusCode != 404 {
		t.Fatalf("GET after the deletion: %v %v", res.StatusCode, err)
	} else {
		res.Body.Close()
	}
	for _, path := range []string{filepath.Join(s.DataDir, "boards", "doomed"), filepath.Join(s.DataDir, "caps", "doomed")} {
		if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s after the deletion: %v", path, err)
		}
	}
	p.screenshot("board", "manage-deleted-desktop-en")
	other.screenshot("board", "manage-deleted-elsewhere-phone-zh-dark")
	noOverflow(t, other, "the deleted board on a phone")
	p.requireClean("delete a board")
	other.requireClean("the board deleted elsewhere")

	// The link to the list works, and the list no longer has the board.
	p.do(chromedp.Click(chromedp.CSS(`#board-gone a`)))
	p.waitJS(`location.pathname === '/' && document.documentElement.dataset.ready === 'true' && document.getElementById('list-status').textContent !== ''`, "the list opens")
	if evalJS[bool](p, `!!document.querySelector('#board-list a[href="/b/doomed"]')`) {
		t.Error("the deleted board is still listed")
	}
}
