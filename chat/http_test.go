package chat

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"tele/pairing"
)

func TestPairSetsTheCookieOfSpec5(t *testing.T) { synctest.Test(t, testPairSetsTheCookieOfSpec5) }

func testPairSetsTheCookieOfSpec5(t *testing.T) {
	e := newBubbleEnv(t)
	paired := time.Now() // the bubble's clock stands still until the test sleeps
	r := e.post("/api/chat/pair", e.pairBody(invite(e.binding)), nil)
	if r.status != 200 {
		t.Fatalf("pair: %d %s", r.status, r.body)
	}
	set := r.header.Values("Set-Cookie")
	if len(set) != 1 {
		t.Fatalf("Set-Cookie %q", set)
	}
	value := strings.TrimPrefix(strings.SplitN(set[0], ";", 2)[0], "tele_chat=")
	want := "tele_chat=" + value + "; Path=/api/chat/" + e.binding.ID() + "; Max-Age=28800; HttpOnly; SameSite=Strict"
	if set[0] != want {
		t.Fatalf("Set-Cookie\n got %s\nwant %s", set[0], want)
	}
	if strings.Contains(strings.ToLower(set[0]), "secure") || strings.Contains(set[0], "Expires") || len(value) != 43 {
		t.Fatalf("cookie attributes: %s", set[0])
	}
	// The answer carries the board's capability (the link no longer does), in a no-store body.
	body := r.json(t)
	if len(body) != 4 || body["binding"] != e.binding.ID() || body["epoch"] != e.binding.Epoch() ||
		body["expiresAt"] != paired.Add(8*time.Hour).Format(time.RFC3339) || body["capability"] != testCapability {
		t.Fatalf("pair body %s", r.body)
	}
	if r.header.Get("Cache-Control") != "no-store" || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("headers %v", r.header)
	}
	if st := e.do("GET", e.base()+"/status", "", nil, &http.Cookie{Name: "tele_chat", Value: value}); st.status != 200 {
		t.Fatalf("status with the new cookie: %d %s", st.status, st.body)
	}
}

func TestPairRefusesBadRequests(t *testing.T) {
	e := newEnv(t)
	inv := invite(e.binding)
	body := e.pairBody(inv)
	json := "application/json"
	cases := []struct {
		name   string
		hdr    map[string]string
		body   string
		status int
		code   string
	}{
		{"no Origin", map[string]string{"Content-Type": json}, body, 403, "bad_origin"},
		{"foreign Origin", map[string]string{"Origin": "http://evil.example", "Content-Type": json}, body, 403, "bad_origin"},
		{"other port Origin", map[string]string{"Origin": "http://127.0.0.1:1", "Content-Type": json}, body, 403, "bad_origin"},
		{"null Origin", map[string]string{"Origin": "null", "Content-Type": json}, body, 403, "bad_origin"},
		{"form content type", map[string]string{"Origin": e.origin, "Content-Type": "application/x-www-form-urlencoded"}, body, 415, "unsupported_media_type"},
		{"text content type", map[string]string{"Origin": e.origin, "Content-Type": "text/plain"}, body, 415, "unsupported_media_type"},
		{"no content type", map[string]string{"Origin": e.origin}, body, 415, "unsupported_media_type"},
		{"unknown field", map[string]string{"Origin": e.origin, "Content-Type": json}, `{"binding":"x","invitation":"y","extra":1}`, 400, "bad_json"},
		{"duplicate key", map[string]string{"Origin": e.origin, "Content-Type": json}, `{"binding":"x","binding":"x","invitation":"y"}`, 400, "bad_json"},
		{"trailing data", map[string]string{"Origin": e.origin, "Content-Type": json}, body + `{}`, 400, "bad_json"},
		{"too large", map[string]string{"Origin": e.origin, "Content-Type": json}, `{"binding":"` + strings.Repeat("a", MaxPairBytes) + `","invitation":""}`, 413, "too_large"},
		{"cross-site", map[string]string{"Origin": e.origin, "Content-Type": json, "Sec-Fetch-Site": "cross-site"}, body, 403, "cross_site"},
		{"same-site", map[string]string{"Origin": e.origin, "Content-Type": json, "Sec-Fetch-Site": "same-site"}, body, 403, "cross_site"},
	}
	for _, c := range cases {
		r := e.do("POST", "/api/chat/pair", c.body, c.hdr, nil)
		if r.status != c.status || r.code() != c.code || len(r.header.Values("Set-Cookie")) != 0 ||
			strings.Contains(string(r.body), testCapability) {
			t.Errorf("%s: %d %s, want %d %s", c.name, r.status, r.body, c.status, c.code)
		}
	}
	// None of that spent the invitation or the failure budget.
	if r := e.post("/api/chat/pair", body, nil); r.status != 200 {
		t.Fatalf("the invitation should still work: %d %s", r.status, r.body)
	}
	// A POST to a binding that is not "pair" is no pairing route.
	if r := e.post(e.base(), body, nil); r.status != 404 {
		t.Fatalf("POST %s: %d", e.base(), r.status)
	}
}

