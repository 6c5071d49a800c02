// Package assets serves Tele's browser UI: two HTML pages and a tree of static files (ES modules, CSS,
// an icon), all embedded in the binary. There is no build step: the files under web/static are served
// as they are, from one version directory whose name is a hash of the whole tree:
//
//	/assets/v-<hash>/app.js  →  web/static/app.js
//
// Because every file shares that one directory, ES modules import each other with plain relative
// specifiers ("./i18n.js") and still get content-addressed URLs, so they are cached for a year as
// immutable. The pages are generated once, at New, with the version substituted; they are never cached
// without revalidation; web.Guard gives them the strict CSP of docs/security.md. Nothing inline: no script without
// src, no style element or attribute, no event-handler attribute (the package tests check this).
package assets

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"tele/web"
)

// Errors have the API's JSON shape everywhere, pages and assets included.
var (
	errNoAsset = web.NewError(http.StatusNotFound, "not_found", "no such asset (an old page? reload it)")
	errMethod  = web.NewError(http.StatusMethodNotAllowed, "method_not_allowed", "pages and assets take GET and HEAD only")
)

// Prefix is the URL path under which Static serves files.
const Prefix = "/assets/"

// assetsPlaceholder in a page template is replaced by the versioned directory, e.g. /assets/v-0123abcd.
const assetsPlaceholder = "{{ASSETS}}"

//go:embed web/static web/pages
var webFS embed.FS

// contentTypes lists every extension the UI ships; a file with another extension makes New fail, so a
// file is never served with a guessed type.
var contentTypes = map[string]string{
	".js":          "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".svg":         "image/svg+xml",
	".json":        "application/json",
	".webmanifest": "application/manifest+json",
	".png":         "image/png",
	".woff2":       "font/woff2",
}

// Assets holds the embedded UI, indexed once. It is immutable after New and safe for concurrent use.
type Assets struct {
	version string          // "v-" + 16 hex digits of the tree hash
	files   map[string]file // path inside web/static → file
	pages   map[string]page // "index", "board"
}

type file struct {
	body        []byte
	gz          []byte // body gzip-compressed, for a browser that accepts it; nil where that saves nothing
	contentType string
}

// compressed lists the extensions of text, which gzip makes about a quarter of its size: a browser with
// nothing cached receives a page's modules sooner (fonts and images are compressed already).
var compressed = map[string]bool{".js": true, ".css": true, ".svg": true, ".json": true, ".webmanifest": true}

// New indexes the embedded files, computes the version hash and renders the pages.
func New() (*Assets, error) {
	return newFrom(webFS)
}

