package e2e

// Issue 28 on a real Pi: the page switches the binding to review mode over the command route, the model's
// put becomes a proposal, the musician accepts two of its three bars over the accept API, and the model's
// next request carries the outcome the bridge put before the prompt's turn; the history names the proposal.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/tidwall/gjson"
)

const (
	reviewProposeText = "REVIEW_PROPOSE richer chords for the first three bars"
	reviewNextText    = "REVIEW_NEXT what did I keep?"
	reviewNote        = "a richer opening"
)

// reviewModel: a REVIEW_PROPOSE prompt reads the board and puts bars 1–3 of the first section changed,
// with a note; any other prompt is answered with text.
func reviewModel(r *ModelRequest) Reply {
	var tools []ModelMessage
	for i := len(r.Messages) - 1; i >= 0 && r.Messages[i].Role != "user"; i-- {
		if r.Messages[i].Role == "tool" {
			tools = append([]ModelMessage{r.Messages[i]}, tools...)
		}
	}
	if !slices.Contains(r.UserTexts(), reviewProposeText) || r.UserTexts()[len(r.UserTexts())-1] != reviewProposeText {
		return Reply{Text: "noted"}
	}
	switch len(tools) {
	case 0:
		return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: `{"action":"get"}`}}}
	case 1:
		got := gjson.Parse(tools[0].Text())
		var content map[string]any
		_ = json.Unmarshal([]byte(got.Get("content").Raw), &content)
		bars := content["sections"].([]any)[0].(map[string]any)["bars"].([]any)
		bars[0], bars[1], bars[2] = []string{"Cmaj7"}, []string{"A7"}, []string{"Dm7"}
		args, _ := json.Marshal(map[string]any{"action": "put", "expectedRevision": got.Get("revision").Int(), "content": content, "note": reviewNote})
		return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: string(args)}}}
	}
	return Reply{Text: "proposed"}
}

// toolDescription is the tele_board description a model request offered.
func toolDescription(r *ModelRequest) string {
	return gjson.GetBytes(r.Body, `tools.#(function.name=="tele_board").function.description`).String()
}

