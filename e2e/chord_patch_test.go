package e2e

import (
	"testing"
)

// TestChordPatchedAsMade: a transposition, capo or numbers change rewrites a chord drawn before in
// place (board-view.js setChord keeps its text and accidental nodes where they fit). For every pair of
// a set of symbols (flats, sharps, alterations, slash chords, Nashville numbers, N.C.), a chord drawn
// as the first and set to the second is the same markup as one drawn as the second, and reads as its
// ASCII symbol.
func TestChordPatchedAsMade(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	p := b.newPage(t)
	openBoard(p, s, "welcome", "")
	bad := evalJS[[]string](p, `(async () => {
		const view = await import(new URL('board-view.js', document.querySelector('script[src$="/app.js"]').src).href);
		const symbols = ['C', 'Db', 'C#', 'E#', 'Cb', 'Bb7b9', 'F#m7/C#', 'Ebmaj7#11', 'Ab7#9#5', 'B/D#', 'C/Bb', 'Gm7b5', 'F7sus4b9',
			'6/9#11', 'N.C.', '1', 'b7', '#4m7b5', '2m7', 'b3maj7/5', '5/b7', '17b9', 'b6', 'G'];
		const bad = [];
		for (const from of symbols) {
			for (const to of symbols) {
				const el = view.chordElement(from);
				view.setChord(el, to);
				const made = view.chordElement(to);
				if (el.outerHTML !== made.outerHTML || el.textContent !== to) bad.push(from + ' → ' + to + ': ' + el.outerHTML + ' want ' + made.outerHTML);
			}
		}
		return bad;
	})()`)
	for _, b := range bad {
		t.Error(b)
	}
}
