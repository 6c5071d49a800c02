package e2e

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// switchBothLanguages switches the page to Chinese and back with the keyboard: accessible names and texts
// follow, nothing else changes.
func (r *chatRig) switchBothLanguages(t *testing.T) string {
	a := r.tab
	session := r.pi.SessionFile()
	before, _ := os.ReadFile(session)
	boardBefore := r.boardFileBytes(t)
	models, cmds := r.fm.Count(), len(commandFetches(a))
	rowsBefore := chatRows(a)
	check := func(loc string, want map[string]string) {
		got := map[string]string{
			"panel":    axName(a, "#chat"),
			"log":      axName(a, "#chat-log"),
			"message":  axName(a, "#chat-input"),
			"send":     axName(a, "#chat-send"),
			"stop":     axName(a, "#chat-stop"),
			"dock":     axName(a, ".chat-dock"),
			"collapse": axName(a, "#chat-collapse"),
			"language": axName(a, "#lang"),
			"heading":  evalJS[string](a, `document.getElementById('chat-heading').textContent`),
			"hint":     evalJS[string](a, `document.getElementById('chat-hint').textContent`),
			"conn":     evalJS[string](a, `document.getElementById('chat-conn-text').textContent`),
			"who":      evalJS[string](a, `document.querySelector('#chat-items .chat-user .chat-who').textContent`),
			"tool":     evalJS[string](a, `document.querySelector('#chat-items .chat-tool .chat-tool-status').textContent`),
		}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s: %s = %q, want %q", loc, k, got[k], w)
			}
		}
		if lang := evalJS[string](a, `document.documentElement.lang`); lang != loc {
			t.Errorf("lang = %q, want %q", lang, loc)
		}
	}
	// Every status, notice code, tool status and error the panel can show has its words in both languages.
	if missing := evalJS[[]string](a, chatStringsCheckJS); len(missing) > 0 {
		t.Errorf("chat strings: %v", missing)
	}
	a.do(chromedp.Focus(chromedp.ID("lang")), chromedp.KeyEvent(kb.ArrowDown))
	a.waitJS(`document.documentElement.lang === 'zh-CN'`, "Chinese")
	check("zh-CN", map[string]string{"panel": "与 Pi 对话", "log": "对话记录", "message": "消息", "send": "发送", "stop": "停止",
		"dock": "面板位置", "collapse": "收起对话", "language": "语言", "heading": "与 Pi 对话", "hint": "Enter 发送 · Shift+Enter 换行",
		"conn": "已连接 Pi", "who": "你", "tool": "已完成"})
	r.shot(a, "language-desktop-zh")
	a.do(chromedp.Focus(chromedp.ID("lang")), chromedp.KeyEvent(kb.ArrowUp))
	a.waitJS(`document.documentElement.lang === 'en'`, "English")
	check("en", map[string]string{"panel": "Chat with Pi", "log": "Conversation", "message": "Message", "send": "Send", "stop": "Stop",
		"dock": "Panel position", "collapse": "Hide chat", "language": "Language", "heading": "Chat with Pi", "hint": "Enter sends · Shift+Enter for a new line",
		"conn": "Connected to Pi", "who": "You", "tool": "completed"})
	after, _ := os.ReadFile(session)
	if !bytes.Equal(before, after) {
		t.Error("the Pi session file changed with the language")
	}
	if !bytes.Equal(boardBefore, r.boardFileBytes(t)) {
		t.Error("the board changed with the language")
	}
	if r.fm.Count() != models || len(commandFetches(a)) != cmds {
		t.Error("a language switch made a model request or sent a command")
	}
	rowsAfter := chatRows(a)
	for i := range rowsBefore {
		if i < len(rowsAfter) && (rowsBefore[i].Role == "user" || rowsBefore[i].Role == "assistant") && rowsBefore[i] != rowsAfter[i] {
			t.Errorf("row %d changed with the language: %+v → %+v", i, rowsBefore[i], rowsAfter[i])
		}
	}
	a.requireClean("language switches")
	return "keyboard switch to 简体中文 and back: accessible names of panel, log, message box, send, stop, dock group, collapse and language select, visible texts in each; session file, board file, model requests and commands unchanged; user and assistant rows untouched"
}

