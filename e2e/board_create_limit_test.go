package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestCreateTooFast: past the server's creation burst (20 quick creations, issue 11 finding 3), the
// board list page says so in the musician's language, with the wait, and nothing is created. It has a
// server of its own: the burst is the whole server's.
func TestCreateTooFast(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	content := boardContent{Title: "Quick", Key: "C", Tempo: 100, BeatsPerBar: 4,
		Sections: []boardSection{{Label: "A", Bars: [][]string{{"C"}}}}}
	made := 0
	// drain creates boards through the API until the server refuses one: then the next creation, the
	// page's, comes within the same refill period (3 s) however slow the machine is.
	drain := func() {
		for {
			var doc boardDoc
			status := apiJSON(t, "POST", s.URL+"/api/boards", nil, map[string]any{"id": fmt.Sprintf("quick-%d", made), "content": content}, &doc)
			if status == http.StatusTooManyRequests {
				return
			}
			if status != http.StatusCreated || made > 100 {
				t.Fatalf("creation %d: status %d", made, status)
			}
			made++
		}
	}

	p := b.newPage(t)
	p.do(chromedp.Navigate(s.URL + "/"))
	p.waitJS(`document.documentElement.dataset.ready === "true"`, "the list page is ready")
	for _, lang := range []struct{ loc, want string }{
		{"en", "Try again in"},
		{"zh-CN", "秒后再试"},
	} {
		switchLanguageScripted(p, lang.loc)
		evalJS[chromedp.Void](p, `(() => { for (const id of ['new-id', 'new-title']) document.getElementById(id).value = ''; })()`)
		p.do(
			chromedp.SendKeys(chromedp.ID("new-id"), "one-more"),
			chromedp.SendKeys(chromedp.ID("new-title"), "One more"),
		)
		drain()
		p.do(chromedp.Click(chromedp.ID("new-create")))
		p.waitJS(fmt.Sprintf(`!document.getElementById('new-error').hidden && document.getElementById('new-error').textContent.includes(%s)`,
			jsString(lang.want)), "the too-fast message in "+lang.loc)
		if got := evalJS[string](p, `location.pathname`); got != "/" {
			t.Errorf("%s: the page left the list for %s", lang.loc, got)
		}
	}
	res, err := http.Get(s.URL + "/api/boards/one-more")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("the refused board exists: GET %d", res.StatusCode)
	}
	if pr := problemsExcept(p, "429"); len(pr) > 0 {
		t.Errorf("problems: %s", strings.Join(pr, "; "))
	}
	p.screenshot("board", "create-too-fast-zh")
}
