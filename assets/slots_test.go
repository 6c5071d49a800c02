package assets

import (
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
)

// TestPageWith: a page's slots are filled for each request by the filler, the rest of the page as it
// is; what a filled page defers ({{DEFERRED}}…, the board page's module preloads) is held inert in a
// <template id="deferred"> there, and kept as it is, markers gone, in a page sent unfilled; a filled page's ETag is the page's
// and the filler's tag, so it is revalidated (304) as the page is and changes with the tag; HEAD is
// answered, another method refused.
func TestPageWith(t *testing.T) {
	fsys := fstest.MapFS{
		"web/static/app.js":     {Data: []byte("export const a = 1;")},
		"web/static/view.js":    {Data: []byte("export const v = 1;")},
		"web/pages/index.html":  {Data: []byte("<script type=module src={{ASSETS}}/app.js></script>")},
		"web/pages/board.html":  {Data: []byte("<head>{{PRELOAD view.js}}{{DEFERRED}}{{PRELOAD app.js view.js}}{{/DEFERRED}}</head><h1>{{SLOT title}}</h1><div>{{SLOT grid}}</div>{{ASSETS}}")},
		"web/pages/join.html":   {Data: []byte("<script type=module src={{ASSETS}}/app.js></script>")},
		"web/pages/follow.html": {Data: []byte("<script type=module src={{ASSETS}}/app.js></script>")},
	}
	a, err := newFrom(fsys)
	if err != nil {
		t.Fatal(err)
	}
	link := func(name string) string { return `<link rel="modulepreload" href="` + a.Dir() + "/" + name + `">` }
	var fill Fill = func(r *http.Request) (map[string]string, string, bool) {
		if r.URL.Query().Get("board") == "" {
			return nil, "", false
		}
		return map[string]string{"title": "Blue &amp; green", "grid": "<ol></ol>", "nowhere": "x"}, "r" + r.URL.Query().Get("rev"), true
	}
	h := a.PageWith("board", fill)

	res := get(t, h, "GET", "/b?board=x&rev=7", nil)
	filled := body(t, res)
	if want := "<head>" + link("view.js") + `<template id="deferred">` + link("app.js") + "</template></head><h1>Blue &amp; green</h1><div><ol></ol></div>" + a.Dir(); filled != want {
		t.Errorf("filled page:\n%s\nwant\n%s", filled, want)
	}
	etag := res.Header.Get("ETag")
	empty := get(t, h, "GET", "/b", nil)
	unfilled := body(t, empty)
	if want := "<head>" + link("view.js") + link("app.js") + "</head><h1></h1><div></div>" + a.Dir(); unfilled != want {
		t.Errorf("unfilled page:\n%s\nwant\n%s", unfilled, want)
	}
	if pageTag := empty.Header.Get("ETag"); !strings.HasPrefix(etag, strings.TrimSuffix(pageTag, `"`)+"-r7") || etag == pageTag {
		t.Errorf("filled ETag %s, the page's %s", etag, pageTag)
	}
	if got := get(t, h, "GET", "/b?board=x&rev=7", map[string]string{"If-None-Match": etag}).StatusCode; got != http.StatusNotModified {
		t.Errorf("revalidating the same revision: %d, want 304", got)
	}
	if got := get(t, h, "GET", "/b?board=x&rev=8", map[string]string{"If-None-Match": etag}).StatusCode; got != http.StatusOK {
		t.Errorf("revalidating after a new revision: %d, want 200", got)
	}
	for _, res := range []*http.Response{res, empty} {
		if ct, cc := res.Header.Get("Content-Type"), res.Header.Get("Cache-Control"); ct != "text/html; charset=utf-8" || cc != "no-cache" {
			t.Errorf("Content-Type %q, Cache-Control %q", ct, cc)
		}
	}
	if head := get(t, h, "HEAD", "/b?board=x&rev=7", nil); head.StatusCode != http.StatusOK || head.Header.Get("ETag") != etag || body(t, head) != "" {
		t.Errorf("HEAD: %d %s", head.StatusCode, head.Header.Get("ETag"))
	}
	if post := get(t, h, "POST", "/b?board=x", nil); post.StatusCode != http.StatusMethodNotAllowed || post.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: %d, Allow %q", post.StatusCode, post.Header.Get("Allow"))
	}
}