// docksAndCollapse docks the panel right, left and bottom and collapses it; both survive a reload.
func (r *chatRig) docksAndCollapse(t *testing.T) string {
	a := r.tab
	evalJS[chromedp.Void](a, `document.getElementById('chat-input').blur()`)
	for _, d := range []string{"left", "bottom", "right"} {
		a.do(chromedp.Click(chromedp.CSS(`.chat-dock-btn[data-dock="` + d + `"]`)))
		a.waitJS(fmt.Sprintf(`document.getElementById('chat').dataset.dock === %s && document.getElementById('layout').dataset.chatDock === %s`, jsString(d), jsString(d)), "dock "+d)
		g := evalJS[chatGeom](a, chatGeomJS)
		switch d {
		case "right":
			if g.AL < g.MR || g.AR > g.IW+0.5 {
				t.Errorf("dock right: panel %v–%v, board ends at %v", g.AL, g.AR, g.MR)
			}
		case "left":
			if g.AR > g.ML || g.AL < 0 {
				t.Errorf("dock left: panel %v–%v, board starts at %v", g.AL, g.AR, g.ML)
			}
		case "bottom":
			if g.AB < g.IH-2 || g.AB > g.IH+2 || g.AW < g.MW-2 {
				t.Errorf("dock bottom: panel bottom %v (viewport %v), width %v (board %v)", g.AB, g.IH, g.AW, g.MW)
			}
		}
		if g.SW > g.IW {
			t.Errorf("dock %s: horizontal overflow %v > %v", d, g.SW, g.IW)
		}
		if got := evalJS[string](a, `localStorage.getItem('tele.chat.dock')`); got != d {
			t.Errorf("tele.chat.dock = %q after docking %s", got, d)
		}
		if got := evalJS[string](a, fmt.Sprintf(`document.querySelector('.chat-dock-btn[data-dock=%s]').getAttribute('aria-pressed')`, jsString(d))); got != "true" {
			t.Errorf("dock %s button aria-pressed = %s", d, got)
		}
		r.shot(a, "dock-"+d+"-desktop-en")
	}
	a.do(chromedp.Click(chromedp.ID("chat-collapse")))
	a.waitJS(`document.getElementById('chat').dataset.collapsed === 'true' && document.getElementById('chat-body').hidden && document.getElementById('chat-collapse').getAttribute('aria-expanded') === 'false'`, "collapsed")
	if got := evalJS[string](a, `localStorage.getItem('tele.chat.collapsed')`); got != "true" {
		t.Errorf("tele.chat.collapsed = %q", got)
	}
	if !evalJS[bool](a, langReachableJS) {
		t.Error("the language switch is not reachable with the panel collapsed")
	}
	if name := axName(a, "#chat-collapse"); name != "Show chat" {
		t.Errorf("collapsed button name %q", name)
	}
	r.shot(a, "collapsed-desktop-en")
	if !evalJS[bool](a, `getComputedStyle(document.querySelector('.chat-dock')).display === 'none' && document.getElementById('chat').getBoundingClientRect().width < 200`) {
		t.Error("collapsed beside the board: not a narrow rail")
	}
	// Dock and collapse survive a reload.
	a.do(chromedp.Click(chromedp.ID("chat-collapse")))
	a.waitJS(`document.getElementById('chat').dataset.collapsed === 'false'`, "expanded")
	a.do(chromedp.Click(chromedp.CSS(`.chat-dock-btn[data-dock="left"]`)))
	a.do(chromedp.Click(chromedp.ID("chat-collapse")))
	a.waitJS(`document.getElementById('chat').dataset.collapsed === 'true' && document.getElementById('chat').dataset.dock === 'left'`, "collapsed on the left")
	a.do(chromedp.Reload())
	waitBoardReady(a)
	waitChatLive(a)
	if !evalJS[bool](a, `document.getElementById('chat').dataset.dock === 'left' && document.getElementById('chat').dataset.collapsed === 'true'`) {
		t.Error("dock left and collapsed did not survive a reload")
	}
	r.shot(a, "collapsed-left-reloaded-desktop-en")
	a.do(chromedp.Click(chromedp.ID("chat-collapse")))
	a.waitJS(`document.getElementById('chat').dataset.collapsed === 'false' && !document.getElementById('chat-body').hidden`, "expanded")
	a.waitJS(`(() => { const l = document.getElementById('chat-log'); return l.scrollHeight - l.scrollTop - l.clientHeight < 30; })()`, "the log at its end after expanding")
	a.requireClean("docks")
	return "right/left/bottom by click: geometry, tele.chat.dock, aria-pressed, no overflow; collapse stores tele.chat.collapsed, the header's language switch stays reachable; both survive a reload (the stored binding is reused)"
}

