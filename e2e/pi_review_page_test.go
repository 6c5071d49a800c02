package e2e

// Review mode as a musician meets it, on a real Pi of each line, from the paired page: the page switches
// Pi to proposals and turns notifications on; the musician asks from the page and looks away; Pi's put
// becomes a proposal that commits nothing, while the hidden tab's title counts the news and a system
// notification names only the board and the kind of news. Back on the page the musician takes two of
// the three bars and leaves the third; the board gets the two as Pi's revision naming the proposal, and
// Pi's next turn begins with what became of it.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/tidwall/gjson"
)

const (
	pagedReviewAsk  = "Try richer chords for the first three bars, please."
	pagedReviewNext = "Which of them did I keep?"
	pagedReviewNote = "richer opening chords"
)

// pagedReviewModel answers pagedReviewAsk by reading the board and putting its first three bars
// changed (the put waits for release: the page is hidden by then); anything else gets a short text.
func pagedReviewModel(release <-chan struct{}, chords [3]string) func(*ModelRequest) Reply {
	return func(r *ModelRequest) Reply {
		var tools []ModelMessage
		for i := len(r.Messages) - 1; i >= 0 && r.Messages[i].Role != "user"; i-- {
			if r.Messages[i].Role == "tool" {
				tools = append([]ModelMessage{r.Messages[i]}, tools...)
			}
		}
		if r.LastUser() != pagedReviewAsk {
			return Reply{Text: "noted"}
		}
		switch len(tools) {
		case 0:
			return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: `{"action":"get"}`}}}
		case 1:
			select {
			case <-release:
			case <-time.After(time.Minute):
				return Reply{Text: "the test never hid the page"}
			}
			got := gjson.Parse(tools[0].Text())
			var content map[string]any
			if err := json.Unmarshal([]byte(got.Get("content").Raw), &content); err != nil {
				return Reply{Text: "the board could not be read"}
			}
			bars := content["sections"].([]any)[0].(map[string]any)["bars"].([]any)
			for i, c := range chords {
				bars[i] = []string{c}
			}
			args, _ := json.Marshal(map[string]any{"action": "put", "expectedRevision": got.Get("revision").Int(), "content": content, "note": pagedReviewNote})
			return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: string(args)}}}
		}
		return Reply{Text: "I proposed richer chords."}
	}
}

func TestPiReviewFromPage(t *testing.T) {
	forEachPi(t, func(t *testing.T, line piLine) {
		r := startChatRig(t, line)
		chords := [3]string{"Cmaj9", "A7b9", "Dm11"}
		release := make(chan struct{})
		r.fm.Script(pagedReviewModel(release, chords))
		a := r.tab
		addInitScript(a, notificationProbe)
		r.navigate(a, r.inviteTo)
		waitChatLive(a)
		waitChatIdle(a)
		before := r.getBoard(t)
		label := before.Content.Sections[0].Label
		if label == "" || len(before.Content.Sections[0].Bars) < 3 {
			t.Fatalf("the session's board has no labelled first section of three bars: %+v", before.Content.Sections[0])
		}

		// Review mode and notifications, each switched on by a click.
		a.waitJS(`!document.getElementById('chat-mode-row').hidden && !document.getElementById('chat-mode').disabled`, "the paired panel with its review switch")
		a.do(chromedp.Click(chromedp.ID("chat-mode")))
		a.waitJS(`document.getElementById('chat-mode').checked && !document.getElementById('chat-mode').disabled && document.getElementById('chat-mode-hint').textContent.startsWith('Pi proposes')`, "propose mode, as Pi's status says")
		grantNotifications(a, r.base)
		a.do(chromedp.Click(chromedp.ID("notify-toggle")))
		a.waitJS(`document.getElementById('notify-toggle').getAttribute('aria-pressed') === 'true'`, "notifications on")
		title := evalJS[string](a, `document.title`)

		// The musician asks, then looks away before Pi's put arrives.
		typeMessage(a, pagedReviewAsk)
		hidePage(t, a)
		close(release)
		a.waitJSWithin(`/^\(\d+\) /.test(document.title) && document.title.endsWith(`+jsString(title)+`) && window.__notes.some((n) => n.body === 'Pi proposes a change to review')`, "the title's count and a notification of the proposal", time.Minute)
		waitChatIdle(a)
		for _, n := range evalJS[[]map[string]any](a, `window.__notes`) {
			if n["title"] != before.Content.Title || n["error"] == true || strings.Contains(fmt.Sprint(n["body"]), pagedReviewAsk) {
				t.Errorf("a notification says more than the board's title and the kind of news, or failed: %v", n)
			}
		}
		if now := r.getBoard(t); now.Revision != before.Revision {
			t.Fatalf("the proposal committed something: revision %d, was %d", now.Revision, before.Revision)
		}
		var open struct {
			Proposals []struct{ ID, Note string }
		}
		apiJSON(t, "GET", r.base+"/api/boards/"+chatBoardID+"/proposals", nil, nil, &open)
		if len(open.Proposals) != 1 || open.Proposals[0].Note != pagedReviewNote {
			t.Fatalf("open proposals: %+v", open.Proposals)
		}
		proposal := open.Proposals[0].ID

		// Back on the page: the count goes; two bars taken by keyboard, the third left by pointer.
		showPage(t, a)
		a.waitJS(`document.title === `+jsString(title), "seen: the count goes")
		a.waitJS(`!document.getElementById('proposals').hidden && document.querySelectorAll('#proposals .prop-bar[data-key]').length === 3`, "the proposal, three bars marked")
		a.do(chromedp.Focus(`#proposals .prop-take[data-key="b:0:0"]`), chromedp.KeyEvent("a"), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent("a"))
		a.do(chromedp.Click(`#proposals .prop-leave[data-key="b:0:2"]`))
		a.waitJS(`[...document.querySelectorAll('#proposals .prop-bar[data-key]')].map((e) => e.dataset.decision).join() === 'accept,accept,reject'`, "the choices are marked")
		a.do(chromedp.Click(chromedp.ID("prop-apply")))
		a.waitJS(barTextJS(0, 0)+` === `+jsString(chords[0])+` && `+barTextJS(0, 1)+` === `+jsString(chords[1])+` && document.getElementById('proposals').hidden`, "the two bars taken are on the board")
		after := r.getBoard(t)
		if bars := after.Content.Sections[0].Bars; strings.Join(bars[2], " ") != strings.Join(before.Content.Sections[0].Bars[2], " ") {
			t.Errorf("bar 3 is %v, want it as it was (%v)", bars[2], before.Content.Sections[0].Bars[2])
		}
		if row := revisionRows(t, r.base, chatBoardID)[0]; row.Author != "pi" || row.Proposal != proposal {
			t.Errorf("the history row: %+v, want Pi naming %s", row, proposal)
		}

		// Pi's next turn starts with the outcome, once.
		n := r.fm.Count()
		typeMessage(a, pagedReviewNext)
		req := r.fm.WaitCount(t, n+1, 30*time.Second)
		want := fmt.Sprintf(`accepted bars 1–2 of %q; rejected bar 3 of %q.`, label, label)
		users := req.UserTexts()
		told := 0
		for _, u := range users {
			told += strings.Count(u, "Proposal "+proposal)
		}
		if told != 1 || !strings.Contains(strings.Join(users, "\n"), want) {
			t.Fatalf("the model's next request (user messages %q) names the outcome %d times, want once, holding %q", tailOf(users, 2), told, want)
		}
		waitChatIdle(a)
		a.requireClean("after a proposal reviewed from the page")
	})
}
