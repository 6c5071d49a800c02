package server_test

import (
	"regexp"
	"strings"
	"testing"

	"tele/server"
	"tele/server/servertest"
	"tele/web"
)

// someChat stands for `tele host`'s chat routes: a server that carries a chat.
type someChat struct{}

func (someChat) Register(*web.Router) {}

// TestBoardPageFirstView: the board page of a chart carries the chart as the server draws it (its
// title, its bars) and holds its modules' preloads inert (a template the page takes once the chart is
// painted); its ETag follows the board's revision. The page
// is sent as it always was, with its preloads and no chart, where the page draws something else: a
// song with words, a page opened in a set, a board that is not there, and under `tele host` (its chat
// panel narrows the grid).
func TestBoardPageFirstView(t *testing.T) {
	e := servertest.New(t)
	e.RequireAssets()
	e.Create("chart", servertest.ValidContent)
	e.Create("words", `{"title":"Words","description":"","tempo":100,"beatsPerBar":4,"sections":[{"label":"V","lines":[{"text":"la la","chords":[{"at":0,"chord":"C"}]}]}]}`)
	// A preload of app.js, but in the template that holds a filled page's preloads inert.
	deferred := regexp.MustCompile(`(?s)<template id="deferred">.*?</template>`)
	appJS := regexp.MustCompile(`<link rel="modulepreload" href="[^"]*/app\.js">`)
	preloadsApp := func(body string) bool { return appJS.MatchString(deferred.ReplaceAllString(body, "")) }
	page := func(e *servertest.Env, path string) (string, string) {
		t.Helper()
		w := e.Do(servertest.Request{Method: "GET", Path: path})
		if w.Code != 200 {
			t.Fatalf("GET %s: %d", path, w.Code)
		}
		return w.Body.String(), w.Header().Get("ETag")
	}

	body, etag := page(e, "/b/chart")
	if !strings.Contains(body, `<div id="grid" class="grid" data-meter="short"><section class="section"`) || !strings.Contains(body, `<h1 id="title" class="title">Test</h1>`) ||
		!strings.Contains(body, `<span class="q">m7</span>`) || preloadsApp(body) || !appJS.MatchString(deferred.FindString(body)) || !strings.HasSuffix(etag, `-r1"`) {
		t.Errorf("the chart's page (ETag %s) has no first view, or preloads app.js", etag)
	}
	made := e.Create("saved", servertest.ValidContent)
	if w := e.Do(servertest.Request{Method: "PUT", Path: "/api/boards/saved", Header: servertest.PutHeader(made.Capability, `"1"`),
		Body: strings.Replace(servertest.ValidContent, `"Test"`, `"Retitled"`, 1)}); w.Code != 200 {
		t.Fatalf("PUT: %d %s", w.Code, w.Body)
	}
	if body, etag := page(e, "/b/saved"); !strings.Contains(body, `>Retitled</h1>`) || !strings.HasSuffix(etag, `-r2"`) {
		t.Errorf("after a save, the page's ETag is %s", etag)
	}
	for _, path := range []string{"/b/words", "/b/chart?set=gig", "/b/nowhere"} {
		if body, _ := page(e, path); strings.Contains(body, `<section class="section"`) || !preloadsApp(body) || strings.Contains(body, "{{") {
			t.Errorf("%s: a first view, or no preloads", path)
		}
	}
	host := servertest.New(t, func(c *server.Config) { c.Chat = someChat{} })
	host.Create("chart", servertest.ValidContent)
	if body, _ := page(host, "/b/chart"); strings.Contains(body, `<section class="section"`) || !preloadsApp(body) {
		t.Error("under tele host the page carries a first view")
	}
}
