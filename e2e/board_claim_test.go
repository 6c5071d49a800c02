package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestBoardPageClaim (issue 26, finding 6): the edit link tele serve prints carries a one-time code
// (#claim=), not the key. Opened in Chromium, the page trades the code for the key by POST and can edit;
// the tab's navigation history, the URL, the DOM and localStorage (but for the key ring) never hold the key. The same link
// opened again is read-only and says why in the musician's language (English, Chinese).
func TestBoardPageClaim(t *testing.T) {
	s := startServe(t)
	b := newBrowser(t)
	capability := s.EditLink[strings.Index(s.EditLink, "#cap=")+len("#cap="):]
	if !strings.Contains(s.ClaimLink, "#claim=") || strings.Contains(s.ClaimLink, capability) {
		t.Fatalf("the start line's edit link %q is not a claim link", s.ClaimLink)
	}

	p := b.newPage(t)
	p.do(chromedp.Navigate(s.ClaimLink))
	waitBoardReady(p)
	p.waitJS(`!document.getElementById('meta-form').hidden`, "the claimed page can edit")
	checkCapabilityPlacement(t, p, "welcome", capability)
	var hist page.GetNavigationHistoryResult
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		var err error
		hist, err = cdp.Call(ctx, tg, page.GetNavigationHistory, cdp.Empty{})
		return err
	}))
	if len(hist.Entries) == 0 {
		t.Fatal("no navigation history")
	}
	for _, e := range hist.Entries {
		if strings.Contains(e.URL, capability) || strings.Contains(e.URL, "cap=") || strings.Contains(e.URL, "#") {
			t.Errorf("the navigation history holds %q", e.URL)
		}
	}
	p.requireClean("the welcome board opened from its claim link")

	// The link again, in English and in Chinese: read-only, and said.
	for _, tc := range []struct{ lang, want string }{
		{"en-US", "This edit link was already used"},
		{"zh-CN", "这个编辑链接已经用过"},
	} {
		q := b.newPage(t, browserLanguage(tc.lang))
		q.do(chromedp.Navigate(s.ClaimLink))
		waitBoardReady(q)
		q.waitJS(`!document.getElementById('message').hidden`, "the refusal is said")
		msg := evalJS[string](q, `document.getElementById('message').textContent`)
		if !strings.Contains(msg, tc.want) || !strings.Contains(msg, "tele board link welcome") {
			t.Errorf("%s: the used link says %q", tc.lang, msg)
		}
		if evalJS[bool](q, `!document.getElementById('meta-form').hidden || location.hash !== ''`) {
			t.Errorf("%s: the used link opened the board for editing, or left its fragment", tc.lang)
		}
		q.screenshot("board", "claim-used-"+tc.lang)
	}
}

// checkClaimLink fails the test unless link, an edit link the page showed or copied for board id, is a
// one-time claim link (#claim=) without the key, whose code the server trades for the board's current
// key. It spends the code.
func checkClaimLink(t *testing.T, s *Server, id, link, where string) {
	t.Helper()
	capability := readCapability(t, s, id)
	code, ok := strings.CutPrefix(link, s.URL+"/b/"+id+"#claim=")
	if !ok || code == "" || strings.Contains(link, capability) || strings.Contains(link, "cap=") {
		t.Errorf("%s: the edit link is %q, want %s/b/%s#claim=<code> without the key", where, strings.ReplaceAll(link, capability, "<key>"), s.URL, id)
		return
	}
	var claimed struct{ Capability string }
	if status := apiJSON(t, "POST", s.URL+"/api/boards/"+id+"/claim", nil, map[string]string{"claim": code}, &claimed); status != 200 || claimed.Capability != capability {
		t.Errorf("%s: the claim link's code answered %d, not the board's key", where, status)
	}
}
