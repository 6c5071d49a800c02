package e2e

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
)

// TestPartsWaitForTheirCode: the board is drawn before the code of its parts (fields, player, saving,
// links) has arrived (board-page.js loadPanels). In that moment a title typed into its field was painted
// over once the parts arrived, without a word, and Play did nothing. The parts' controls now take no
// focus, clicks or typing until their code is in, and then work.
func TestPartsWaitForTheirCode(t *testing.T) {
	s := startServe(t)
	capability := apiCreateBoard(t, s, "early", sampleContent("Early"))
	b := newBrowser(t)
	p := b.newPage(t)
	release := holdRequests(t, p, "*/practice-panel.js")

	p.do(chromedp.Navigate(s.URL + "/b/early#cap=" + capability))
	p.waitJS(`performance.getEntriesByName('tele:bars-rendered').length > 0`, "the bars are drawn")
	// The player's code is held: the parts are not in yet.
	for _, id := range []string{"play", "save", "f-title"} {
		if !evalJS[bool](p, `(() => { const el = document.getElementById(`+jsString(id)+`); el.focus(); return document.activeElement !== el && el.closest('[inert]') !== null; })()`) {
			t.Errorf("#%s takes focus before its code has arrived", id)
		}
	}
	p.do(chromedp.KeyEvent("Lost title"))
	if v := evalJS[string](p, `document.getElementById('f-title').value`); v != "Early" {
		t.Errorf("the title field holds %q while the parts load, want the board's title", v)
	}

	release()
	waitBoardReady(p)
	if evalJS[bool](p, `document.querySelector('[inert]') !== null`) {
		t.Error("a control is still inert once the parts are in")
	}
	typeInto(p, "#f-title", "Early bird")
	p.waitJS(`!document.getElementById('save').disabled`, "the typed title makes a change to save")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('save-status').textContent.includes('revision 2')`, "the save is confirmed")
	if got := boardFile(t, s, "early").Content.Title; got != "Early bird" {
		t.Errorf("the saved title is %q", got)
	}
}

// TestBoardAskedBeforeItsCode: the board page asks for its board and the chord catalogue as soon as
// the page's first script runs (app.js), not once the board page's own code has been fetched and
// evaluated, so that the answer arrives while that code is made ready. With board-page.js held back,
// the board has already been fetched; released, the page draws it.
func TestBoardAskedBeforeItsCode(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	apiCreateBoard(t, s, "asked-early", sampleContent("Asked early"))
	b := newBrowser(t)
	p := b.newPage(t)
	release := holdRequests(t, p, "*/board-page.js")

	// A query: the page draws the board itself, with no first view from the server (TestFirstView).
	p.do(chromedp.Navigate(s.URL + "/b/asked-early?drawn"))
	fetched := `['/api/boards/asked-early', '/api/catalogue'].every((path) => performance.getEntriesByType('resource').some((r) => new URL(r.name).pathname === path && r.responseEnd > 0))`
	p.waitJS(fetched, "the board and the catalogue are fetched while the board page's code is held")
	if evalJS[bool](p, `performance.getEntriesByName('tele:bars-rendered').length > 0 || !document.getElementById('board-body').hidden`) {
		t.Fatal("the board is drawn while the board page's code is held: the hold did not hold")
	}

	release()
	waitBoardReady(p)
	if got := evalJS[string](p, `document.getElementById('title').textContent`); got != "Asked early" {
		t.Errorf("the page shows the title %q, want %q", got, "Asked early")
	}
	if n := evalJS[int](p, `document.querySelectorAll('li.bar').length`); n != 16 {
		t.Errorf("the page shows %d bars, want 16", n)
	}
}

// holdRequests pauses the tab's requests to URLs matching pattern until the returned func is called: it
// waits for one to be held, then lets every held one go on to the server.
func holdRequests(t *testing.T, p *Page, pattern string) (release func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(p.ctx)
	t.Cleanup(cancel)
	events := chromedp.Events(ctx, fetch.RequestPaused)
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: pattern}}})
		return err
	}))
	held := make(chan fetch.RequestID, 16)
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			held <- ev.RequestID
		}
	}()
	return func() {
		p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			select {
			case id := <-held:
				if err := continueHeld(ctx, tg, id); err != nil {
					return err
				}
			case <-ctx.Done():
				return ctx.Err()
			}
			for {
				select {
				case id := <-held:
					if err := continueHeld(ctx, tg, id); err != nil {
						return err
					}
				default:
					_, err := cdp.Call(ctx, tg, fetch.Disable, cdp.Empty{})
					return err
				}
			}
		}))
	}
}
