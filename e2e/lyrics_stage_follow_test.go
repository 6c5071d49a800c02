package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLyricsStageFollowsIntoWords: in stage mode with the autoscroll on, playing a song of a grid
// and then a section of words alone, the page follows the bars being played, then into the words
// (their section comes to the place the chart is read, a third of the way down), and the autoscroll
// runs through them (issue 25: the player plays the bars, and stage mode follows into the words).
func TestLyricsStageFollowsIntoWords(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	var words []string
	for range 30 {
		words = append(words, "[G]Through many [C]dangers, [G]toils and [D]snares")
	}
	song := map[string]any{
		"title": "Grid then words", "description": "", "key": "G", "tempo": 300, "beatsPerBar": 2,
		"sections": []map[string]any{
			{"label": "Intro", "role": "intro", "bars": [][]string{{"G"}, {"C"}, {"D"}, {"G"}, {"Em"}, {"C"}, {"D"}, {"G"}}},
			{"label": "Verse", "role": "verse", "lines": lyricLines(words...)},
		},
	}
	apiCreateBoard(t, s, "grid-words", song)
	p := openLyricBoard(t, b, s, "grid-words", "", phone())
	p.do(chromedp.Click(chromedp.ID("stage-toggle")))
	p.waitJS(`'stage' in document.documentElement.dataset && document.getElementById('stage-scroll').checkVisibility()`, "stage mode with the autoscroll")
	p.do(chromedp.Click(chromedp.ID("stage-scroll")))
	p.waitJS(`document.documentElement.dataset.autoscroll === 'on'`, "the autoscroll on")
	// Where the page is read: the section at a third of the window's height.
	const reading = `(() => { const y = innerHeight / 3;
		const s = [...document.querySelectorAll('.section')].find((el) => { const r = el.getBoundingClientRect(); return r.top <= y && r.bottom >= y; });
		return s ? s.dataset.path : ''; })()`
	p.do(chromedp.Click(chromedp.ID("play")))
	p.waitJS(`document.getElementById('play').classList.contains('is-playing') && document.querySelector('.bar.is-current')?.dataset.path === 'sections[0].bars[0]'`, "the first bar played")
	p.waitJS(`document.querySelector('.bar.is-current')?.dataset.path === 'sections[0].bars[7]'`, "the last bar of the grid played")
	p.waitJS(fmt.Sprintf(`%s === 'sections[1]'`, reading), "the page follows into the words")
	y := evalJS[float64](p, `window.scrollY`)
	p.waitJS(fmt.Sprintf(`%s === 'sections[1]' && window.scrollY > %f + 60 && document.documentElement.dataset.autoscroll === 'on'`, reading, y), "the autoscroll runs through the words")
	if current := evalJS[string](p, `document.querySelector('.bar.is-current')?.dataset.path || ''`); current != "" && current != "sections[0].bars[7]" {
		t.Errorf("while the page reads the words the player shows %s as played", current)
	}
	p.screenshot("lyrics", "stage-followed-into-words-phone-en")
	p.requireClean("stage following into the words")
}
