package e2e

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/tidwall/gjson"
)

// pairFromInvitation opens the invitation in the long-lived tab: the fragment is erased before the
// pairing POST, only the binding id is stored, and the cookie is HttpOnly and scoped to the binding.
func (r *chatRig) pairFromInvitation(t *testing.T) string {
	a := r.tab
	r.navigate(a, r.inviteTo)
	waitChatLive(a)
	st := evalJS[map[string]any](a, fmt.Sprintf(`(() => {
		const secrets = [%s, %s];
		const local = {};
		for (let i = 0; i < localStorage.length; i++) { const k = localStorage.key(i); local[k] = localStorage.getItem(k); }
		return {
			hash: location.hash, href: location.href, local,
			secretInLocal: Object.entries(local).some(([k, v]) => secrets.some((s) => k.includes(s) || v.includes(s))),
			secretInDOM: secrets.some((s) => document.documentElement.outerHTML.includes(s)),
			secretInURL: secrets.some((s) => location.href.includes(s)) || location.href.includes('invite='),
			hadInvite: window.__chatRec.hadInvite,
		};
	})()`, jsString(r.invite), jsString(r.cap)))
	if st["hash"] != "" || st["secretInURL"] != false {
		t.Errorf("the fragment was not erased: %v", st["hash"])
	}
	if st["hadInvite"] != true {
		t.Errorf("the first document URL did not carry the invitation (the recorder saw none)")
	}
	if st["secretInLocal"] != false || st["secretInDOM"] != false {
		t.Errorf("a secret in localStorage (%v) or the DOM (%v)", st["secretInLocal"], st["secretInDOM"])
	}
	local := st["local"].(map[string]any)
	if local["tele.chat.binding:"+chatBoardID] != r.binding {
		t.Errorf("localStorage tele.chat.binding:%s = %v, want the binding id", chatBoardID, local["tele.chat.binding:"+chatBoardID])
	}
	for k := range local {
		if !slices.Contains([]string{"tele.locale", "tele.chat.dock", "tele.chat.collapsed", "tele.chat.binding:" + chatBoardID}, k) {
			t.Errorf("unexpected localStorage key %q", k)
		}
	}
	// The pairing POST went out after the fragment was erased, with exactly {binding, invitation}.
	var pairs []chatFetch
	for _, f := range chatFetches(a) {
		if strings.HasSuffix(f.URL, "/api/chat/pair") {
			pairs = append(pairs, f)
		}
	}
	if len(pairs) != 1 || pairs[0].Method != "POST" || pairs[0].Hash != "" || pairs[0].Keys != "binding,invitation" {
		t.Errorf("pairing requests: %+v", pairs)
	}
	// The cookie is HttpOnly, scoped to the binding's path, and not readable by the page.
	res, err := chromedp.Call(a.ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{r.base + "/api/chat/" + r.binding + "/status"}})
	cookies := res.Cookies
	if err != nil || len(cookies) != 1 || !cookies[0].HTTPOnly || cookies[0].Path != "/api/chat/"+r.binding {
		t.Errorf("pairing cookie: %v %+v", err, cookies)
	} else {
		r.secrets = append(r.secrets, cookies[0].Value)
	}
	if evalJS[string](a, `document.cookie`) != "" {
		t.Error("the page can read a cookie")
	}
	if !evalJS[bool](a, `document.getElementById('chat-send').disabled && !document.getElementById('chat-input').disabled`) {
		t.Error("an empty draft can be sent, or the message box is disabled")
	}
	// The link carried no capability; the pairing answer did: the page edits the board (finding 10).
	if got := evalJS[string](a, fmt.Sprintf(`sessionStorage.getItem(%s) || ''`, jsString("tele.cap:"+chatBoardID))); got != r.cap {
		t.Error("the capability from the pairing answer is not in this tab's sessionStorage")
	}
	a.waitJS(`!document.getElementById('meta-form').hidden && document.getElementById('readonly-note').hidden`, "the paired page is editable")
	before := r.getBoard(t)
	a.do(chromedp.Focus(chromedp.ID("f-description")))
	evalJS[chromedp.Void](a, `(() => { const el = document.getElementById('f-description'); el.setSelectionRange(el.value.length, el.value.length); })()`)
	a.do(chromedp.KeyEvent(" Paired."))
	a.do(chromedp.Click(chromedp.ID("save")))
	a.waitJS(fmt.Sprintf(`document.getElementById('save-status').textContent.includes('revision %d')`, before.Revision+1), "the paired page saves")
	if after := r.getBoard(t); after.Revision != before.Revision+1 || !strings.HasSuffix(after.Content.Description, " Paired.") {
		t.Errorf("after the paired page saved: revision %d, description %q", after.Revision, after.Content.Description)
	}
	a.requireClean("paired")
	r.shot(a, "paired-desktop-en")
	return "invitation URL (binding and invitation only) opened: fragment erased before the pairing POST {binding, invitation}; only tele.chat.binding:<board> in localStorage, the capability from the answer in sessionStorage; HttpOnly cookie on /api/chat/<binding>; panel live; the page saved an edit"
}

