package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestPractice checks issue 23 item 5 in a real Chromium: a click during playback (every beat, the
// first of a bar accented), a loop over chosen bars (the player goes back to the range's first bar and
// never plays outside it), and the practice tempo moved ±5 BPM with [ and ] while it plays, without
// stopping and without changing the board's tempo. Before, there was no click, a loop played the whole
// chart and the tempo could only change by editing the board. Keyboard; 简体中文 on a phone in dark.
func TestPractice(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	content := sampleContent("Practice")
	content.Tempo = 240 // one bar a second
	capability := apiCreateBoard(t, s, "practice", content)

	p := b.newPage(t)
	openBoard(p, s, "practice", capability)
	// Count-in off (its clicks are not the click's), the click and the loop on, by keyboard.
	for _, id := range []string{"count-in", "click", "loop"} {
		p.do(chromedp.Focus(chromedp.ID(id)), chromedp.KeyEvent(" "))
	}
	p.waitJS(`!document.getElementById('count-in').checked && document.getElementById('click').checked && !document.getElementById('loop-range').hidden`, "click and loop on, count-in off")
	// The loop: section B from its menu, then bars 10 to 11 typed.
	setSelect(p, "loop-section", "1")
	if from, to := evalJS[string](p, `document.getElementById('loop-from').value`), evalJS[string](p, `document.getElementById('loop-to').value`); from != "9" || to != "16" {
		t.Errorf("section B fills bars %s to %s", from, to)
	}
	typeInto(p, "#loop-from", "10")
	p.do(chromedp.KeyEvent(kb.Tab))
	typeInto(p, "#loop-to", "11")
	p.do(chromedp.KeyEvent(kb.Tab))
	p.waitJS(`document.getElementById('loop-section').value === 'custom'`, "the menu says the bars chosen")
	if got := evalJS[string](p, `document.getElementById('practice-tempo').textContent`); got != "240 BPM" {
		t.Errorf("the tempo shown before playing: %q", got)
	}
	if got := text(p, "played-length"); got != "Plays 16 bars · 0:16 at 240 BPM" {
		t.Errorf("the played length before practising: %q", got)
	}

	// Record every bar the cursor reaches.
	evalJS[chromedp.Void](p, `(() => {
		window.__heard = [];
		new MutationObserver(() => {
			const cur = document.querySelector('.bar.is-current');
			if (cur && window.__heard.at(-1) !== cur.dataset.path) window.__heard.push(cur.dataset.path);
		}).observe(document.getElementById('grid'), { subtree: true, attributes: true, attributeFilter: ['class'] });
	})()`)
	p.do(chromedp.Click(chromedp.ID("play")))
	p.waitJS(`document.getElementById('player').dataset.state === 'playing'`, "the player starts")
	p.waitJS(`window.__heard.length >= 3`, "the loop comes round")
	// Faster twice from the keyboard (focus on the Play button), slower once: 245 BPM, still playing.
	p.do(chromedp.Focus(chromedp.ID("play")), chromedp.KeyEvent("]"), chromedp.KeyEvent("]"), chromedp.KeyEvent("["))
	p.waitJS(`document.getElementById('practice-tempo').textContent === '245 BPM (board 240)'`, "the practice tempo is 245")
	// The played length is at the tempo practised, the board's beside it (issue 23: it stayed at the
	// board's tempo).
	if got := text(p, "played-length"); got != "Plays 16 bars · 0:16 at 245 BPM (board 240)" {
		t.Errorf("the played length while practising at 245: %q", got)
	}
	p.waitJS(`window.__heard.length >= 5`, "the loop goes on at the new tempo")
	st := evalJS[map[string]any](p, `({ state: document.getElementById('player').dataset.state, contexts: window.__probe.audioContexts,
		clicks: window.__probe.clicks, heard: window.__heard, tempo: document.getElementById('f-tempo').value })`)
	if st["state"] != "playing" || st["contexts"].(float64) != 1 {
		t.Errorf("the tempo change stopped or restarted the player: %v", st)
	}
	if st["tempo"] != "240" {
		t.Errorf("the board's tempo field says %v after practising faster", st["tempo"])
	}
	heard := []string{}
	for _, h := range st["heard"].([]any) {
		heard = append(heard, h.(string))
	}
	for i, h := range heard {
		want := []string{"sections[1].bars[1]", "sections[1].bars[2]"}[i%2]
		if h != want {
			t.Errorf("the loop played %v, want bars 10 and 11 in turn", heard)
			break
		}
	}
	clicks := st["clicks"].(map[string]any)
	accent, beat := clicks["accent"].(float64), clicks["beat"].(float64)
	if accent < 5 || beat != 3*accent && beat != 3*(accent-1) && beat != 3*(accent+1) {
		t.Errorf("clicks: %v accented, %v others; want one accent and three other beats a bar", accent, beat)
	}
	p.screenshot("board", "practice-playing-desktop-en")
	p.do(chromedp.Click(chromedp.ID("play")))
	p.waitJS(`document.getElementById('player').dataset.state === 'stopped'`, "stopped")
	p.requireClean("practice")

	q := b.newPage(t, phone(), darkScheme(), browserLanguage("zh-CN"), storageDisabled())
	openBoard(q, s, "practice", "")
	q.do(chromedp.Focus(chromedp.ID("loop")), chromedp.KeyEvent(" "))
	q.waitJS(`!document.getElementById('loop-range').hidden`, "the loop's range shows")
	q.do(chromedp.Focus(chromedp.ID("tempo-down")), chromedp.KeyEvent(kb.Enter))
	q.waitJS(`document.getElementById('practice-tempo').textContent === '235 BPM（原谱 240）'`, "slower in Chinese")
	if got := text(q, "played-length"); got != "演奏 16 个小节 · 按 235 BPM（原谱 240）约 0:16" {
		t.Errorf("the played length while practising in Chinese: %q", got)
	}
	if got := evalJS[string](q, `document.querySelector('#loop-section option[value="1"]').textContent`); !strings.HasPrefix(got, "段落 B（第 9–16 小节）") {
		t.Errorf("zh section option %q", got)
	}
	q.screenshot("board", "practice-phone-zh-dark")
	q.requireClean("practice zh")
}
