package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// shiftClick clicks the element sel with Shift held, once it is scrolled to the middle of the window
// (clear of the sticky header and toolbar).
func shiftClick(p *Page, sel string) {
	p.t.Helper()
	evalJS[chromedp.Void](p, `document.querySelector(`+jsString(sel)+`).scrollIntoView({ block: 'center' })`)
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		nodes, err := chromedp.Run(ctx, chromedp.Nodes(sel))
		if err != nil {
			return err
		}
		_, err = chromedp.MouseClickNode(nodes[0], chromedp.ButtonModifiers(chromedp.ModifierShift))(ctx, tg)
		return err
	}))
}

// TestAskAboutBars (issue 28, item 5): on the paired page, shift-click selects bars of a section (the
// bar editor does not open), Shift+→ extends a selection from the keyboard; "Ask Pi about these bars"
// puts a removable chip in the message box; the message Pi gets carries the bars as the grid shows them
// (transposed +2 here), numbered as the grid numbers them, after the text; the conversation shows the
// chip, not the bars written out. Both languages.
func TestAskAboutBars(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	h := startLinkHost(t, "ask")
	h.send(map[string]any{"note": "state", "idle": true, "pending": false, "prompt": false})
	var cur histDoc
	apiJSON(t, "GET", h.URL+"/api/boards/ask", nil, nil, &cur)
	b := newBrowser(t)
	p := b.newPage(t)
	p.do(chromedp.Navigate(h.inviteLink))
	waitBoardReady(p)
	waitChatLive(p)

	// Shift-click selects, and never opens the bar editor.
	shiftClick(p, barButton(0, 1))
	shiftClick(p, barButton(0, 2))
	p.waitJS(`document.querySelectorAll('#grid li.bar.is-selected').length === 2 && !document.getElementById('bar-selection').hidden`, "two bars selected by shift-click")
	if evalJS[bool](p, `document.getElementById('bar-dialog').open`) {
		t.Fatal("a shift-click opened the bar editor")
	}
	first := cur.Content.Sections[0].Label
	if got := evalJS[string](p, `document.getElementById('bar-ask-text').textContent`); got != first+", bars 2–3 selected" {
		t.Errorf("the selection's note: %q", got)
	}

	// Transposed +2, then from the keyboard: bar 1 of the second section and Shift+→ twice.
	evalJS[chromedp.Void](p, `(() => { document.getElementById('view-up').click(); document.getElementById('view-up').click(); })()`)
	p.waitJS(`document.getElementById('view-shift').textContent === '+2'`, "the view transposed +2")
	p.do(chromedp.Focus(barButton(1, 0)), chromedp.KeyEvent(kb.ArrowRight, chromedp.KeyModifiers(chromedp.ModifierShift)), chromedp.KeyEvent(kb.ArrowRight, chromedp.KeyModifiers(chromedp.ModifierShift)))
	p.waitJS(`document.querySelectorAll('#grid li.bar.is-selected').length === 3 && document.activeElement.closest('li.bar').dataset.path === 'sections[1].bars[2]'`, "three bars selected by Shift+→")
	n0 := len(cur.Content.Sections[0].Bars)
	second := cur.Content.Sections[1].Label
	chip := fmt.Sprintf("%s, bars %d–%d", second, n0+1, n0+3)
	shown := evalJS[[]string](p, `[0, 1, 2].map((b) => [...document.querySelectorAll('[data-path="sections[1].bars[' + b + ']"] .chord')].map((e) => e.textContent).join(' '))`)
	p.screenshot("board", "ask-bars-selected-desktop-en")
	p.do(chromedp.Click(chromedp.ID("bar-ask")))
	p.waitJS(`!document.getElementById('chat-chip').hidden && document.activeElement.id === 'chat-input'`, "the chip in the message box, the box focused")
	if got := evalJS[string](p, `document.querySelector('#chat-chip .sel-chip-label').textContent`); got != chip {
		t.Errorf("the chip: %q, want %q", got, chip)
	}
	if got := evalJS[string](p, `document.querySelector('#chat-chip .sel-chip-remove').getAttribute('aria-label')`); got != "Remove "+chip+" from the message" {
		t.Errorf("the chip's remove button: %q", got)
	}
	typeInto(p, "#chat-input", "Why does this feel static?")
	p.screenshot("board", "ask-bars-chip-desktop-en")
	p.do(chromedp.Click(chromedp.ID("chat-send")))
	call := h.wait(func(f map[string]json.RawMessage) bool { return string(f["call"]) == `"send"` }, "the send call")
	var args struct{ Command, Text string }
	json.Unmarshal(call["args"], &args)
	wantHead := fmt.Sprintf("Why does this feel static?\n\n[Tele selection: section %q, bars %d-%d; view: transposed +2 semitones", second, n0+1, n0+3)
	if !strings.HasPrefix(args.Text, wantHead) {
		t.Fatalf("Pi got %q, want it to start %q", args.Text, wantHead)
	}
	for i, bar := range shown {
		if !strings.Contains(args.Text, fmt.Sprintf("\n%d: %s", n0+1+i, bar)) {
			t.Errorf("bar %d as shown (%q) is not in %q", n0+1+i, bar, args.Text)
		}
	}
	h.send(map[string]any{"id": json.RawMessage(call["id"]), "ok": nil})
	p.waitJS(`document.getElementById('chat-chip').hidden && document.getElementById('chat-input').value === ''`, "the chip and the text gone with the message")

	// The message comes back in Pi's branch: the conversation shows the chip, not the bars written out.
	h.send(map[string]any{"note": "branch", "reset": true, "entries": []any{map[string]any{"type": "message", "id": "u1", "parentId": nil, "timestamp": "2026-12-03T20:00:00.000Z",
		"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": args.Text}}, "timestamp": 1}}}})
	p.waitJS(`document.querySelector('#chat-items .chat-user .chat-text')?.textContent === 'Why does this feel static?'`, "the message in the conversation")
	if got := evalJS[string](p, `document.querySelector('#chat-items .chat-user > .sel-chip').textContent`); got != chip {
		t.Errorf("the conversation's chip: %q, want %q", got, chip)
	}
	p.screenshot("board", "ask-bars-history-desktop-en")

	// Chinese.
	p.do(chromedp.Focus(chromedp.ID("lang")), chromedp.KeyEvent(kb.ArrowDown))
	zhChip := fmt.Sprintf("%s，第 %d–%d 小节", second, n0+1, n0+3)
	p.waitJS(`document.documentElement.lang === 'zh-CN' && document.querySelector('#chat-items .chat-user > .sel-chip').textContent === `+jsString(zhChip), "the chip in Chinese")
	shiftClick(p, barButton(0, 0))
	p.waitJS(`document.getElementById('bar-ask').textContent === '就这些小节问 Pi'`, "the ask button in Chinese")
	p.screenshot("board", "ask-bars-history-desktop-zh")
	p.requireClean("after asking about bars")
}
