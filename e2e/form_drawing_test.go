package e2e

import (
	"encoding/json"
	"fmt"
	"testing"
)

// drawingChart is a 12-bar blues as the musician of issue 23 wrote it: |: § … To Coda, a two-bar first
// ending closing the repeat, a two-bar second ending with D.S. al Coda, and a coda.
const drawingChart = `{"title":"Blues with endings","description":"","key":"F","tempo":120,"beatsPerBar":4,"sections":[
 {"label":"A","bars":[{"chords":["F7"],"repeatStart":true,"mark":"segno"},["Bb7"],["F7"],["F7"],["Bb7"],["Bb7"],["F7"],["D7"],["Gm7"],{"chords":["C7"],"mark":"to-coda"},
  {"chords":["F7","D7"],"ending":1},{"chords":["Gm7","C7"],"repeatEnd":2},{"chords":["F7"],"ending":2},{"chords":["C7"],"mark":"ds-al-coda"}]},
 {"label":"Coda","bars":[{"chords":["Gm7"],"mark":"coda"},["C7"],["F7"],["F7"]]}]}`

// drawingJS measures the drawing of the form: the repeat dots against the chords beside them, and which
// bars carry a volta bracket (a solid line of at least 2 px over the bar).
const drawingJS = `(() => {
	const bar = (s, b) => document.querySelector('[data-path="sections[' + s + '].bars[' + b + ']"]');
	const textRect = (el) => { const r = document.createRange(); r.selectNodeContents(el); return r.getBoundingClientRect(); };
	const dots = (li, which) => {
		const cs = getComputedStyle(li, which);
		const box = li.getBoundingClientRect();
		const w = parseFloat(cs.width);
		return which === '::before' ? { left: box.left + parseFloat(cs.left), right: box.left + parseFloat(cs.left) + w }
			: { right: box.right - parseFloat(cs.right), left: box.right - parseFloat(cs.right) - w };
	};
	const start = bar(0, 0), end = bar(0, 11);
	const bracket = [];
	for (let b = 0; b < 14; b++) {
		const cs = getComputedStyle(bar(0, b));
		if (cs.borderTopStyle === 'solid' && parseFloat(cs.borderTopWidth) >= 2) bracket.push(b + 1);
	}
	return {
		startGap: textRect(start.querySelector('.chord')).left - dots(start, '::before').right,
		endGap: dots(end, '::after').left - textRect([...end.querySelectorAll('.chord')].at(-1)).right,
		bracket: bracket.join(' '),
	};
})()`

// signsJS lists every bar whose words (a sign, a volta number) are cut short, reach out of the bar, or
// overlap the bar's number or its chords.
const signsJS = `(() => {
	const bad = [];
	const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
	const textRect = (el) => { const r = document.createRange(); r.selectNodeContents(el); return r.getBoundingClientRect(); };
	for (const el of document.querySelectorAll('.grid .form-text')) {
		const li = el.closest('.bar');
		const what = li.dataset.path + ' ' + el.textContent;
		const bar = li.getBoundingClientRect();
		const words = textRect(el);
		if (el.scrollWidth > el.clientWidth + 0.5 || getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth) bad.push(what + ': cut short');
		if (words.left < bar.left - 0.5 || words.right > bar.right + 0.5 || words.top < bar.top - 0.5) bad.push(what + ': outside its bar');
		const num = li.querySelector('.bar-num');
		if (num && getComputedStyle(num).visibility !== 'hidden' && hit(words, textRect(num))) bad.push(what + ': over the bar number');
		for (const c of li.querySelectorAll('.chord')) if (hit(words, textRect(c))) bad.push(what + ': over the chord ' + c.textContent);
	}
	return bad;
})()`

// TestFormDrawing: the repeat dots stand beside the chords, not on them, and a volta bracket spans
// every bar of its ending (issue 23, defect 5: ":Cm7", and the bracket over the first bar of 11–12 only).
// Desktop and 390 px, light and dark, English and 简体中文.
func TestFormDrawing(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	capability := apiCreateBoard(t, s, "drawing", json.RawMessage(drawingChart))
	for _, tc := range []struct {
		name string
		opts []PageOption
		lang string
		cap  string
	}{
		{"desktop-en", nil, "en", capability},
		{"desktop-zh-dark-ro", []PageOption{darkScheme()}, "zh-CN", ""},
		{"phone-en-dark", []PageOption{viewport(390, 844), darkScheme()}, "en", capability},
		{"phone-zh-ro", []PageOption{viewport(390, 844)}, "zh-CN", ""},
	} {
		p := b.newPage(t, tc.opts...)
		openBoard(p, s, "drawing", tc.cap)
		switchLanguageScripted(p, tc.lang) // the choice is remembered in the browser: each page makes its own
		got := evalJS[map[string]any](p, drawingJS)
		if gap := got["startGap"].(float64); gap < 2 {
			t.Errorf("%s: the |: dots reach %.1f px into the first chord (want a gap of 2 px or more)", tc.name, -gap)
		}
		if gap := got["endGap"].(float64); gap < 2 {
			t.Errorf("%s: the :| dots reach %.1f px into the last chord (want a gap of 2 px or more)", tc.name, -gap)
		}
		if got["bracket"] != "11 12 13 14" {
			t.Errorf("%s: volta brackets over bars %q, want 11 12 13 14 (the first ending 11–12, the second 13–14)", tc.name, got["bracket"])
		}
		// The signs are whole, inside their bars, clear of the bar numbers and chords (issue 23: "D.S. al
		// Co…" over the "14" on a phone and on paper).
		if bad := evalJS[[]string](p, signsJS); len(bad) > 0 {
			t.Errorf("%s: %v", tc.name, bad)
		}
		p.screenshot("board", fmt.Sprintf("form-drawing-%s", tc.name))
		printMedia(p)
		if bad := evalJS[[]string](p, signsJS); len(bad) > 0 {
			t.Errorf("%s, printed: %v", tc.name, bad)
		}
		p.screenshot("board", fmt.Sprintf("form-drawing-%s-print", tc.name))
		emulateMedia(p, "")
		p.waitJS(`!('printing' in document.documentElement.dataset)`, "the screen layout is back")
		p.requireClean("drawing " + tc.name)
	}
}
