package e2e

import (
	"testing"
)

// TestSegmenterOnlyWhenNeeded: the grapheme segmenter (Intl.Segmenter, which places a chord at the
// start of a character drawn as one) is made only when a line of words needs it: making it loads the
// browser's segmentation rules, about 30 ms of a board page's first load. A board of bars and a song
// of Latin words make none; a song with Chinese and emoji makes one.
func TestSegmenterOnlyWhenNeeded(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	apiCreateBoard(t, s, "bars", map[string]any{"title": "Bars", "description": "", "key": "C", "tempo": 120, "beatsPerBar": 4,
		"sections": []map[string]any{{"label": "A", "bars": [][]string{{"C"}, {"Am7"}, {"Dm7", "G7"}, {"Cmaj7"}}}}})
	apiCreateBoard(t, s, "latin", longestSong())
	apiCreateBoard(t, s, "mixed", lyricSong())
	for _, c := range []struct {
		id, drawn string
		want      int
	}{
		{"bars", `document.querySelectorAll('li.bar').length === 4`, 0},
		{"latin", `document.querySelectorAll('.lyric-line').length === 200`, 0},
		{"mixed", `document.querySelectorAll('.lyric-line').length > 0`, 1},
	} {
		p := b.newPage(t, desktop())
		addInitScript(p, `(() => {
			const Made = Intl.Segmenter;
			window.__segmenters = 0;
			Intl.Segmenter = class extends Made { constructor(...args) { super(...args); window.__segmenters++; } };
		})()`)
		openBoard(p, s, c.id, "")
		p.waitJS(c.drawn, c.id+": drawn")
		p.waitJS(`document.documentElement.dataset.ready === 'true'`, c.id+": every part of the page started")
		if got := evalJS[int](p, `window.__segmenters`); got != c.want {
			t.Errorf("%s: %d grapheme segmenters made, want %d", c.id, got, c.want)
		}
		p.requireClean(c.id)
	}
}
