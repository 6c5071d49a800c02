package e2e

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestTransposeView drives the view controls (issue 13 item 1) in a real Chromium against a real `tele
// serve`: transpose to a key spelled as in that key, remembered in this browser only; capo shapes with
// the sounding key; Nashville numbers, or the key they need; the player sounding what is shown in
// sounding pitch; and "Transpose the board" writing one revision. English and 简体中文, desktop and
// 390 px, light and dark; screenshots in .audit/board/.
func TestTransposeView(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	song := boardContent{Title: "Two-five-one", Key: "C", Tempo: 240, BeatsPerBar: 4, Sections: []boardSection{
		{Label: "A", Bars: [][]string{{"Dm7"}, {"G7"}, {"Cmaj7"}, {"A7/C#"}, {"F", "G/B"}, {"Bb7"}, {"Am"}, {"N.C."}}},
	}}
	capability := apiCreateBoard(t, s, "two-five", song)
	noKey := song
	noKey.Key = ""
	apiCreateBoard(t, s, "no-key", noKey)

	t.Run("transpose to a key, read-only, remembered in this browser", func(t *testing.T) {
		p := b.newPage(t)
		openBoard(p, s, "two-five", "")
		openViewPanel(p)
		setSelect(p, "view-key", "Eb")
		p.waitJS(`document.getElementById('view-shift').textContent === '+3'`, "the view moves up three semitones")
		if got := gridText(p); got != "Fm7 | Bb7 | Ebmaj7 | C7/E | Ab Bb/D | Db7 | Cm | N.C." {
			t.Errorf("C → E♭ shows %q", got)
		}
		if st := text(p, "view-status"); !strings.Contains(st, "key of Eb") || !strings.Contains(st, "the board is in C") {
			t.Errorf("status %q", st)
		}
		p.screenshot("board", "transpose-eb-desktop-en")
		p.do(chromedp.Reload())
		waitBoardReady(p)
		if got := gridText(p); !strings.HasPrefix(got, "Fm7 | Bb7") {
			t.Errorf("after a reload the view shows %q", got)
		}
		if badge := text(p, "view-badge"); badge != "+3" {
			t.Errorf("the closed panel's badge says %q", badge)
		}
		openViewPanel(p)
		// Semitone buttons: three down is the board again; the board itself never changed.
		for range 3 {
			p.do(chromedp.Click(chromedp.ID("view-down")))
		}
		p.waitJS(`document.getElementById('view-shift').textContent === '0'`, "back to the board's key")
		if got := gridText(p); !strings.HasPrefix(got, "Dm7 | G7 | Cmaj7 | A7/C#") {
			t.Errorf("untransposed view %q", got)
		}
		p.do(chromedp.Click(chromedp.ID("view-up")), chromedp.Click(chromedp.ID("view-up")))
		p.waitJS(`document.getElementById('view-shift').textContent === '+2'`, "up two")
		if got := gridText(p); !strings.HasPrefix(got, "Em7 | A7 | Dmaj7 | B7/D# | G A/C# | C7") {
			t.Errorf("C → D shows %q", got)
		}
		if rev := apiGetBoard(t, s, "two-five").Revision; rev != 1 {
			t.Errorf("the view changed the board: revision %d", rev)
		}
		p.requireClean("transposed view")
	})

	t.Run("capo shapes with the sounding key, phone, dark, 简体中文", func(t *testing.T) {
		p := b.newPage(t, phone(), darkScheme(), browserLanguage("zh-CN"))
		openBoard(p, s, "two-five", "")
		openViewPanel(p)
		p.do(chromedp.Click(chromedp.ID("view-reset")))
		setSelect(p, "view-key", "Eb")
		setSelect(p, "view-capo", "3")
		p.waitJS(`document.getElementById('view-status').textContent.includes('变调夹第 3 品')`, "the capo is described")
		if got := gridText(p); !strings.HasPrefix(got, "Dm7 | G7 | Cmaj7") {
			t.Errorf("E♭ with capo 3 shows shapes %q, want the C shapes", got)
		}
		if st := text(p, "view-status"); !strings.Contains(st, "实际发声为 Eb 调") || !strings.Contains(st, "指法按 C 调") {
			t.Errorf("status %q", st)
		}
		if w := evalJS[float64](p, `document.documentElement.scrollWidth`); w > 390 {
			t.Errorf("the phone page is %v px wide", w)
		}
		if got := evalJS[string](p, `document.getElementById('view-capo').closest('label').querySelector('.field-label').textContent`); got != "变调夹" {
			t.Errorf("the capo control is labelled %q", got)
		}
		// The closed panel's summary says it in the page's language too.
		if got := text(p, "view-badge"); got != "+3 · 变调夹 3" {
			t.Errorf("the view's summary says %q, want %q", got, "+3 · 变调夹 3")
		}
		p.screenshot("board", "transpose-capo-phone-zh-dark")
		p.requireClean("capo")
	})

	t.Run("Nashville numbers, and without a key the key they need", func(t *testing.T) {
		p := b.newPage(t, storageDisabled())
		openBoard(p, s, "two-five", "")
		openViewPanel(p)
		p.do(chromedp.Click(chromedp.ID("view-numbers")))
		p.waitJS(`document.getElementById('view-numbers').checked`, "numbers are on")
		if got := gridText(p); got != "2m7 | 57 | 1maj7 | 67/#1 | 4 5/7 | b77 | 6m | N.C." {
			t.Errorf("numbers %q", got)
		}
		p.screenshot("board", "numbers-desktop-en")
		q := b.newPage(t, storageDisabled(), darkScheme())
		openBoard(q, s, "no-key", "")
		openViewPanel(q)
		q.do(chromedp.Click(chromedp.ID("view-numbers")))
		q.waitJS(`document.getElementById('view-status').textContent.includes('need')`, "the missing key is said")
		if st := text(q, "view-status"); st != "Numbers need the board’s key. Set a key, then numbers show." {
			t.Errorf("status %q", st)
		}
		if got := gridText(q); !strings.HasPrefix(got, "Dm7 | G7") {
			t.Errorf("without a key the grid shows %q", got)
		}
		if !evalJS[bool](q, `document.getElementById('view-key').disabled`) {
			t.Error("a key to move to is offered for a board without a key")
		}
		q.screenshot("board", "numbers-no-key-desktop-en-dark")
		switchLanguage(q, kb.ArrowDown, "zh-CN")
		if st := text(q, "view-status"); st != "显示级数需要先设定和弦谱的调。" {
			t.Errorf("Chinese status %q", st)
		}
		q.requireClean("numbers")
	})

	t.Run("the player sounds what is shown, in sounding pitch", func(t *testing.T) {
		p := b.newPage(t, storageDisabled())
		openBoard(p, s, "two-five", "")
		setSelect(p, "view-key", "Eb")
		setSelect(p, "view-capo", "3") // shapes in C, sounding in E♭
		if got := text(p, "view-badge"); got != "+3 · capo 3" {
			t.Errorf("the view's summary says %q, want %q", got, "+3 · capo 3")
		}
		evalJS[chromedp.Void](p, `(() => {
			document.getElementById('count-in').checked = false;
			window.__osc = [];
			const create = BaseAudioContext.prototype.createOscillator;
			BaseAudioContext.prototype.createOscillator = function () { const o = create.call(this); window.__osc.push(o); return o; };
		})()`)
		p.do(chromedp.Click(chromedp.ID("play")))
		p.waitJS(`window.__osc.length >= 5`, "the first chord is scheduled")
		p.do(chromedp.Click(chromedp.ID("play")))
		freqs := evalJS[[]float64](p, `window.__osc.slice(0, 5).map((o) => o.frequency.value)`)
		// Fm7 as sounded: bass F2, then F3 A♭3 C4 E♭4 — not the Dm7 shape the grid shows.
		want := []float64{87.31, 174.61, 207.65, 261.63, 311.13}
		for i, f := range want {
			if i >= len(freqs) || math.Abs(freqs[i]-f) > 0.05 {
				t.Fatalf("first chord frequencies %v, want %v (Fm7 in sounding pitch)", freqs, want)
			}
		}
		p.requireClean("player")
	})

	t.Run("Transpose the board writes one revision through the save", func(t *testing.T) {
		p := b.newPage(t)
		openBoard(p, s, "two-five", capability)
		openViewPanel(p)
		p.do(chromedp.Click(chromedp.ID("view-reset")))
		setSelect(p, "view-key", "Eb")
		p.waitJS(`document.getElementById('view-apply').textContent === 'Transpose the board to Eb'`, "the board can be moved to E♭")
		p.screenshot("board", "transpose-board-desktop-en")
		puts := recordPUTs(p)
		p.do(chromedp.Click(chromedp.ID("view-apply")))
		p.waitJS(`document.getElementById('save-status').textContent.includes('revision 2')`, "the transposed board is saved")
		if reqs := puts(); len(reqs) != 1 || reqs[0].Headers["If-Match"] != `"1"` {
			t.Errorf("PUTs %+v, want one with If-Match \"1\"", reqs)
		}
		got := apiGetBoard(t, s, "two-five")
		var bars []string
		for _, bar := range got.Content.Sections[0].Bars {
			bars = append(bars, strings.Join(bar, " "))
		}
		if got.Revision != 2 || got.Content.Key != "Eb" || strings.Join(bars, " | ") != "Fm7 | Bb7 | Ebmaj7 | C7/E | Ab Bb/D | Db7 | Cm | N.C." {
			t.Errorf("after Transpose the board: revision %d, key %q, bars %q", got.Revision, got.Content.Key, bars)
		}
		if shift := text(p, "view-shift"); shift != "0" || !strings.HasPrefix(gridText(p), "Fm7 | Bb7") {
			t.Errorf("the view after moving the board: shift %q, grid %q", shift, gridText(p))
		}
		p.requireClean("transpose the board")
	})
}

