package chat

import (
	"net/http"
	"testing"
)

// TestChatThroughTheServerStack: capabilities, pairing, a stream and a command through `tele host`'s
// whole stack on a loopback socket.
func TestChatThroughTheServerStack(t *testing.T) {
	e := newEnv(t)
	if r := e.do("GET", "/api/capabilities", "", nil, nil); string(r.body) != `{"chat":true}` {
		t.Fatalf("capabilities %s", r.body)
	}
	c := e.pair()
	s, r := e.openStream(c)
	if s == nil {
		t.Fatalf("stream: %d %s", r.status, r.body)
	}
	if ev := s.next(t); ev.Name != "snapshot" {
		t.Fatal(ev)
	}
	if r := e.send(c, newID(), "hello"); r.status != 202 {
		t.Fatalf("send: %d %s", r.status, r.body)
	}
	s.next(t)
	for _, k := range []struct {
		method, path string
		hdr          map[string]string
		cookie       *http.Cookie
		status       int
		code         string
	}{
		{"GET", e.base() + "/status", nil, nil, 401, "unauthorized"},
		{"GET", e.base() + "/status", map[string]string{"Sec-Fetch-Site": "cross-site"}, c, 403, "cross_site"},
		{"POST", "/api/chat/pair", map[string]string{"Content-Type": "application/json"}, nil, 403, "bad_origin"},
		{"DELETE", e.base(), nil, c, 405, "method_not_allowed"},
		{"GET", e.base() + "/nope", nil, c, 404, "not_found"},
		{"GET", e.base() + "/status/", nil, c, 404, "not_found"},
	} {
		r := e.do(k.method, k.path, `{}`, k.hdr, k.cookie)
		if r.status != k.status || r.code() != k.code || r.header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s %s: %d %s %v", k.method, k.path, r.status, r.body, r.header)
		}
	}
	e.gw.Revoke("off")
	s.waitEnd(t)
}
