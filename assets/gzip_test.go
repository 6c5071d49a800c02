package assets

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// TestStaticGzip: a text file is sent gzip-compressed to a browser that accepts gzip, with
// Content-Encoding: gzip, and as it is to one that does not; both answers say Vary: Accept-Encoding,
// so a cache never gives one browser the other's. A file that is compressed already (an image) is sent
// as it is, without Vary. The compressed body is the file.
func TestStaticGzip(t *testing.T) {
	a := newAssets(t)
	for _, tc := range []struct {
		accept string
		gzip   bool
	}{
		{"", false},
		{"gzip", true},
		{"gzip, deflate, br, zstd", true},
		{"br;q=1.0, gzip;q=0.8, *;q=0.1", true},
		{"GZIP;Q=0.5", true},
		{"x-gzip", true},
		{"*", true},
		{"br", false},
		{"identity", false},
		{"gzip;q=0", false},
		{"gzip;q=0.000", false},
		{"*;q=0", false},
		{"gzip;q=0, *", false},
		{"*, gzip;q=0", false},
		{"gzip;q=abc", false},
		{"gzip;q=NaN", false},
		{"gzip;q=2", false},
	} {
		for _, name := range []string{"app.js", "app.css", "board-page.js", "icon.svg"} {
			checkGzipAnswer(t, a, name, tc.accept, tc.gzip)
		}
	}
	res := get(t, a.Static(), "HEAD", a.Dir()+"/app.js", map[string]string{"Accept-Encoding": "gzip"})
	if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "gzip" || body(t, res) != "" {
		t.Errorf("HEAD with gzip: %d %q", res.StatusCode, res.Header.Get("Content-Encoding"))
	}

	png := []byte("\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 64))
	b, err := newFrom(fstest.MapFS{
		"web/static/app.js":     {Data: []byte("export const x = 1;")},
		"web/static/dot.png":    {Data: png},
		"web/pages/index.html":  {Data: []byte("{{ASSETS}}")},
		"web/pages/board.html":  {Data: []byte("{{ASSETS}}")},
		"web/pages/join.html":   {Data: []byte("{{ASSETS}}")},
		"web/pages/follow.html": {Data: []byte("{{ASSETS}}")},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"dot.png", "app.js"} {
		res := get(t, b.Static(), "GET", b.Dir()+"/"+name, map[string]string{"Accept-Encoding": "gzip"})
		if res.Header.Get("Content-Encoding") != "" || res.Header.Get("Vary") != "" || body(t, res) != string(b.files[name].body) {
			t.Errorf("%s (gzip saves nothing): Content-Encoding %q, Vary %q", name, res.Header.Get("Content-Encoding"), res.Header.Get("Vary"))
		}
	}
}

// FuzzAcceptsGzip: any Accept-Encoding is read without a panic, and gzip is never sent to a header that
// names neither gzip nor "*".
func FuzzAcceptsGzip(f *testing.F) {
	for _, s := range []string{"", "gzip", "gzip;q=0", "*;q=0.5, gzip;q=0", "br, x-gzip", ";;=,", "gzip;q", "gzip;q=1e400", "gzip;q=NaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if acceptsGzip([]string{s}) && !strings.Contains(strings.ToLower(s), "gzip") && !strings.Contains(s, "*") {
			t.Errorf("gzip accepted from %q", s)
		}
	})
}

// checkGzipAnswer: the file name, asked for with Accept-Encoding accept, comes gzip-compressed or not as
// wantGzip says, with Vary: Accept-Encoding either way, and its body is the file.
func checkGzipAnswer(t *testing.T, a *Assets, name, accept string, wantGzip bool) {
	t.Helper()
	header := map[string]string{}
	if accept != "" {
		header["Accept-Encoding"] = accept
	}
	res := get(t, a.Static(), "GET", a.Dir()+"/"+name, header)
	if res.StatusCode != 200 {
		t.Fatalf("%s with %q: %d", name, accept, res.StatusCode)
	}
	if got := res.Header.Values("Vary"); len(got) != 1 || got[0] != "Accept-Encoding" {
		t.Errorf("%s with %q: Vary %q", name, accept, got)
	}
	got := []byte(body(t, res))
	if enc := res.Header.Get("Content-Encoding"); (enc == "gzip") != wantGzip || (enc != "" && enc != "gzip") {
		t.Errorf("%s with Accept-Encoding %q: Content-Encoding %q, want gzip %v", name, accept, enc, wantGzip)
	}
	if wantGzip {
		zr, err := gzip.NewReader(bytes.NewReader(got))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, err = io.ReadAll(zr); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	want, _ := fs.ReadFile(webFS, "web/static/"+name)
	if !bytes.Equal(got, want) {
		t.Errorf("%s with %q: the body is not the file", name, accept)
	}
}
