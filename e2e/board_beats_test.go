package e2e

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// beatsStart is a board with beat positions in its first bar; the test sets the others.
const beatsStart = `{"title":"Beats","description":"","key":"C","tempo":300,"beatsPerBar":4,"sections":[
 {"label":"A","bars":[{"chords":["C","G7"],"durations":[3,1]},["F","G"],["Am"],["Dm7","G7"],["C"],["C"]]}]}`

// beatsWant is the board after the edits: the picker (keyboard) makes bar 4 1+3, typing makes bar 3
// 2+1+1, a pasted chart line makes bars 5 and 6 (inserting one).
const beatsWant = `{"title":"Beats","description":"","key":"C","tempo":300,"beatsPerBar":4,"sections":[
 {"label":"A","bars":[{"chords":["C","G7"],"durations":[3,1]},["F","G"],{"chords":["F","G","C"],"durations":[2,1,1]},{"chords":["Dm7","G7"],"durations":[1,3]},{"chords":["Bb","C"],"durations":[3,1]},["F"],["C"]]}]}`

// TestBoardBeatPositions: the grid draws each chord at its beat, the bar editor sets beat positions by
// its picker (keyboard only) and by dots typed, refuses in words a rhythm that does not fill the bar, a
// pasted | C . . G7 | keeps them, the board saves them, and the player starts each chord on its beat
// (issue 23, beat positions).
func TestBoardBeatPositions(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	capability := apiCreateBoard(t, s, "beats", json.RawMessage(beatsStart))
	p := b.newPage(t)
	openBoard(p, s, "beats", capability)

	// Drawn at its beat: G7 starts three quarters into bar 1, G half way into bar 2.
	startAt := func(bar, k int) float64 {
		t.Helper()
		return evalJS[float64](p, fmt.Sprintf(`(() => {
			const box = document.querySelector('[data-path="sections[0].bars[%d]"] .chords');
			const c = box.querySelectorAll('.chord')[%d];
			const b = box.getBoundingClientRect(), r = c.getBoundingClientRect();
			const pad = parseFloat(getComputedStyle(box).paddingLeft) + parseFloat(getComputedStyle(box).paddingRight);
			return (r.left - b.left - parseFloat(getComputedStyle(box).paddingLeft)) / (b.width - pad);
		})()`, bar, k))
	}
	if at := startAt(0, 1); at < 0.7 || at > 0.8 {
		t.Errorf("G7 of a 3+1 bar starts at %.2f of the bar, want about 0.75", at)
	}
	if at := startAt(1, 1); at < 0.45 || at > 0.55 {
		t.Errorf("G of an even bar starts at %.2f of the bar, want about 0.5", at)
	}

	// Keyboard only: the picker of bar 4 chooses 1+3.
	openBarByKeys(p, 0, 3)
	tabTo(p, `a.id === 'bar-rhythm'`, "the rhythm picker")
	options := evalJS[string](p, `[...document.getElementById('bar-rhythm').options].map((o) => o.textContent).join(',')`)
	if options != "Evenly,3+1,1+3" {
		t.Errorf("the picker offers %q for two chords in 4/4", options)
	}
	for range 4 {
		if evalJS[string](p, `document.getElementById('bar-rhythm').value`) == "1+3" {
			break
		}
		p.do(chromedp.KeyEvent(kb.ArrowDown))
	}
	p.waitJS(`document.getElementById('bar-chords').value === 'Dm7 G7 . .'`, "the picked rhythm is written into the chords field")
	applyByKeys(p)

	// Typed: a rhythm that does not fill the bar is said in words, then one that does.
	p.do(chromedp.Click(chromedp.CSS(barButton(0, 2))))
	p.waitJS(`document.getElementById('bar-dialog').open && document.activeElement.id === 'bar-chords'`, "the bar dialog opens")
	p.do(chromedp.KeyEvent("F . G" + kb.Enter))
	p.waitJS(`document.getElementById('bar-error').textContent === 'These chords take 3 beats; the bar has 4. Add or remove dots.'`, "the short rhythm is refused in words")
	switchLanguageScripted(p, "zh-CN")
	p.waitJS(`document.getElementById('bar-error').textContent === '这些和弦共 3 拍，而这个小节有 4 拍。请增减点。'`, "and in Chinese")
	p.screenshot("board", "beats-dialog-refused-desktop-zh")
	switchLanguageScripted(p, "en")
	p.do(chromedp.KeyEvent(" C" + kb.Enter))
	p.waitJS(`!document.getElementById('bar-dialog').open`, "the bar dialog closes")

	// Pasted: one bar a cell, each chord at its beat.
	p.do(chromedp.Focus(chromedp.CSS(barButton(0, 4))))
	evalJS[chromedp.Void](p, fmt.Sprintf(`(() => {
		const dt = new DataTransfer(); dt.setData('text/plain', '| Bb . . C | F |');
		document.querySelector(%s).dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
	})()`, jsString(barButton(0, 4))))
	p.waitJS(`document.querySelector('[data-path="sections[0].bars[4]"] .chords').dataset.timed === '3 1'`, "the pasted bar is drawn with its beats")
	p.do(chromedp.Click(chromedp.ID("save")))
	p.waitJS(`document.getElementById('board').dataset.dirty === 'false'`, "the board is saved")
	var got boardDocRaw
	if status := apiJSON(t, "GET", s.URL+"/api/boards/beats", nil, nil, &got); status != 200 {
		t.Fatalf("GET: %d", status)
	}
	if !sameJSON(string(got.Content), beatsWant) {
		t.Fatalf("saved content\n%s\nwant\n%s", got.Content, beatsWant)
	}
	if at := startAt(3, 1); at < 0.2 || at > 0.4 { // Dm7 is wider than a quarter of a desktop bar: G7 follows it
		t.Errorf("G7 of the 1+3 bar starts at %.2f of the bar, want 0.25 or just after Dm7", at)
	}
	p.screenshot("board", "beats-grid-desktop-en")

	// Played: record when each chord's bass note starts (the player's triangle oscillator at a chord's
	// start), in beats from the first, until bar 5 is heard.
	evalJS[chromedp.Void](p, `(() => {
		window.__starts = [];
		// OscillatorNode's own start (the probe script wraps it to count clicks) is the one called.
		const start = OscillatorNode.prototype.start;
		OscillatorNode.prototype.start = function (when) {
			if (this.type === 'triangle') window.__starts.push(when);
			return start.call(this, when);
		};
	})()`)
	if evalJS[bool](p, `document.getElementById('count-in').checked`) {
		p.do(chromedp.Click(chromedp.ID("count-in")))
	}
	p.do(chromedp.Click(chromedp.ID("play")))
	p.waitJS(`document.querySelector('.bar.is-current')?.dataset.path === 'sections[0].bars[4]'`, "the player reaches bar 5")
	p.do(chromedp.Click(chromedp.ID("play")))
	onsets := evalJS[[]float64](p, `(() => {
		const beat = 60 / 300;
		const t = [...new Set(window.__starts.map((x) => Math.round(x * 1000)))].sort((a, b) => a - b);
		// A chord's notes start 8 ms apart: the first of each group is its start.
		const starts = t.filter((x, i) => i === 0 || x - t[i - 1] > 40);
		return starts.map((x) => Math.round((x - starts[0]) / 1000 / beat * 10) / 10);
	})()`)
	// Bar 1: C on 1, G7 on 4; bar 2: F on 1, G on 3; bar 3: F on 1, G on 3, C on 4; bar 4: Dm7 on 1,
	// G7 on 2; bar 5 (Bb) from beat 17.
	want := []float64{0, 3, 4, 6, 8, 10, 11, 12, 13, 16}
	if len(onsets) < len(want) || fmt.Sprint(onsets[:len(want)]) != fmt.Sprint(want) {
		t.Errorf("chords start on beats %v, want %v…", onsets, want)
	}
	p.requireClean("beat positions")

	// A phone: the same bars, each chord at its beat.
	ph := b.newPage(t, phone())
	openBoard(ph, s, "beats", capability)
	switchLanguageScripted(ph, "zh-CN")
	ph.screenshot("board", "beats-grid-phone-zh")
	ph.requireClean("beat positions on a phone")
}