// phoneLayout opens the board on a phone: the stored binding is reused and the panel is pinned to the bottom.
func (r *chatRig) phoneLayout(t *testing.T) string {
	a := r.tab
	// Tab A stores dock "left"; the phone pins the panel to the bottom without rewriting it.
	if got := evalJS[string](a, `localStorage.getItem('tele.chat.dock')`); got != "left" {
		t.Fatalf("stored dock %q", got)
	}
	q := r.openChatPage(t, r.browser, r.base+"/b/"+chatBoardID, phone())
	defer closePage(q)
	waitChatLive(q)
	for _, f := range chatFetches(q) {
		if strings.HasSuffix(f.URL, "/api/chat/pair") {
			t.Error("a page without an invitation tried to pair")
		}
	}
	q.waitJS(`(() => { const l = document.getElementById('chat-log'); return l.clientHeight > 0 && l.scrollHeight - l.scrollTop - l.clientHeight < 30; })()`, "the log opens at its end")
	for _, loc := range []string{"en", "zh-CN"} {
		if loc != "en" {
			q.do(chromedp.Focus(chromedp.ID("lang")), chromedp.KeyEvent(kb.ArrowDown))
			q.waitJS(`document.documentElement.lang === 'zh-CN'`, "Chinese on the phone")
		}
		g := evalJS[chatGeom](q, chatGeomJS)
		if g.SW > g.IW {
			t.Errorf("phone %s: horizontal overflow %v > %v", loc, g.SW, g.IW)
		}
		if g.AB < g.IH-2 || g.AB > g.IH+2 || g.AW < g.IW-1 || g.AT < g.MT {
			t.Errorf("phone %s: the panel is not pinned to the bottom: %+v", loc, g)
		}
		if !evalJS[bool](q, langReachableJS) {
			t.Errorf("phone %s: the language switch is not reachable", loc)
		}
		if evalJS[bool](q, `getComputedStyle(document.querySelector('.chat-dock')).display !== 'none'`) {
			t.Errorf("phone %s: dock buttons shown where the panel is pinned", loc)
		}
		want := map[string]string{"en": "Message", "zh-CN": "消息"}[loc]
		if n := axName(q, "#chat-input"); n != want {
			t.Errorf("phone %s: message box name %q", loc, n)
		}
		q.requireClean("phone " + loc)
		r.shot(q, "phone-"+loc)
	}
	q.do(chromedp.Click(chromedp.ID("chat-collapse")))
	q.waitJS(`document.getElementById('chat').dataset.collapsed === 'true'`, "collapsed on the phone")
	if !evalJS[bool](q, langReachableJS) {
		t.Error("phone collapsed: the language switch is not reachable")
	}
	if g := evalJS[chatGeom](q, chatGeomJS); g.SW > g.IW || g.AB < g.IH-2 {
		t.Errorf("phone collapsed: %+v", g)
	}
	r.shot(q, "phone-collapsed-zh-CN")
	q.do(chromedp.Click(chromedp.ID("chat-collapse")))
	q.waitJS(`document.getElementById('chat').dataset.collapsed === 'false'`, "expanded on the phone")
	q.do(chromedp.Focus(chromedp.ID("lang")), chromedp.KeyEvent(kb.ArrowUp))
	q.waitJS(`document.documentElement.lang === 'en'`, "English on the phone")
	if got := evalJS[string](q, `localStorage.getItem('tele.chat.dock')`); got != "left" {
		t.Errorf("the phone rewrote the stored dock to %q", got)
	}
	return "390×844: the stored binding is reused (no pairing); panel pinned to the bottom, full width, no horizontal overflow, no dock buttons, tele.chat.dock stays \"left\"; the language switch is reachable expanded and collapsed, in English and Chinese"
}

// chatStringsCheckJS imports the panel's dictionaries in the page and lists what is missing: every key
// in both languages, and words for every status, notice, tool status and error code the panel can show.
const chatStringsCheckJS = `(async () => {
  const src = document.querySelector('script[type=module]').src;
  const { STRINGS } = await import(src.slice(0, src.lastIndexOf('/')) + '/chat-strings.js');
  const en = STRINGS.en, zh = STRINGS['zh-CN'];
  const out = [];
  for (const k of new Set([...Object.keys(en), ...Object.keys(zh)])) {
    if (!en[k] || !zh[k]) out.push('missing ' + k);
  }
  const keys = [
    ...['input-submitted', 'input-unobserved', 'submission-uncertain', 'stop-requested', 'input-observed', 'settled-unobserved', 'run-ended'].map((c) => 'chat.notice.' + c),
    ...['context-compacted', 'model-failed', 'reply-aborted'].map((c) => 'chat.item.' + c),
    ...['idle', 'submitting', 'running', 'stopping', 'terminal-prompt'].map((c) => 'chat.run.' + c),
    ...['calling', 'completed', 'failed'].map((c) => 'chat.tool.' + c),
    ...['uncertain', 'busy', 'stale', 'terminal', 'staleEpoch', 'staleRun', 'abortFailed', 'abortUncertain', 'commandLimit', 'rateLimited', 'command', 'tooLong', 'failed'].map((c) => 'chat.err.' + c),
  ];
  for (const k of keys) {
    if (!en[k] || !zh[k] || en[k] === zh[k]) out.push('no words for ' + k);
  }
  for (const k of ['chat.notice.submission-uncertain', 'chat.err.uncertain']) {
    if (!/terminal/.test(en[k] || '') || !/终端/.test(zh[k] || '')) out.push(k + ' does not send the reader to the Pi terminal');
  }
  return out;
})()`
