package e2e

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// toolPropose is Pi's tele_board put in propose mode: it must answer proposed, with the proposal's id.
func (h *linkHost) toolPropose(rev int64, c any, note string) string {
	h.t.Helper()
	h.nextID++
	id := h.nextID
	h.send(map[string]any{"id": id, "call": "tool", "args": map[string]any{"action": "put", "expectedRevision": rev, "content": c, "note": note}})
	reply := h.wait(func(f map[string]json.RawMessage) bool { return string(f["id"]) == fmt.Sprint(id) }, "the tool reply")
	var doc struct {
		Status, Proposal string
		BaseRevision     int64
	}
	if err := json.Unmarshal(reply["ok"], &doc); err != nil || doc.Status != "proposed" || doc.Proposal == "" || doc.BaseRevision != rev {
		h.t.Fatalf("tool put in propose mode: %s %s", reply["ok"], reply["err"])
	}
	return doc.Proposal
}

// TestReviewModeFromPage: the paired page switches Pi's edits to proposals (the mode command); the page
// is hidden when Pi's put arrives, which commits nothing: the title counts it and a notification says
// a change waits for review. Back on the page, the proposal is shown, its bar taken, and the board has
// it as Pi's revision naming the proposal. The switch says its state in both languages.
func TestReviewModeFromPage(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	h := startLinkHost(t, "review")
	b := newBrowser(t)
	p := b.newPage(t)
	addInitScript(p, notificationProbe)
	p.do(chromedp.Navigate(h.inviteLink))
	waitBoardReady(p)
	p.waitJS(`document.getElementById('chat').dataset.paired === 'true' && !document.getElementById('chat-mode-row').hidden && !document.getElementById('chat-mode').disabled`, "the paired panel with its review switch")
	if evalJS[bool](p, `document.getElementById('chat-mode').checked`) {
		t.Fatal("a new binding starts in propose")
	}
	p.do(chromedp.Click(chromedp.ID("chat-mode")))
	p.waitJS(`document.getElementById('chat-mode').checked && !document.getElementById('chat-mode').disabled && document.getElementById('chat-mode-hint').textContent.startsWith('Pi proposes')`, "propose mode, as the status says")
	p.screenshot("board", "review-mode-switch-desktop-en")

	// Notifications on (granted in the profile), then the page is hidden and Pi proposes.
	grantNotifications(p, h.URL)
	p.do(chromedp.Click(chromedp.ID("notify-toggle")))
	p.waitJS(`document.getElementById('notify-toggle').getAttribute('aria-pressed') === 'true'`, "notifications on")
	title := evalJS[string](p, `document.title`)
	var cur histDoc
	apiJSON(t, "GET", h.URL+"/api/boards/review", nil, nil, &cur)
	c := cur.Content
	c.Sections[0].Bars[0] = withChords(t, c.Sections[0].Bars[0], "Cmaj9")
	hidePage(t, p)
	pid := h.toolPropose(cur.Revision, c, "A richer first chord")
	p.waitJS(`document.title === `+jsString("(1) "+title), "the title counts the proposal")
	p.waitJS(`window.__notes.length === 1`, "a notification")
	if note := evalJS[map[string]any](p, `window.__notes[0]`); note["title"] != cur.Content.Title || note["body"] != "Pi proposes a change to review" || note["error"] == true {
		t.Errorf("the notification: %v", note)
	}
	var now histDoc
	if apiJSON(t, "GET", h.URL+"/api/boards/review", nil, nil, &now); now.Revision != cur.Revision {
		t.Fatalf("a proposal committed something: revision %d", now.Revision)
	}
	showPage(t, p)
	p.waitJS(`document.title === `+jsString(title), "seen: the count goes")

	p.waitJS(`!document.getElementById('proposals').hidden && document.getElementById('proposals-info').textContent.includes('A richer first chord')`, "the proposal on the page")
	p.do(chromedp.Focus(`#proposals .prop-take[data-key="b:0:0"]`), chromedp.KeyEvent("a"))
	p.do(chromedp.Click(chromedp.ID("prop-apply")))
	p.waitJS(barTextJS(0, 0)+` === 'Cmaj9' && document.getElementById('proposals').hidden`, "the bar taken is on the board")
	if r := revisionRows(t, h.URL, "review")[0]; r.Author != "pi" || r.Proposal != pid {
		t.Fatalf("the history row: %+v, want Pi naming %s", r, pid)
	}

	// The switch in Chinese.
	p.do(chromedp.Focus(chromedp.ID("lang")), chromedp.KeyEvent(kb.ArrowDown))
	p.waitJS(`document.documentElement.lang === 'zh-CN' && document.getElementById('chat-mode-hint').textContent === 'Pi 只提出修改；由你逐一决定采纳与否。' && document.getElementById('notify-toggle').textContent === '通知已开启'`, "the switch and the notification button in Chinese")
	p.screenshot("board", "review-mode-switch-desktop-zh")
	p.requireClean("after review mode from the page")
}
