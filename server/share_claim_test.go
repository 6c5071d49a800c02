package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"tele/server/servertest"
)

// leadStream opens the leading page's stream (GET /api/share/events).
func (s *shared) leadStream(leader string) *stream {
	s.t.Helper()
	return s.openStream(s.loop, "/api/share/events", bearer(leader))
}

// claim posts POST /api/share/claim {} and returns the status, the code of a refusal and the answer.
func (s *shared) claim() (status int, code string, out struct{ JoinURL, Leader string }) {
	s.t.Helper()
	res, body := s.do(s.loop, "POST", "/api/share/claim", "", nil, "{}")
	if res.StatusCode == 200 && json.Unmarshal([]byte(body), &out) != nil {
		s.t.Fatalf("claim: %s", body)
	}
	return res.StatusCode, servertest.Code([]byte(body)), out
}

// TestShareClaim (issue 22: Take the lead did nothing once the leading tab closed without stopping):
// while the leading page holds its stream a claim is refused (that page hands over); once the stream
// ends the followers hear no page leads, and a claim takes the lead with the same join link, a new
// leader token, and the followers still following. Nothing shared: not_sharing.
func TestShareClaim(t *testing.T) {
	s := startShared(t, true)
	if status, code, _ := s.claim(); status != 409 || code != "not_sharing" {
		t.Fatalf("a claim with nothing shared: %d %s", status, code)
	}
	key, leader := s.startShare()
	s.setState(leader, `{"board":"welcome"}`)
	phone := s.follow(s.join(key))
	if data, _ := phone.next(t, "state"); !strings.Contains(data, `"leading":false`) {
		t.Fatalf("the state before a page leads: %s", data)
	}
	lead := s.leadStream(leader)
	first, _ := lead.next(t, "state")
	if !strings.Contains(first, `"board":"welcome"`) || !strings.Contains(first, `"leading":true`) {
		t.Fatalf("the leader's stream's first event: %s", first)
	}
	if data, _ := phone.next(t, "state"); !strings.Contains(data, `"leading":true`) {
		t.Fatalf("the followers' state while a page leads: %s", data)
	}
	if status, code, _ := s.claim(); status != 409 || code != "leading" {
		t.Fatalf("a claim while a page leads: %d %s", status, code)
	}
	lead.res.Body.Close() // the leading tab closes
	if data, _ := phone.next(t, "state"); !strings.Contains(data, `"leading":false`) {
		t.Fatalf("the followers' state once the leading page left: %s", data)
	}
	status, code, out := s.claim()
	if status != 200 || out.JoinURL != "http://"+s.share+"/join#key="+key || len(out.Leader) != 43 || out.Leader == leader {
		t.Fatalf("a claim once the leading page left: %d %s %+v", status, code, out)
	}
	if res, _ := s.do(s.loop, "POST", "/api/share/state", "", bearer(leader), `{"board":"welcome"}`); res.StatusCode != 403 {
		t.Fatalf("the old leader token after a claim: %d", res.StatusCode)
	}
	s.setState(out.Leader, `{"board":"welcome","transport":{"playing":true,"tempo":120,"startedAt":1,"countIn":false,"loop":false}}`)
	if data, _ := phone.next(t, "state"); !strings.Contains(data, `"tempo":120`) {
		t.Fatalf("the follower after the claim: %s", data)
	}
	if res, body := s.do(s.loop, "POST", "/api/share/claim", "", http.Header{"Sec-Fetch-Site": {"same-site"}}, "{}"); res.StatusCode != 403 || servertest.Code([]byte(body)) != "cross_site" {
		t.Fatalf("a claim from another site: %d %s", res.StatusCode, body)
	}
}

// TestShareLeadStreamEnds: the leading page's stream ends with `ended` when it hands the lead over,
// so that page knows at once.
func TestShareLeadStreamEnds(t *testing.T) {
	s := startShared(t, true)
	_, leader := s.startShare()
	st := s.leadStream(leader)
	st.next(t, "state")
	if res, body := s.do(s.loop, "POST", "/api/share/lead", "", bearer(leader), "{}"); res.StatusCode != 200 {
		t.Fatalf("hand over: %d %s", res.StatusCode, body)
	}
	st.ended(t)
}
