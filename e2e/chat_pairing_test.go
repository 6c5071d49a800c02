package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// storageDisabledSpentUnpaired pairs a tab without storage; a spent invitation and a never-paired page say
// how to pair.
func (r *chatRig) storageDisabledSpentUnpaired(t *testing.T) string {
	b2 := newBrowser(t)
	spent := r.inviteTo
	from := r.pi.Mark()
	r.pi.Prompt("/tele " + chatBoardID)
	r.takeInvitation(t, r.pi.WaitNotify(from, "one-time link"))
	s := r.openChatPage(t, b2, r.inviteTo, storageDisabled(), darkScheme())
	waitChatLive(s)
	if !evalJS[bool](s, `(() => { try { localStorage.length; return false; } catch (e) { return true; } })()`) {
		t.Fatal("the storage-disabled tab can reach localStorage")
	}
	if n := len(chatRows(s)); n < 5 {
		t.Errorf("storage disabled: %d rows", n)
	}
	s.do(chromedp.Click(chromedp.CSS(`.chat-dock-btn[data-dock="bottom"]`)))
	s.waitJS(`document.getElementById('chat').dataset.dock === 'bottom'`, "dock bottom without storage")
	s.do(chromedp.Focus(chromedp.ID("lang")), chromedp.KeyEvent(kb.ArrowDown))
	s.waitJS(`document.documentElement.lang === 'zh-CN' && document.getElementById('chat-send').textContent === '发送'`, "Chinese without storage")
	s.do(chromedp.Click(chromedp.ID("chat-collapse")))
	s.waitJS(`document.getElementById('chat').dataset.collapsed === 'true'`, "collapsed without storage")
	s.do(chromedp.Click(chromedp.ID("chat-collapse")))
	s.waitJS(`document.getElementById('chat').dataset.collapsed === 'false'`, "expanded without storage")
	s.requireClean("storage disabled")
	r.shot(s, "storage-disabled-dark-desktop-zh")
	closePage(s)

	// A spent invitation says so and how to pair again.
	u := r.openChatPage(t, b2, spent)
	u.waitJS(`document.getElementById('chat').dataset.paired === 'false' && !document.getElementById('chat-pair').hidden && !document.getElementById('chat-pair-reason').hidden`, "the spent-invitation message")
	reason := evalJS[string](u, `document.getElementById('chat-pair-reason').textContent`)
	how := evalJS[string](u, `document.getElementById('chat-pair').textContent.replace(/\s+/g, ' ').trim()`)
	if !strings.Contains(reason, "expired or was already used") || !strings.Contains(how, "/tele "+chatBoardID) {
		t.Errorf("spent invitation: %q / %q", reason, how)
	}
	if evalJS[string](u, `location.hash`) != "" {
		t.Error("the spent invitation's fragment was not erased")
	}
	if pr := problemsExcept(u, "403"); len(pr) > 0 {
		t.Errorf("problems: %v", pr)
	}
	r.shot(u, "invitation-spent-desktop-en")
	closePage(u)

	// A browser that never paired: how to pair, no error.
	v := r.openChatPage(t, b2, r.base+"/b/"+chatBoardID, phone())
	v.waitJS(`document.getElementById('chat').dataset.paired === 'false' && !document.getElementById('chat-pair').hidden`, "the how-to-pair message")
	if !evalJS[bool](v, `document.getElementById('chat-pair-reason').hidden && document.getElementById('chat-form').hidden`) {
		t.Error("an unpaired page shows a reason or a message box")
	}
	if g := evalJS[chatGeom](v, chatGeomJS); g.SW > g.IW {
		t.Errorf("unpaired phone overflows: %+v", g)
	}
	v.requireClean("never paired")
	r.shot(v, "not-paired-phone-en")
	closePage(v)
	return "storage disabled: pairs from a fresh invitation, shows the conversation, docks, collapses and switches language; a spent invitation says it expired or was used and how to pair; a never-paired page says how to pair (/tele <board>)"
}

