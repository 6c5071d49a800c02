package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// notationJS reads how the grid typesets its chords: for each chord its text (the stored ASCII), the
// glyphs drawn over its accidentals, whether its quality is raised over a number (the raised part's
// baseline above the number's) and the bar's accessible name.
const notationJS = `[...document.querySelectorAll('#grid .bar')].map((bar) => {
	const chords = [...bar.querySelectorAll('.chord')];
	return {
		text: chords.map((c) => c.textContent).join(' '),
		drawn: chords.map((c) => [...c.querySelectorAll('.root, .q, .bass')].map((part) => [...part.childNodes].map(function walk(n) {
			if (n.nodeType === 3) return n.data;
			if (n.classList.contains('acc')) return getComputedStyle(n, '::before').content.replace(/^"(.*)" \/ ""$/, '$1') + (getComputedStyle(n).fontSize === '0px' ? '' : n.textContent);
			if (n.classList.contains('up')) return '^' + [...n.childNodes].map(walk).join('');
			return n.textContent;
		}).join('')).join('')).join(' '),
		raised: chords.every((c) => { const up = c.querySelector('.up'); return !up || up.getBoundingClientRect().bottom < c.querySelector('.root').getBoundingClientRect().bottom - 2; }),
		// Each glyph at 0.9 of the part it stands in (its letter at no size): 0 if its size were lost.
		glyphSize: [...bar.querySelectorAll('.acc')].map((a) => parseFloat(getComputedStyle(a, '::before').fontSize) / parseFloat(getComputedStyle(a.parentElement).fontSize)).reduce((m, r) => Math.abs(r - 0.9) > Math.abs(m - 0.9) ? r : m, 0.9),
		name: (bar.querySelector('.bar-btn') || bar).getAttribute('aria-label'),
	};
})`

type notationBar struct {
	Text, Drawn, Name string
	Raised            bool
	GlyphSize         float64 // the glyph's size over its part's, furthest from 0.9 in the bar
}

// TestNotation checks issue 23 item 4 in a real Chromium: the grid draws ♭ and ♯ (root, bass and
// alterations: B♭7♭9, F♯m7/C♯) while the chord's text stays the stored ASCII (Bb7b9), and Nashville
// numbers raise their quality (1⁷, ♭7⁷, 2m⁷) and are named "1 7", never "17" (seventeen); on paper
// too. Before, the grid drew Bb7b9 and 17. Desktop and 390 px, light and dark, English and 简体中文.
func TestNotation(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	song := boardContent{Title: "Accidentals", Key: "Bb", Tempo: 120, BeatsPerBar: 4, Sections: []boardSection{
		{Label: "A", Bars: [][]string{{"Bb7"}, {"Cm7", "F7b9"}, {"Ebmaj7#11"}, {"Ab7"}, {"F#m7/C#"}, {"Dm7b5", "G7#9"}, {"Cm7"}, {"N.C."}}},
	}}
	capability := apiCreateBoard(t, s, "notation", song)
	want := []notationBar{
		{Text: "Bb7", Drawn: "B♭7"}, {Text: "Cm7 F7b9", Drawn: "Cm7 F7♭9"}, {Text: "Ebmaj7#11", Drawn: "E♭maj7♯11"}, {Text: "Ab7", Drawn: "A♭7"},
		{Text: "F#m7/C#", Drawn: "F♯m7/C♯"}, {Text: "Dm7b5 G7#9", Drawn: "Dm7♭5 G7♯9"}, {Text: "Cm7", Drawn: "Cm7"}, {Text: "N.C.", Drawn: "N.C."},
	}
	check := func(p *Page, want []notationBar, what string) {
		t.Helper()
		got := evalJS[[]notationBar](p, notationJS)
		if len(got) != len(want) {
			t.Fatalf("%s: %d bars", what, len(got))
		}
		for i, w := range want {
			g := got[i]
			if g.GlyphSize < 0.89 || g.GlyphSize > 0.91 {
				t.Errorf("%s, bar %d: a glyph at %.2f of its part's size, want 0.9", what, i+1, g.GlyphSize)
			}
			if g.Text != w.Text || g.Drawn != w.Drawn || !g.Raised || (w.Name != "" && !strings.HasSuffix(g.Name, ": "+w.Name) && !strings.HasSuffix(g.Name, "："+w.Name)) {
				t.Errorf("%s, bar %d: text %q drawn %q raised %v named %q; want %q drawn %q named …%q", what, i+1, g.Text, g.Drawn, g.Raised, g.Name, w.Text, w.Drawn, w.Name)
			}
		}
	}

	t.Run("glyphs on screen and on paper, the text as stored", func(t *testing.T) {
		p := b.newPage(t)
		openBoard(p, s, "notation", capability)
		check(p, want, "desktop")
		checkChordsWhole(t, p, "desktop")
		// The bar editor opens with the stored spelling, as it always did.
		p.do(chromedp.Click(chromedp.CSS(barButton(0, 2))))
		p.waitJS(`document.getElementById('bar-dialog').open`, "the bar editor opens")
		if v := evalJS[string](p, `document.getElementById('bar-chords').value`); v != "Ebmaj7#11" {
			t.Errorf("the bar editor holds %q", v)
		}
		p.do(chromedp.KeyEvent(kb.Escape))
		p.screenshot("board", "notation-desktop-en")
		printMedia(p)
		check(p, want, "print")
		checkChordsWhole(t, p, "print")
		p.screenshot("board", "notation-print")
		emulateMedia(p, "")
		p.requireClean("notation")
	})

	t.Run("Nashville numbers raised, named apart; a phone in dark, 简体中文", func(t *testing.T) {
		p := b.newPage(t, phone(), darkScheme(), browserLanguage("zh-CN"), storageDisabled())
		openBoard(p, s, "notation", "")
		openViewPanel(p)
		p.do(chromedp.Click(chromedp.ID("view-numbers")))
		p.waitJS(`document.getElementById('view-numbers').checked`, "numbers are on")
		check(p, []notationBar{
			{Text: "17", Drawn: "1^7", Name: "1 7"}, {Text: "2m7 57b9", Drawn: "2m^7 5^7♭9", Name: "2 m7 5 7b9"}, {Text: "4maj7#11", Drawn: "4maj^7♯11", Name: "4 maj7#11"},
			{Text: "b77", Drawn: "♭7^7", Name: "♭7 7"}, {Text: "b6m7/b3", Drawn: "♭6m^7/♭3", Name: "♭6 m7 / ♭3"}, {Text: "3m7b5 67#9", Drawn: "3m^7♭5 6^7♯9", Name: "3 m7b5 6 7#9"},
			{Text: "2m7", Drawn: "2m^7", Name: "2 m7"}, {Text: "N.C.", Drawn: "N.C.", Name: "N.C."},
		}, "numbers")
		if name := evalJS[string](p, `document.querySelector('#grid .bar').getAttribute('aria-label')`); name != "第 1 小节：1 7" {
			t.Errorf("the first bar is named %q", name)
		}
		p.screenshot("board", "notation-numbers-phone-zh-dark")
		p.requireClean("numbers")
	})
}