func TestEveryBadInvitationGetsTheSameAnswer(t *testing.T) {
	synctest.Test(t, testEveryBadInvitationGetsTheSameAnswer)
}

func testEveryBadInvitationGetsTheSameAnswer(t *testing.T) {
	e := newBubbleEnv(t)
	other, _ := pairing.NewBinding()
	used := invite(e.binding)
	if r := e.post("/api/chat/pair", e.pairBody(used), nil); r.status != 200 {
		t.Fatal(r.status)
	}
	expired := invite(e.binding)
	advance(2 * time.Minute)
	current := invite(e.binding)

	bodies := map[string]string{
		"wrong":         e.pairBody(strings.Repeat("A", 43)),
		"expired":       e.pairBody(expired),
		"reused":        e.pairBody(used),
		"malformed":     e.pairBody("%%%"),
		"empty":         e.pairBody(""),
		"other binding": `{"binding":"` + other.ID() + `","invitation":"` + current + `"}`,
		"foreign":       e.pairBody(invite(other)),
	}
	var first *resp
	for name, body := range bodies {
		advance(pairing.FailureEvery) // stay under the failure limit
		r := e.post("/api/chat/pair", body, nil)
		if r.status != 403 || r.code() != "invitation_invalid" || len(r.header.Values("Set-Cookie")) != 0 ||
			strings.Contains(string(r.body), testCapability) {
			t.Fatalf("%s: %d %s", name, r.status, r.body)
		}
		if first == nil {
			first = &r
		} else if string(r.body) != string(first.body) {
			t.Fatalf("%s: body %s differs from %s", name, r.body, first.body)
		}
	}
	if r := e.post("/api/chat/pair", e.pairBody(current), nil); r.status != 200 {
		t.Fatalf("current invitation: %d %s", r.status, r.body)
	}
}

func TestFailedPairingIsRateLimited(t *testing.T) { synctest.Test(t, testFailedPairingIsRateLimited) }

func testFailedPairingIsRateLimited(t *testing.T) {
	e := newBubbleEnv(t)
	inv := invite(e.binding)
	for i := range pairing.FailureBurst {
		if r := e.post("/api/chat/pair", e.pairBody("wrong"), nil); r.status != 403 {
			t.Fatalf("failure %d: %d", i, r.status)
		}
	}
	r := e.post("/api/chat/pair", e.pairBody("wrong"), nil)
	if r.status != 429 || r.code() != "rate_limited" || r.header.Get("Retry-After") != "10" ||
		r.json(t)["error"].(map[string]any)["retryAfterMs"] != float64(10000) {
		t.Fatalf("throttled: %d %v %s", r.status, r.header, r.body)
	}
	// The valid invitation redeems while failures are throttled (issue 11 finding 5).
	if r := e.post("/api/chat/pair", e.pairBody(inv), nil); r.status != 200 {
		t.Fatalf("the valid invitation while throttled: %d %s", r.status, r.body)
	}
	advance(pairing.FailureEvery)
	if r := e.post("/api/chat/pair", e.pairBody("wrong"), nil); r.status != 403 {
		t.Fatalf("a failure after the wait: %d %s", r.status, r.body)
	}
}

