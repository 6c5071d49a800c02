package boardhttp_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"

	"tele/board/boardhttp"
	"tele/board/datadirtest"
	"tele/server/servertest"
)

// TestRotateCapability (issue 11, finding 2): POST /api/boards/:board/capability with the current
// capability answers a new one; every refusal changes nothing; afterwards the old key is refused.
func TestRotateCapability(t *testing.T) {
	e := servertest.New(t)
	song := e.Create("song", servertest.ValidContent)
	other := e.Create("other", "")
	good := func() http.Header { return servertest.PutHeader(song.Capability, "") }
	with := func(kv ...string) func() http.Header { return headerWith(good, kv...) }
	tests := []struct {
		name       string
		path       string
		body       string
		header     func() http.Header
		wantStatus int
		wantCode   string
	}{
		{name: "unknown-board", path: "/api/boards/nope/capability", header: good, wantStatus: 404, wantCode: "not_found"},
		{name: "invalid-id", path: "/api/boards/a.b/capability", header: good, wantStatus: 404, wantCode: "not_found"},
		{name: "text-plain", header: with("Content-Type", "text/plain"), wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "no-content-type", header: with("Content-Type", ""), wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "too-large", body: `{"x":"` + strings.Repeat("x", 4<<10) + `"}`, header: good, wantStatus: 413, wantCode: "too_large"},
		{name: "no-authorization", header: with("Authorization", ""), wantStatus: 401, wantCode: "unauthorized"},
		{name: "wrong-capability", header: with("Authorization", "Bearer "+strings.Repeat("A", 43)), wantStatus: 403, wantCode: "bad_capability"},
		{name: "capability-of-another-board", header: with("Authorization", "Bearer "+other.Capability), wantStatus: 403, wantCode: "bad_capability"},
		{name: "foreign-origin", header: with("Origin", "http://evil.example"), wantStatus: 403, wantCode: "bad_origin"},
		{name: "cross-site", header: with("Sec-Fetch-Site", "cross-site"), wantStatus: 403, wantCode: "cross_site"},
		{name: "unknown-member", body: `{"capability":"mine"}`, header: good, wantStatus: 400, wantCode: "bad_json"},
		{name: "not-an-object", body: `[]`, header: good, wantStatus: 400, wantCode: "bad_json"},
		{name: "empty-body", body: "-", header: good, wantStatus: 400, wantCode: "bad_json"},
		{name: "order-capability-before-body", body: `garbage`, header: with("Authorization", "Bearer wrong"), wantStatus: 403, wantCode: "bad_capability"},
		{name: "order-content-type-before-authorization", header: with("Content-Type", "text/plain", "Authorization", ""), wantStatus: 415, wantCode: "unsupported_media_type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, body := tt.path, tt.body
			if path == "" {
				path = "/api/boards/song/capability"
			}
			switch body {
			case "":
				body = "{}"
			case "-":
				body = ""
			}
			before := e.Snapshot()
			w := e.Do(st{Method: "POST", Path: path, Body: body, Header: tt.header()})
			if w.Code != tt.wantStatus || servertest.Code(w.Body.Bytes()) != tt.wantCode {
				t.Fatalf("%d %s, want %d %s", w.Code, w.Body, tt.wantStatus, tt.wantCode)
			}
			datadirtest.Same(t, tt.name, before, e.Snapshot())
			if tt.wantStatus == 401 && w.Header().Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
			if err := e.Store.Authorize("song", song.Capability); err != nil {
				t.Fatalf("a refused rotation changed the key: %v", err)
			}
		})
	}

	w := e.Do(st{Method: "POST", Path: "/api/boards/song/capability", Body: "{}", Header: good()})
	var answer map[string]string
	if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &answer) != nil || len(answer) != 1 || len(answer["capability"]) != 43 {
		t.Fatalf("rotation: %d %s", w.Code, w.Body)
	}
	fresh := answer["capability"]
	// The old key stops working at once: for a write and for another rotation.
	if w := e.Do(st{Method: "PUT", Path: "/api/boards/song", Body: servertest.ValidContent, Header: servertest.PutHeader(song.Capability, `"1"`)}); w.Code != 403 {
		t.Fatalf("PUT with the old key: %d", w.Code)
	}
	if w := e.Do(st{Method: "POST", Path: "/api/boards/song/capability", Body: "{}", Header: good()}); w.Code != 403 {
		t.Fatalf("rotation with the old key: %d", w.Code)
	}
	if w := e.Do(st{Method: "PUT", Path: "/api/boards/song", Body: servertest.ValidContent, Header: servertest.PutHeader(fresh, `"1"`)}); w.Code != 200 {
		t.Fatalf("PUT with the new key: %d %s", w.Code, w.Body)
	}
	if err := e.Store.Authorize("other", other.Capability); err != nil {
		t.Fatal("another board's key changed")
	}
}

