package e2e

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// The long tasks the page's PerformanceObserver reports are wall time: on a shared machine a task
// also counts the time its thread waited for a core, so under load every task looks long. A Chromium
// trace has each task's CPU time as well (tdur): the longest task's CPU is what the same task would
// take on an idle machine, give or take.

type traceEvent struct {
	Name string  `json:"name"`
	Ph   string  `json:"ph"`
	Ts   float64 `json:"ts"`  // µs
	Dur  float64 `json:"dur"` // µs, wall
	Tdur float64 `json:"tdur"`
	Pid  int     `json:"pid"`
	Tid  int     `json:"tid"`
	Args struct {
		Name string `json:"name"`
	} `json:"args"`
}

// tracedLoad is measureLoad with a Chromium trace of the navigation; it also returns the CPU time
// (ms) of the renderer main thread's longest task until every bar was painted.
func tracedLoad(p *Page, url string) (loadResult, float64) {
	p.t.Helper()
	// One listener for both events, in the order the browser sends them: every chunk of the trace has
	// been collected when TracingComplete arrives.
	var mu sync.Mutex
	var chunks []*tracing.EventDataCollected
	complete := make(chan struct{})
	ctx, cancel := context.WithCancel(p.ctx)
	defer cancel()
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			chunks = append(chunks, ev)
			mu.Unlock()
		case *tracing.EventTracingComplete:
			close(complete)
		}
	})
	if err != nil {
		p.t.Fatalf("listening for the trace: %v", err)
	}
	config := &tracing.TraceConfig{IncludedCategories: []string{"toplevel", "blink.user_timing", "__metadata"}}
	if _, err := chromedp.Call(p.ctx, tracing.Start, tracing.StartParams{TransferMode: tracing.StartTransferModeReportEvents, TraceConfig: config}); err != nil {
		p.t.Fatalf("Tracing.start: %v", err)
	}
	r := measureLoad(p, url)
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
	return r, longestTaskCPU(events, r.Rendered)
}

// longestTaskCPU finds the renderer main thread that navigated last and returns the CPU time (ms) of
// its longest task from the navigation's start to until ms after it.
func longestTaskCPU(events []traceEvent, until float64) float64 {
	type thread struct{ pid, tid int }
	mains := map[thread]bool{}
	for _, e := range events {
		if e.Ph == "M" && e.Name == "thread_name" && e.Args.Name == "CrRendererMain" {
			mains[thread{e.Pid, e.Tid}] = true
		}
	}
	var nav float64
	var main thread
	for _, e := range events {
		if e.Name == "navigationStart" && mains[thread{e.Pid, e.Tid}] && e.Ts > nav {
			nav, main = e.Ts, thread{e.Pid, e.Tid}
		}
	}
	longest := 0.0
	for _, e := range events {
		if e.Ph != "X" || e.Name != "ThreadControllerImpl::RunTask" || (thread{e.Pid, e.Tid}) != main {
			continue
		}
		if e.Ts >= nav && (e.Ts-nav)/1000 <= until {
			longest = max(longest, e.Tdur/1000)
		}
	}
	return longest
}
