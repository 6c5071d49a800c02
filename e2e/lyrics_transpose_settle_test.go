package e2e

import (
	"slices"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLyricsTransposeStepsSettle: a musician stepping a 200-line song three semitones to their key,
// a click every twentieth of a second, sees each step in the lines in the window, and the lines just
// under it have it by the time the frame that shows it is painted (they take it in the next, before
// a scroll can bring them in), while the lines away from it (far down the first section, and in a section off screen) are
// rewritten once, for the last step, when the view has settled (lyrics-view.js), not once a step. In
// the end they read three semitones up too.
func TestLyricsTransposeStepsSettle(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	apiCreateBoard(t, s, "longest-song", longestSong())
	p := openLyricBoard(t, b, s, "longest-song", "", desktop())
	p.waitJS(`document.querySelectorAll('.lyric-line').length === 200`, "every line")
	p.do(chromedp.Click(`#view-panel summary`))
	// Line 36 is in the first section, far below the window; line 150 in the fourth, off screen. Each
	// counts the tasks in which its chords were written.
	first := evalJS[[]string](p, `(async () => {
		const lines = document.querySelectorAll('.lyric-line');
		window.__writes = [0, 0];
		[36, 150].forEach((n, k) => new MutationObserver(() => { window.__writes[k]++; }).observe(lines[n], { subtree: true, childList: true, characterData: true }));
		const first = [];
		for (let step = 0; step < 3; step++) {
			document.getElementById('view-up').click();
			await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
			first.push(lines[0].querySelector('.lc .chord').textContent + ' ' + lines[8].querySelector('.lc .chord').textContent);
			await new Promise((r) => setTimeout(r, 50));
		}
		return first;
	})()`)
	if want := []string{"Ab Ab", "A A", "Bb Bb"}; !slices.Equal(first, want) {
		t.Errorf("the first chords of line 0 (in the window) and line 8 (just under it), once the frame after each step is painted: %q, want %q", first, want)
	}
	// The song's lines start on its chords in turn (longestSong): line 36 on Am7, line 150 on D/F#.
	p.waitJS(`(() => {
		const lines = document.querySelectorAll('.lyric-line');
		return lines[36].querySelector('.lc .chord').textContent === 'Cm7' && lines[150].querySelector('.lc .chord').textContent === 'F/A';
	})()`, "the far lines three semitones up")
	if writes := evalJS[[]int](p, `window.__writes`); !slices.Equal(writes, []int{1, 1}) {
		t.Errorf("the far lines were written in %v tasks (line 36, line 150), want once each, after the last step", writes)
	}
	p.requireClean("three steps")
}