// openViewPanel opens the closed "Transpose · capo · numbers" panel with a click on its summary.
func openViewPanel(p *Page) {
	p.t.Helper()
	if !evalJS[bool](p, `document.getElementById('view-panel').open`) {
		p.do(chromedp.Click(chromedp.CSS("#view-panel > summary")))
	}
	p.waitJS(`document.getElementById('view-panel').open`, "the view panel opens")
}

// setSelect chooses value in a <select> as a user's choice would (value, then a change event).
func setSelect(p *Page, id, value string) {
	p.t.Helper()
	evalJS[chromedp.Void](p, fmt.Sprintf(`(() => { const el = document.getElementById(%s); el.value = %s; el.dispatchEvent(new Event('change', { bubbles: true })); })()`, jsString(id), jsString(value)))
	if v := evalJS[string](p, fmt.Sprintf(`document.getElementById(%s).value`, jsString(id))); v != value {
		p.t.Fatalf("select %s holds %q, want %q", id, v, value)
	}
}

// gridText is every bar's chords as shown, bars separated by " | ".
func gridText(p *Page) string {
	p.t.Helper()
	return evalJS[string](p, `[...document.querySelectorAll('#grid .bar')].map((b) => [...b.querySelectorAll('.chord')].map((c) => c.textContent).join(' ')).join(' | ')`)
}

func text(p *Page, id string) string {
	p.t.Helper()
	return evalJS[string](p, fmt.Sprintf(`document.getElementById(%s).textContent`, jsString(id)))
}