func TestCookieIsScopedToItsBinding(t *testing.T) {
	e := newEnv(t)
	jar, _ := cookiejar.New(nil)
	client := e.client
	client.Jar = jar
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/chat/pair", strings.NewReader(e.pairBody(invite(e.binding))))
	req.Header.Set("Origin", e.origin)
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("pair: %v %v", res, err)
	}
	res.Body.Close()
	get := func(path string) int {
		res, err := client.Get(e.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if s := get(e.base() + "/status"); s != 200 {
		t.Fatalf("own binding with the jar: %d", s)
	}
	if s := get(e.base()); s != 200 {
		t.Fatalf("own projection with the jar: %d", s)
	}
	u, _ := url.Parse(e.srv.URL + "/api/chat/other")
	if len(jar.Cookies(u)) != 0 {
		t.Fatal("the browser would send the cookie to another binding's path")
	}
	if s := get("/api/chat/other/status"); s != 401 {
		t.Fatalf("another binding: %d", s)
	}

	// Sent by hand to another gateway, the cookie value is worth nothing there.
	c := jar.Cookies(&url.URL{Scheme: "http", Host: u.Host, Path: e.base()})[0]
	e2 := newEnv(t)
	if r := e2.do("GET", e2.base()+"/status", "", nil, c); r.status != 401 || r.code() != "unauthorized" {
		t.Fatalf("cookie of another binding: %d %s", r.status, r.body)
	}
	// And on this server, another binding id in the path refuses it too.
	if r := e.do("GET", "/api/chat/"+e2.binding.ID()+"/status", "", nil, c); r.status != 401 {
		t.Fatalf("foreign binding path: %d", r.status)
	}
}

func TestSessionExpiresAfterEightHours(t *testing.T) {
	synctest.Test(t, testSessionExpiresAfterEightHours)
}

func testSessionExpiresAfterEightHours(t *testing.T) {
	e := newBubbleEnv(t)
	c := e.pair()
	advance(8*time.Hour - time.Second)
	if r := e.do("GET", e.base(), "", nil, c); r.status != 200 {
		t.Fatalf("before 8 h: %d", r.status)
	}
	advance(time.Second)
	for _, path := range []string{e.base(), e.base() + "/status", e.base() + "/events"} {
		if r := e.do("GET", path, "", nil, c); r.status != 401 || r.code() != "unauthorized" {
			t.Fatalf("%s after 8 h: %d %s", path, r.status, r.body)
		}
	}
	if r := e.command(c, sendBody(newID(), e.binding.Epoch(), 1, "hi")); r.status != 401 {
		t.Fatalf("command after 8 h: %d", r.status)
	}
	if len(e.bridge.Calls()) != 0 {
		t.Fatal("bridge called")
	}
}

func TestPrivateRoutesNeedTheCookie(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	wrong := &http.Cookie{Name: "tele_chat", Value: strings.Repeat("x", 43)}
	for _, path := range []string{e.base(), e.base() + "/status", e.base() + "/events"} {
		for name, cookie := range map[string]*http.Cookie{"none": nil, "wrong": wrong} {
			if r := e.do("GET", path, "", nil, cookie); r.status != 401 || r.code() != "unauthorized" {
				t.Errorf("%s %s: %d %s", path, name, r.status, r.body)
			}
		}
		// Cross-site requests are refused by the guard, cookie or not.
		r := e.do("GET", path, "", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"}, c)
		if r.status != 403 || r.code() != "cross_site" {
			t.Errorf("%s cross-site: %d %s", path, r.status, r.body)
		}
		// Even a top-level navigation gets no private data.
		r = e.do("GET", path, "", map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}, c)
		if r.status != 403 {
			t.Errorf("%s cross-site navigation: %d", path, r.status)
		}
	}
	r := e.command(nil, sendBody(newID(), e.binding.Epoch(), 1, "hi"))
	if r.status != 401 || r.code() != "unauthorized" {
		t.Fatalf("command without cookie: %d %s", r.status, r.body)
	}
	if r := e.do("OPTIONS", e.base()+"/command", "", map[string]string{"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"}, nil); r.status != 403 {
		t.Fatalf("preflight: %d", r.status)
	}
	if len(e.bridge.Calls()) != 0 {
		t.Fatal("bridge called")
	}
}

func TestViews(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	if err := e.gw.ApplyBranch(true, []byte(`[{"type":"message","id":"u1","message":{"role":"user","content":"hello"}}]`)); err != nil {
		t.Fatal(err)
	}
	r := e.do("GET", e.base(), "", nil, c)
	if r.status != 200 || r.header.Get("Cache-Control") != "no-store" || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("view: %d %v", r.status, r.header)
	}
	v := r.json(t)
	if len(v) != 4 || v["epoch"] != e.binding.Epoch() || v["idleVersion"] != float64(1) || v["truncated"] != false {
		t.Fatalf("projection %s", r.body)
	}
	if items := v["items"].([]any); len(items) != 1 {
		t.Fatalf("items %s", r.body)
	}
	st := e.status(c)
	if len(st) != 8 || st["status"] != "idle" || st["edits"] != "apply" || st["runId"] != nil || st["notice"] != nil ||
		st["epoch"] != e.binding.Epoch() || st["idleVersion"] != float64(1) {
		t.Fatalf("status %v", st)
	}
	// The key order of the documents is fixed.
	want := `{"epoch":"` + e.binding.Epoch() + `","idleVersion":1,"truncated":false,"items":[`
	if !strings.HasPrefix(string(r.body), want) {
		t.Fatalf("projection document %s", r.body)
	}
}

func TestRevokedBindingIsGone(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	inv := invite(e.binding)
	e.gw.Revoke("off")
	e.gw.Revoke("off") // idempotent
	for _, path := range []string{e.base(), e.base() + "/status", e.base() + "/events"} {
		if r := e.do("GET", path, "", nil, c); r.status != 410 || r.code() != "revoked" {
			t.Errorf("%s: %d %s", path, r.status, r.body)
		}
	}
	if r := e.send(c, newID(), "hi"); r.status != 410 || r.code() != "revoked" {
		t.Fatalf("command: %d %s", r.status, r.body)
	}
	if r := e.post("/api/chat/pair", e.pairBody(inv), nil); r.status != 403 || r.code() != "invitation_invalid" {
		t.Fatalf("pair after revoke: %d %s", r.status, r.body)
	}
	if len(e.bridge.Calls()) != 0 {
		t.Fatal("bridge called")
	}
	if !e.binding.Revoked() {
		t.Fatal("binding not revoked")
	}
}
