package server_test

import (
	"net/http"
	"strings"
	"testing"

	"tele/server/servertest"
)

// loopbackRoutes is every route of the loopback listener (docs/api.md), with a path that exists.
var loopbackRoutes = []string{
	"/b/welcome", "/api/capabilities", "/api/catalogue", "/api/boards", "/api/boards/welcome",
	"/api/boards/welcome/events", "/api/boards/welcome/revisions", "/api/boards/welcome/revisions/1",
	"/api/boards/welcome/restore", "/api/boards/welcome/capability", "/api/boards/welcome/copy",
	"/api/boards/welcome/export?format=chordpro", "/api/import", "/api/read", "/api/sets", "/api/sets/gig",
	"/api/share", "/api/share/qr", "/api/share/key", "/api/share/lead", "/api/share/state", "/api/share/claim", "/api/share/events",
	"/api/chat/pair", "/api/chat/x", "/api/chat/x/status", "/api/chat/x/events", "/api/chat/x/command",
}

var allMethods = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"}

// TestShareListenerSecurity is the share listener's table (docs/security.md): with a follower's valid
// cookie, every loopback route and method is 404, and so is every other method on the listener's own
// routes; a wrong Host is 421, a cross-site or same-site request 403, a foreign Origin on the join 403;
// without the cookie, with a made-up one, and with an old one after a new key and after stopping, the
// follower routes are 401; failed joins are throttled while the right key still joins. No answer
// holds a capability, the leader token or the join key.
func TestShareListenerSecurity(t *testing.T) {
	s := startShared(t, true)
	if res, body := s.do(s.loop, "POST", "/api/sets", "", nil, `{"id":"gig","title":"Gig","boards":["welcome"]}`); res.StatusCode != 201 {
		t.Fatalf("set: %d %s", res.StatusCode, body)
	}
	key, leader := s.startShare()
	cookie := s.join(key)
	s.setState(leader, `{"board":"welcome","set":"gig"}`)
	secrets := []string{s.capWelcom, leader, key}
	var answers []string
	check := func(name string, method, path, host string, h http.Header, body string, status int, code string) {
		t.Helper()
		res, b := s.do(s.share, method, path, host, h, body)
		answers = append(answers, b, strings.Join(res.Header.Values("Set-Cookie"), ";"))
		if res.StatusCode != status || (method != "HEAD" && servertest.Code([]byte(b)) != code) {
			t.Errorf("%s: %s %s: %d %s, want %d %s", name, method, path, res.StatusCode, b, status, code)
		}
	}
	withCookie := http.Header{"Cookie": {cookie}}

	for _, p := range loopbackRoutes {
		for _, m := range allMethods {
			body := ""
			if m == "POST" || m == "PUT" || m == "PATCH" {
				body = "{}"
			}
			check("loopback route", m, p, "", withCookie, body, 404, "not_found")
		}
	}
	own := map[string][]string{"/api/join": {"GET", "PUT", "DELETE"}, "/api/band": {"POST", "PUT", "DELETE"},
		"/api/band/events": {"POST"}, "/api/band/time": {"POST"}, "/api/band/boards/welcome": {"PUT", "DELETE", "POST"},
		"/join": {"POST"}, "/": {"POST", "DELETE"}}
	for p, ms := range own {
		for _, m := range ms {
			check("another method", m, p, "", withCookie, "", 404, "not_found")
		}
	}
	check("unknown path", "GET", "/api/band/boards", "", withCookie, "", 404, "not_found")
	check("unknown path", "GET", "/api/band/sets/gig", "", withCookie, "", 404, "not_found")

	port := s.share[strings.LastIndexByte(s.share, ':'):]
	for _, host := range []string{"127.0.0.1" + port, "localhost" + port, s.loop, "evil.example", "127.0.0.2", "evil.example" + port} {
		check("wrong host "+host, "GET", "/api/band", host, withCookie, "", 421, "misdirected_request")
		check("wrong host "+host, "POST", "/api/join", host, nil, `{"key":"`+key+`"}`, 421, "misdirected_request")
	}
	for _, site := range []string{"cross-site", "same-site", "weird"} {
		h := http.Header{"Cookie": {cookie}, "Sec-Fetch-Site": {site}}
		check("fetch metadata "+site, "GET", "/api/band", "", h, "", 403, "cross_site")
		check("fetch metadata "+site, "POST", "/api/join", "", http.Header{"Sec-Fetch-Site": {site}}, `{"key":"`+key+`"}`, 403, "cross_site")
	}
	check("foreign origin", "POST", "/api/join", "", http.Header{"Origin": {"http://evil.example"}}, `{"key":"`+key+`"}`, 403, "bad_origin")
	check("preflight", "OPTIONS", "/api/join", "", nil, "", 403, "preflight_refused")

	follower := []string{"/api/band", "/api/band/events", "/api/band/time", "/api/band/boards/welcome"}
	for _, p := range follower {
		check("no cookie", "GET", p, "", nil, "", 401, "unauthorized")
		check("made-up cookie", "GET", p, "", http.Header{"Cookie": {"tele_band=" + strings.Repeat("A", 43)}}, "", 401, "unauthorized")
		check("the key as a cookie", "GET", p, "", http.Header{"Cookie": {"tele_band=" + key}}, "", 401, "unauthorized")
		check("the leader token as a cookie", "GET", p, "", http.Header{"Cookie": {"tele_band=" + leader}}, "", 401, "unauthorized")
	}
	check("the current board", "GET", "/api/band/boards/welcome", "", withCookie, "", 200, "")
	check("the follow page", "GET", "/", "", nil, "", 200, "")
	check("the join page", "GET", "/join", "", nil, "", 200, "")
	check("a page opened from elsewhere", "GET", "/join", "", http.Header{"Sec-Fetch-Site": {"cross-site"}, "Sec-Fetch-Mode": {"navigate"}, "Sec-Fetch-Dest": {"document"}}, "", 200, "")

	// Throttled joins: 5 wrong keys are 403, then 429 with Retry-After; the right key still joins.
	for i := range 5 {
		check("wrong key", "POST", "/api/join", "", nil, `{"key":"wrong`+strings.Repeat("x", i)+`"}`, 403, "bad_key")
	}
	res, b := s.do(s.share, "POST", "/api/join", "", nil, `{"key":"wrong"}`)
	if res.StatusCode != 429 || servertest.Code([]byte(b)) != "rate_limited" || res.Header.Get("Retry-After") == "" {
		t.Errorf("sixth wrong key: %d %s", res.StatusCode, b)
	}
	second := s.join(key)

	// After a new key, and after stopping, the old cookies are refused.
	newJoin := s.newKey(leader)
	for _, c := range []string{cookie, second} {
		check("old cookie after a new key", "GET", "/api/band", "", http.Header{"Cookie": {c}}, "", 401, "unauthorized")
	}
	_, newKey, _ := strings.Cut(newJoin, "#key=")
	secrets = append(secrets, newKey)
	third := s.join(newKey)
	check("the new cookie", "GET", "/api/band", "", http.Header{"Cookie": {third}}, "", 200, "")
	if res, _ := s.do(s.loop, "DELETE", "/api/share", "", bearer(leader), ""); res.StatusCode != 204 {
		t.Fatalf("stop: %d", res.StatusCode)
	}
	check("old cookie after stopping", "GET", "/api/band", "", http.Header{"Cookie": {third}}, "", 401, "unauthorized")
	check("old cookie after stopping", "GET", "/api/band/boards/welcome", "", http.Header{"Cookie": {third}}, "", 401, "unauthorized")

	for _, a := range answers {
		for _, sec := range secrets {
			if strings.Contains(a, sec) {
				t.Fatalf("an answer of the share listener holds a secret: %s", a)
			}
		}
	}
}
