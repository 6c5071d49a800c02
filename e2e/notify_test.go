package e2e

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// soundProbe records every oscillator a page starts, with its audio context's state (running: heard)
// and its pitch, before the page's scripts run. The browser's own start still runs.
const soundProbe = `(() => {
  window.__chimes = [];
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.__chimes.push({ state: this.context.state, frequency: this.frequency.value });
    return start.apply(this, args);
  };
})();`

// grantNotifications grants origin the notification permission in p's browser profile, as a
// musician who allowed it once has.
func grantNotifications(p *Page, origin string) {
	p.t.Helper()
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, chromedp.FromContext(ctx).Browser, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: "notifications"}, Setting: browser.PermissionSettingGranted, Origin: origin})
		return err
	}))
}

// TestNotificationsFromPi (issue 28, item 4): the paired page is hidden, with notifications and the
// soft sound turned on by clicks, while the real `tele host` hears from its bridge (this test) that Pi
// worked and finished, then that Pi waits for an answer in its terminal. For each: the title counts it,
// a system notification says the board's title and the kind of news and nothing else (its options
// are the body, the language and a tag), and the sound
// plays. With the sound off the next news is silent; seen again, the count goes. In Chinese the
// notification says the kind in Chinese.
func TestNotificationsFromPi(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	h := startLinkHost(t, "notify")
	state := func(idle, prompt bool) {
		h.send(map[string]any{"note": "state", "idle": idle, "pending": false, "prompt": prompt})
	}
	state(true, false)
	var cur histDoc
	apiJSON(t, "GET", h.URL+"/api/boards/notify", nil, nil, &cur)
	b := newBrowser(t)
	p := b.newPage(t)
	addInitScript(p, notificationProbe)
	addInitScript(p, soundProbe)
	p.do(chromedp.Navigate(h.inviteLink))
	waitBoardReady(p)
	waitChatLive(p)
	grantNotifications(p, h.URL)
	p.do(chromedp.Click(chromedp.ID("notify-toggle")), chromedp.Click(chromedp.ID("notify-sound")))
	p.waitJS(`document.getElementById('notify-toggle').getAttribute('aria-pressed') === 'true' && document.getElementById('notify-sound').checked`, "notifications and the sound on")
	title := evalJS[string](p, `document.title`)

	// checkNote is the n-th notification (from 1): the board's title and the kind, and the n-th chime.
	checkNote := func(n int, body string) {
		t.Helper()
		p.waitJS(`document.title === `+jsString(fmt.Sprintf("(%d) %s", n, title)), "the title counts the news")
		p.waitJS(fmt.Sprintf(`window.__notes.length === %d`, n), "a notification")
		note := evalJS[map[string]any](p, `window.__notes[window.__notes.length - 1]`)
		if note["title"] != cur.Content.Title || note["body"] != body || note["options"] != "body,lang,tag" || note["error"] == true {
			t.Errorf("notification %d: %v, want the title %q and %q", n, note, cur.Content.Title, body)
		}
	}

	hidePage(t, p)
	state(false, false)
	p.waitJS(`document.getElementById('chat').dataset.status === 'running'`, "Pi works")
	state(true, false)
	checkNote(1, "Pi finished its reply")
	p.waitJS(`window.__chimes.length === 1`, "the soft sound")
	if chime := evalJS[map[string]any](p, `window.__chimes[0]`); chime["state"] != "running" || chime["frequency"] != float64(660) {
		t.Errorf("the sound: %v, want a 660 Hz tone on a running audio context", chime)
	}

	state(true, true)
	checkNote(2, "Pi needs you in its terminal")
	p.waitJS(`window.__chimes.length === 2`, "the soft sound again")

	// The sound off: the next news is counted and notified, silently.
	evalJS[chromedp.Void](p, `document.getElementById('notify-sound').click()`)
	state(true, false)
	p.waitJS(`document.getElementById('chat').dataset.status === 'idle'`, "the terminal answered")
	state(false, false)
	p.waitJS(`document.getElementById('chat').dataset.status === 'running'`, "Pi works again")
	state(true, false)
	checkNote(3, "Pi finished its reply")
	if n := evalJS[int](p, `window.__chimes.length`); n != 2 {
		t.Errorf("%d sounds with the sound off, want still 2", n)
	}
	showPage(t, p)
	p.waitJS(`document.title === `+jsString(title), "seen: the count goes")

	// In Chinese.
	switchLanguageScripted(p, "zh-CN")
	hidePage(t, p)
	state(true, true)
	p.waitJS(`window.__notes.length === 4`, "a notification in Chinese")
	if note := evalJS[map[string]any](p, `window.__notes[3]`); note["title"] != cur.Content.Title || note["body"] != "Pi 需要你在终端里操作" {
		t.Errorf("the notification in Chinese: %v", note)
	}
	showPage(t, p)
	p.requireClean("after notifications")
}