// storedBindingWithoutCookie clears the cookie: the page says the pairing ended and forgets the binding.
func (r *chatRig) storedBindingWithoutCookie(t *testing.T) string {
	a := r.tab
	// The browser loses its pairing cookie (as after 8 hours): the stored binding no longer works.
	if _, err := chromedp.Call(a.ctx, network.ClearBrowserCookies, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	q := r.openChatPage(t, r.browser, r.base+"/b/"+chatBoardID)
	defer closePage(q)
	q.waitJS(`document.getElementById('chat').dataset.paired === 'false' && !document.getElementById('chat-pair-reason').hidden`, "the page says the pairing ended")
	reason := evalJS[string](q, `document.getElementById('chat-pair-reason').textContent`)
	how := evalJS[string](q, `document.getElementById('chat-pair').textContent.replace(/\s+/g, ' ').trim()`)
	if !strings.Contains(reason, "no longer paired") || !strings.Contains(how, "/tele "+chatBoardID) {
		t.Errorf("stale binding: %q / %q", reason, how)
	}
	if got := evalJS[string](q, fmt.Sprintf(`localStorage.getItem(%s) || ''`, jsString("tele.chat.binding:"+chatBoardID))); got != "" {
		t.Errorf("the dead binding stays stored: %q", got)
	}
	if pr := problemsExcept(q, "401"); len(pr) > 0 {
		t.Errorf("problems: %v", pr)
	}
	r.shot(q, "pairing-ended-desktop-en")
	return "a stored binding whose cookie is gone: GET status 401 → “no longer paired” and how to pair (/tele <board>); the dead binding id is forgotten"
}

// teleServeHasNoPanel opens a board on `tele serve`: no panel, and a binding left from Pi is forgotten.
func (r *chatRig) teleServeHasNoPanel(t *testing.T) string {
	s := startServe(t)
	q := r.openChatPage(t, r.browser, s.URL+"/b/welcome")
	defer closePage(q)
	q.waitJS(`document.documentElement.dataset.ready === 'true'`, "the page is ready")
	if !evalJS[bool](q, `document.getElementById('chat').hidden && !document.getElementById('layout').dataset.chat`) {
		t.Error("tele serve (chat:false) shows a chat panel to a browser that never paired")
	}
	for _, f := range chatFetches(q) {
		if strings.Contains(f.URL, "/api/chat/") {
			t.Errorf("a chat request on tele serve: %s", f.URL)
		}
	}
	q.requireClean("tele serve")
	// A binding stored by an earlier Pi connection on this origin: say Pi is gone, once, and forget it.
	evalJS[chromedp.Void](q, `localStorage.setItem('tele.chat.binding:welcome', 'an-old-binding')`)
	q.do(chromedp.Reload())
	waitBoardReady(q)
	q.waitJS(`!document.getElementById('chat').hidden && !document.getElementById('chat-pair-reason').hidden`, "the panel says Pi is not connected")
	if got := evalJS[string](q, `document.getElementById('chat-pair-reason').textContent`); !strings.Contains(got, "not connected") {
		t.Errorf("stored binding on tele serve: %q", got)
	}
	if evalJS[string](q, `localStorage.getItem('tele.chat.binding:welcome') || ''`) != "" {
		t.Error("the old binding stays stored")
	}
	r.shot(q, "tele-serve-old-binding-desktop-en")
	q.do(chromedp.Reload())
	waitBoardReady(q)
	if !evalJS[bool](q, `document.getElementById('chat').hidden`) {
		t.Error("the panel comes back on tele serve after the old binding was forgotten")
	}
	return "tele serve ({chat:false}): no panel and no chat request; a binding left from an earlier connection is reported once (Pi is not connected; how to pair) and forgotten"
}

// teleOffKeepsConversation runs /tele off: the page keeps the conversation readable and stops sending.
func (r *chatRig) teleOffKeepsConversation(t *testing.T) string {
	a := r.tab
	n := len(chatRows(a))
	r.pi.Prompt("/tele off")
	a.waitJS(`document.getElementById('chat').dataset.conn === 'offline' || document.getElementById('chat').dataset.paired === 'false'`, "the panel notices the host is gone")
	if got := len(chatRows(a)); got != n {
		t.Errorf("%d rows after /tele off, had %d", got, n)
	}
	if !evalJS[bool](a, `document.getElementById('chat-send').disabled`) {
		t.Error("send enabled after /tele off")
	}
	r.shot(a, "after-tele-off-desktop-en")
	return "after /tele off the page keeps every row readable, says the connection is lost and disables sending"
}
