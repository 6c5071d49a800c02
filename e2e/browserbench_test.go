package e2e

// Browser benchmarks of the board page (issue 13, "What it must reach"; docs/performance.md): the real
// built Tele, served by `tele serve` over loopback, in headless Chromium, timed with the Performance
// API inside the page. Every target is reported next to its baseline measured in the same run:
//
//	go test ./e2e -run '^$' -bench BoardPage -benchtime 5x
//
// The static baseline is the same chart as HTML made here, with a minimal stylesheet of the same layout
// (a grid of bars, serif chords) and about as many elements, served by this test's own HTTP server on
// 127.0.0.1: what the page's code and CSS cost on top of showing the chart counts.

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
)

// renderedMark is the performance mark the board page sets when every bar of a board is in the
// document and shown: the server's first view once the page is parsed (first-view.js), or the page's own
// drawing of a board it received; the static baseline sets the same mark at the end of its body.
const renderedMark = "tele:bars-rendered"

// benchProbe runs before any script of every document: it records long tasks, the first frame painted
// after the rendered mark, and for each `board` event of the board's stream and each snapshot of the
// chat's its receipt on the main thread (the board's event parsed; the chat worker's change message
// received), the end of the page's handler and the first frame painted after it. "Painted" is the moment
// after the next animation frame's rendering work: a message posted from a requestAnimationFrame
// callback runs after that frame's style, layout and paint. Times are performance.now(); epoch adds
// performance.timeOrigin, for comparing with the test's clock.
const benchProbe = `(() => {
  const b = { longtasks: [], rendered: 0, updates: [], waiters: [] };
  // painted(n) settles once more than n events were received and the newest was painted: one awaited
  // evaluation instead of polling, so the measuring adds next to nothing to the main thread's time.
  b.painted = (n) => new Promise((resolve) => {
    if (b.updates.length > n && b.updates[b.updates.length - 1].painted) resolve();
    else b.waiters.push({ n, resolve });
  });
  // whenRendered settles once every bar is painted, for the same reason: the load is not polled.
  let rendered;
  b.whenRendered = new Promise((resolve) => { rendered = resolve; });
  Object.defineProperty(window, '__bench', { value: b });
  const afterFrame = (cb) => requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => cb(performance.now());
    ch.port2.postMessage(0);
  });
  b.afterFrame = afterFrame;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) b.longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  const mark = performance.mark.bind(performance);
  performance.mark = (name, options) => {
    const m = mark(name, options);
    if (name === '` + renderedMark + `' && !b.rendered) afterFrame((t) => { b.rendered = t; b.renderedAt = Date.now(); rendered(); });
    return m;
  };
  b.epoch = (t) => performance.timeOrigin + t;
  const track = (type, received) => {
    const u = { type, received, handled: 0, painted: 0 };
    b.updates.push(u);
    afterFrame((t) => {
      u.painted = t;
      const count = b.updates.length;
      b.waiters = b.waiters.filter((w) => (count > w.n ? (w.resolve(), false) : true));
    });
    return u;
  };
  // Stream events read on the main thread are seen where the page's stream reader (stream.js; bare.js
  // on the chat benchmark's floor page) parses them: a board or a chat view parsed there is an event
  // received; the end of the synchronous dispatch that follows (a microtask queued now runs after it)
  // is the end of the page's handler.
  const parse = JSON.parse;
  JSON.parse = function (text, reviver) {
    const received = performance.now();
    const v = parse(text, reviver);
    const type = v && typeof v === 'object' ? (Array.isArray(v.items) ? 'snapshot' : typeof v.revision === 'number' && v.content ? 'board' : '') : '';
    if (type && /\/(stream|bare)\.js/.test(new Error().stack || '')) {
      const u = track(type, received);
      queueMicrotask(() => { u.handled = performance.now(); });
    }
    return v;
  };
  // The chat panel reads its stream in a worker (chat-stream.js) and gets a change message per snapshot:
  // its receipt on the main thread is the snapshot received, the return of the page's listener the end
  // of its handler.
  const W = window.Worker;
  window.Worker = class extends W {
    addEventListener(type, fn, options) {
      if (type !== 'message' || typeof fn !== 'function') return super.addEventListener(type, fn, options);
      return super.addEventListener(type, function (ev) {
        const u = ev.data && ev.data.type === 'view' ? track('snapshot', performance.now()) : null;
        try {
          return fn.call(this, ev);
        } finally {
          if (u) u.handled = performance.now();
        }
      }, options);
    }
  };
  b.frameInterval = () => new Promise((resolve) => {
    const ts = [];
    const step = (t) => { ts.push(t); if (ts.length < 21) requestAnimationFrame(step); else {
      const d = ts.slice(1).map((t, i) => t - ts[i]).sort((x, y) => x - y);
      resolve(d[d.length >> 1]);
    } };
    requestAnimationFrame(step);
  });
})();`

