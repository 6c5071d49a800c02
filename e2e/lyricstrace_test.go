package e2e

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// frameWork is the page's main-thread CPU in one traced interaction, in ms, by the kind of work the
// trace names: script (event handlers, callbacks, microtasks), style and layout (recalculation and
// layout, forced by a script or in the frame; style apart), and paint (pre-paint, paint, layerizing and the commit
// to the compositor). Unlike the page's total it hardly depends on the machine's load: each part is
// CPU time on the renderer's main thread.
type frameWork struct {
	Script, Style, Layout, Paint float64
}

var (
	scriptEvents = map[string]bool{"EventDispatch": true, "FunctionCall": true, "EvaluateScript": true, "FireAnimationFrame": true, "TimerFire": true, "RunMicrotasks": true, "FireIdleCallback": true}
	layoutEvents = map[string]bool{"UpdateLayoutTree": true, "Layout": true}
	paintEvents  = map[string]bool{"PrePaint": true, "Paint": true, "Layerize": true, "Commit": true, "UpdateLayer": true, "PaintImage": true}
)

// tracedFrame runs js (a promise that settles once the frame after the interaction was painted) with a
// Chromium trace of the timeline, and sums the renderer main thread's work by kind. A script's forced
// layout is counted as layout and not as script.
func tracedFrame(p *Page, js string) frameWork {
	p.t.Helper()
	var mu sync.Mutex
	var chunks []*tracing.EventDataCollected
	complete := make(chan struct{})
	ctx, cancel := context.WithCancel(p.ctx)
	defer cancel()
	if err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			chunks = append(chunks, ev)
			mu.Unlock()
		case *tracing.EventTracingComplete:
			close(complete)
		}
	}); err != nil {
		p.t.Fatalf("listening for the trace: %v", err)
	}
	config := &tracing.TraceConfig{IncludedCategories: []string{"devtools.timeline", "__metadata"}}
	if _, err := chromedp.Call(p.ctx, tracing.Start, tracing.StartParams{TransferMode: tracing.StartTransferModeReportEvents, TraceConfig: config}); err != nil {
		p.t.Fatalf("Tracing.start: %v", err)
	}
	evalJS[bool](p, js)
	if _, err := chromedp.Call(p.ctx, tracing.End, cdp.Empty{}); err != nil {
		p.t.Fatalf("Tracing.end: %v", err)
	}
	select {
	case <-complete:
	case <-time.After(30 * time.Second):
		p.t.Fatal("the trace did not complete within 30 s")
	}
	cancel()
	mu.Lock()
	defer mu.Unlock()
	var events []traceEvent
	for _, chunk := range chunks {
		for _, raw := range chunk.Value {
			var e traceEvent
			if json.Unmarshal([]byte(raw), &e) == nil {
				events = append(events, e)
			}
		}
	}
	return workOf(events)
}

// workOf sums the CPU time of the renderer main thread's timeline events by kind; a script event's
// time is its own, less the style and layout it forced inside it. Script events nested in one another
// count once, the outermost.
func workOf(events []traceEvent) frameWork {
	type thread struct{ pid, tid int }
	mains := map[thread]bool{}
	for _, e := range events {
		if e.Ph == "M" && e.Name == "thread_name" && e.Args.Name == "CrRendererMain" {
			mains[thread{e.Pid, e.Tid}] = true
		}
	}
	var main []traceEvent
	for _, e := range events {
		if e.Ph == "X" && mains[thread{e.Pid, e.Tid}] {
			main = append(main, e)
		}
	}
	// In order of start, an enclosing event before the events nested in it.
	slices.SortFunc(main, func(a, b traceEvent) int { return cmp.Or(cmp.Compare(a.Ts, b.Ts), cmp.Compare(b.Dur, a.Dur)) })
	cpu := func(e traceEvent) float64 {
		if e.Tdur > 0 {
			return e.Tdur / 1000
		}
		return e.Dur / 1000
	}
	var w frameWork
	scriptUntil := 0.0 // the end of the outermost script event so far
	for _, e := range main {
		inScript := e.Ts < scriptUntil
		switch {
		case scriptEvents[e.Name] && !inScript:
			scriptUntil = e.Ts + e.Dur
			w.Script += cpu(e)
		case layoutEvents[e.Name]:
			if e.Name == "UpdateLayoutTree" {
				w.Style += cpu(e)
			} else {
				w.Layout += cpu(e)
			}
			if inScript {
				w.Script -= cpu(e)
			}
		case paintEvents[e.Name]:
			w.Paint += cpu(e)
		}
	}
	return w
}