// buildHistory types input 1: one send with a fresh UUID, the text shown verbatim, the reply streamed in.
func (r *chatRig) buildHistory(t *testing.T) string {
	a := r.tab
	n := r.fm.Count()
	typeMessage(a, chatInput1)
	a.waitJS(fmt.Sprintf(`[...document.querySelectorAll('#chat-items .chat-assistant .chat-text')].some((e) => e.textContent === %s)`, jsString(chatReply1)), "the reply to input 1")
	waitChatIdle(a)
	rows := chatRows(a)
	var user *chatRow
	for i := range rows {
		if rows[i].Role == "user" && rows[i].Text == chatInput1 {
			user = &rows[i]
		}
	}
	if user == nil || user.Markup != 0 || user.I18n != "" {
		t.Errorf("input 1 is not shown verbatim as text: %+v", user)
	}
	if evalJS[string](a, `document.getElementById('chat-input').value`) != "" {
		t.Error("the draft was not cleared after Pi accepted it")
	}
	cmds := commandFetches(a)
	if len(cmds) != 1 || cmds[0].Type != "send" || !chatUUIDRe.MatchString(cmds[0].ID) || cmds[0].Keys != "epoch,id,idleVersion,text,type" {
		t.Errorf("send commands: %+v", cmds)
	}
	if got := r.fm.Count() - n; got != 1 {
		t.Errorf("%d model requests for input 1", got)
	}
	return "typed + Enter: one send with a fresh canonical UUID; the text shown verbatim as text (no markup); the reply streamed in; draft cleared"
}

// changeBoardFromHistory types input 2, which only the history explains: the model reads the chord from
// it, calls tele_board get then put, and the grid on the same page shows the change without a reload.
func (r *chatRig) changeBoardFromHistory(t *testing.T) string {
	a := r.tab
	rev1 := r.getBoard(t)
	evalJS[chromedp.Void](a, `window.__samePage = 1`)
	n := r.fm.Count()
	typeMessage(a, chatInput2)
	a.waitJS(barTextJS(0, 0)+` === 'Ebmaj7'`, "the grid shows the new chord without a reload")
	a.waitJS(fmt.Sprintf(`[...document.querySelectorAll('#chat-items .chat-assistant .chat-text')].some((e) => e.textContent === %s)`, jsString(chatReply2)), "the final reply to input 2")
	waitChatIdle(a)
	if !evalJS[bool](a, `window.__samePage === 1`) {
		t.Error("the page was reloaded")
	}
	r.mu.Lock()
	chord := r.historyChord
	r.mu.Unlock()
	if chord != "Ebmaj7" {
		t.Errorf("the model found %q in the history", chord)
	}
	reqs := r.fm.Requests()[n:]
	if len(reqs) != 3 {
		t.Fatalf("%d model requests for input 2, want 3 (get, put, text)", len(reqs))
	}
	hist := reqs[0]
	if !slices.Contains(hist.UserTexts(), chatInput1) || !strings.Contains(string(hist.Body), chatReply1) {
		t.Error("the request for input 2 lacks the history of input 1")
	}
	for _, q := range reqs {
		if !slices.Equal(q.Tools, []string{"tele_board"}) {
			t.Errorf("request %d offered %v", q.N, q.Tools)
		}
	}
	put := gjson.Parse(reqs[2].Last().Text())
	if put.Get("revision").Int() != rev1.Revision+1 || put.Get("content.sections.0.bars.0.0").String() != "Ebmaj7" {
		t.Errorf("put result: %.300s", reqs[2].Last().Text())
	}
	disk := gjson.ParseBytes(r.boardFileBytes(t))
	if disk.Get("revision").Int() != rev1.Revision+1 || disk.Get("content.sections.0.bars.0.0").String() != "Ebmaj7" {
		t.Errorf("board file: revision %d, bar 1 %q", disk.Get("revision").Int(), disk.Get("content.sections.0.bars.0.0").String())
	}
	after := rowsAfter(chatRows(a), chatInput2)
	var tools []chatRow
	for _, row := range after {
		if row.Role == "tool" {
			tools = append(tools, row)
		}
	}
	if len(tools) != 2 || tools[0].Name != "tele_board" || tools[0].Status != "completed" || tools[1].Name != "tele_board" || tools[1].Status != "completed" {
		t.Errorf("tool rows after input 2: %+v", tools)
	}
	if txt := evalJS[string](a, `document.querySelector('#chat-items .chat-tool .chat-tool-status').textContent`); txt != "completed" {
		t.Errorf("tool status text %q", txt)
	}
	a.requireClean("after the board change")
	r.shot(a, "board-changed-desktop-en")
	return fmt.Sprintf("the model read %s from the history, called tele_board get then put (revision %d→%d); two completed tool rows; the grid on the same page shows Ebmaj7 without a reload; board file holds it", chord, rev1.Revision, rev1.Revision+1)
}

