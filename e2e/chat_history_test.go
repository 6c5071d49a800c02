package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/tidwall/gjson"
)

// userTextEqualToNotice shows a terminal message equal to a localized notice verbatim in both languages.
func (r *chatRig) userTextEqualToNotice(t *testing.T) string {
	a := r.tab
	switchLanguageScripted(a, "zh-CN")
	zh := evalJS[string](a, `[...document.querySelectorAll('#chat-items > li')].find((li) => li.dataset.code === 'reply-aborted').querySelector('.chat-notice-text').textContent`)
	switchLanguageScripted(a, "en")
	if zh != "回复已停止。" {
		t.Fatalf("the Chinese reply-aborted notice reads %q", zh)
	}
	// The terminal user types exactly the localized notice text.
	r.pi.PromptAndWait(zh)
	a.waitJS(fmt.Sprintf(`[...document.querySelectorAll('#chat-items .chat-user .chat-text')].some((e) => e.textContent === %s)`, jsString(zh)), "the terminal's message appears")
	waitChatIdle(a)
	for _, loc := range []string{"en", "zh-CN", "en"} {
		switchLanguageScripted(a, loc)
		var user, notice *chatRow
		rows := chatRows(a)
		for i := range rows {
			if rows[i].Role == "user" && user == nil && rows[i].Text == zh {
				user = &rows[i]
			}
			if rows[i].Role == "notice" && rows[i].Code == "reply-aborted" {
				notice = &rows[i]
			}
		}
		if user == nil || user.I18n != "" {
			t.Errorf("%s: the user text equal to a notice is not verbatim: %+v", loc, user)
		}
		wantNotice := map[string]string{"en": "Reply stopped.", "zh-CN": zh}[loc]
		if notice == nil || notice.Text != wantNotice {
			t.Errorf("%s: the notice reads %+v, want %q", loc, notice, wantNotice)
		}
	}
	r.shot(a, "verbatim-notice-text-desktop-en")
	return "a user message equal to the Chinese reply-aborted notice shows verbatim in English and Chinese, while the real notice row is translated"
}

// readingHistoryNeverJumps scrolls the log to its top: a new message leaves it there and offers a button.
func (r *chatRig) readingHistoryNeverJumps(t *testing.T) string {
	a := r.tab
	scrollable := evalJS[bool](a, `(() => { const l = document.getElementById('chat-log'); return l.scrollHeight > l.clientHeight + 100; })()`)
	if !scrollable {
		t.Fatal("the log is too short to scroll")
	}
	// The panel learns the reader left the end from the scroll event, which the browser dispatches a frame
	// after scrollTop changes: wait for that event (a listener added now runs after the panel's), or a
	// message arriving in between would find the panel still sticking to the end.
	evalJS[chromedp.Void](a, `(() => {
		const l = document.getElementById('chat-log');
		window.__scrolledTop = false;
		l.addEventListener('scroll', () => { window.__scrolledTop = true; }, { once: true });
		l.scrollTop = 0;
	})()`)
	a.waitJS(`window.__scrolledTop && document.getElementById('chat-log').scrollTop === 0`, "the panel saw the log scrolled to its top")
	winY := evalJS[float64](a, `window.scrollY`)
	const msg = "A message from the terminal while the page reads older history."
	r.pi.PromptAndWait(msg)
	a.waitJS(fmt.Sprintf(`[...document.querySelectorAll('#chat-items .chat-user .chat-text')].some((e) => e.textContent === %s)`, jsString(msg)), "the new message arrives")
	a.waitJS(`!document.getElementById('chat-new').hidden`, "the new-messages button")
	if top := evalJS[float64](a, `document.getElementById('chat-log').scrollTop`); top != 0 {
		t.Errorf("the log jumped to %v while reading older history", top)
	}
	if y := evalJS[float64](a, `window.scrollY`); y != winY {
		t.Errorf("the page scrolled from %v to %v", winY, y)
	}
	r.shot(a, "new-messages-desktop-en")
	a.do(chromedp.Click(chromedp.ID("chat-new")))
	a.waitJS(`(() => { const l = document.getElementById('chat-log'); return l.scrollHeight - l.scrollTop - l.clientHeight < 30 && document.getElementById('chat-new').hidden; })()`, "the log at the end after the button")
	return "scrolled to the top: a new message leaves the log where it is and shows “New messages ↓”; clicking it goes to the end"
}

// terminalPrompt opens a terminal dialog: the panel says so in both languages and disables sending.
func (r *chatRig) terminalPrompt(t *testing.T) string {
	a := r.tab
	a.do(chromedp.Click(chromedp.ID("chat-input")))
	a.do(chromedp.KeyEvent(kb.End + " too"))
	// Pi 1.x says when its own dialogs open and close (ui_prompt_start/end): a real ctx.ui.confirm. On 0.73.1
	// only the pi.events convention of cooperating extensions can say it.
	from := r.pi.Mark()
	var dialog gjson.Result
	if r.line.Has("ui_prompt") {
		r.pi.Send(map[string]any{"type": "prompt", "message": "/chatprobe confirm"})
		dialog = r.pi.Wait(from, 30*time.Second, "the confirm dialog", func(l gjson.Result) bool {
			return l.Get("type").String() == "extension_ui_request" && l.Get("method").String() == "confirm"
		})
	} else {
		r.pi.Prompt("/chatprobe prompt open")
	}
	a.waitJS(`document.getElementById('chat').dataset.status === 'terminal-prompt'`, "terminal-prompt in the panel")
	run := evalJS[string](a, `document.getElementById('chat-run').textContent`)
	if !strings.HasPrefix(run, "Needs terminal action") {
		t.Errorf("terminal-prompt status reads %q", run)
	}
	if !evalJS[bool](a, `document.getElementById('chat-send').disabled`) {
		t.Error("send is enabled while a terminal dialog is open")
	}
	r.shot(a, "terminal-prompt-desktop-en")
	switchLanguageScripted(a, "zh-CN")
	if run := evalJS[string](a, `document.getElementById('chat-run').textContent`); !strings.HasPrefix(run, "需要终端操作") {
		t.Errorf("terminal-prompt status in Chinese reads %q", run)
	}
	r.shot(a, "terminal-prompt-desktop-zh")
	switchLanguageScripted(a, "en")
	if r.line.Has("ui_prompt") {
		answerDialog(t, r.pi, dialog)
		r.pi.WaitNotify(from, "chatprobe: confirm closed true")
	} else {
		r.pi.Prompt("/chatprobe prompt close")
	}
	waitChatIdle(a)
	a.waitJS(`!document.getElementById('chat-send').disabled`, "send is enabled again with a draft")
	how := "announced on pi.events"
	if r.line.Has("ui_prompt") {
		how = "Pi's own ctx.ui.confirm (ui_prompt_start/end)"
	}
	return "a terminal dialog, " + how + ": “Needs terminal action” / “需要终端操作”, send disabled; enabled again when it closes"
}
