package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestBandStopWhilePolling: the leading page asks GET /api/share every three seconds for the count of
// phones. Stop sharing clicked while one of those was on its way sent the stop first; the poll reached
// the server after the share had ended and was refused, and the page's console showed the 403 (a CI run
// of TestBandView met it). Here the poll is held in the browser until after the click: the stop waits
// for it, then ends the share, and the console stays clean.
func TestBandStopWhilePolling(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	addr := shareAddr(t)
	s := startServe(t, "--share", "--share-addr", addr)
	capability := apiCreateBoard(t, s, "tonight", sampleContent("Tonight"))
	b := newBrowser(t)
	leader, join := shareFromPage(t, b, s, addr, "tonight", capability)
	phone := joinPhone(t, b, join, "Tonight", 16)
	leader.waitJS(`document.getElementById('band-status').dataset.followers === '1'`, "the leader counts one phone")

	release := holdNextPoll(t, leader)
	leader.do(chromedp.Click(chromedp.ID("band-stop")))
	leader.waitJS(`document.getElementById('band-stop').disabled || document.getElementById('band-status').textContent.startsWith('Sharing stopped')`, "the click on Stop sharing taken")
	release()

	leader.waitJS(`document.getElementById('band-status').textContent.startsWith('Sharing stopped') && document.getElementById('band-live').hidden`, "the leader says sharing stopped")
	phone.waitJS(`document.getElementById('band-pill').dataset.state === 'ended'`, "the phone says sharing ended")
	leader.requireClean("after stopping with a poll on its way")
	phone.requireClean("after following")
}

// holdNextPoll holds the page's next GET /api/share in the browser (every other request to that address
// goes on at once); release sends it on to the server and returns once its answer reached the page.
func holdNextPoll(t *testing.T, p *Page) (release func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(p.ctx)
	t.Cleanup(cancel)
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	answered, stopWaiting := context.WithCancel(ctx)
	finished := chromedp.Events(answered, network.LoadingFinished)
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/api/share"}}})
		return err
	}))
	held := make(chan fetch.EventRequestPaused, 1)
	go func() {
		holding := false
		for ev, err := range paused {
			if err != nil {
				return
			}
			if !holding && ev.Request.Method == "GET" {
				holding = true
				held <- ev
				continue
			}
			if err := chromedp.Do(ctx, continueRequest(ev.RequestID)); err != nil {
				return
			}
		}
	}()
	var poll fetch.EventRequestPaused
	select {
	case poll = <-held:
	case <-ctx.Done():
		t.Fatal("the page's poll was never held")
	}
	return func() {
		t.Helper()
		p.do(continueRequest(poll.RequestID))
		defer time.AfterFunc(waitTimeout, stopWaiting).Stop()
		for ev, err := range finished {
			if err != nil {
				break
			}
			if ev.RequestID == poll.NetworkID {
				return
			}
		}
		t.Fatalf("waited %s for the poll's answer", waitTimeout)
	}
}

// continueRequest sends a request held by the Fetch domain on to the server.
func continueRequest(id fetch.RequestID) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		return continueHeld(ctx, tg, id)
	})
}

func continueHeld(ctx context.Context, tg *chromedp.Target, id fetch.RequestID) error {
	_, err := cdp.Call(ctx, tg, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
	return err
}
