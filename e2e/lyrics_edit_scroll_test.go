package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestEditScrollKeepsBars: editing a long board, a bar far down is where the page said it was when it
// scrolled there. Every section then shows Add words, and a section not yet drawn (content-visibility)
// was given the height of a section of words alone, 2.2rem for one with no lines: a section of 16 bars
// grew by 200 px as it came near the window, and a bar aimed at while scrolling moved about 1,000 px
// down before the click landed (the section estimate in lyrics.css now counts the head, the rows of bars
// and Add words). The aim is taken in the task that scrolls, before any frame; the click comes after
// the frames a person takes to click, in which the page draws the sections near the window.
func TestEditScrollKeepsBars(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	c := boardContent{Title: "Long edit", Tempo: 120, BeatsPerBar: 4}
	for i := 0; i < 32; i++ {
		bars := make([][]string, 16)
		for k := range bars {
			bars[k] = []string{"C"}
		}
		c.Sections = append(c.Sections, boardSection{Label: fmt.Sprint(i + 1), Bars: bars})
	}
	c.Sections[30].Bars[9] = []string{"F#m7b5"}
	capability := apiCreateBoard(t, s, "longedit", c)
	for _, tc := range []struct {
		name string
		opts []PageOption
	}{
		{"desktop", nil},
		{"phone", []PageOption{phone()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := b.newPage(t, tc.opts...)
			openBoard(p, s, "longedit", capability)
			p.waitJS(`document.querySelectorAll('li.bar').length === 512`, "all 512 bars")
			target := barButton(30, 9)
			aim := evalJS[[]float64](p, fmt.Sprintf(`(() => {
				const el = document.querySelector(%s);
				el.scrollIntoView({ block: 'center' });
				const r = el.getBoundingClientRect();
				return [r.x + r.width / 2, r.y + r.height / 2];
			})()`, jsString(target)))
			moved := evalJS[float64](p, fmt.Sprintf(`(async () => {
				for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
				const r = document.querySelector(%s).getBoundingClientRect();
				return r.y + r.height / 2 - %f;
			})()`, jsString(target), aim[1]))
			if moved < -8 || moved > 8 {
				t.Errorf("the bar moved %.0f px in the frames after the scroll (the sections near it were estimated at another height than they were drawn)", moved)
			}
			p.do(chromedp.MouseClickXY(aim[0], aim[1]))
			p.waitJS(`document.getElementById('bar-dialog').open`, "a bar editor opens")
			if got := evalJS[string](p, `document.getElementById('bar-chords').value`); got != "F#m7b5" {
				t.Errorf("the click aimed at bar 10 of section 31 opened the editor of a bar with %q (the bar moved %.0f px after the scroll)", got, moved)
			}
			p.requireClean("clicking a bar far down in edit mode")
		})
	}
}
