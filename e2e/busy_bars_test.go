package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

func equalShares(widths []float64) bool {
	for _, w := range widths {
		if w-widths[0] > 1 || widths[0]-w > 1 {
			return false
		}
	}
	return true
}

// busyBarJS measures a bar as drawn: its chords' lines (distinct tops), their root sizes in CSS px,
// the widths of their beat shares, and whether any sticks out of the bar.
const busyBarJS = `((path) => {
	const bar = document.querySelector('.bar[data-path="' + path + '"]');
	const chords = [...bar.querySelectorAll('.chord')];
	const box = bar.getBoundingClientRect();
	return {
		lines: new Set(chords.map((c) => Math.round(c.getBoundingClientRect().top))).size,
		sizes: chords.map((c) => parseFloat(getComputedStyle(c.querySelector('.root')).fontSize)),
		widths: chords.map((c) => c.getBoundingClientRect().width),
		out: chords.some((c) => { const r = c.getBoundingClientRect(); return r.left < box.left - 0.5 || r.right > box.right + 0.5; }),
		cols: getComputedStyle(bar).gridColumnStart,
	};
})`

type busyBar struct {
	Lines  int
	Sizes  []float64
	Widths []float64
	Out    bool
	Cols   string
}

// readableFloor is the smallest chord root, in CSS px, a musician reads on a phone at arm's length.
const readableFloor = 11.0

// TestBusyBarsPhone checks issue 23 defect 7 at 390 px: a bar of four chords (and one of three) keeps
// them on one line, each in its beat's share (equal widths) and none under the readable floor; its row
// shows fewer bars (the busy bar takes two columns), on the read-only page and with the edit link, light
// and dark. Before, four chords shrank to 9.5 px and wrapped 3 + 1. On a desktop the row keeps its bars.
func TestBusyBarsPhone(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	song := boardContent{Title: "Busy", Key: "C", Tempo: 120, BeatsPerBar: 4, Sections: []boardSection{
		{Label: "A", Bars: [][]string{{"Cmaj7"}, {"Am7", "D7", "Gm7", "C7"}, {"Fmaj7"}, {"Bbmaj7"}, {"Em7b5", "A7b9", "Dm7"}, {"G7"}, {"Cmaj7", "Ebdim7", "Dm7", "G7sus4"}, {"C6"}}},
	}}
	capability := apiCreateBoard(t, s, "busy", song)
	for _, v := range []struct {
		name string
		cap  string
		opts []PageOption
	}{
		{"readonly-light", "", []PageOption{phone()}},
		{"edit-dark", capability, []PageOption{phone(), darkScheme()}},
	} {
		p := b.newPage(t, v.opts...)
		openBoard(p, s, "busy", v.cap)
		p.waitJS(`document.getElementById('grid').dataset.fitPasses > 0`, "the chords are fitted")
		for _, path := range []string{"sections[0].bars[1]", "sections[0].bars[4]", "sections[0].bars[6]"} {
			got := evalJS[busyBar](p, fmt.Sprintf(`%s(%s)`, busyBarJS, jsString(path)))
			if got.Lines != 1 || got.Out {
				t.Errorf("%s %s: chords on %d lines (out of the bar: %v)", v.name, path, got.Lines, got.Out)
			}
			for i, size := range got.Sizes {
				if size < readableFloor {
					t.Errorf("%s %s: chord %d at %.1f px, under the floor of %.0f px", v.name, path, i+1, size, readableFloor)
				}
			}
			// A bar whose longest chord fits a quarter keeps its beats; Ebdim7 needs the short signs.
			if path != "sections[0].bars[6]" && !equalShares(got.Widths) {
				t.Errorf("%s %s: beat shares of %v px, not equal", v.name, path, got.Widths)
			}
			if got.Cols != "span 2" {
				t.Errorf("%s %s: the busy bar spans %q", v.name, path, got.Cols)
			}
		}
		checkChordsWhole(t, p, v.name)
		p.screenshot("board", "busy-bars-phone-"+v.name)
		if v.cap != "" {
			// The short signs (a view setting, by keyboard): every chord of the busiest bar in its quarter.
			openViewPanel(p)
			p.do(chromedp.Focus(chromedp.ID("view-short")), chromedp.KeyEvent(" "))
			p.waitJS(`document.querySelector('.bar[data-path="sections[0].bars[6]"] .chords').textContent === 'C∆7Eb°7Dm7G7sus'`, "the short signs are shown")
			got := evalJS[busyBar](p, fmt.Sprintf(`%s(%s)`, busyBarJS, jsString("sections[0].bars[6]")))
			if got.Lines != 1 || !equalShares(got.Widths) || got.Sizes[0] < readableFloor {
				t.Errorf("short signs: %+v", got)
			}
			if v := evalJS[string](p, `localStorage.getItem('tele.shortSigns')`); v != "true" {
				t.Errorf("the short signs are not remembered on this device: %q", v)
			}
			p.screenshot("board", "busy-bars-phone-short-"+v.name)
			p.do(chromedp.Focus(chromedp.ID("view-short")), chromedp.KeyEvent(" "))
		}
		p.requireClean(v.name)
	}
	// A desktop's row has room for a quarter each: the bar takes one column.
	d := b.newPage(t)
	openBoard(d, s, "busy", "")
	if got := evalJS[busyBar](d, fmt.Sprintf(`%s(%s)`, busyBarJS, jsString("sections[0].bars[1]"))); got.Cols != "span 1" || got.Lines != 1 {
		t.Errorf("desktop: the busy bar spans %q on %d lines", got.Cols, got.Lines)
	}
}
