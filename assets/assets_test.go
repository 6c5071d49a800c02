package assets

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

func newAssets(t *testing.T) *Assets {
	t.Helper()
	a, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func get(t *testing.T, h http.Handler, method, target string, header map[string]string) *http.Response {
	t.Helper()
	r := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestVersionIsHashOfTree(t *testing.T) {
	a := newAssets(t)
	if !regexp.MustCompile(`^v-[0-9a-f]{16}$`).MatchString(a.Version()) {
		t.Fatalf("version %q is not v-<16 hex>", a.Version())
	}
	b := newAssets(t)
	if a.Version() != b.Version() {
		t.Fatalf("version not stable: %s vs %s", a.Version(), b.Version())
	}
	// A change of any byte of any static file changes the version; pages do not take part.
	base := fstest.MapFS{
		"web/static/app.js":     {Data: []byte("x")},
		"web/pages/index.html":  {Data: []byte("<script type=module src={{ASSETS}}/app.js></script>")},
		"web/pages/board.html":  {Data: []byte("<script type=module src={{ASSETS}}/app.js></script>")},
		"web/pages/join.html":   {Data: []byte("<script type=module src={{ASSETS}}/app.js></script>")},
		"web/pages/follow.html": {Data: []byte("<script type=module src={{ASSETS}}/app.js></script>")},
	}
	v1 := mustVersion(t, base)
	base["web/static/app.js"] = &fstest.MapFile{Data: []byte("y")}
	v2 := mustVersion(t, base)
	base["web/pages/board.html"] = &fstest.MapFile{Data: []byte("<p>{{ASSETS}}</p>")}
	v3 := mustVersion(t, base)
	if v1 == v2 || v2 != v3 {
		t.Fatalf("versions %s %s %s: want a change only with static content", v1, v2, v3)
	}
}

func mustVersion(t *testing.T, fsys fs.FS) string {
	t.Helper()
	a, err := newFrom(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return a.Version()
}

func TestUnknownExtensionRefused(t *testing.T) {
	_, err := newFrom(fstest.MapFS{
		"web/static/notes.txt": {Data: []byte("x")},
		"web/pages/index.html": {Data: []byte("{{ASSETS}}")},
		"web/pages/board.html": {Data: []byte("{{ASSETS}}")},
	})
	if err == nil || !strings.Contains(err.Error(), "notes.txt") {
		t.Fatalf("err = %v, want a refusal naming notes.txt", err)
	}
}

func TestStaticServesHashedURLsImmutable(t *testing.T) {
	a := newAssets(t)
	cases := map[string]string{
		"app.js":   "text/javascript; charset=utf-8",
		"app.css":  "text/css; charset=utf-8",
		"icon.svg": "image/svg+xml",
	}
	for name, ctype := range cases {
		url := a.Dir() + "/" + name
		if !strings.HasPrefix(url, "/assets/"+a.Version()+"/") {
			t.Fatalf("URL(%q) = %q", name, url)
		}
		// Both the full path and the part after /assets/ (http.StripPrefix) are served.
		for _, target := range []string{url, strings.TrimPrefix(url, "/assets")} {
			res := get(t, a.Static(), "GET", target, nil)
			if res.StatusCode != 200 {
				t.Fatalf("GET %s: %d", target, res.StatusCode)
			}
			if got := res.Header.Get("Content-Type"); got != ctype {
				t.Errorf("%s Content-Type = %q, want %q", name, got, ctype)
			}
			if got := res.Header.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
				t.Errorf("%s Cache-Control = %q", name, got)
			}
			want, _ := fs.ReadFile(webFS, "web/static/"+name)
			if body(t, res) != string(want) {
				t.Errorf("%s: body differs from the embedded file", name)
			}
		}
	}
	res := get(t, a.Static(), "HEAD", a.Dir()+"/app.js", nil)
	if res.StatusCode != 200 || body(t, res) != "" || res.Header.Get("Content-Length") == "" {
		t.Errorf("HEAD: %d, body or length wrong", res.StatusCode)
	}
}

func TestStaticNotFound(t *testing.T) {
	a := newAssets(t)
	for _, target := range []string{
		"/assets/" + a.Version() + "/nope.js",
		"/assets/v-0000000000000000/app.js", // another version: never served
		"/assets/app.js",                    // unversioned
		"/assets/" + a.Version() + "/",      // a directory
		"/assets/" + a.Version(),
		"/assets/" + a.Version() + "/../pages/index.html",
	} {
		res := get(t, a.Static(), "GET", target, nil)
		if res.StatusCode != 404 {
			t.Errorf("GET %s: %d, want 404", target, res.StatusCode)
		}
		if res.Header.Get("Cache-Control") == "public, max-age=31536000, immutable" {
			t.Errorf("GET %s: a 404 must not be cached forever", target)
		}
	}
	res := get(t, a.Static(), "POST", a.Dir()+"/app.js", nil)
	if res.StatusCode != 405 || res.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: %d Allow=%q", res.StatusCode, res.Header.Get("Allow"))
	}
}

func TestPagesRevalidateAndUseHashedURLs(t *testing.T) {
	a := newAssets(t)
	for _, name := range []string{"index", "board"} {
		res := get(t, a.Page(name), "GET", "/", nil)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d", name, res.StatusCode)
		}
		h := res.Header
		for k, want := range map[string]string{
			"Cache-Control": "no-cache",
			"Content-Type":  "text/html; charset=utf-8",
		} {
			if got := h.Get(k); got != want {
				t.Errorf("%s %s = %q, want %q", name, k, got, want)
			}
		}
		html := body(t, res)
		if strings.Contains(html, assetsPlaceholder) {
			t.Errorf("%s: placeholder left in the page", name)
		}
		for _, asset := range []string{"app.js", "app.css"} {
			if url := a.Dir() + "/" + asset; !strings.Contains(html, `"`+url+`"`) {
				t.Errorf("%s: does not reference %s", name, url)
			}
		}
		// Every /assets/ URL in the page resolves.
		for _, m := range regexp.MustCompile(`"(/assets/[^"]+)"`).FindAllStringSubmatch(html, -1) {
			if res := get(t, a.Static(), "GET", m[1], nil); res.StatusCode != 200 {
				t.Errorf("%s references %s: %d", name, m[1], res.StatusCode)
			}
		}
		// Revalidation: the current tag (alone, weak, or in a list) is 304, another is the page.
		etag := h.Get("ETag")
		for inm, want := range map[string]int{etag: 304, "W/" + etag: 304, `"x", ` + etag: 304, "*": 304,
			`"x"`: 200, strings.Trim(etag, `"`): 200} {
			res = get(t, a.Page(name), "GET", "/", map[string]string{"If-None-Match": inm})
			if res.StatusCode != want || (want == 304 && body(t, res) != "") {
				t.Errorf("%s If-None-Match %s: %d, want %d", name, inm, res.StatusCode, want)
			}
		}
	}
	if res := get(t, a.Page("board"), "DELETE", "/", nil); res.StatusCode != 405 {
		t.Errorf("DELETE page: %d", res.StatusCode)
	}
}

