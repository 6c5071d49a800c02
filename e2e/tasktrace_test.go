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

// The long tasks the page's PerformanceObserver reports are wall time: on a shared machine a task
// also counts the time its thread waited for a core, so under load every task looks long. A Chromium
// trace has each task's CPU time as well (tdur): the longest task's CPU is what the same task would
// take on an idle machine, give or take. The trace also has every other thread of the browser: what
// they did during the load is what the page's main thread competed with for the cores.

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

// loadCPU is what a trace says of one load, from the navigation's start until every bar was painted,
// in ms of CPU: the renderer main thread's longest task, all of its tasks, and the tasks of every other
// thread of the browser (the page's compositor and raster workers, the GPU process's display
// compositor, the browser process, ...), which share the machine's cores with it.
type loadCPU struct {
	longest, page, others float64
}

// tracedLoad is measureLoad with a Chromium trace of the navigation.
func tracedLoad(p *Page, url string) (loadResult, loadCPU) {
	p.t.Helper()
	var r loadResult
	events := traceOf(p, []string{"toplevel", "blink.user_timing", "__metadata"}, func() { r = measureLoad(p, url) })
	return r, cpuOfLoad(events, r.Rendered)
}

// traceOf runs fn with a Chromium trace of the given categories and gives the trace's events.
func traceOf(p *Page, categories []string, fn func()) []traceEvent {
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
	config := &tracing.TraceConfig{IncludedCategories: categories}
	if _, err := chromedp.Call(p.ctx, tracing.Start, tracing.StartParams{TransferMode: tracing.StartTransferModeReportEvents, TraceConfig: config}); err != nil {
		p.t.Fatalf("Tracing.start: %v", err)
	}
	fn()
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
	return events
}

// cpuOfLoad finds the renderer main thread that navigated last and adds up the CPU time of the
// top-level tasks of every thread from the navigation's start to until ms after it; a task that
// overlaps either end counts for the share of it inside.
func cpuOfLoad(events []traceEvent, until float64) loadCPU {
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
	end := nav + until*1000
	// In order of start, an enclosing task before the tasks it runs nested.
	slices.SortFunc(events, func(a, b traceEvent) int {
		return cmp.Or(cmp.Compare(a.Ts, b.Ts), cmp.Compare(b.Dur, a.Dur))
	})
	var cpu loadCPU
	busyUntil := map[thread]float64{} // the end of the last task counted, so nested ones count once
	for _, e := range events {
		if e.Ph != "X" || e.Dur <= 0 || (e.Name != "ThreadControllerImpl::RunTask" && e.Name != "ThreadPool_RunTask") {
			continue
		}
		th := thread{e.Pid, e.Tid}
		from, to := max(e.Ts, nav), min(e.Ts+e.Dur, end)
		if to <= from || e.Ts < busyUntil[th] {
			continue
		}
		busyUntil[th] = e.Ts + e.Dur
		share := e.Tdur * (to - from) / e.Dur / 1000
		if th != main {
			cpu.others += share
			continue
		}
		cpu.page += share
		if e.Ts >= nav {
			cpu.longest = max(cpu.longest, e.Tdur/1000)
		}
	}
	return cpu
}
