package e2e

import (
	"cmp"
	"slices"
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
	return workOf(traceOf(p, []string{"devtools.timeline", "__metadata"}, func() { evalJS[bool](p, js) }))
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
