package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

func testPlayer(t *testing.T, s *Server, b *Browser) {
	content := sampleContent("Player")
	content.Tempo = 240 // one bar a second: the count-in and the cursor move quickly
	capability := apiCreateBoard(t, s, "player", content)
	p := b.newPage(t)
	openBoard(p, s, "player", capability)
	state := func() map[string]any {
		return evalJS[map[string]any](p, `({
			state: document.getElementById('player').dataset.state,
			audio: document.getElementById('player').dataset.audio || '',
			contexts: window.__probe.audioContexts,
			cursor: document.querySelector('.bar.is-current')?.dataset.path || '',
			label: document.getElementById('play-label').textContent,
		})`)
	}
	if st := state(); st["state"] != "stopped" || st["contexts"].(float64) != 0 {
		t.Fatalf("before any click: %v", st)
	}
	// A click that a script makes is not a user gesture: nothing starts.
	evalJS[chromedp.Void](p, `document.getElementById('play').click()`)
	if st := state(); st["state"] != "stopped" || st["contexts"].(float64) != 0 {
		t.Fatalf("a synthetic click started the player: %v", st)
	}

	p.do(chromedp.Click(chromedp.ID("play")))
	p.waitJS(`document.getElementById('player').dataset.state === 'playing'`, "the player starts after a click")
	p.waitJS(`document.getElementById('player').dataset.audio === 'running'`, "the audio context runs")
	p.waitJS(`document.querySelector('.bar.is-current')`, "the cursor reaches a bar after the count-in")
	first := state()["cursor"]

	switchLanguage(p, kb.ArrowDown, "zh-CN")
	st := state()
	if st["state"] != "playing" || st["audio"] != "running" || st["label"] != "停止" || st["contexts"].(float64) != 1 {
		t.Errorf("after the language switch: %v", st)
	}
	p.waitJS(fmt.Sprintf(`(document.querySelector('.bar.is-current')?.dataset.path || %s) !== %s`, jsString(fmt.Sprint(first)), jsString(fmt.Sprint(first))), "the cursor moves on after the switch")

	// A live update does not stop it either.
	next := content
	next.Sections = append([]boardSection(nil), content.Sections...)
	next.Sections[1].Bars = append([][]string(nil), content.Sections[1].Bars...)
	next.Sections[1].Bars[7] = []string{"G6"}
	apiPutBoard(t, s, "player", capability, 1, next)
	p.waitJS(fmt.Sprintf(`%s === 'G6'`, barTextJS(1, 7)), "the live update arrives")
	if st := state(); st["state"] != "playing" {
		t.Errorf("a live update stopped the player: %v", st)
	}
	p.screenshot("board", "player-playing-desktop-zh")

	p.do(chromedp.Click(chromedp.ID("play")))
	p.waitJS(`document.getElementById('player').dataset.state === 'stopped' && !document.querySelector('.bar.is-current')`, "the player stops on a click")
	p.requireClean("player")
}