// streamKeepDraftThenStop types input 3 and, while the reply streams, keeps a draft with its focus and
// selection through streamed text, a language switch, a board PUT, dock changes and a collapse; then Stop.
func (r *chatRig) streamKeepDraftThenStop(t *testing.T) string {
	a := r.tab
	n := r.fm.Count()
	typeMessage(a, chatInput3)
	req := r.fm.WaitCount(t, n+1, 15*time.Second)
	// The streamed reply is the assistant row whose text is a beginning of the story.
	streamLen := `(() => { const story = ` + jsString(chatStory) + `; const s = [...document.querySelectorAll('#chat-items .chat-assistant .chat-text')].filter((e) => e.textContent && story.startsWith(e.textContent)).pop(); return s ? s.textContent.length : 0; })()`
	a.waitJS(streamLen+` > 0`, "the reply starts streaming")
	// The question sits above its reply while the reply streams (the bridge sends the branch holding
	// the prompt as the reply starts, not only at turn end).
	rows := chatRows(a)
	if after := rowsAfter(rows, chatInput3); len(after) == 0 || after[len(after)-1].Role != "assistant" {
		t.Errorf("while the reply streams, the rows do not show input 3 followed by the reply: %+v", rows)
	}
	a.waitJS(`document.getElementById('chat').dataset.status === 'running' && !document.getElementById('chat-stop').disabled`, "stop is offered while Pi replies")
	if busy := evalJS[string](a, `document.getElementById('chat-log').getAttribute('aria-busy')`); busy != "true" {
		t.Errorf("the log is not aria-busy while the reply streams (%q)", busy)
	}

	// A draft with a selection range and the focus, while Pi streams.
	p := a
	p.do(chromedp.Click(chromedp.ID("chat-input")))
	p.do(chromedp.KeyEvent(chatDraft))
	evalJS[chromedp.Void](p, `(() => { const el = document.getElementById('chat-input'); el.__probe = 1; el.setSelectionRange(7, 14); })()`)
	want := inputState{Probe: true, Focused: true, Start: 7, End: 14, Value: chatDraft}
	checkInput(t, p, "typing the draft", want)
	cmdsBefore := len(commandFetches(p))
	if !evalJS[bool](p, `document.getElementById('chat-send').disabled && document.getElementById('chat').dataset.canSend === 'false'`) {
		t.Error("send is enabled while Pi replies")
	}
	// Enter while busy sends nothing and does not touch the draft.
	p.do(chromedp.KeyEvent(kb.Enter))
	checkInput(t, p, "Enter while Pi replies", want)

	// 1. streaming text arrives
	l0 := evalJS[int](p, streamLen)
	p.waitJS(fmt.Sprintf(`%s > %d`, streamLen, l0), "more streamed text")
	l1 := evalJS[int](p, streamLen)
	p.waitJS(fmt.Sprintf(`%s > %d`, streamLen, l1), "still more streamed text")
	checkInput(t, p, "streamed text", want)

	// 2. a language switch
	switchLanguageScripted(p, "zh-CN")
	if got := evalJS[string](p, `document.getElementById('chat-send').textContent`); got != "发送" {
		t.Errorf("send label after the switch: %q", got)
	}
	checkInput(t, p, "the language switch", want)
	r.shot(p, "streaming-draft-desktop-zh")

	// 3. a board update from another client (PUT with the capability)
	cur := r.getBoard(t)
	next := cur.Content
	next.Sections = append([]boardSection(nil), cur.Content.Sections...)
	next.Sections[0].Bars = append([][]string(nil), cur.Content.Sections[0].Bars...)
	next.Sections[0].Bars[1] = []string{"Gmaj7"}
	r.putBoard(t, cur.Revision, next)
	p.waitJS(barTextJS(0, 1)+` === 'Gmaj7'`, "the board update arrives")
	checkInput(t, p, "a board update", want)

	// 4. dock changes with the mouse
	for _, d := range []string{"left", "bottom", "right"} {
		p.do(chromedp.Click(chromedp.CSS(`.chat-dock-btn[data-dock="` + d + `"]`)))
		p.waitJS(fmt.Sprintf(`document.getElementById('chat').dataset.dock === %s`, jsString(d)), "dock "+d)
		checkInput(t, p, "docking "+d, want)
	}
	switchLanguageScripted(p, "en")
	checkInput(t, p, "switching back to English", want)
	p.waitJS(fmt.Sprintf(`%s > %d`, streamLen, evalJS[int](p, streamLen)), "the reply still streams")
	if got := len(commandFetches(p)); got != cmdsBefore {
		t.Errorf("%d commands sent while the draft sat in the box", got-cmdsBefore)
	}
	if st := evalJS[string](p, `document.getElementById('chat').dataset.status`); st != "running" {
		t.Errorf("the checks did not run while Pi streamed (status %q)", st)
	}
	r.shot(p, "streaming-draft-desktop-en")

	// 5. collapse and expand: the same node, draft and selection come back (the focus follows the click).
	p.do(chromedp.Click(chromedp.ID("chat-collapse")))
	p.waitJS(`document.getElementById('chat').dataset.collapsed === 'true' && document.getElementById('chat-body').hidden`, "collapsed")
	p.do(chromedp.Click(chromedp.ID("chat-collapse")))
	p.waitJS(`document.getElementById('chat').dataset.collapsed === 'false'`, "expanded")
	want.Focused = false
	checkInput(t, p, "collapse and expand", want)

	// Stop the reply with a click.
	p.do(chromedp.Click(chromedp.ID("chat-stop")))
	p.waitJS(`[...document.querySelectorAll('#chat-items > li')].some((li) => li.dataset.code === 'reply-aborted')`, "the reply-aborted notice")
	waitChatIdle(p)
	if !r.fm.WaitFinished(t, req, 10*time.Second) {
		t.Error("the model stream was not cut by the stop")
	}
	var aborts []chatFetch
	for _, f := range commandFetches(p) {
		if f.Type == "abort" {
			aborts = append(aborts, f)
		}
	}
	if len(aborts) != 1 || !chatUUIDRe.MatchString(aborts[0].ID) || aborts[0].Keys != "epoch,id,runId,type" {
		t.Errorf("abort commands: %+v", aborts)
	}
	checkInput(t, p, "stop", want)
	if busy := evalJS[string](p, `document.getElementById('chat-log').getAttribute('aria-busy')`); busy != "false" {
		t.Errorf("the log stays aria-busy after the reply (%q)", busy)
	}
	notice := evalJS[string](p, `[...document.querySelectorAll('#chat-items > li')].find((li) => li.dataset.code === 'reply-aborted').textContent`)
	if !strings.Contains(notice, "Reply stopped.") {
		t.Errorf("reply-aborted notice reads %q", notice)
	}
	p.requireClean("after stop")
	r.shot(p, "stopped-desktop-en")
	return "while the reply streamed: send disabled (Enter sent nothing); the message box kept node, focus, selection 7–14 and draft through streamed text, a language switch, a board PUT and dock changes left/bottom/right; node, draft and selection through collapse; Stop (one abort, fresh UUID) cut the model stream → reply-aborted"
}