// TestRotateCapabilityRateLimit: rotations spend the board's write budget, so a runaway client cannot
// grind the disk with them either; a throttled one changes nothing.
func TestRotateCapabilityRateLimit(t *testing.T) { synctest.Test(t, testRotateCapabilityRateLimit) }

func testRotateCapabilityRateLimit(t *testing.T) {
	e := servertest.New(t) // in the bubble, the bucket does not refill while the test rotates
	key := e.Create("busy", servertest.ValidContent).Capability
	for i := range boardhttp.WriteBurst {
		w := e.Do(st{Method: "POST", Path: "/api/boards/busy/capability", Body: "{}", Header: servertest.PutHeader(key, "")})
		var answer struct{ Capability string }
		if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &answer) != nil {
			t.Fatalf("rotation %d: %d %s", i+1, w.Code, w.Body)
		}
		key = answer.Capability
	}
	before := e.Snapshot()
	w := e.Do(st{Method: "POST", Path: "/api/boards/busy/capability", Body: "{}", Header: servertest.PutHeader(key, "")})
	if w.Code != 429 || servertest.Code(w.Body.Bytes()) != "rate_limited" || w.Header().Get("Retry-After") == "" {
		t.Fatalf("rotation past the burst: %d %s", w.Code, w.Body)
	}
	datadirtest.Same(t, "a throttled rotation", before, e.Snapshot())
}

// TestRotateCapabilityEvent: open pages hear of a rotation on the board's stream, as a `capability`
// event that names the new key by its fingerprint and never carries it; board events go on after it.
func TestRotateCapabilityEvent(t *testing.T) {
	l := servertest.New(t).Start()
	c := l.Create("live", servertest.ValidContent)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, _ := openEvents(t, ctx, l.URL+"/api/boards/live/events")
	if first := next(t, events); first.name != "board" {
		t.Fatalf("first event %q", first.name)
	}
	req, _ := http.NewRequest("POST", l.URL+"/api/boards/live/capability", strings.NewReader("{}"))
	req.Header = servertest.PutHeader(c.Capability, "")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var answer struct{ Capability string }
	json.NewDecoder(res.Body).Decode(&answer)
	res.Body.Close()
	if res.StatusCode != 200 || answer.Capability == "" {
		t.Fatalf("rotation: %d", res.StatusCode)
	}
	ev := next(t, events)
	sum := sha256.Sum256([]byte(answer.Capability)) // the page's fingerprint: base64url of SHA-256's first 16 bytes
	want := `{"id":"live","fingerprint":"` + base64.RawURLEncoding.EncodeToString(sum[:16]) + `"}`
	if ev.name != "capability" || ev.data != want {
		t.Fatalf("event %q %s, want capability %s", ev.name, ev.data, want)
	}
	if strings.Contains(ev.data, answer.Capability) || strings.Contains(ev.data, c.Capability) {
		t.Fatal("the event carries a key")
	}
	req, _ = http.NewRequest("PUT", l.URL+"/api/boards/live", strings.NewReader(servertest.ValidContent))
	req.Header = servertest.PutHeader(answer.Capability, `"1"`)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 200 {
		t.Fatalf("PUT with the new key: %v %v", res.StatusCode, err)
	} else {
		res.Body.Close()
	}
	if ev := next(t, events); ev.name != "board" || !strings.Contains(ev.data, `"revision":2`) {
		t.Fatalf("after the notice: %q %s", ev.name, ev.data)
	}
}
