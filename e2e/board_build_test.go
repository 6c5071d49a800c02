package e2e

import (
	"fmt"
	"testing"
)

// buildProbe runs before the page's scripts: after each task's changes to the document (a
// MutationObserver's callback) it writes down how many bars the grid holds and whether it is
// aria-busy, whenever either changed, from the first bar on, and the first section's bar count as its
// estimated height uses it (--bars). With poke, the first time the grid holds some bars but not all,
// it clicks the view's "up a semitone" button: a render of the whole board while it is being built.
const buildProbe = `(() => {
  const seen = [];
  Object.defineProperty(window, '__build', { value: seen });
  let poked = !%t;
  new MutationObserver(() => {
    const grid = document.getElementById('grid');
    const bars = grid ? grid.querySelectorAll('li.bar').length : 0;
    if (!bars) return;
    const busy = grid.getAttribute('aria-busy') || '';
    const last = seen[seen.length - 1];
    const estimate = grid.querySelector('.section')?.style.getPropertyValue('--bars') || '';
    if (!last || last.bars !== bars || last.busy !== busy) seen.push({ bars, busy, estimate });
    if (!poked && busy === 'true') {
      poked = true;
      document.getElementById('view-up').click();
      seen.push({ poked: true });
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] });
})();`

type buildStep struct {
	Bars     int    `json:"bars"`
	Busy     string `json:"busy"`
	Estimate string `json:"estimate"`
	Poked    bool   `json:"poked"`
}

// openProbed opens a board in a new tab with buildProbe and waits until the page says it is ready. The
// address carries a query, so the page draws the board itself: with none, a reader's page shows the
// server's first view and takes it as its own (TestFirstView).
func openProbed(t *testing.T, b *Browser, s *Server, id string, poke bool) (*Page, []buildStep) {
	p := b.newPage(t, desktop())
	addInitScript(p, fmt.Sprintf(buildProbe, poke))
	openBoard(p, s, id+"?built", "")
	return p, evalJS[[]buildStep](p, `window.__build`)
}

// TestBoardLargeBuild: the largest board is drawn over several tasks, its grid aria-busy meanwhile, and
// the page says it is ready only once every bar is drawn; a usual board is drawn at once; a render
// while the grid is being built (the view transposed) draws every bar at once, and the build draws
// nothing after it.
func TestBoardLargeBuild(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	apiCreateBoard(t, s, "largest", largestBoard(0))
	apiCreateBoard(t, s, "song", sampleContent("Song"))
	b := newBrowser(t)

	t.Run("the largest board: a section of bars a task, ready once all are drawn", func(t *testing.T) {
		p, steps := openProbed(t, b, s, "largest", false)
		// Read at once when the page says it is ready: every bar is there, nothing is busy.
		if n, busy := evalJS[int](p, `document.querySelectorAll('#grid li.bar').length`), evalJS[bool](p, `document.getElementById('grid').hasAttribute('aria-busy')`); n != 512 || busy {
			t.Fatalf("when ready, the grid holds %d bars (want 512), aria-busy %v", n, busy)
		}
		// Near the window 16 bars a step (two rows here), each laid out by the task after it; past it,
		// a section a step.
		if len(steps) < 3 || steps[0].Bars != 16 || steps[1].Bars != 32 {
			t.Fatalf("the grid was not drawn 16 bars a step near the window: %+v", steps)
		}
		prev, sections := 0, 0
		for _, st := range steps {
			if st.Bars < prev || st.Bars-prev > 64 {
				t.Errorf("from %d to %d bars in one task: %+v", prev, st.Bars, steps)
			}
			if st.Bars-prev == 64 {
				sections++
			}
			// The section's estimate is of all its bars from the first step on: a change would
			// restyle every bar it holds at each step.
			if st.Estimate != "64" {
				t.Errorf("with %d bars drawn the first section's --bars is %q, want 64", st.Bars, st.Estimate)
			}
			if want := map[bool]string{true: "", false: "true"}[st.Bars == 512]; st.Busy != want {
				t.Errorf("with %d bars drawn the grid's aria-busy is %q, want %q", st.Bars, st.Busy, want)
			}
			prev = st.Bars
		}
		if sections == 0 {
			t.Errorf("no step drew a section's worth of bars past the window: %+v", steps)
		}
		// Once built, every section and bar is skipped again while off screen, those drawn near the window too.
		if got := evalJS[string](p, `[...document.querySelectorAll('#grid .section, #grid .bar')].map((e) => getComputedStyle(e).contentVisibility).filter((v) => v !== 'auto').join(',')`); got != "" {
			t.Errorf("after the build, sections or bars of content-visibility %q, want auto", got)
		}
		if got := evalJS[string](p, `[...document.querySelectorAll('#grid .bar-num')].map((n) => n.textContent).join(',')`); got != numbers(512) {
			t.Errorf("the bars are numbered %.80s…", got)
		}
		p.requireClean("the largest board drawn in steps")
	})

	t.Run("a usual board is drawn at once", func(t *testing.T) {
		_, steps := openProbed(t, b, s, "song", false)
		if len(steps) != 1 || steps[0].Bars != 16 || steps[0].Busy != "" {
			t.Errorf("a 16-bar board was drawn as %+v, want all 16 bars at once, never busy", steps)
		}
	})

	t.Run("a render while the grid is built draws every bar; the build draws nothing after it", func(t *testing.T) {
		p, steps := openProbed(t, b, s, "largest", true)
		poked := -1
		for i, st := range steps {
			if st.Poked {
				poked = i
			}
		}
		if poked < 1 || steps[poked-1].Bars >= 512 || poked+1 >= len(steps) || steps[poked+1].Bars != 512 || steps[poked+1].Busy != "" || len(steps) != poked+2 {
			t.Fatalf("want some bars, the view transposed, then all 512 bars at once and nothing more: %+v", steps)
		}
		got := gridText(p)
		// Another tab of the same browser remembers the transposition and draws it in steps of its own.
		q, _ := openProbed(t, b, s, "largest", false)
		if want := gridText(q); got != want || len(got) < 512*8 {
			t.Errorf("the board transposed while being built shows %.120s…, another tab %.120s…", got, want)
		}
		if untransposed := gridTextOf(largestBoard(0)); got == untransposed {
			t.Errorf("the view was not transposed")
		}
		p.requireClean("transposed while being built")
	})
}

func numbers(n int) string {
	s := "1"
	for i := 2; i <= n; i++ {
		s += fmt.Sprintf(",%d", i)
	}
	return s
}

// gridTextOf is what gridText reads of a board drawn as it is.
func gridTextOf(c boardContent) string {
	s := ""
	for _, sec := range c.Sections {
		for _, bar := range sec.Bars {
			if s != "" {
				s += " | "
			}
			for k, ch := range bar {
				if k > 0 {
					s += " "
				}
				s += ch
			}
		}
	}
	return s
}
