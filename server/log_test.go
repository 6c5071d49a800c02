package server_test

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"tele/server"
	"tele/server/servertest"
)

// TestRefusalLogIsRateLimited (issue 26, finding 9): a flood of refused requests writes a burst of
// server.RefusalLogBurst access lines, then one per server.RefusalLogEvery, and the next line written says
// how many were left out. Before, every 4xx was a line: the review's flood wrote 193,838. Successes
// (Debug) and the refusals' answers are untouched. Time is the bubble's.
func TestRefusalLogIsRateLimited(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := servertest.New(t)
		const flood = 1000
		for range flood {
			if w := e.Do(st{Method: "GET", Path: "/api/boards/nobody"}); w.Code != http.StatusNotFound {
				t.Fatalf("status %d", w.Code)
			}
		}
		if w := e.Do(st{Method: "GET", Path: "/api/boards"}); w.Code != http.StatusOK {
			t.Fatalf("list: %d", w.Code)
		}
		lines := func(status int) []string {
			var out []string
			for _, l := range strings.Split(e.Log.String(), "\n") {
				if strings.Contains(l, "msg=request") && strings.Contains(l, "status="+strconv.Itoa(status)) {
					out = append(out, l)
				}
			}
			return out
		}
		if n := len(lines(404)); n != server.RefusalLogBurst {
			t.Fatalf("%d refusals logged %d lines at once, want the burst of %d", flood, n, server.RefusalLogBurst)
		}
		if n := len(lines(200)); n != 1 {
			t.Errorf("%d success lines, want 1: successes are not rate-limited", n)
		}
		time.Sleep(server.RefusalLogEvery)
		e.Do(st{Method: "GET", Path: "/api/boards/nobody"})
		got := lines(404)
		want := "suppressed=" + strconv.Itoa(flood-server.RefusalLogBurst)
		if len(got) != server.RefusalLogBurst+1 || !strings.Contains(got[len(got)-1], want) {
			t.Fatalf("after %v: last lines %q, want one more saying %s", server.RefusalLogEvery, got[len(got)-2:], want)
		}
	})
}

// TestLogsKeepBindingsOut (issue 26, finding 11): the access log, the guard's refusal lines and an
// internal error's line write a chat route's binding id as ":binding". The pairing cookie's path holds
// the id, and browsers send cookies to every port of 127.0.0.1, so the id is what keeps the cookie from
// other local servers. Before, every 4xx line of `tele host` printed it.
func TestLogsKeepBindingsOut(t *testing.T) {
	e := servertest.New(t)
	e.OverSockets()
	const binding = "0b1e6d3c-4a9f-4c1e-9d2a-5b7e8f901234"
	for _, r := range []st{
		{Method: "GET", Path: "/api/chat/" + binding},
		{Method: "GET", Path: "/api/chat/" + binding + "/events?x=1"},
		{Method: "POST", Path: "/api/chat/" + binding + "/command", Body: `{}`, Header: http.Header{"Content-Type": {"application/json"}}},
		{Method: "GET", Path: "/api/chat/" + binding + "/status", Header: fetchMeta("cross-site", "cors", "empty")},
	} {
		if w := e.Do(r); w.Code < 400 {
			t.Fatalf("%s %s: %d", r.Method, r.Path, w.Code)
		}
	}
	log := e.Log.String()
	if strings.Contains(log, binding) || strings.Contains(log, binding[:8]) {
		t.Fatalf("the log carries the binding id:\n%s", log)
	}
	for _, want := range []string{"path=/api/chat/:binding ", "path=/api/chat/:binding/events ", "path=/api/chat/:binding/command ", `msg="request refused"`} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if regexp.MustCompile(`path=/api/chat/:binding/status`).FindAllString(log, -1) == nil {
		t.Errorf("the guard's refusal line lacks the path:\n%s", log)
	}
}
