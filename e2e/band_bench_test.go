package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// BenchmarkBandJoin is issue 22's join target: a phone opens the join link (the join page posts the
// key, then the follow page measures the clock, opens the stream and fetches the shared board) until
// the chart is painted, against the same phone-sized page opening the same board on loopback, read-only,
// alternately, warm caches on both sides. Both are timed from the navigation's start (this process's
// clock) to the first frame painted after every bar is in the document (the page's Date.now(), the same
// machine clock). Target: ≤ 1.5×.
//
//	go test ./e2e -run '^$' -bench BandJoin -benchtime 10x
func BenchmarkBandJoin(b *testing.B) {
	requireTool(b, "Debian chromium", chromiumPath)
	addr := shareAddr(b)
	s := startServe(b, "--share", "--share-addr", addr)
	apiCreateBoard(b, s, "song", sampleContent("Song"))
	var start struct{ JoinURL, Leader string }
	if code := apiJSON(b, "POST", s.URL+"/api/share", nil, map[string]any{}, &start); code != 201 {
		b.Fatalf("POST /api/share: %d", code)
	}
	if code := apiJSON(b, "POST", s.URL+"/api/share/state", map[string]string{"Authorization": "Bearer " + start.Leader}, map[string]any{"board": "song"}, nil); code != 200 {
		b.Fatalf("POST /api/share/state: %d", code)
	}
	br := newBrowser(b)
	p := benchPage(b, br, phone())
	bars := len(sampleContent("Song").Sections[0].Bars) + len(sampleContent("Song").Sections[1].Bars)
	open := func(url, path string) float64 {
		t0 := time.Now()
		p.do(chromedp.Navigate(url))
		waitPainted(b, p, path)
		if n := evalJS[int](p, `document.querySelectorAll('#grid li.bar').length`); n != bars {
			b.Fatalf("%s shows %d bars, want %d", url, n, bars)
		}
		return evalJS[float64](p, `window.__bench.renderedAt`) - float64(t0.UnixMicro())/1000
	}
	// Warm-up: two visits of each, so the timed ones use the HTTP and V8 code caches.
	for range 2 {
		open(start.JoinURL, "/")
		open(s.URL+"/b/song", "/b/song")
	}
	var join, loop []float64
	for b.Loop() {
		join = append(join, open(start.JoinURL, "/"))
		loop = append(loop, open(s.URL+"/b/song", "/b/song"))
	}
	b.ReportMetric(median(join), "join-ms")
	b.ReportMetric(median(loop), "loopback-ms")
	b.ReportMetric(medianRatio(join, loop), "join/loopback")
	b.ReportMetric(0, "ns/op")
}

// waitPainted polls p until the page at path has painted every bar. The join page opens the follow page
// by script while this polls: each evaluation has a short limit of its own, since one sent to the page
// being left can hang until it times out (waitJS's 10 s limit made it miss the 15 s wait).
func waitPainted(b *testing.B, p *Page, path string) {
	b.Helper()
	check := fmt.Sprintf(`location.pathname === %s && (window.__bench?.rendered ?? 0) > 0`, jsString(path))
	for deadline := time.Now().Add(waitTimeout); time.Now().Before(deadline); {
		ctx, cancel := context.WithTimeout(p.ctx, 2*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](check))
		cancel()
		if err == nil && ok {
			return
		}
		select {
		case <-p.ctx.Done():
			b.Fatalf("waiting for the chart at %s: %v", path, p.ctx.Err())
		case <-time.After(25 * time.Millisecond):
		}
	}
	state := evalJS[string](p, `JSON.stringify({at: location.pathname, pill: document.getElementById('band-pill')?.dataset.state, bars: document.querySelectorAll('#grid li.bar').length, rendered: window.__bench?.rendered, marks: performance.getEntriesByType('mark').map((m) => m.name), res: performance.getEntriesByType('resource').filter((r) => r.name.includes('/api/')).map((r) => r.name.replace(location.origin, '') + ' ' + r.responseStatus + ' ' + Math.round(r.duration))})`)
	b.Fatalf("the chart at %s was not painted within %s: %s\nconsole:\n%s", path, waitTimeout, state, p.consoleText())
}
