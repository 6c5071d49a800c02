package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// TestChatStreamWorker: the chat panel reads its stream in a worker (chat-stream.js) that posts the page
// what changed between snapshots, and the page shows each snapshot as the server sent it: rows added,
// changed, removed and reordered, a streamed reply growing in place; the connection states as before
// (live, offline with its retry delay, back at once when the tab becomes visible, with the fresh
// snapshot); a pairing that has ended is said in the page's language and ends the worker. The real
// built `tele host` serves the page and the stream; the test plays the bridge on its stdin and stdout
// (linkHost, docs/link-protocol.md), and reaches it through a proxy it can cut (cutProxy), as a network
// drop does.
func TestChatStreamWorker(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	h := startLinkHost(t, "chat-worker")
	branch := func(msgs ...[2]string) {
		entries := make([]any, len(msgs))
		for i, m := range msgs {
			role, text, _ := strings.Cut(m[0], ":")
			entries[i] = map[string]any{"type": "message", "id": text, "parentId": nil, "timestamp": "2026-12-01T08:00:00.000Z",
				"message": map[string]any{"role": role, "content": []any{map[string]any{"type": "text", "text": m[1]}}, "timestamp": 1}}
		}
		h.send(map[string]any{"note": "branch", "reset": true, "entries": entries})
	}
	branch([2]string{"user:u1", "Play the A section slower"}, [2]string{"assistant:a1", "Done: 92 bpm."}, [2]string{"user:u2", "And the bridge?"})
	h.send(map[string]any{"note": "state", "idle": true, "pending": false, "prompt": false})
	px := startCutProxy(t, h.URL)
	invite := h.invite()
	b := newBrowser(t)
	p := b.newPage(t)
	p.do(chromedp.Navigate(strings.Replace(invite, h.URL, px.URL, 1)))
	waitBoardReady(p)
	waitChatLive(p)
	texts := func() []string {
		var out []string
		for _, r := range chatRows(p) {
			if !r.Hidden {
				out = append(out, r.Role+": "+r.Text)
			}
		}
		return out
	}
	waitTexts := func(what string, want ...string) {
		t.Helper()
		deadline := time.Now().Add(waitTimeout)
		for got := texts(); !slices.Equal(got, want); got = texts() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the panel shows %q, want %q", what, got, want)
			}
			evalJS[bool](p, `new Promise((resolve) => requestAnimationFrame(() => resolve(true)))`)
		}
	}
	waitTexts("paired", "user: Play the A section slower", "assistant: Done: 92 bpm.", "user: And the bridge?")
	if w := chatWorkers(p); len(w) != 1 {
		t.Fatalf("a live chat panel has %d stream workers, want 1: %v", len(w), w)
	}

	// A reply streams in word by word: its row grows in place (the same text node: a reader's selection
	// in it stays).
	h.send(map[string]any{"note": "agent_start"})
	p.waitJS(`document.getElementById('chat').dataset.status === 'running'`, "the run has started")
	reply := ""
	for i, word := range strings.Fields("Try the bridge at 84 bpm, then back to 92.") {
		reply = strings.TrimSpace(reply + " " + word)
		h.send(map[string]any{"note": "stream", "message": map[string]any{"role": "assistant",
			"content": []any{map[string]any{"type": "text", "text": reply}}, "timestamp": 1}})
		waitTexts("streaming", "user: Play the A section slower", "assistant: Done: 92 bpm.", "user: And the bridge?", "assistant: "+reply)
		if i == 0 {
			evalJS[chromedp.Void](p, `window.__replyNode = document.querySelector('#chat-items > li:last-child .chat-text').firstChild`)
		}
	}
	if !evalJS[bool](p, `window.__replyNode === document.querySelector('#chat-items > li:last-child .chat-text').firstChild`) {
		t.Error("the streamed reply's text node was replaced, not appended to")
	}

	// The stream ends: the streamed item goes (the persisted branch would hold it).
	h.send(map[string]any{"note": "stream", "message": nil})
	waitTexts("the stream ended", "user: Play the A section slower", "assistant: Done: 92 bpm.", "user: And the bridge?")

	// The session's branch changes under the page: a row removed, one changed, one added, the order
	// changed. The page shows exactly the new snapshot.
	branch([2]string{"user:u2", "And the bridge?"}, [2]string{"assistant:a1", "Done: 96 bpm."}, [2]string{"user:u3", "Thanks"})
	waitTexts("the branch changed", "user: And the bridge?", "assistant: Done: 96 bpm.", "user: Thanks")

	// The network drops: offline, with the retry delay; what the terminal says meanwhile arrives with the
	// fresh snapshot once the tab is visible again, at once, not at the next retry.
	px.setCut(true)
	p.waitJS(`document.getElementById('chat').dataset.conn === 'offline' && /retrying in \d+ s/.test(document.getElementById('chat-conn-text').textContent)`, "the panel says it is offline and when it retries")
	branch([2]string{"user:u2", "And the bridge?"}, [2]string{"assistant:a1", "Done: 96 bpm."}, [2]string{"user:u3", "Thanks"}, [2]string{"user:u4", "Said while the page was offline"})
	p.waitJS(`Number((document.getElementById('chat-conn-text').textContent.match(/(\d+) s/) || [])[1]) >= 2`, "a retry delay of 2 s or more")
	px.setCut(false)
	began := time.Now()
	evalJS[chromedp.Void](p, `document.dispatchEvent(new Event('visibilitychange'))`)
	waitChatLive(p)
	if took := time.Since(began); took > 1500*time.Millisecond {
		t.Errorf("reconnecting on visibility took %v (the next retry was at least 1.5 s away)", took)
	}
	waitTexts("reconnected", "user: And the bridge?", "assistant: Done: 96 bpm.", "user: Thanks", "user: Said while the page was offline")
	if w := chatWorkers(p); len(w) != 1 {
		t.Errorf("after a reconnect the page has %d stream workers, want 1: %v", len(w), w)
	}

	// The pairing ends while the stream is down (the status route answers 410 revoked, as the host does
	// for a revoked binding): the panel says so in the page's language, keeps the conversation, and its
	// worker is gone.
	switchLanguageScripted(p, "zh-CN")
	stop := intercept(t, p, "*/status", []fakeAnswer{{status: 410, code: "revoked"}})
	defer stop()
	px.setCut(true)
	p.waitJS(`document.getElementById('chat').dataset.paired === 'false' && !document.getElementById('chat-pair-reason').hidden`, "the panel says the pairing ended")
	if got := evalJS[string](p, `document.getElementById('chat-pair-reason').textContent`); !strings.Contains(got, "Pi 已关闭此连接") {
		t.Errorf("the ended pairing reads %q, want the Chinese message", got)
	}
	if got := len(texts()); got != 4 {
		t.Errorf("after the pairing ended the panel shows %d rows, want the 4 it had", got)
	}
	deadline := time.Now().Add(waitTimeout)
	for w := chatWorkers(p); len(w) > 0; w = chatWorkers(p) {
		if time.Now().After(deadline) {
			t.Fatalf("the stream worker outlives the pairing: %v", w)
		}
		evalJS[bool](p, `new Promise((resolve) => requestAnimationFrame(() => resolve(true)))`) // a frame between looks
	}
	if pr := problemsExcept(p, "net::ERR_", "410"); len(pr) > 0 {
		t.Errorf("problems: %v", pr)
	}
}

// chatWorkers lists the URLs of the chat stream workers Chromium runs for p.
func chatWorkers(p *Page) []string {
	p.t.Helper()
	var out []string
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		res, err := cdp.Call(ctx, tg, target.GetTargets, target.GetTargetsParams{})
		if err != nil {
			return err
		}
		for _, info := range res.TargetInfos {
			if info.Type == "worker" && strings.HasSuffix(info.URL, "/chat-stream-worker.js") {
				out = append(out, info.URL)
			}
		}
		return nil
	}))
	return out
}