// checkSessionFile reads Pi's session file: each input once, the tool calls, the stopped reply.
func (r *chatRig) checkSessionFile(t *testing.T) string {
	file := r.pi.SessionFile()
	if file == "" || !strings.HasPrefix(file, filepath.Join(r.pi.AgentDir, "sessions")) {
		t.Fatalf("session file %q is not under the temporary agent dir", file)
	}
	entries := r.sessionEntries(t, file)
	count := map[string]int{}
	var puts, gets int
	aborted := false
	for _, e := range entries {
		if e.Get("type").String() != "message" {
			continue
		}
		m := e.Get("message")
		switch m.Get("role").String() {
		case "user":
			count[userText(m)]++
		case "assistant":
			for _, c := range m.Get("content").Array() {
				if c.Get("type").String() == "toolCall" && c.Get("name").String() == "tele_board" {
					switch c.Get("arguments.action").String() {
					case "get":
						gets++
					case "put":
						puts++
					}
				}
			}
			if m.Get("stopReason").String() == "aborted" {
				aborted = true
			}
		}
	}
	for _, in := range []string{chatInput1, chatInput2, chatInput3} {
		if count[in] != 1 {
			t.Errorf("input %q is %d times in the session file", in, count[in])
		}
	}
	if gets != 1 || puts != 1 {
		t.Errorf("tele_board calls in the session file: %d get, %d put", gets, puts)
	}
	if !aborted {
		t.Error("no aborted assistant message in the session file")
	}
	return fmt.Sprintf("%s: each input once; tele_board get and put; the stopped reply persisted with stopReason aborted", strings.TrimPrefix(file, r.pi.Home))
}