func newFrom(fsys fs.FS) (*Assets, error) {
	static, err := fs.Sub(fsys, "web/static")
	if err != nil {
		return nil, err
	}
	a := &Assets{files: map[string]file{}, pages: map[string]page{}}
	var names []string
	err = fs.WalkDir(static, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ct, ok := contentTypes[path.Ext(p)]
		if !ok {
			return fmt.Errorf("assets: %s: no content type for extension %q", p, path.Ext(p))
		}
		body, err := fs.ReadFile(static, p)
		if err != nil {
			return err
		}
		f := file{body: body, contentType: ct}
		if compressed[path.Ext(p)] {
			if f.gz, err = gzipped(body); err != nil {
				return err
			}
		}
		a.files[p] = f
		names = append(names, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		// Length-prefixed name and body: no two different trees hash alike.
		fmt.Fprintf(h, "%d:%s:%d:", len(n), n, len(a.files[n].body))
		h.Write(a.files[n].body)
	}
	a.version = "v-" + hex.EncodeToString(h.Sum(nil))[:16]

	for _, name := range []string{"index", "board", "join", "follow"} {
		tmpl, err := fs.ReadFile(fsys, "web/pages/"+name+".html")
		if err != nil {
			return nil, err
		}
		if !strings.Contains(string(tmpl), assetsPlaceholder) {
			return nil, fmt.Errorf("assets: page %s does not reference %s", name, assetsPlaceholder)
		}
		expanded, err := a.expandPreloads(string(tmpl))
		if err != nil {
			return nil, fmt.Errorf("assets: page %s: %w", name, err)
		}
		a.pages[name] = newPage(strings.ReplaceAll(expanded, assetsPlaceholder, a.Dir()))
	}
	return a, nil
}

// Version is the name of the version directory, "v-" and 16 hex digits of the hash of the static tree.
func (a *Assets) Version() string { return a.version }

// Dir is the URL path of the version directory, without a trailing slash: /assets/v-….
func (a *Assets) Dir() string { return Prefix + a.version }

// Page returns the handler of a page: "index" (/) or "board" (/b/:board), the same for every request
// (its slots empty; PageWith fills them). An unknown name is a wiring mistake and panics. The security
// headers (CSP, nosniff, ...) are web.Guard's, set on every response in one place.
func (a *Assets) Page(name string) http.Handler {
	return a.PageWith(name, unfilled)
}

// unfilled fills no slot.
func unfilled(*http.Request) (map[string]string, string, bool) { return nil, "", false }

// servePage answers with a page's body, revalidated by its ETag on every visit.
func servePage(w http.ResponseWriter, r *http.Request, body []byte, etag string) {
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", etag)
	h.Set("Content-Type", "text/html; charset=utf-8")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body)) // answers If-None-Match with 304
}

// Static serves /assets/*filepath. It accepts the full request path (/assets/v-…/app.js) or the part
// after /assets/ (as left by http.StripPrefix). Only the current version directory exists: a file of
// another version, an unknown file or a directory is 404, so a stale page never mixes versions.
func (a *Assets) Static() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !getOrHead(w, r) {
			return
		}
		p := strings.TrimPrefix(r.URL.Path, Prefix)
		p = strings.TrimPrefix(p, "/")
		rest, ok := strings.CutPrefix(p, a.version+"/")
		f, found := a.files[rest]
		if !ok || !found {
			web.WriteError(w, r, errNoAsset)
			return
		}
		h := w.Header()
		h.Set("Content-Type", f.contentType)
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		body := f.body
		if f.gz != nil {
			// A cache keeps the two answers of one URL apart by the request's Accept-Encoding.
			h.Add("Vary", "Accept-Encoding")
			if acceptsGzip(r.Header.Values("Accept-Encoding")) {
				h.Set("Content-Encoding", "gzip")
				body = f.gz
			}
		}
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	})
}

// gzipped is body compressed once, at New, with gzip's best compression; nil when that is no smaller.
func gzipped(body []byte) ([]byte, error) {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(body); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if b.Len() >= len(body) {
		return nil, nil
	}
	return b.Bytes(), nil
}

// acceptsGzip reads a request's Accept-Encoding (RFC 9110 12.5.3): gzip is accepted when it is named
// with a weight above 0, or, not named, when "*" is. No header, or a weight of 0, means identity.
func acceptsGzip(values []string) bool {
	gz, star := -1, -1 // -1: not named; 0: refused; 1: accepted
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			name, params, _ := strings.Cut(item, ";")
			ok := 1
			if q, found := weight(params); found && q == 0 {
				ok = 0
			}
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "gzip", "x-gzip":
				gz = max(gz, ok)
			case "*":
				star = max(star, ok)
			}
		}
	}
	if gz >= 0 {
		return gz == 1
	}
	return star == 1
}

// weight finds q=… among a coding's parameters and reads it; an unreadable weight counts as 0, as
// refusing is the safe reading (identity is always served).
func weight(params string) (float64, bool) {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(p, "=")
		if !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(q >= 0 && q <= 1) {
			return 0, true
		}
		return q, true
	}
	return 0, false
}

// getOrHead answers anything but GET and HEAD with 405 and reports whether to go on.
func getOrHead(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	web.WriteError(w, r, errMethod)
	return false
}
