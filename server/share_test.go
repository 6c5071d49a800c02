package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"image/png"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"rsc.io/qr"

	"tele/server"
	"tele/server/servertest"
	"tele/sse/ssetest"
)

// shared is a running server with a share listener on 127.0.0.2 (Linux routes all of 127/8 to lo),
// both over real sockets, as `tele serve --share` runs them.
type shared struct {
	t         *testing.T
	st        *server.Started
	loop      string // 127.0.0.1:port
	share     string // 127.0.0.2:port
	capWelcom string // the example board's capability
}

// freeSharePort finds a port free on 127.0.0.2.
func freeSharePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.2:0")
	if err != nil {
		t.Skipf("no 127.0.0.2 on this machine: %v", err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func startShared(t *testing.T, share bool) *shared {
	t.Helper()
	addr := ""
	if share {
		addr = freeSharePort(t)
	}
	st, err := server.Start(server.Setup{Port: 0, DataDir: filepath.Join(t.TempDir(), "data"), Example: "welcome", Share: addr, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- st.Serve(ctx, nil) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	capability, err := st.Store.Capability("welcome")
	if err != nil {
		t.Fatal(err)
	}
	return &shared{t: t, st: st, loop: "127.0.0.1:" + strconv.Itoa(st.Port), share: addr, capWelcom: capability}
}

// do sends one request to addr with Host host (addr when empty) and returns the answer and its body.
// Every answer passes the checks every answer of every server test passes.
func (s *shared) do(addr, method, path, host string, h http.Header, body string) (*http.Response, string) {
	s.t.Helper()
	req, err := http.NewRequest(method, "http://"+addr+path, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for k, v := range h {
		req.Header[k] = v
	}
	if body != "" && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	servertest.CheckResponse(s.t, path, res)
	return res, string(b)
}

// startShare starts sharing from loopback and returns the join key and the leader token.
func (s *shared) startShare() (key, leader string) {
	s.t.Helper()
	res, body := s.do(s.loop, "POST", "/api/share", "", nil, "{}")
	var out struct{ JoinURL, Leader string }
	if res.StatusCode != 201 || json.Unmarshal([]byte(body), &out) != nil {
		s.t.Fatalf("POST /api/share: %d %s", res.StatusCode, body)
	}
	prefix := "http://" + s.share + "/join#key="
	if !strings.HasPrefix(out.JoinURL, prefix) || len(out.Leader) != 43 {
		s.t.Fatalf("joinUrl %q, leader %q", out.JoinURL, out.Leader)
	}
	key = strings.TrimPrefix(out.JoinURL, prefix)
	if len(key) != 43 {
		s.t.Fatalf("key %q", key)
	}
	return key, out.Leader
}

// join joins with key and returns the cookie header value.
func (s *shared) join(key string) string {
	s.t.Helper()
	res, body := s.do(s.share, "POST", "/api/join", "", nil, `{"key":"`+key+`"}`)
	if res.StatusCode != 204 {
		s.t.Fatalf("join: %d %s", res.StatusCode, body)
	}
	c := res.Cookies()
	if len(c) != 1 || c[0].Name != "tele_band" || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode || c[0].Path != "/" || c[0].MaxAge != 0 || !c[0].Expires.IsZero() || c[0].Secure {
		s.t.Fatalf("cookie %q", res.Header.Values("Set-Cookie"))
	}
	return "tele_band=" + c[0].Value
}

func bearer(token string) http.Header { return http.Header{"Authorization": {"Bearer " + token}} }

func (s *shared) setState(leader, state string) {
	s.t.Helper()
	if res, body := s.do(s.loop, "POST", "/api/share/state", "", bearer(leader), state); res.StatusCode != 200 {
		s.t.Fatalf("state %s: %d %s", state, res.StatusCode, body)
	}
}

// stream is a follower's event stream.
type stream struct {
	res    *http.Response
	events chan [2]string // name, data
}

func (s *shared) follow(cookie string) *stream {
	s.t.Helper()
	return s.openStream(s.share, "/api/band/events", http.Header{"Cookie": {cookie}})
}

// openStream opens the event stream at addr's path with header h.
func (s *shared) openStream(addr, path string, h http.Header) *stream {
	s.t.Helper()
	req, _ := http.NewRequest("GET", "http://"+addr+path, nil)
	for k, v := range h {
		req.Header[k] = v
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil || res.StatusCode != 200 {
		s.t.Fatalf("events %s: %v %v", path, res, err)
	}
	st := &stream{res: res, events: make(chan [2]string, 64)}
	go func() {
		defer close(st.events)
		ssetest.Read(res.Body, func(ev ssetest.Event) {
			if ev.Name != "" {
				st.events <- [2]string{ev.Name, ev.Data}
			}
		})
	}()
	s.t.Cleanup(func() { res.Body.Close() })
	return st
}

// next returns the next event whose name is name, skipping others; ok is false when the stream ended.
func (st *stream) next(t *testing.T, name string) (string, bool) {
	t.Helper()
	for {
		select {
		case ev, ok := <-st.events:
			if !ok {
				return "", false
			}
			if ev[0] == name {
				return ev[1], true
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no %s event within 10 s", name)
		}
	}
}

// ended waits for the stream to end, and checks that its last event said so (a page must not
// reconnect).
func (st *stream) ended(t *testing.T) {
	t.Helper()
	last := ""
	for {
		select {
		case ev, ok := <-st.events:
			if !ok {
				if last != "ended" {
					t.Fatalf("the stream ended after %q, not an ended event", last)
				}
				return
			}
			last = ev[0]
		case <-time.After(10 * time.Second):
			t.Fatal("the stream did not end within 10 s")
		}
	}
}

// TestShareFollow: a follower joins, streams the state and every change, the current board's content
// on every commit, reads the current board and the set's boards only; a new key and then stopping end
// its stream and its cookie at once.
func TestShareFollow(t *testing.T) {
	s := startShared(t, true)
	key, leader := s.startShare()
	cookie := s.join(key)
	ch := http.Header{"Cookie": {cookie}}

	ev := s.follow(cookie)
	first, _ := ev.next(t, "state")
	if !strings.Contains(first, `"board":""`) || !strings.Contains(first, `"followers":1`) || !strings.Contains(first, `"serverTime":`) {
		t.Fatalf("first state %s", first)
	}
	// A board and a set.
	if res, body := s.do(s.loop, "POST", "/api/boards", "", nil, `{"id":"second"}`); res.StatusCode != 201 {
		t.Fatalf("create: %d %s", res.StatusCode, body)
	}
	if res, body := s.do(s.loop, "POST", "/api/boards", "", nil, `{"id":"elsewhere"}`); res.StatusCode != 201 {
		t.Fatalf("create: %d %s", res.StatusCode, body)
	}
	if res, body := s.do(s.loop, "POST", "/api/sets", "", nil, `{"id":"gig","title":"Gig","boards":["welcome","second"]}`); res.StatusCode != 201 {
		t.Fatalf("create set: %d %s", res.StatusCode, body)
	}
	s.setState(leader, `{"board":"welcome","set":"gig","transport":{"playing":true,"tempo":120,"startedAt":1700000000000,"countIn":false,"loop":false,"from":4}}`)
	got, _ := ev.next(t, "state")
	if !strings.Contains(got, `"board":"welcome","set":"gig","transport":{"playing":true,"tempo":120,"startedAt":1700000000000,"countIn":false,"loop":false,"from":4}`) {
		t.Fatalf("state after the leader's change: %s", got)
	}
	if res, body := s.do(s.share, "GET", "/api/band", "", ch, ""); res.StatusCode != 200 || !strings.Contains(body, `"board":"welcome"`) || !strings.Contains(body, `"followers":1`) {
		t.Fatalf("GET /api/band: %d %s", res.StatusCode, body)
	}
	if res, body := s.do(s.share, "GET", "/api/band/time", "", ch, ""); res.StatusCode != 200 || !strings.HasPrefix(body, `{"serverTime":`) {
		t.Fatalf("GET /api/band/time: %d %s", res.StatusCode, body)
	}
	for path, want := range map[string]int{"/api/band/boards/welcome": 200, "/api/band/boards/second": 200, "/api/band/boards/elsewhere": 404, "/api/band/boards/nope": 404} {
		if res, body := s.do(s.share, "GET", path, "", ch, ""); res.StatusCode != want {
			t.Errorf("GET %s: %d %s, want %d", path, res.StatusCode, body, want)
		}
	}
	// A commit of the current board reaches the follower whole.
	hdr := servertest.PutHeader(s.capWelcom, `"1"`)
	hdr.Set("Content-Type", "application/json")
	if res, body := s.do(s.loop, "PUT", "/api/boards/welcome", "", hdr, servertest.ValidContent); res.StatusCode != 200 {
		t.Fatalf("PUT: %d %s", res.StatusCode, body)
	}
	if b, _ := ev.next(t, "board"); !strings.Contains(b, `"id":"welcome","revision":2`) {
		t.Fatalf("board event %s", b)
	}

	// A new key: the stream ends, the cookie stops working, the old key too; the new one joins.
	res, body := s.do(s.loop, "POST", "/api/share/key", "", bearer(leader), "{}")
	if res.StatusCode != 200 || !strings.Contains(body, `"joinUrl":"http://`+s.share+`/join#key=`) {
		t.Fatalf("new key: %d %s", res.StatusCode, body)
	}
	ev.ended(t)
	if res, _ := s.do(s.share, "GET", "/api/band", "", ch, ""); res.StatusCode != 401 {
		t.Fatalf("old cookie after a new key: %d", res.StatusCode)
	}
	if res, body := s.do(s.share, "POST", "/api/join", "", nil, `{"key":"`+key+`"}`); res.StatusCode != 403 || servertest.Code([]byte(body)) != "bad_key" {
		t.Fatalf("old key: %d %s", res.StatusCode, body)
	}
	var nk struct{ JoinURL string }
	json.Unmarshal([]byte(body), &nk)
	_, newKey, _ := strings.Cut(nk.JoinURL, "#key=")
	cookie = s.join(newKey)
	ev = s.follow(cookie)
	ev.next(t, "state")

	// Stop: the stream ends, the cookie and the leader token stop working, nothing can be joined.
	if res, body := s.do(s.loop, "DELETE", "/api/share", "", bearer(leader), ""); res.StatusCode != 204 {
		t.Fatalf("stop: %d %s", res.StatusCode, body)
	}
	ev.ended(t)
	if res, _ := s.do(s.share, "GET", "/api/band/events", "", http.Header{"Cookie": {cookie}}, ""); res.StatusCode != 401 {
		t.Fatalf("cookie after stop: %d", res.StatusCode)
	}
	if res, body := s.do(s.share, "POST", "/api/join", "", nil, `{"key":"`+newKey+`"}`); res.StatusCode != 403 || servertest.Code([]byte(body)) != "bad_key" {
		t.Fatalf("join after stop: %d %s", res.StatusCode, body)
	}
	if res, body := s.do(s.loop, "POST", "/api/share/state", "", bearer(leader), `{"board":"welcome"}`); res.StatusCode != 403 || servertest.Code([]byte(body)) != "not_leader" {
		t.Fatalf("leader after stop: %d %s", res.StatusCode, body)
	}
}

// TestShareLeaderRoutes: the loopback share routes' refusals, the QR code of the join link, and
// handing the lead over.
func TestShareLeaderRoutes(t *testing.T) {
	s := startShared(t, true)
	_, leader := s.startShare()
	tests := []struct {
		method, path, body string
		header             http.Header
		status             int
		code               string
	}{
		{"POST", "/api/share", "{}", http.Header{"Sec-Fetch-Site": {"none"}}, 403, "cross_site"},
		{"POST", "/api/share", `{"x":1}`, nil, 400, "bad_json"},
		{"POST", "/api/share", "{}", http.Header{"Origin": {"http://evil.example"}}, 403, "bad_origin"},
		{"GET", "/api/share/qr", "", nil, 401, "unauthorized"},
		{"GET", "/api/share/qr", "", bearer(strings.Repeat("A", 43)), 403, "not_leader"},
		{"DELETE", "/api/share", "", bearer("x"), 403, "not_leader"},
		{"POST", "/api/share/key", "{}", nil, 401, "unauthorized"},
		{"POST", "/api/share/state", `{"board":"nope"}`, bearer(leader), 422, "invalid_state"},
		{"POST", "/api/share/state", `{"board":"welcome","set":"nope"}`, bearer(leader), 422, "invalid_state"},
		{"POST", "/api/share/state", `{"board":"welcome","transport":{"playing":true,"tempo":500,"startedAt":0,"countIn":false,"loop":false}}`, bearer(leader), 422, "invalid_state"},
		{"POST", "/api/share/state", `{"board":"welcome","capability":"x"}`, bearer(leader), 400, "bad_json"},
	}
	for _, tt := range tests {
		res, body := s.do(s.loop, tt.method, tt.path, "", tt.header, tt.body)
		if res.StatusCode != tt.status || servertest.Code([]byte(body)) != tt.code {
			t.Errorf("%s %s %v: %d %s, want %d %s", tt.method, tt.path, tt.header, res.StatusCode, body, tt.status, tt.code)
		}
	}
	// The QR code is the join link's, pixel for pixel.
	join := s.newKey(leader)
	res, body := s.do(s.loop, "GET", "/api/share/qr", "", bearer(leader), "")
	img, err := png.Decode(strings.NewReader(body))
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/png" || err != nil {
		t.Fatalf("qr: %d %s %v", res.StatusCode, res.Header.Get("Content-Type"), err)
	}
	want, _ := qr.Encode(join, qr.M)
	const quiet = 4 // the white margin a reader needs, in modules
	if b := img.Bounds(); b.Dx() != (want.Size+2*quiet)*want.Scale || b.Dy() != b.Dx() {
		t.Fatalf("qr image %v, want %d px a side", b, (want.Size+2*quiet)*want.Scale)
	}
	for y := range want.Size {
		for x := range want.Size {
			r, _, _, _ := img.At((x+quiet)*want.Scale, (y+quiet)*want.Scale).RGBA()
			if (r == 0) != want.Black(x, y) {
				t.Fatalf("qr module (%d,%d) is not the join link's", x, y)
			}
		}
	}
	// Handing over: the new token leads, the old one no longer does.
	res, body = s.do(s.loop, "POST", "/api/share/lead", "", bearer(leader), "{}")
	var out struct{ Leader string }
	if res.StatusCode != 200 || json.Unmarshal([]byte(body), &out) != nil || len(out.Leader) != 43 {
		t.Fatalf("hand over: %d %s", res.StatusCode, body)
	}
	s.setState(out.Leader, `{"board":"welcome"}`)
	if res, _ := s.do(s.loop, "POST", "/api/share/state", "", bearer(leader), `{"board":"welcome"}`); res.StatusCode != 403 {
		t.Fatalf("the old leader token after a hand-over: %d", res.StatusCode)
	}
}

// newKey makes a new join key and returns the join link.
func (s *shared) newKey(leader string) string {
	s.t.Helper()
	res, body := s.do(s.loop, "POST", "/api/share/key", "", bearer(leader), "{}")
	var out struct{ JoinURL string }
	if res.StatusCode != 200 || json.Unmarshal([]byte(body), &out) != nil {
		s.t.Fatalf("key: %d %s", res.StatusCode, body)
	}
	return out.JoinURL
}

// TestShareOff: without --share, starting a share is 409 share_off and every share route says so.
func TestShareOff(t *testing.T) {
	s := startShared(t, false)
	for _, r := range [][2]string{{"POST", "/api/share"}, {"GET", "/api/share/qr"}, {"DELETE", "/api/share"}, {"POST", "/api/share/state"}} {
		body := ""
		if r[0] == "POST" {
			body = "{}"
		}
		res, b := s.do(s.loop, r[0], r[1], "", bearer("x"), body)
		if res.StatusCode != 409 || servertest.Code([]byte(b)) != "share_off" {
			t.Errorf("%s %s: %d %s, want 409 share_off", r[0], r[1], res.StatusCode, b)
		}
	}
}

// TestListenShareRefusals: a share address that is not an IPv4 address of this machine with a port is
// ErrShareAddr, and nothing listens.
func TestListenShareRefusals(t *testing.T) {
	for _, addr := range []string{"", "nonsense", "127.0.0.2", "0.0.0.0:4318", "[::1]:4318", "224.0.0.1:4318", "127.0.0.2:0", "127.0.0.2:65536", "192.0.2.1:4318", "localhost:4318"} {
		ln, err := server.ListenShare(addr)
		if err == nil {
			ln.Close()
			t.Errorf("ListenShare(%q) listened", addr)
			continue
		}
		if !errors.Is(err, server.ErrShareAddr) {
			t.Errorf("ListenShare(%q): %v, not ErrShareAddr", addr, err)
		}
	}
	_, err := server.Start(server.Setup{Port: 0, DataDir: filepath.Join(t.TempDir(), "d"), Example: "welcome", Share: "192.0.2.1:4318"})
	if !errors.Is(err, server.ErrShareAddr) {
		t.Fatalf("Start with an address not of this machine: %v", err)
	}
}