func TestUnknownPagePanics(t *testing.T) {
	a := newAssets(t)
	defer func() {
		if recover() == nil {
			t.Fatal("Page(\"nope\") did not panic")
		}
	}()
	a.Page("nope")
}

// Nothing inline: the CSP would block it, so it would be a silent bug in a real browser.
func TestNoInlineScriptStyleOrHandlers(t *testing.T) {
	scriptTag := regexp.MustCompile(`(?is)<script\b([^>]*)>(.*?)</script>`)
	for _, name := range htmlFiles(t) {
		data, _ := fs.ReadFile(webFS, name)
		html := string(data)
		for _, m := range scriptTag.FindAllStringSubmatch(html, -1) {
			if !regexp.MustCompile(`\bsrc=`).MatchString(m[1]) || strings.TrimSpace(m[2]) != "" {
				t.Errorf("%s: inline script %q", name, m[0])
			}
		}
		if regexp.MustCompile(`(?i)<style\b`).MatchString(html) {
			t.Errorf("%s: <style> element", name)
		}
		if m := regexp.MustCompile(`(?i)\sstyle\s*=`).FindString(html); m != "" {
			t.Errorf("%s: style attribute", name)
		}
		if m := regexp.MustCompile(`(?i)<[^>]*\son[a-z]+\s*=`).FindString(html); m != "" {
			t.Errorf("%s: event handler attribute in %q", name, m)
		}
		if regexp.MustCompile(`(?i)(src|href)\s*=\s*"(https?:)?//`).MatchString(html) {
			t.Errorf("%s: references another origin", name)
		}
		if regexp.MustCompile(`(?i)javascript:`).MatchString(html) {
			t.Errorf("%s: javascript: URL", name)
		}
	}
}

// The scripts never turn strings into markup or code, never set inline styles through attributes,
// never touch localStorage except through storage.js, and load nothing from another origin.
func TestScriptsAvoidUnsafeSinks(t *testing.T) {
	banned := map[string]*regexp.Regexp{
		"innerHTML/outerHTML":   regexp.MustCompile(`\.(inner|outer)HTML\b`),
		"insertAdjacentHTML":    regexp.MustCompile(`insertAdjacentHTML`),
		"document.write":        regexp.MustCompile(`document\.write`),
		"eval":                  regexp.MustCompile(`\beval\s*\(`),
		"new Function":          regexp.MustCompile(`new\s+Function\b`),
		"style attribute":       regexp.MustCompile(`setAttribute\(\s*['"]style['"]`),
		"style.cssText":         regexp.MustCompile(`cssText`),
		"string timers":         regexp.MustCompile(`set(Timeout|Interval)\(\s*['"]`),
		"remote URL":            regexp.MustCompile(`(?i)['"]https?://`),
		"import from elsewhere": regexp.MustCompile(`from\s+['"](?:https?:)?//`),
	}
	err := fs.WalkDir(webFS, "web/static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		data, _ := fs.ReadFile(webFS, p)
		src := string(data)
		for what, re := range banned {
			if re.MatchString(src) {
				t.Errorf("%s uses %s", p, what)
			}
		}
		code := regexp.MustCompile(`(?m)^\s*//.*$`).ReplaceAllString(src, "") // comments may name it
		if !strings.HasSuffix(p, "/storage.js") && regexp.MustCompile(`\b(local|session)Storage\b`).MatchString(code) {
			t.Errorf("%s touches Web Storage directly; use storage.js (which never throws)", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Relative module imports must name files that exist, so they resolve inside the version directory.
func TestModuleImportsResolve(t *testing.T) {
	a := newAssets(t)
	importRe := regexp.MustCompile(`(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]`)
	for p, f := range a.files {
		if !strings.HasSuffix(p, ".js") {
			continue
		}
		for _, m := range importRe.FindAllStringSubmatch(string(f.body), -1) {
			target := strings.TrimPrefix(m[1], "./")
			if _, ok := a.files[target]; !ok {
				t.Errorf("%s imports %s, which is not embedded", p, m[1])
			}
		}
	}
}

func htmlFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	fs.WalkDir(webFS, "web", func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".html") {
			out = append(out, p)
		}
		return err
	})
	if len(out) < 2 {
		t.Fatalf("found %d HTML files", len(out))
	}
	return out
}
