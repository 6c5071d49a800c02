package assets

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestPreloads: the board page sent without its first view (assets.PageWith, firstview) names every module its code needs before it can draw a board (app.js,
// board-page.js and all they import statically) as a modulepreload, so a browser with nothing cached
// asks for them while it parses the page (issue 23: a fresh browser context fetched them one level of
// the import graph after another). Each link is a file of the version directory; the modules loaded
// later on demand (the chat panel, the board page's parts after its first drawing) are not preloaded;
// the links come breadth first, each module after one that imports it; a dynamic import or a JSDoc
// type naming a module is not a static import, even at the start of a line; a placeholder naming no
// module fails New.
func TestPreloads(t *testing.T) {
	a := newAssets(t)
	page := string(a.pages["board"].body)
	links := regexp.MustCompile(`<link rel="modulepreload" href="([^"]+)">`).FindAllStringSubmatch(page, -1)
	got := map[string]bool{}
	var order []string
	for _, l := range links {
		name, ok := strings.CutPrefix(l[1], a.Dir()+"/")
		if _, found := a.files[name]; !ok || !found {
			t.Errorf("preload of %q: not a file of %s", l[1], a.Dir())
		}
		got[name] = true
		order = append(order, name)
	}
	for _, want := range []string{"app.js", "board-page.js", "i18n.js", "grid-build.js", "board-view.js", "stream.js"} {
		if !got[want] {
			t.Errorf("the board page does not preload %s", want)
		}
	}
	if got["chat-panel.js"] || strings.Contains(page, "{{PRELOAD") {
		t.Errorf("the chat panel is preloaded, or a placeholder is left: %v", got)
	}
	for _, later := range []string{"history-panel.js", "proposals-view.js", "practice-panel.js", "player.js", "board-manage.js", "save-panel.js", "board-editing.js", "page-keys.js", "notify.js", "bar-selection.js", "export-links.js"} {
		if got[later] {
			t.Errorf("the board page preloads %s, which it loads after its first drawing", later)
		}
	}
	if len(order) == 0 || order[0] != "first-view.js" {
		t.Errorf("the preloads start %v, want first-view.js (what decides whether the page shows its first view)", order[:min(1, len(order))])
	}
	checkBreadthFirst(t, a, order[slices.Index(order, "app.js"):])
	if len(order) != len(got) {
		t.Errorf("a module is preloaded twice: %v", order)
	}
	// Every static import of a preloaded module is preloaded too: the closure is whole.
	for name := range got {
		for _, m := range staticImportRE.FindAllStringSubmatch(string(a.files[name].body), -1) {
			if !got[m[1]] {
				t.Errorf("%s imports %s, which is not preloaded", name, m[1])
			}
		}
	}

	fsys := fstest.MapFS{
		"web/static/app.js": {Data: []byte("import { x } from './z.js';\nexport { y } from './b.js';\nimport './c.js';\n" +
			"const later = () => import('./d.js');\nimport('./e.js').then(() => {});\nimport ('./e.js');\n" +
			"/** @type {import('./f.js').T} */\n/**\n * @typedef {import('./f.js').U} U\n */\nexport const w = /** @type {import('./f.js').T} */ (null);\n")},
		"web/static/z.js":       {Data: []byte("import {\n  z,\n} from './a.js';\n")},
		"web/static/a.js":       {Data: []byte("import { z } from './c.js';\n")},
		"web/static/e.js":       {Data: []byte("export const e = 1;")},
		"web/static/f.js":       {Data: []byte("export const f = 1;")},
		"web/static/b.js":       {Data: []byte("export const y = 1;")},
		"web/static/c.js":       {Data: []byte("export const z = 1;")},
		"web/static/d.js":       {Data: []byte("export const w = 1;")},
		"web/pages/index.html":  {Data: []byte("<script type=module src={{ASSETS}}/app.js></script>")},
		"web/pages/board.html":  {Data: []byte("<script type=module src={{ASSETS}}/app.js></script>\n{{PRELOAD app.js}}")},
		"web/pages/join.html":   {Data: []byte("<script type=module src={{ASSETS}}/app.js></script>")},
		"web/pages/follow.html": {Data: []byte("<script type=module src={{ASSETS}}/app.js></script>")},
	}
	b, err := newFrom(fsys)
	if err != nil {
		t.Fatal(err)
	}
	want := `<script type=module src=DIR/app.js></script>
<link rel="modulepreload" href="DIR/app.js">
<link rel="modulepreload" href="DIR/z.js">
<link rel="modulepreload" href="DIR/b.js">
<link rel="modulepreload" href="DIR/c.js">
<link rel="modulepreload" href="DIR/a.js">`
	if got := string(b.pages["board"].body); got != strings.ReplaceAll(want, "DIR", b.Dir()) {
		t.Errorf("board page:\n%s", got)
	}
	fsys["web/pages/board.html"] = &fstest.MapFile{Data: []byte("<p>{{ASSETS}}</p>{{PRELOAD nowhere.js}}")}
	if _, err := newFrom(fsys); err == nil || !strings.Contains(err.Error(), "nowhere.js") {
		t.Errorf("a preload of no module: %v", err)
	}
}

// checkBreadthFirst: the board page's preloads start with its two roots, and each module comes after
// one that imports it.
func checkBreadthFirst(t *testing.T, a *Assets, order []string) {
	t.Helper()
	if len(order) < 2 || order[0] != "app.js" || order[1] != "board-page.js" {
		t.Errorf("the preloads start %v, want app.js, board-page.js", order[:min(2, len(order))])
	}
	at := map[string]int{}
	for i, name := range order {
		at[name] = i
	}
	first := map[string]int{} // a module → the place of its first importer
	for _, name := range order {
		for _, m := range staticImportRE.FindAllStringSubmatch(string(a.files[name].body), -1) {
			if i, ok := first[m[1]]; !ok || at[name] < i {
				first[m[1]] = at[name]
			}
		}
	}
	for i, name := range order[2:] {
		if imp, ok := first[name]; ok && imp > i+2 {
			t.Errorf("%s is preloaded before %s, which imports it", name, order[imp])
		}
	}
}
