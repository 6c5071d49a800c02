package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestLyricsStage: stage mode on a phone scrolls through the words (issue 25): the autoscroll is
// offered for a song with sections of words alone, runs from the song's speed, a tap on the chart
// pauses it and the page stays where it is, a pedal (PageDown) resumes it; the chord size scales the
// words with the chords.
func TestLyricsStage(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	apiCreateBoard(t, s, "grace-stage", lyricSong())
	p := openLyricBoard(t, b, s, "grace-stage", "", phone())
	if evalJS[bool](p, `document.getElementById('stage-scroll').checkVisibility()`) {
		t.Error("the autoscroll is offered outside stage mode")
	}
	p.do(chromedp.Click(chromedp.ID("stage-toggle")))
	p.waitJS(`'stage' in document.documentElement.dataset && document.getElementById('stage-scroll').checkVisibility()`, "stage mode with the autoscroll")
	size := func() float64 {
		return evalJS[float64](p, `parseFloat(getComputedStyle(document.querySelector('.lyric-line')).fontSize)`)
	}
	before := size()
	p.do(chromedp.Click(chromedp.ID("stage-larger")))
	if after := size(); after <= before {
		t.Errorf("a larger stage size left the words at %.1f px (were %.1f)", after, before)
	}
	p.do(chromedp.Click(chromedp.ID("stage-scroll-faster")))
	if got := text(p, "stage-scroll-out"); got != "Speed 110%" {
		t.Errorf("speed after one step faster: %q", got)
	}
	p.do(chromedp.Click(chromedp.ID("stage-scroll")))
	p.waitJS(`window.scrollY > 40 && document.documentElement.dataset.autoscroll === 'on'`, "the page scrolling by itself")

	// A tap on the chart pauses: over the next frames the page stays where it is.
	p.do(chromedp.Click(`.lyric-line`, chromedp.NodeVisible))
	p.waitJS(`document.documentElement.dataset.autoscroll === 'paused'`, "paused by a tap")
	still := evalJS[bool](p, `(async () => {
		const y = window.scrollY;
		for (let i = 0; i < 20; i++) await new Promise((r) => requestAnimationFrame(r));
		return window.scrollY === y;
	})()`)
	if !still {
		t.Error("the page went on scrolling after the tap")
	}
	if got := text(p, "stage-scroll"); !strings.Contains(got, "paused") {
		t.Errorf("the autoscroll control reads %q while paused", got)
	}
	p.screenshot("lyrics", "stage-autoscroll-paused-phone-en")
	// The pedal (PageDown) resumes it.
	y := evalJS[float64](p, `window.scrollY`)
	p.do(chromedp.KeyEvent(kb.PageDown))
	p.waitJS(fmt.Sprintf(`document.documentElement.dataset.autoscroll === 'on' && window.scrollY > %f + 20`, y), "resumed by the pedal")
	p.requireClean("stage autoscroll")
}

// longLyricSong is a song of words alone, two pages in one column and one in two.
func longLyricSong() map[string]any {
	var secs []map[string]any
	for _, name := range []string{"Verse 1", "Verse 2", "Chorus", "Verse 3", "Bridge", "Verse 4"} {
		var lines []string
		for range 6 {
			lines = append(lines, "[G]Through many [C]dangers, [G]toils and [D]snares")
		}
		secs = append(secs, map[string]any{"label": name, "lines": lyricLines(lines...)})
	}
	return map[string]any{"title": "Long Song", "description": "", "key": "G", "tempo": 90, "beatsPerBar": 4, "sections": secs}
}

// TestLyricsPrint: a lyric song printed on A4 and Letter (issue 25): the ordinary song is one page, its
// chords over their syllables on paper too; a long song of words alone goes to two columns when that
// saves a page, each section whole in its column.
func TestLyricsPrint(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	apiCreateBoard(t, s, "grace-print", lyricSong())
	apiCreateBoard(t, s, "long-print", longLyricSong())

	p := openLyricBoard(t, b, s, "grace-print", "")
	for _, paper := range papers {
		doc := parsePDF(t, printPDF(p, paper.width, paper.height, "lyrics-print-"+paper.name))
		if len(doc.pages) != 1 {
			t.Errorf("the song on %s: %d pages, want 1", paper.name, len(doc.pages))
		}
	}
	printMedia(p)
	got := evalJS[lyricLayout](p, lyricLayoutJS)
	if len(got.Apart) > 0 || len(got.Overlaps) > 0 || got.Chords != 30 {
		t.Errorf("on paper: %d chords, not over their syllables %q, touching %q", got.Chords, got.Apart, got.Overlaps)
	}
	if cols := evalJS[string](p, `document.getElementById('grid').dataset.printCols || ''`); cols != "" {
		t.Errorf("a song with a grid printed in %q columns, want one", cols)
	}
	p.screenshot("lyrics", "print-emulated-song-desktop-en")
	emulateMedia(p, "")

	q := openLyricBoard(t, b, s, "long-print", "")
	for _, paper := range papers {
		doc := parsePDF(t, printPDF(q, paper.width, paper.height, "lyrics-print-long-"+paper.name))
		if len(doc.pages) != 1 {
			t.Errorf("the long song on %s: %d pages, want 1 in two columns", paper.name, len(doc.pages))
		}
	}
	emulateMedia(q, "print")
	q.waitJS(`'printing' in document.documentElement.dataset`, "the paper layout")
	if cols := evalJS[string](q, `document.getElementById('grid').dataset.printCols || ''`); cols != "2" {
		t.Errorf("the long song printed in %q columns, want 2", cols)
	}
	split := evalJS[[]string](q, `[...document.querySelectorAll('.section')].filter((s) => s.getClientRects().length > 1).map((s) => s.querySelector('.mark').textContent)`)
	if len(split) > 0 {
		t.Errorf("sections split across columns: %q", split)
	}
	q.screenshot("lyrics", "print-emulated-long-desktop-en")
	emulateMedia(q, "")
	p.requireClean("printing a lyric song")
	q.requireClean("printing a long lyric song")
}
