package server_test

import (
	"context"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"tele/assets"
	"tele/chat"
	"tele/pairing"
	"tele/server"
	"tele/server/servertest"
	"tele/sse"
	"tele/web"
)

// loopbackClasses is the class of every route of the loopback listener under `tele host` (chat
// routes included): docs/security.md says what each class admits.
var loopbackClasses = map[string]web.Class{
	"GET /": web.Page, "HEAD /": web.Page, "GET /b/:board": web.Page, "HEAD /b/:board": web.Page,
	"GET /assets/*filepath": web.Static, "HEAD /assets/*filepath": web.Static,

	"GET /api/capabilities": web.Read, "GET /api/catalogue": web.Read, "GET /api/boards": web.Read,
	"GET /api/boards/:board": web.Read, "GET /api/boards/:board/events": web.Read,
	"GET /api/boards/:board/revisions": web.Read, "GET /api/boards/:board/revisions/:revision": web.Read,
	"GET /api/boards/:board/proposals": web.Read, "GET /api/boards/:board/proposals/:proposal": web.Read,
	"GET /api/boards/:board/export": web.Read, "GET /api/sets": web.Read, "GET /api/set-events": web.Read,
	"GET /api/sets/:set": web.Read, "GET /api/share": web.Read, "GET /api/share/qr": web.Read,
	"GET /api/chat/:binding": web.Read, "GET /api/chat/:binding/status": web.Read,
	"GET /api/chat/:binding/events": web.Read, "GET /api/share/events": web.Read,

	"PUT /api/boards/:board": web.Write, "DELETE /api/boards/:board": web.Write,
	"POST /api/boards/:board/restore": web.Write, "POST /api/boards/:board/capability": web.Write,
	"POST /api/boards/:board/claims": web.Write, "POST /api/boards/:board/claim": web.Write,
	"POST /api/boards/:board/proposals/:proposal/accept": web.Write,
	"POST /api/boards/:board/proposals/:proposal/reject": web.Write,
	"PUT /api/sets/:set": web.Write, "DELETE /api/sets/:set": web.Write,
	"DELETE /api/share": web.Write, "POST /api/share/key": web.Write, "POST /api/share/lead": web.Write,
	"POST /api/share/state": web.Write,

	"POST /api/boards": web.PageWrite, "POST /api/boards/:board/copy": web.PageWrite,
	"POST /api/import": web.PageWrite, "POST /api/read": web.PageWrite, "POST /api/sets": web.PageWrite,
	"POST /api/share": web.PageWrite, "POST /api/share/claim": web.PageWrite,

	"POST /api/chat/:binding": web.Chat, "POST /api/chat/:binding/command": web.Chat,
}

// shareClasses is the class of every route of the share listener (docs/band.md).
var shareClasses = map[string]web.Class{
	"GET /": web.Page, "HEAD /": web.Page, "GET /join": web.Page, "HEAD /join": web.Page,
	"GET /assets/*filepath": web.Static, "HEAD /assets/*filepath": web.Static,
	"GET /api/band": web.Read, "GET /api/band/time": web.Read, "GET /api/band/events": web.Read,
	"GET /api/band/boards/:board": web.Read,
	"POST /api/join":              web.Write,
}

type idleBridge struct{}

func (idleBridge) Send(context.Context, string, string) error  { return nil }
func (idleBridge) Abort(context.Context, string, string) error { return nil }

