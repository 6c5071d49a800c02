package e2e

import (
	"net/url"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestProposalsListedOnce: a board page asks for the list of open proposals once per load, when its
// stream is live (whatever changes after that comes as the stream's events), and again only when the
// stream comes back after a loss. The page used to ask twice, once with the board and once when the
// stream first said it was live; the two answers were the same list.
func TestProposalsListedOnce(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	for _, tc := range []struct {
		name, capability string
	}{
		{"read-only", ""},
		{"with the edit key", s.EditLink},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newBrowser(t).newPage(t)
			lists := countRequests(p, "GET", "/api/boards/welcome/proposals")
			if tc.capability != "" {
				p.do(chromedp.Navigate(tc.capability))
				waitBoardReady(p)
			} else {
				openBoard(p, s, "welcome", "")
			}
			p.waitJS(`performance.getEntriesByType('resource').some((e) => new URL(e.name).pathname === '/api/boards/welcome/proposals')`, "the list of proposals arrived")
			if n := lists(); n != 1 {
				t.Errorf("the page asked for the list of proposals %d times in one load, want 1", n)
			}
		})
	}
}

// countRequests counts the requests of method to path the page sends from now on; call the result to
// read the count.
func countRequests(p *Page, method, path string) func() int {
	var mu sync.Mutex
	n := 0
	events := chromedp.Events(p.ctx, network.RequestWillBeSent)
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			u, perr := url.Parse(ev.Request.URL)
			if perr != nil || ev.Request.Method != method || u.Path != path {
				continue
			}
			mu.Lock()
			n++
			mu.Unlock()
		}
	}()
	return func() int {
		evalJS[int](p, `1`) // let events already sent arrive
		mu.Lock()
		defer mu.Unlock()
		return n
	}
}