// largestBoard is the largest board the schema allows: 8 sections of 64 bars, 4 chords a bar. variant
// changes every bar (1) or none (0).
func largestBoard(variant int) boardContent {
	roots := []string{"C", "Db", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"}
	quals := []string{"maj7", "m7", "7", "m7b5", "", "m", "9", "13", "dim7", "sus4", "6", "add9"}
	c := boardContent{Title: "The longest chart", Description: "512 bars of four chords.", Key: "C", Tempo: 120, BeatsPerBar: 4}
	n := 0
	for s := range 8 {
		sec := boardSection{Label: string(rune('A' + s))}
		for range 64 {
			bar := make([]string, 4)
			for k := range bar {
				i := n*4 + k + variant*5
				bar[k] = roots[i%len(roots)] + quals[(i/3)%len(quals)]
				if (i+variant)%7 == 0 {
					bar[k] += "/" + roots[(i+4)%len(roots)]
				}
			}
			sec.Bars = append(sec.Bars, bar)
			n++
		}
		c.Sections = append(c.Sections, sec)
	}
	return c
}

// staticChart is the baseline: the chart as static HTML, bars laid out as the board page lays them out
// (sections of an ordered list of bars, each with its number and its chords split into root, quality
// and bass), styled by staticCSS.
func staticChart(c boardContent) string {
	var b strings.Builder
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>` + html.EscapeString(c.Title) +
		`</title><link rel="stylesheet" href="/min.css"></head><body><main><h1>` + html.EscapeString(c.Title) +
		`</h1><p>` + html.EscapeString(c.Description) + `</p><div id="grid">`)
	writeStaticBars(&b, c)
	b.WriteString(`</div></main><script src="/mark.js"></script></body></html>`)
	return b.String()
}

func writeStaticBars(b *strings.Builder, c boardContent) {
	n := 0
	for _, sec := range c.Sections {
		fmt.Fprintf(b, `<section><h2>%s</h2><ol class="bars">`, html.EscapeString(sec.Label))
		for _, bar := range sec.Bars {
			n++
			fmt.Fprintf(b, `<li class="bar"><span class="n">%d</span><span class="chords">`, n)
			for _, ch := range bar {
				root, rest := ch[:1], ch[1:]
				if len(rest) > 0 && (rest[0] == 'b' || rest[0] == '#') {
					root, rest = ch[:2], ch[2:]
				}
				qual, bass, _ := strings.Cut(rest, "/")
				b.WriteString(`<span class="chord"><span>` + html.EscapeString(root) + `</span>`)
				if qual != "" {
					b.WriteString(`<span class="q">` + html.EscapeString(qual) + `</span>`)
				}
				if bass != "" {
					b.WriteString(`<span class="bass">/` + html.EscapeString(bass) + `</span>`)
				}
				b.WriteString(`</span>`)
			}
			b.WriteString(`</span></li>`)
		}
		b.WriteString(`</ol></section>`)
	}
}

const staticCSS = `body { font: 16px/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 1240px; padding: 0 1.5rem; }
#grid { display: grid; gap: 1.4rem; }
.bars { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: repeat(8, minmax(0, 1fr)); row-gap: 0.6rem; }
.bar { position: relative; min-height: 4.25rem; display: flex; box-shadow: inset 2px 0 0 #888; }
.n { position: absolute; top: 0.15rem; left: 0.45rem; font-size: 0.65rem; color: #666; }
.chords { flex: 1; min-width: 0; display: flex; align-items: center; gap: 0.3rem; padding: 1rem 0.3rem 0.35rem 0.5rem; }
.chord { flex: 1 1 0; min-width: 0; font: 700 1.2rem/1.1 Georgia, serif; }
.q, .bass { font-size: 0.78em; font-weight: 600; }
`

// staticServer serves the baseline page on 127.0.0.1 (httptest listens on loopback).
func staticServer(tb testing.TB, c boardContent) *httptest.Server {
	return serveStatic(tb, staticChart(c), staticCSS)
}

// serveStatic serves a baseline page: body at /, its style sheet css at /min.css and /mark.js, which
// marks the page rendered as the measured pages do.
func serveStatic(tb testing.TB, body, css string) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	})
	mux.HandleFunc("GET /min.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		fmt.Fprint(w, css)
	})
	mux.HandleFunc("GET /mark.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprintf(w, "performance.mark(%q);\n", renderedMark)
	})
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	return srv
}

// benchPage opens a tab with benchProbe and the Performance domain (main-thread time) enabled. The
// DevTools domains chromedp enables on every tab that a benchmark does not use are disabled, so that
// what is timed is the page and not DevTools: DOM and CSS mirror the document and its style sheets in
// the renderer as they change, Network reports every request. The page and its baseline run in the
// same tab, so both are measured alike.
func benchPage(tb testing.TB, b *Browser, opts ...PageOption) *Page {
	p := b.newPage(tb, append([]PageOption{desktop()}, opts...)...)
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: benchProbe}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, t, performance.Enable, performance.EnableParams{}); err != nil {
			return err
		}
		for _, disable := range []cdp.Command[cdp.Empty, cdp.Empty]{dom.Disable, css.Disable, network.Disable} {
			if _, err := cdp.Call(ctx, t, disable, cdp.Empty{}); err != nil {
				return fmt.Errorf("%s: %w", disable.Method, err)
			}
		}
		return nil
	}))
	return p
}

// mainThread is the page's main thread so far (CDP Performance.getMetrics): busy is the wall time of
// its tasks (TaskDuration), cpu its CPU time (ThreadTime). On a shared, loaded machine a task's wall
// time includes the time the thread waited for a core; the CPU time does not.
type mainThread struct{ busy, cpu time.Duration }

func mainThreadOf(p *Page) mainThread {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	res, err := chromedp.Call(ctx, performance.GetMetrics, cdp.Empty{})
	if err != nil {
		p.t.Fatalf("Performance.getMetrics: %v", err)
	}
	var m mainThread
	seen := 0
	for _, x := range res.Metrics {
		switch x.Name {
		case "TaskDuration":
			m.busy, seen = time.Duration(x.Value*float64(time.Second)), seen+1
		case "ThreadTime":
			m.cpu, seen = time.Duration(x.Value*float64(time.Second)), seen+1
		}
	}
	if seen != 2 {
		p.t.Fatal("Performance.getMetrics has no TaskDuration or ThreadTime")
	}
	return m
}

func (m mainThread) since(before mainThread) (busyMS, cpuMS float64) {
	return ms(m.busy - before.busy), ms(m.cpu - before.cpu)
}

// loadResult is one navigation: from its start to the first frame painted after every bar was in the
// document, and the long tasks until then.
type loadResult struct {
	Rendered  float64 `json:"rendered"`
	Count     int     `json:"count"`
	Longest   float64 `json:"longest"`
	Total     float64 `json:"total"`
	BarsShown int     `json:"bars"`
}

func measureLoad(p *Page, url string) loadResult {
	p.t.Helper()
	p.do(chromedp.Navigate(url))
	ctx, cancel := context.WithTimeout(p.ctx, waitTimeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__bench.whenRendered.then(() => true)`, chromedp.EvalAwaitPromise)); err != nil {
		p.t.Fatalf("waiting for every bar to be rendered: %v\nconsole:\n%s", err, p.consoleText())
	}
	return evalJS[loadResult](p, `(() => {
		const b = window.__bench;
		const during = b.longtasks.filter((l) => l.start < b.rendered);
		return { rendered: b.rendered, count: during.length, longest: Math.max(0, ...during.map((l) => l.duration)),
			total: during.reduce((s, l) => s + l.duration, 0), bars: document.querySelectorAll('li.bar').length };
	})()`)
}

// BenchmarkBoardPageLoad: the largest board from navigation to every bar painted, read-only, against
// the static chart, alternately, warm caches on both sides (HTTP and V8's code cache). Target: ≤ 1.5× and no long task over 50 ms
// (longest-task-ms is wall time; longest-task-cpu-ms, from traces, leaves out waiting for a core).
func BenchmarkBoardPageLoad(b *testing.B) {
	requireTool(b, "Debian chromium", chromiumPath)
	s := startServe(b)
	content := largestBoard(0)
	apiCreateBoard(b, s, "largest", content)
	static := staticServer(b, content)
	br := newBrowser(b)
	p := benchPage(b, br)
	// Warm-up, two visits of each page. Chromium compiles a page's scripts on the first visit and
	// produces their V8 code cache on the second (about 9 ms more CPU, in the tasks that compile
	// them); from the third on a load uses it. The timed loads are warm ones, as a musician's return to
	// a board is; the two first visits are reported on their own.
	visits := [2]loadResult{measureLoad(p, s.URL+"/b/largest"), measureLoad(p, s.URL+"/b/largest")}
	measureLoad(p, static.URL+"/")
	measureLoad(p, static.URL+"/")
	var tele, base, longest, baseLongest []float64
	// The page's main thread during each load: time on a core, and time ready to run while both cores
	// were taken (runqueue_test.go; Linux only); the latter is part of every task's wall time.
	var ran, waited, waitedLong []float64
	tasks, baseTasks := 0, 0
	for b.Loop() {
		before := rendererMainThreads()
		t := measureLoad(p, s.URL+"/b/largest")
		if t.BarsShown != 512 {
			b.Fatalf("the board page shows %d bars, want 512", t.BarsShown)
		}
		if th, ok := pageThreadBetween(before, rendererMainThreads()); ok {
			ran, waited = append(ran, ms(th.run)), append(waited, ms(th.wait))
			if t.Count > 0 {
				waitedLong = append(waitedLong, ms(th.wait))
			}
		}
		st := measureLoad(p, static.URL+"/")
		tele, base = append(tele, t.Rendered), append(base, st.Rendered)
		longest, baseLongest = append(longest, t.Longest), append(baseLongest, st.Longest)
		tasks, baseTasks = tasks+t.Count, baseTasks+st.Count
	}
	// CPU time from traced loads after the timed ones (tasktrace_test.go): the longest task's, what it
	// takes without waiting for a core; the page's main thread's; and that of the browser's other
	// threads, which share the cores with it.
	var cpu, baseCPU, pageCPU, otherCPU, basePageCPU, baseOtherCPU []float64
	for range 5 {
		_, c := tracedLoad(p, s.URL+"/b/largest")
		_, sc := tracedLoad(p, static.URL+"/")
		cpu, baseCPU = append(cpu, c.longest), append(baseCPU, sc.longest)
		pageCPU, otherCPU = append(pageCPU, c.page), append(otherCPU, c.others)
		basePageCPU, baseOtherCPU = append(basePageCPU, sc.page), append(baseOtherCPU, sc.others)
	}
	b.ReportMetric(median(tele), "tele-ms")
	b.ReportMetric(median(base), "static-ms")
	b.ReportMetric(medianRatio(tele, base), "tele/static")
	b.ReportMetric(median(longest), "longest-task-ms")
	b.ReportMetric(median(baseLongest), "static-longest-task-ms")
	b.ReportMetric(median(cpu), "longest-task-cpu-ms")
	b.ReportMetric(median(baseCPU), "static-longest-task-cpu-ms")
	b.ReportMetric(float64(tasks)/float64(len(tele)), "long-tasks/load")
	b.ReportMetric(float64(visits[0].Count), "first-visit-long-tasks")
	b.ReportMetric(float64(visits[1].Count), "second-visit-long-tasks")
	b.ReportMetric(float64(baseTasks)/float64(len(tele)), "static-long-tasks/load")
	b.ReportMetric(median(pageCPU), "page-thread-cpu-ms")
	b.ReportMetric(median(otherCPU), "other-threads-cpu-ms")
	b.ReportMetric(median(basePageCPU), "static-page-thread-cpu-ms")
	b.ReportMetric(median(baseOtherCPU), "static-other-threads-cpu-ms")
	if len(ran) > 0 {
		b.ReportMetric(median(ran), "page-thread-ran-ms")
		b.ReportMetric(median(waited), "page-thread-waited-ms")
	}
	if len(waitedLong) > 0 {
		b.ReportMetric(median(waitedLong), "page-thread-waited-ms-long-loads")
	}
}

// updateResult is one live update as the page saw it.
type updateResult struct {
	Received float64 `json:"received"`
	Handled  float64 `json:"handled"`
	Painted  float64 `json:"painted"`
	Longest  float64 `json:"longest"`
}

// liveUpdate saves content over the API (as another client would) and waits until the page has painted
// the `board` event it gets; it returns what the probe saw and the page's main-thread time in between.
func liveUpdate(p *Page, s *Server, capability string, rev int64, c boardContent) (u updateResult, busy, cpu float64, next int64) {
	p.t.Helper()
	n := evalJS[int](p, `window.__bench.updates.length`)
	before := mainThreadOf(p)
	doc := apiPutBoard(p.t, s, "largest", capability, rev, c)
	awaitPainted(p, n)
	busy, cpu = mainThreadOf(p).since(before)
	u = evalJS[updateResult](p, fmt.Sprintf(`(() => {
		const u = window.__bench.updates[%d];
		const during = window.__bench.longtasks.filter((l) => l.start + l.duration >= u.received);
		return { ...u, longest: Math.max(0, ...during.map((l) => l.duration)) };
	})()`, n))
	return u, busy, cpu, doc.Revision
}

// BenchmarkBoardPageLiveUpdate: a save of the largest board reaches an open read-only page over its
// stream. "one-bar": one bar changes; painted within one frame of the event (baseline: the page's own
// frame interval). "all-bars": every bar changes; ≤ 100 ms of main-thread time, from the save to the
// frame painted after the event (baseline: the static chart's grid replaced by the new chart's HTML, in
// the same browser, timed the same way).
func BenchmarkBoardPageLiveUpdate(b *testing.B) {
	requireTool(b, "Debian chromium", chromiumPath)
	s := startServe(b)
	versions := []boardContent{largestBoard(0), largestBoard(1)}
	capability := apiCreateBoard(b, s, "largest", versions[0])
	static := staticServer(b, versions[0])
	br := newBrowser(b)
	p := benchPage(b, br)
	p.do(chromedp.Navigate(s.URL + "/b/largest"))
	waitBoardReady(p)
	p.waitJS(`window.__bench.rendered > 0`, "every bar is rendered")
	frame := evalJS[float64](p, `window.__bench.frameInterval()`)
	rev := evalJS[int64](p, `fetch('/api/boards/largest').then((r) => r.json()).then((d) => d.revision)`)

	b.Run("one-bar", func(b *testing.B) {
		var painted, handled, longest, main []float64
		for b.Loop() {
			c := versions[0]
			c.Sections = slices.Clone(c.Sections)
			c.Sections[3].Bars = slices.Clone(c.Sections[3].Bars)
			c.Sections[3].Bars[17] = []string{[]string{"Ebmaj7", "Ab7"}[rev%2]}
			u, _, cpu, r := liveUpdate(p, s, capability, rev, c)
			rev = r
			main = append(main, cpu)
			painted = append(painted, u.Painted-u.Received)
			handled = append(handled, u.Handled-u.Received)
			longest = append(longest, u.Longest)
		}
		b.ReportMetric(median(painted), "event-to-paint-ms")
		b.ReportMetric(median(handled), "handler-ms")
		b.ReportMetric(frame, "frame-ms")
		b.ReportMetric(median(painted)/frame, "paint/frame")
		b.ReportMetric(median(main), "main-cpu-ms")
		b.ReportMetric(slices.Max(longest), "longest-task-ms")
	})

	b.Run("all-bars", func(b *testing.B) {
		q := benchPage(b, br)
		q.do(chromedp.Navigate(static.URL + "/"))
		q.waitJS(`window.__bench.rendered > 0`, "the static chart is rendered")
		var charts [2]strings.Builder
		for i := range charts {
			writeStaticBars(&charts[i], versions[i])
		}
		evalJS[chromedp.Void](q, fmt.Sprintf(`(() => { window.__charts = [%s, %s]; })()`, jsString(charts[0].String()), jsString(charts[1].String())))
		var tele, teleBusy, base, baseBusy, painted, longest []float64
		i := 0
		for b.Loop() {
			i++
			u, busy, cpu, r := liveUpdate(p, s, capability, rev, versions[i%2])
			rev = r
			tele, teleBusy = append(tele, cpu), append(teleBusy, busy)
			painted = append(painted, u.Painted-u.Received)
			longest = append(longest, u.Longest)

			before := mainThreadOf(q)
			evalJS[chromedp.Void](q, fmt.Sprintf(`(() => {
				window.__swapped = 0;
				document.getElementById('grid').innerHTML = window.__charts[%d];
				window.__bench.afterFrame((t) => { window.__swapped = t; });
			})()`, i%2))
			q.waitJS(`window.__swapped > 0`, "the static chart is replaced and painted")
			busy, cpu = mainThreadOf(q).since(before)
			base, baseBusy = append(base, cpu), append(baseBusy, busy)
		}
		b.ReportMetric(median(tele), "tele-cpu-ms")
		b.ReportMetric(median(teleBusy), "tele-busy-ms")
		b.ReportMetric(median(base), "static-cpu-ms")
		b.ReportMetric(median(baseBusy), "static-busy-ms")
		b.ReportMetric(medianRatio(tele, base), "tele/static")
		b.ReportMetric(median(tele)/100, "tele-cpu/budget")
		b.ReportMetric(median(painted), "event-to-paint-ms")
		b.ReportMetric(slices.Max(longest), "longest-task-ms")
	})
}

// awaitPainted waits until the page received more than n stream events and painted the newest.
func awaitPainted(p *Page, n int) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitTimeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`window.__bench.painted(%d).then(() => true)`, n), chromedp.EvalAwaitPromise)); err != nil {
		p.t.Fatalf("waiting for stream event %d to be painted: %v", n+1, err)
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// medianRatio is the median of the per-round ratios a[i]/b[i] (rounds ran side by side).
func medianRatio(a, b []float64) float64 {
	r := make([]float64, len(a))
	for i := range a {
		r[i] = a[i] / b[i]
	}
	return median(r)
}
