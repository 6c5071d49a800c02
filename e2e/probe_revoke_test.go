package e2e

// Probe steps that end a binding: /tele off with a late input, reconnecting, session replacement, the
// host's death, a failed start, and quitting Pi.

import (
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

func (p *probe) lateInputAndOff(t *testing.T) string {
	pi := p.pi
	c := p.c
	n := p.fm.Count()
	from := pi.Mark()
	if code, v := c.send(t, "PROBE_HOLD late input"); code != 202 {
		t.Fatalf("send: %d %s", code, v.Raw)
	}
	pi.WaitNotify(from, "probe: holding input")
	oldCookieClient := c.client
	pi.Prompt("/tele off")
	p.assertHostGone(t, c)
	pi.Prompt("/probe release")
	tools := p.lastRequestTools(t, "PROBE_AFTER after the late input")
	for _, r := range p.fm.Requests()[n:] {
		for _, u := range r.UserTexts() {
			if strings.Contains(u, "PROBE_HOLD") {
				t.Fatalf("the late input reached the model (request %d)", r.N)
			}
		}
	}
	if got := p.fm.Count() - n; got != 1 {
		t.Errorf("%d model requests since the late send, want 1 (the later prompt)", got)
	}
	// Dropped in the input hook (not merely aborted later): it is not even in the session.
	if msgs := pi.Command(map[string]any{"type": "get_messages"}).Get("data.messages").Raw; strings.Contains(msgs, "PROBE_HOLD") {
		t.Error("the late input is in the session history")
	}
	if !slices.Equal(tools, p.defaultTool) {
		t.Errorf("tools after /tele off: %v, want %v", tools, p.defaultTool)
	}
	if _, err := oldCookieClient.Get(c.base + "/api/chat/" + c.binding + "/status"); err == nil {
		t.Error("the old host still answers")
	}
	return "held input released after /tele off: zero model requests; host exited, port closed; previous tools back"
}

func (p *probe) reconnectOldCookie(t *testing.T) string {
	pi := p.pi
	c := p.c
	old := c
	c = p.connect(t)
	if c.binding == old.binding || c.invite == old.invite {
		t.Fatal("the new connection reuses the old binding or invitation")
	}
	// The old cookie (path /api/chat/<old binding>) and the old invitation do not work on the new host.
	req, _ := http.NewRequest("GET", c.base+"/api/chat/"+old.binding+"/status", nil)
	u, _ := url.Parse(old.base + "/api/chat/" + old.binding + "/status")
	for _, ck := range old.client.Jar.Cookies(u) {
		req.AddCookie(ck)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 && resp.StatusCode != 404 {
		t.Errorf("old cookie on the new host: %d", resp.StatusCode)
	}
	if code, _ := c.request(t, "POST", "/api/chat/pair", map[string]any{"binding": c.binding, "invitation": old.invite}); code != 403 {
		t.Errorf("old invitation on the new binding: %d", code)
	}
	// /tele demo again mints a fresh invitation for the same binding; the earlier one dies.
	from := pi.Mark()
	pi.Prompt("/tele " + board)
	u2, _ := url.Parse(inviteRe.FindString(pi.WaitNotify(from, "one-time link")))
	frag, _ := url.ParseQuery(u2.Fragment)
	p.secret(u2.String(), frag.Get("invite"))
	if frag.Get("binding") != c.binding || frag.Get("invite") == c.invite {
		t.Fatalf("/tele %s again: binding changed or the same invitation", board)
	}
	if code, _ := c.request(t, "POST", "/api/chat/pair", map[string]any{"binding": c.binding, "invitation": c.invite}); code != 403 {
		t.Errorf("the superseded invitation still pairs: %d", code)
	}
	c.invite = frag.Get("invite")
	p.pair(t, c)
	from = pi.Mark()
	pi.Prompt("/tele other-board")
	if msg := pi.WaitNotify(from, "tele:"); !strings.Contains(msg, "/tele off") {
		t.Errorf("another board while connected: %q", msg)
	}
	return "new binding; old cookie 401/404 and old invitation 403 on the new host; /tele demo again → fresh invitation, old one dead; another board refused"
}

func (p *probe) lateInputSecondLine(t *testing.T) string {
	pi := p.pi
	c := p.c
	n := p.fm.Count()
	from := pi.Mark()
	if code, v := c.send(t, "PROBE_AFTERHOLD passed the input hook"); code != 202 {
		t.Fatalf("send: %d %s", code, v.Raw)
	}
	pi.WaitNotify(from, "probe-after: holding input")
	c.waitView(t, "input-observed", func(v gjson.Result) bool { return v.Get("notice").String() == "input-observed" })
	pi.Prompt("/tele off")
	p.assertHostGone(t, c)
	mark := pi.Mark()
	pi.Prompt("/probe-after")
	end := pi.WaitType(mark, "agent_end")
	msgs := end.Get("messages").Array()
	if len(msgs) == 0 || msgs[len(msgs)-1].Get("stopReason").String() != "aborted" {
		t.Fatalf("the stale run did not end aborted: %.400s", end.Raw)
	}
	if got := p.fm.Count() - n; got != 0 {
		t.Fatalf("%d model requests for the stale run", got)
	}
	c = p.connect(t)
	p.pair(t, c)
	return "an input that passed the bridge's hook before /tele off is aborted at agent_start: zero model requests"
}

func (p *probe) sessionReplacementRevokes(t *testing.T) string {
	pi := p.pi
	c := p.c
	var done []string
	replace := []struct {
		name string
		cmd  func() map[string]any
	}{
		{"new_session", func() map[string]any { return map[string]any{"type": "new_session"} }},
		{"switch_session", func() map[string]any { return map[string]any{"type": "switch_session", "sessionPath": p.firstSession} }},
		{"fork", func() map[string]any {
			fm := pi.Command(map[string]any{"type": "get_fork_messages"}).Get("data.messages").Array()
			if len(fm) == 0 {
				t.Fatal("nothing to fork from")
			}
			return map[string]any{"type": "fork", "entryId": fm[len(fm)-1].Get("entryId").String()}
		}},
		{"tree", nil},
	}
	for i, r := range replace {
		if i > 0 {
			c = p.connect(t)
			p.pair(t, c)
		}
		if r.cmd == nil {
			from := pi.Mark()
			pi.Prompt("/probe tree")
			pi.WaitNotify(from, "session tree moved")
		} else {
			if res := pi.Command(r.cmd()); res.Get("data.cancelled").Bool() {
				t.Fatalf("%s was cancelled", r.name)
			}
		}
		p.assertHostGone(t, c)
		if _, err := c.client.Get(c.base + "/api/chat/" + c.binding + "/status"); err == nil {
			t.Errorf("%s: the cookie still reaches a server", r.name)
		}
		done = append(done, r.name)
	}
	// After the tree move, the tool set is back (the session stays).
	if tools := p.lastRequestTools(t, "PROBE_AFTER tree"); !slices.Equal(tools, p.defaultTool) {
		t.Errorf("tools after the tree move: %v", tools)
	}
	return "revoked, host exited, port closed after " + strings.Join(done, ", ")
}

func (p *probe) hostDeath(t *testing.T) string {
	pi := p.pi
	c := p.connect(t)
	from := pi.Mark()
	host, err := os.FindProcess(c.hostPID)
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Kill(); err != nil {
		t.Fatal(err)
	}
	msg := pi.WaitNotify(from, "stopped")
	if strings.Contains(msg, "\n") {
		t.Errorf("more than one line: %q", msg)
	}
	p.assertHostGone(t, c)
	if tools := p.lastRequestTools(t, "PROBE_AFTER host death"); !slices.Equal(tools, p.defaultTool) {
		t.Errorf("tools after the host died: %v", tools)
	}
	if n := len(pi.Notifies(from)); n != 1 {
		t.Errorf("%d notifies for one host death", n)
	}
	return "SIGKILL of the host → one notify line, tools restored, nothing running"
}

func (p *probe) badBoardFatal(t *testing.T) string {
	pi := p.pi
	from := pi.Mark()
	pi.Prompt("/tele bad.board!")
	msg := pi.WaitNotify(from, "tele:")
	if inviteRe.MatchString(msg) {
		t.Fatalf("a bad board id connected")
	}
	// The notify can come from the host's fatal note, read before its process has ended: a host still
	// there must exit on its own, and nothing may be left.
	for _, pid := range childrenOf(pi.PID(), p.teleBin) {
		waitExit(t, pid, 10*time.Second, "the host of a fatal start to exit")
	}
	if pids := childrenOf(pi.PID(), p.teleBin); len(pids) != 0 {
		t.Fatalf("host left running after a fatal start: %v", pids)
	}
	if tools := p.lastRequestTools(t, "PROBE_AFTER bad board"); !slices.Equal(tools, p.defaultTool) {
		t.Errorf("tools after a failed start: %v", tools)
	}
	return "host fatal → one notify (" + msg + "); nothing running; tools untouched"
}

func (p *probe) quitRevokes(t *testing.T) string {
	pi := p.pi
	c := p.connect(t)
	if err := pi.Quit(); err != nil {
		t.Fatal(err)
	}
	p.assertHostGone(t, c)
	if left := processesMentioning(pi.DataDir); len(left) != 0 {
		t.Fatalf("processes left: %v", left)
	}
	return "pi exits 0 on stdin EOF; host gone, port closed, no process names the data dir"
}
