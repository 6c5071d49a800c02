package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// formChart is a version-2 board using every construct: repeat with two endings, segno, To Coda,
// D.S. al Coda, coda, a % bar, a meter change and section roles.
const formChart = `{"title":"Form","description":"","key":"C","tempo":300,"beatsPerBar":4,"sections":[
 {"label":"A","role":"verse","bars":[{"chords":["C"],"repeatStart":true,"mark":"segno"},{"chords":"%"},{"chords":["F"],"ending":1,"repeatEnd":2},{"chords":["G7"],"ending":2,"mark":"to-coda"}]},
 {"label":"B","role":"bridge","bars":[{"chords":["Am"],"beats":3},{"chords":["Dm7","G7"],"mark":"ds-al-coda"}]},
 {"label":"Coda","role":"outro","bars":[{"chords":["C"],"mark":"coda","repeatStart":true},{"chords":["C"],"repeatEnd":3}]}]}`

// TestBoardForm draws a version-2 chart (repeat bar lines, voltas, signs, %, meter) in both languages
// and follows the player's cursor through the form: repeats, the second ending, D.S. al Coda, To Coda
// and the coda's repeat, in the order PlayOrder gives.
func TestBoardForm(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	capability := apiCreateBoard(t, s, "form", json.RawMessage(formChart))
	p := b.newPage(t)
	openBoard(p, s, "form", capability)
	drawn := evalJS[map[string]any](p, `({
		starts: document.querySelectorAll('.bar[data-repeat-start]').length,
		ends: [...document.querySelectorAll('.bar[data-repeat-end]')].map(b => b.dataset.repeatEnd).join(','),
		endings: [...document.querySelectorAll('.bar[data-ending]')].map(b => b.dataset.ending).join(','),
		texts: [...document.querySelectorAll('.form-text')].map(e => e.textContent).join(' | '),
		simile: document.querySelector('[data-path="sections[0].bars[1]"]').textContent,
	})`)
	if drawn["starts"].(float64) != 2 || drawn["ends"] != "2,3" || drawn["endings"] != "1,2" ||
		drawn["texts"] != "§ | 1. | 2. To Coda ⊕ | 3/4 | D.S. al Coda | ⊕ | ×3" || !strings.Contains(drawn["simile"].(string), "%") {
		t.Fatalf("drawn: %v", drawn)
	}
	p.screenshot("board", "form-desktop-en")
	switchLanguageScripted(p, "zh-CN")
	p.screenshot("board", "form-desktop-zh")
	switchLanguageScripted(p, "en")

	// The cursor follows the played order (a 300 bpm count-in, then the bars).
	// Every bar the cursor lands on is recorded from the mutation records themselves (aria-current set where
	// it was absent), not by querying the current bar when the observer runs: a page running late handles
	// several cues in one task, and only the last of them would still be current by then.
	evalJS[chromedp.Void](p, `window.__cursor = []; new MutationObserver(records => {
		for (const r of records) {
			const cur = r.oldValue === null ? r.target.dataset.path : '';
			if (cur && window.__cursor.at(-1) !== cur) window.__cursor.push(cur);
		}
	}).observe(document.querySelector('.grid'), {subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ['aria-current']})`)
	recordReadout(p)
	p.do(chromedp.Click(chromedp.ID("play")))
	p.waitJS(`document.getElementById('player').dataset.state === 'stopped' && window.__cursor.length > 0`, "the player plays the form to its end")
	got := evalJS[[]string](p, `window.__cursor.map(p => p.replace(/sections\[(\d+)\]\.bars\[(\d+)\]/, '$1.$2'))`)
	// A: 1 2 3 | 1 2 4 (To Coda passed on the way) | B: 5 6 (D.S. al Coda) | 1 2 4 (To Coda) | Coda 7 8 ×3
	want := "0.0 0.1 0.2 0.0 0.1 0.3 1.0 1.1 0.0 0.1 0.3 2.0 2.1 2.0 2.1 2.0 2.1"
	if strings.Join(got, " ") != want {
		t.Fatalf("cursor %s\nwant   %s", strings.Join(got, " "), want)
	}
	// The readout names the bar on the chart and, for a bar heard more than once, which time it is
	// (issue 23: it said "Bar 13" while the cursor was on chart bar 1).
	readout := evalJS[[]string](p, `window.__readout`)
	wantReadout := []string{"Bar 1 · 1st time", "Bar 2 · 1st time", "Bar 3", "Bar 1 · 2nd time", "Bar 2 · 2nd time", "Bar 4 · 1st time",
		"Bar 5", "Bar 6", "Bar 1 · 3rd time", "Bar 2 · 3rd time", "Bar 4 · 2nd time",
		"Bar 7 · 1st time", "Bar 8 · 1st time", "Bar 7 · 2nd time", "Bar 8 · 2nd time", "Bar 7 · 3rd time", "Bar 8 · 3rd time"}
	if strings.Join(readout, " | ") != strings.Join(wantReadout, " | ") {
		t.Errorf("readout %q\nwant    %q", readout, wantReadout)
	}

	// On a phone, in Chinese and dark: the second pass of bar 1 says so, and the readout fits the window.
	phone := b.newPage(t, viewport(390, 844), darkScheme())
	openBoard(phone, s, "form", capability)
	switchLanguageScripted(phone, "zh-CN")
	recordReadout(phone)
	phone.do(chromedp.Click(chromedp.ID("play")))
	phone.waitJS(`window.__readout.includes('第 1 小节 · 第 2 遍') && document.getElementById('play-pos').textContent === '第 1 小节 · 第 2 遍'`, "the readout of bar 1's second pass in Chinese")
	fits := evalJS[bool](phone, `(() => { const r = document.getElementById('play-pos').getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth && document.documentElement.scrollWidth <= innerWidth; })()`)
	phone.screenshot("board", "form-player-readout-phone-zh-dark")
	phone.do(chromedp.Click(chromedp.ID("play")))
	if !fits {
		t.Errorf("the readout does not fit a 390 px window")
	}
	if r := evalJS[[]string](phone, `window.__readout`); len(r) < 4 || strings.Join(r[:4], " | ") != "第 1 小节 · 第 1 遍 | 第 2 小节 · 第 1 遍 | 第 3 小节 | 第 1 小节 · 第 2 遍" {
		t.Errorf("Chinese readout %q", r)
	}
	p.requireClean("playing the form")
	phone.requireClean("playing the form on a phone")
}

// recordReadout records every bar the player's readout names, in order, in window.__readout: from the
// mutation records (the text each one put in), so a page handling several cues in one task loses none.
func recordReadout(p *Page) {
	p.t.Helper()
	evalJS[chromedp.Void](p, `window.__readout = []; new MutationObserver(records => {
		for (const r of records) {
			const text = [...r.addedNodes].map(n => n.textContent).join('');
			if (text && !/^(Count-in|预备)/.test(text)) window.__readout.push(text);
		}
	}).observe(document.getElementById('play-pos'), {childList: true, characterData: true, subtree: true})`)
}