// TestRouteClasses walks both route tables: every route has the class above, no route is missing or
// extra, and the guard applies each route's class to a real request: only a Page opens to a
// cross-site navigation, only a Chat write needs an Origin, only a PageWrite refuses Sec-Fetch-Site
// none, and every write refuses a foreign Origin.
func TestRouteClasses(t *testing.T) {
	s := startShared(t, true)
	a, err := assets.New()
	if err != nil {
		t.Fatal(err)
	}
	binding, err := pairing.NewBinding()
	if err != nil {
		t.Fatal(err)
	}
	hub := sse.NewHub(sse.Options{Heartbeat: -1})
	t.Cleanup(hub.Close)
	gw := chat.NewGateway(chat.Config{Board: "welcome", Binding: binding, Bridge: idleBridge{}, Hub: hub,
		Capability: func() (string, error) { return s.capWelcom, nil }})
	quiet := slog.New(slog.DiscardHandler)
	loop := server.Routes(server.Config{Store: s.st.Store, BoardHub: hub, Sets: s.st.Sets, Band: s.st.Band,
		Assets: a, Chat: gw, Logger: quiet})
	share := server.ShareRoutes(s.st.Band, s.st.Store, s.st.Sets, a, quiet)

	for _, l := range []struct {
		name    string
		routes  *web.Router
		want    map[string]web.Class
		host    string
		guarded http.Handler
	}{
		{"loopback", loop, loopbackClasses, "127.0.0.1:4317", web.Guard(web.GuardConfig{Port: 4317}, loop)},
		{"share", share, shareClasses, s.share, web.Guard(web.GuardConfig{Host: s.share}, share)},
	} {
		got := map[string]web.Class{}
		for _, r := range l.routes.Routes() {
			got[r.Method+" "+r.Path] = r.Class
		}
		for _, k := range slices.Sorted(maps.Keys(got)) {
			if want, ok := l.want[k]; !ok || want != got[k] {
				t.Errorf("%s: %s is of class %s, want %s", l.name, k, got[k], want)
			}
		}
		for k := range l.want {
			if _, ok := got[k]; !ok {
				t.Errorf("%s: %s is not registered", l.name, k)
			}
		}
		for _, r := range l.routes.Routes() {
			path := fill(r.Path)
			probe := func(h http.Header) (int, string) {
				req := httptest.NewRequest(r.Method, "http://"+l.host+path, strings.NewReader("{}"))
				req.Host = l.host
				req.Header.Set("Content-Type", "application/json")
				for k, v := range h {
					req.Header[k] = v
				}
				ctx, cancel := context.WithCancel(req.Context())
				cancel() // a stream that passes answers its headers and ends
				w := httptest.NewRecorder()
				l.guarded.ServeHTTP(w, req.WithContext(ctx))
				return w.Code, servertest.Code(w.Body.Bytes())
			}
			name := l.name + ": " + r.Method + " " + r.Path
			nav := http.Header{"Sec-Fetch-Site": {"cross-site"}, "Sec-Fetch-Mode": {"navigate"}, "Sec-Fetch-Dest": {"document"}}
			if _, code := probe(nav); (code == "cross_site") == (r.Class == web.Page && r.Method == "GET") {
				t.Errorf("%s, a cross-site navigation: code %q", name, code)
			}
			if r.Method == "GET" || r.Method == "HEAD" {
				continue
			}
			own := "http://" + l.host
			if _, code := probe(nil); (code == "bad_origin") != (r.Class == web.Chat) {
				t.Errorf("%s without Origin: code %q", name, code)
			}
			if _, code := probe(http.Header{"Origin": {own}, "Sec-Fetch-Site": {"none"}}); (code == "cross_site") != (r.Class == web.PageWrite) {
				t.Errorf("%s with Sec-Fetch-Site none: code %q", name, code)
			}
			if status, code := probe(http.Header{"Origin": {"http://evil.example"}}); status != 403 || code != "bad_origin" {
				t.Errorf("%s from another origin: %d %q", name, status, code)
			}
		}
	}
}

// fill gives a route pattern's parameters values that exist (the example board, a set made by none).
func fill(pattern string) string {
	var out []string
	for _, seg := range strings.Split(pattern, "/") {
		switch {
		case seg == ":board":
			seg = "welcome"
		case seg == ":revision":
			seg = "1"
		case strings.HasPrefix(seg, "*"):
			seg = "app.js"
		case strings.HasPrefix(seg, ":"):
			seg = "x"
		}
		out = append(out, seg)
	}
	return strings.Join(out, "/")
}
