package e2e

import (
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
	var mu sync.Mutex
	var events []traceEvent
	data := chromedp.Events(p.ctx, tracing.DataCollected)
	complete := chromedp.Events(p.ctx, tracing.TracingComplete)
	collected := make(chan struct{})
	go func() {
		defer close(collected)
		for ev, err := range data {
			if err != nil {
				return
			}
			mu.Lock()
			for _, raw := range ev.Value {
				var e traceEvent
				if json.Unmarshal([]byte(raw), &e) == nil {
					events = append(events, e)
				}
			}
			mu.Unlock()
		}
	}()
	config := &tracing.TraceConfig{IncludedCategories: []string{"toplevel", "blink.user_timing", "__metadata"}}
	if _, err := chromedp.Call(p.ctx, tracing.Start, tracing.StartParams{TransferMode: tracing.StartTransferModeReportEvents, TraceConfig: config}); err != nil {
		p.t.Fatalf("Tracing.start: %v", err)
	}
	r := measureLoad(p, url)
	if _, err := chromedp.Call(p.ctx, tracing.End, cdp.Empty{}); err != nil {
		p.t.Fatalf("Tracing.end: %v", err)
	}
	select {
	case <-firstOf(complete):
	case <-time.After(30 * time.Second):
		p.t.Fatal("the trace did not complete within 30 s")
	}
	// The last data events may still be on their way to the collector when the trace completes.
	time.Sleep(500 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	return r, longestTaskCPU(events, r.Rendered)
}

func firstOf[E any](seq func(func(E, error) bool)) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		for range seq {
			break
		}
		close(ch)
	}()
	return ch
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
