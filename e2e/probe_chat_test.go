package e2e

// Probe steps on the browser side: pairing, a message sent from the page, stopping a reply, a failing
// model, a terminal dialog, and where `settled` came from.

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

const browserText = "PROBE_BROWSER hello from the page"

func (p *probe) pairStep(t *testing.T) string {
	c := p.c
	// Before pairing, chat routes refuse.
	if code, _ := c.request(t, "GET", "/api/chat/"+c.binding+"/status", nil); code != 401 {
		t.Errorf("status before pairing: %d, want 401", code)
	}
	// A foreign Origin is refused.
	req, _ := http.NewRequest("POST", c.base+"/api/chat/pair", strings.NewReader(`{"binding":"`+c.binding+`","invitation":"`+c.invite+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://evil.example")
	if resp, err := c.client.Do(req); err != nil || resp.StatusCode != 403 {
		t.Fatalf("pair with a foreign Origin: %v %v", err, resp)
	} else {
		resp.Body.Close()
	}
	p.pair(t, c)
	if code, v := c.request(t, "POST", "/api/chat/pair", map[string]any{"binding": c.binding, "invitation": c.invite}); code != 403 || v.Get("error.code").String() != "invitation_invalid" {
		t.Errorf("second redemption: %d %s", code, v.Raw)
	}
	// The last run may still be settling (on Pi 0.73.1 the bridge's idle check follows agent_end).
	v := c.waitView(t, "idle after pairing", func(v gjson.Result) bool { return v.Get("status").String() == "idle" })
	if v.Get("epoch").String() != c.epoch {
		t.Fatalf("view after pairing: %s", v.Raw)
	}
	return "exact Origin + JSON pairs once (cookie set); a second redemption is invitation_invalid; foreign Origin 403"
}

func (p *probe) browserSend(t *testing.T) string {
	pi := p.pi
	c := p.c
	hold := p.newHold()
	n := p.fm.Count()
	code, v := c.send(t, browserText)
	if code != 202 || v.Get("status").String() != "submitted" {
		t.Fatalf("send: %d %s", code, v.Raw)
	}
	r := p.fm.WaitCount(t, n+1, 10*time.Second)
	if r.LastUser() != browserText {
		t.Fatalf("the model got %q", r.LastUser())
	}
	c.waitView(t, "input-observed", func(v gjson.Result) bool { return v.Get("notice").String() == "input-observed" })
	close(hold)
	v = c.waitView(t, "the reply", func(v gjson.Result) bool {
		return v.Get("status").String() == "idle" && slices.Contains(assistantTexts(v), "browser reply text")
	})
	if strings.Contains(v.Raw, "private thoughts") {
		t.Error("thinking reached the view")
	}
	var users []string
	for _, it := range v.Get("items").Array() {
		if it.Get("role").String() == "user" {
			users = append(users, it.Get("text").String())
		}
	}
	if !slices.Contains(users, browserText) {
		t.Errorf("the view lacks the sent text: %v", users)
	}
	seen := 0
	for _, r := range p.fm.Requests() {
		if r.LastUser() == browserText {
			seen++
		}
	}
	if seen != 1 {
		t.Errorf("the text reached the model %d times", seen)
	}
	file := p.sessionFileWith(t, browserText)
	if file == "" {
		t.Fatal("the text is in no session file under the agent dir")
	}
	if cur := pi.SessionFile(); cur != file {
		t.Errorf("found in %s, but the session is %s", file, cur)
	}
	return "202 submitted; model got the text once; view showed input-observed, then the reply; in the session file"
}

func (p *probe) browserAbort(t *testing.T) string {
	c := p.c
	hold := p.newHold()
	defer close(hold)
	n := p.fm.Count()
	if code, v := c.send(t, "PROBE_SLOW stop me"); code != 202 {
		t.Fatalf("send: %d %s", code, v.Raw)
	}
	r := p.fm.WaitCount(t, n+1, 10*time.Second)
	v := c.waitView(t, "a running run", func(v gjson.Result) bool {
		return v.Get("status").String() == "running" && v.Get("runId").String() != ""
	})
	abortedRun := v.Get("runId").String()
	code, a := c.abort(t, abortedRun)
	if code != 202 || a.Get("status").String() != "stop-requested" {
		t.Fatalf("abort: %d %s", code, a.Raw)
	}
	c.waitView(t, "reply-aborted", func(v gjson.Result) bool {
		return v.Get("status").String() == "idle" && hasNotice(v, "reply-aborted")
	})
	if !p.fm.WaitFinished(t, r, 10*time.Second) {
		t.Error("the model stream was not cut")
	}
	code, a = c.abort(t, abortedRun)
	if code != 409 || a.Get("error.code").String() != "stale_run" {
		t.Fatalf("abort of the previous run: %d %s", code, a.Raw)
	}
	return "abort of the running reply → reply-aborted notice, model stream cut; abort of that run again → 409 stale_run"
}

func (p *probe) modelFailure(t *testing.T) string {
	c := p.c
	v := c.status(t)
	before := v.Get("idleVersion").Int()
	if code, v := c.send(t, "PROBE_FAIL this request fails"); code != 202 {
		t.Fatalf("send: %d %s", code, v.Raw)
	}
	v = c.waitView(t, "model-failed", func(v gjson.Result) bool {
		return v.Get("status").String() == "idle" && hasNotice(v, "model-failed") && v.Get("idleVersion").Int() > before
	})
	if strings.Contains(v.Raw, "scripted failure") {
		t.Error("the error detail reached the view")
	}
	return "HTTP 400 from the model → model-failed notice, settled (idleVersion+1), no error text in the view"
}

func (p *probe) terminalPrompt(t *testing.T) string {
	pi := p.pi
	c := p.c
	pi.Prompt("/probe prompt open")
	c.waitView(t, "terminal-prompt", func(v gjson.Result) bool { return v.Get("status").String() == "terminal-prompt" })
	if code, v := c.send(t, "while a dialog is open"); code != 409 || v.Get("error.code").String() != "terminal_prompt" {
		t.Errorf("send during a dialog: %d %s", code, v.Raw)
	}
	pi.Prompt("/probe prompt close")
	c.waitView(t, "idle again", func(v gjson.Result) bool { return v.Get("status").String() == "idle" })
	return "tele:terminal-prompt on pi.events → status terminal-prompt, send 409 terminal_prompt"
}

// settledSource: issue 10's proof that the bridge uses what the running Pi has. On Pi 1.x every settled
// the host was told came from agent_settled and the bridge never started an idle check; on 0.73.1 each
// came from the idle check. The host logs a settled before the view changes, and every step before this
// one waited for its run to settle in the view.
func (p *probe) settledSource(t *testing.T) string {
	if p.hostLog == nil {
		t.Fatal("the bridge of this probe does not name the logging wrapper")
	}
	return p.hostLog.checkSettled(t, p.line)
}
