package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestChatCodeOnlyWithChat: a board page with no chat (`tele serve`, never paired) fetches none of the
// chat panel's code or style; a page that has one (here: a binding this browser kept from an earlier
// pairing) fetches them. Read from the page's own Performance resource timing entries.
func TestChatCodeOnlyWithChat(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	p := b.newPage(t)
	openBoard(p, s, "welcome", "")
	isChat := func(name string) bool {
		base := name[strings.LastIndex(name, "/")+1:]
		return strings.HasPrefix(base, "chat-") && strings.HasSuffix(base, ".js") || base == "chat.css"
	}
	loaded := func() (chat, all []string) {
		for _, name := range evalJS[[]string](p, `performance.getEntriesByType('resource').map((e) => e.name)`) {
			all = append(all, name)
			if isChat(name) {
				chat = append(chat, name[strings.LastIndex(name, "/")+1:])
			}
		}
		slices.Sort(chat)
		return chat, all
	}
	chat, all := loaded()
	if len(chat) != 0 {
		t.Errorf("a board page without chat loaded %v", chat)
	}
	if !slices.ContainsFunc(all, func(n string) bool { return strings.HasSuffix(n, "/board-view.js") }) {
		t.Fatalf("the resource entries miss the board's own modules, so they prove nothing: %v", all)
	}
	if !evalJS[bool](p, `document.getElementById('chat').hidden`) {
		t.Error("the chat panel shows on a page without chat")
	}
	p.requireClean("a board without chat")

	// A binding kept from an earlier pairing: the panel loads, says Pi is not connected, and forgets it.
	evalJS[chromedp.Void](p, `localStorage.setItem('tele.chat.binding:welcome', 'an-old-binding')`)
	p.do(chromedp.Reload())
	waitBoardReady(p)
	p.waitJS(`!document.getElementById('chat').hidden && !document.getElementById('chat-pair-reason').hidden`, "the panel says Pi is not connected")
	chat, _ = loaded()
	// The stream's worker (chat-stream-worker.js) starts only with a stream: this binding has none.
	for _, want := range []string{"chat-api.js", "chat-diff.js", "chat-panel.js", "chat-stream.js", "chat-strings.js", "chat.css"} {
		if !slices.Contains(chat, want) {
			t.Errorf("a board page with a chat binding did not load %s (loaded %v)", want, chat)
		}
	}
	// Styled: chat.css is in (the panel is a sticky column with a border, not an unstyled block).
	if pos := evalJS[string](p, `getComputedStyle(document.getElementById('chat')).position`); pos != "sticky" {
		t.Errorf("the chat panel's position is %q: chat.css did not apply", pos)
	}
	p.screenshot("board", "chat-loaded-with-binding-desktop-en")
	// The old binding answered 404 and is forgotten; a request failed on the way, which the console shows.
	for _, pr := range p.problems() {
		if !strings.Contains(pr, "404") {
			t.Errorf("with a chat binding: %s", pr)
		}
	}
}
