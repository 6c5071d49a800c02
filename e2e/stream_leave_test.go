package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestStreamsEndWhenThePageIsLeft (issue 22: stream.js did not end its fetch on pagehide): one tab
// opens the list page ten times in turn. Chromium keeps a page it left for Back with its fetches open;
// a list page that kept its stream of the sets held one of the six connections the browser opens to
// the server, and from the seventh visit on the page's list never came. Every stream now ends when its
// page is left.
func TestStreamsEndWhenThePageIsLeft(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	p := b.newPage(t, desktop())
	for i := range 10 {
		p.do(chromedp.Navigate(fmt.Sprintf("%s/?visit=%d", s.URL, i)))
		p.waitJS(`document.documentElement.dataset.ready === 'true' && document.querySelectorAll('#board-list li').length === 1`,
			fmt.Sprintf("visit %d of 10 lists the boards: the streams of the pages left before ended", i+1))
	}
	p.requireClean("after ten visits in one tab")
}