func TestPiReviewMode(t *testing.T) {
	forEachPi(t, func(t *testing.T, line piLine) {
		requirePi(t, line)
		p := newProbe(t, line, "review")
		p.fm.Script(reviewModel)
		p.startWithBridge(t, line)
		c := p.connect(t)
		p.pair(t, c)
		c.waitView(t, "idle in apply mode", func(v gjson.Result) bool {
			return v.Get("status").String() == "idle" && v.Get("edits").String() == "apply"
		})

		// The page's switch: the mode command, as the page sends it.
		id := uuid.NewString()
		code, v := c.request(t, "POST", "/api/chat/"+c.binding+"/command", map[string]any{"type": "mode", "id": id, "epoch": c.epoch, "edits": "propose"})
		if code != 200 || v.Raw != `{"id":"`+id+`","type":"mode","status":"applied","edits":"propose"}` {
			t.Fatalf("mode: %d %s", code, v.Raw)
		}
		c.waitView(t, "edits propose", func(v gjson.Result) bool { return v.Get("edits").String() == "propose" })
		_, before := c.request(t, "GET", "/api/boards/"+board, nil)
		rev := before.Get("revision").Int()

		// The model proposes.
		n := p.fm.Count()
		if code, v := c.send(t, reviewProposeText); code != 202 {
			t.Fatalf("send: %d %s", code, v.Raw)
		}
		reqs := p.fm.WaitFor(t, 30*time.Second, "the model's answer after the put", func(r []*ModelRequest) bool { return len(r) >= n+3 })
		c.waitView(t, "idle after the proposal", func(v gjson.Result) bool { return v.Get("status").String() == "idle" })
		for _, r := range reqs[n : n+3] {
			if d := toolDescription(r); !strings.Contains(d, "your edits are proposals the musician reviews") {
				t.Fatalf("request %d offered tele_board as %q", r.N, d)
			}
		}
		put := gjson.Parse(reqs[n+2].Last().Text())
		proposal := put.Get("proposal").String()
		if put.Get("status").String() != "proposed" || proposal == "" || put.Get("baseRevision").Int() != rev || len(put.Map()) != 3 {
			t.Fatalf("the put's answer to the model: %s", reqs[n+2].Last().Text())
		}
		if strings.Contains(reqs[n+2].Last().Text(), c.cap) {
			t.Fatal("the proposed answer carries the capability")
		}
		_, after := c.request(t, "GET", "/api/boards/"+board, nil)
		code, list := c.request(t, "GET", "/api/boards/"+board+"/proposals", nil)
		if after.Get("revision").Int() != rev || code != 200 || list.Get("proposals.0.id").String() != proposal ||
			list.Get("proposals.0.note").String() != reviewNote || strings.Contains(list.Raw, c.cap) {
			t.Fatalf("after the proposal: board revision %d (want %d), proposals %d %s", after.Get("revision").Int(), rev, code, list.Raw)
		}

		// The musician takes bars 1 and 2 (0-based [0,0], [0,1]); bar 3 stays as it was: rejected.
		code, body := capRequest(t, c, "POST", "/api/boards/"+board+"/proposals/"+proposal+"/accept", rev, `{"bars":[[0,0],[0,1]]}`)
		if code != 200 || strings.Contains(body, c.cap) {
			t.Fatalf("accept: %d %s", code, body)
		}

		// The model's next turn starts with what became of its proposal.
		n = p.fm.Count()
		if code, v := c.send(t, reviewNextText); code != 202 {
			t.Fatalf("send: %d %s", code, v.Raw)
		}
		r := p.fm.WaitCount(t, n+1, 30*time.Second)
		want := `Proposal ` + proposal + ` ("` + reviewNote + `"): accepted bars 1–2 of "Verse"; rejected bar 3 of "Verse".`
		users := r.UserTexts()
		if len(users) < 2 || users[len(users)-2] != reviewNextText || !strings.Contains(users[len(users)-1], want) {
			t.Fatalf("the model's next request ends with the user messages %q, want the prompt and then one naming %q", tailOf(users, 2), want)
		}
		told := 0
		for _, u := range users {
			told += strings.Count(u, "Proposal "+proposal)
		}
		if told != 1 {
			t.Fatalf("the outcome reached the model %d times", told)
		}
		c.waitView(t, "idle after the outcome", func(v gjson.Result) bool { return v.Get("status").String() == "idle" })

		// The history names the proposal; the board holds the two bars taken and the third as it was.
		_, hist := c.request(t, "GET", "/api/boards/"+board+"/revisions?limit=1", nil)
		_, now := c.request(t, "GET", "/api/boards/"+board, nil)
		bars := now.Get("content.sections.0.bars")
		if hist.Get("revisions.0.proposal").String() != proposal || hist.Get("revisions.0.author").String() != "pi" ||
			bars.Get("0.0").String() != "Cmaj7" || bars.Get("1.0").String() != "A7" || bars.Get("2.0").String() == "Dm7" {
			t.Fatalf("history %s, bars %s", hist.Raw, bars.Raw)
		}

		// Pi's side: back to apply from the page, then `/tele demo --review` while connected switches to
		// propose; after /tele off, `/tele demo --review` starts the new binding in propose.
		if code, v := c.request(t, "POST", "/api/chat/"+c.binding+"/command", map[string]any{"type": "mode", "id": uuid.NewString(), "epoch": c.epoch, "edits": "apply"}); code != 200 {
			t.Fatalf("mode apply: %d %s", code, v.Raw)
		}
		c.waitView(t, "edits apply", func(v gjson.Result) bool { return v.Get("edits").String() == "apply" })
		from := p.pi.Mark()
		p.pi.Prompt("/tele " + board + " --review")
		p.pi.WaitNotify(from, "one-time link")
		c.waitView(t, "edits propose after /tele demo --review", func(v gjson.Result) bool { return v.Get("edits").String() == "propose" })
		from = p.pi.Mark()
		p.pi.Prompt("/tele off")
		p.pi.WaitNotify(from, "disconnected")
		from = p.pi.Mark()
		p.pi.Prompt("/tele " + board + " --review")
		raw := inviteRe.FindString(p.pi.WaitNotify(from, "one-time link"))
		u, _ := url.Parse(raw)
		frag, _ := url.ParseQuery(u.Fragment)
		fresh := &teleConn{base: "http://" + u.Host, binding: frag.Get("binding"), invite: frag.Get("invite"), client: newJarClient()}
		p.secret(raw, fresh.invite)
		if code, v := fresh.request(t, "POST", "/api/chat/pair", map[string]any{"binding": fresh.binding, "invitation": fresh.invite}); code != 200 {
			t.Fatalf("pair after --review: %d %s", code, v.Raw)
		}
		if st := fresh.status(t); st.Get("edits").String() != "propose" {
			t.Fatalf("a binding started with --review: %s", st.Raw)
		}
		from = p.pi.Mark()
		p.pi.Prompt("/tele " + board + " now")
		if msg := p.pi.WaitNotify(from, "usage"); !strings.Contains(msg, "/tele <board> [--review]") {
			t.Fatalf("a bad flag: %q", msg)
		}
		if errs := p.pi.ExtensionErrors(0); len(errs) > 0 {
			t.Errorf("extension errors: %v", errs)
		}
		p.pi.Quit()
	})
}

// capRequest is a board write as the paired page makes it: its capability and If-Match of rev.
func capRequest(t *testing.T, c *teleConn, method, path string, rev int64, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, c.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", c.base)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("Authorization", "Bearer "+c.cap)
	req.Header.Set("If-Match", fmt.Sprintf(`"%d"`, rev))
	resp, err := c.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func newJarClient() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: 10 * time.Second}
}

func tailOf(s []string, n int) []string { return s[max(0, len(s)-n):] }
