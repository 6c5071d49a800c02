package server_test

import (
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/julienschmidt/httprouter"

	"tele/board/datadirtest"
	"tele/server"
	"tele/server/servertest"
	"tele/web"
)

// Security regressions of docs/security.md, through the whole stack. servertest.CheckResponse asserts on every
// response of every test that no Access-Control-* header is sent and that the security headers (and
// no-store under /api/) are present.

type st = servertest.Request

func fetchMeta(site, mode, dest string) http.Header {
	return http.Header{"Sec-Fetch-Site": {site}, "Sec-Fetch-Mode": {mode}, "Sec-Fetch-Dest": {dest}}
}

func merge(hs ...http.Header) http.Header {
	out := http.Header{}
	for _, h := range hs {
		for k, v := range h {
			out[k] = append(out[k], v...)
		}
	}
	return out
}

// TestHostCheck: rule 2, a Host other than a loopback authority of the served port is 421 on every
// route, before anything else runs (DNS rebinding).
func TestHostCheck(t *testing.T) {
	e := servertest.New(t)
	e.OverSockets()
	c := e.Create("song", servertest.ValidContent)
	hosts := []struct {
		name   string
		host   string
		wantOK bool
	}{
		{"ipv4-loopback", "127.0.0.1:4317", true},
		{"localhost", "localhost:4317", true},
		{"ipv6-loopback", "[::1]:4317", true},
		{"evil-com-same-port", "evil.com:4317", false},
		{"evil-com-no-port", "evil.com", false},
		{"rebinding-name", "attacker.example:4317", false},
		{"wrong-port", "127.0.0.1:4318", false},
		{"localhost-wrong-port", "localhost:80", false},
		{"missing-port", "127.0.0.1", false},
		{"localhost-missing-port", "localhost", false},
		{"empty-port", "127.0.0.1:", false},
		{"other-loopback-address", "127.0.0.2:4317", false},
		{"unspecified-address", "0.0.0.0:4317", false},
		{"localhost-subdomain", "tele.localhost:4317", false},
		{"userinfo-trick", "127.0.0.1:4317@evil.com", false},
	}
	routes := []struct {
		name   string
		method string
		path   string
		body   string
		header http.Header
		okCode int
	}{
		{"api-list", "GET", "/api/boards", "", nil, 200},
		{"api-board", "GET", "/api/boards/song", "", nil, 200},
		{"api-capabilities", "GET", "/api/capabilities", "", nil, 200},
		{"api-write", "PUT", "/api/boards/song", servertest.ValidContent, servertest.PutHeader(c.Capability, `"1"`), 200},
		{"unknown-route", "GET", "/nope", "", nil, 404},
	}
	for _, h := range hosts {
		for _, r := range routes {
			t.Run(h.name+"-"+r.name, func(t *testing.T) {
				hdr := r.header
				if r.method == "PUT" {
					b, _ := e.Store.Get("song")
					hdr = servertest.PutHeader(c.Capability, `"`+strconv.FormatInt(b.Revision, 10)+`"`)
				}
				before := e.Snapshot()
				w := e.Do(st{Method: r.method, Path: r.path, Body: r.body, Host: h.host, Header: hdr})
				if h.wantOK {
					if w.Code != r.okCode {
						t.Fatalf("status = %d, want %d: %s", w.Code, r.okCode, w.Body)
					}
					return
				}
				if w.Code != http.StatusMisdirectedRequest || servertest.Code(w.Body.Bytes()) != "misdirected_request" {
					t.Fatalf("got %d %s, want 421 misdirected_request", w.Code, w.Body)
				}
				datadirtest.Same(t, h.name, before, e.Snapshot())
			})
		}
	}
}

// TestFetchMetadata: rule 3. Cross-site and same-site requests are refused on every API route, reads
// included, except a top-level navigation to a page.
func TestFetchMetadata(t *testing.T) {
	e := servertest.New(t)
	e.OverSockets()
	e.RequireAssets()
	c := e.Create("song", servertest.ValidContent)
	put := servertest.PutHeader(c.Capability, `"1"`)
	tests := []struct {
		name       string
		method     string
		path       string
		body       string
		header     http.Header
		wantStatus int
		wantCode   string
	}{
		{"GET-api-list-cross-site", "GET", "/api/boards", "", fetchMeta("cross-site", "cors", "empty"), 403, "cross_site"},
		{"GET-api-list-same-site", "GET", "/api/boards", "", fetchMeta("same-site", "cors", "empty"), 403, "cross_site"},
		{"GET-api-board-cross-site", "GET", "/api/boards/song", "", fetchMeta("cross-site", "no-cors", "empty"), 403, "cross_site"},
		{"GET-api-board-same-site", "GET", "/api/boards/song", "", fetchMeta("same-site", "cors", "empty"), 403, "cross_site"},
		{"GET-api-events-cross-site", "GET", "/api/boards/song/events", "", fetchMeta("cross-site", "cors", "empty"), 403, "cross_site"},
		{"GET-api-catalogue-same-site", "GET", "/api/catalogue", "", fetchMeta("same-site", "no-cors", "script"), 403, "cross_site"},
		{"GET-api-capabilities-cross-site", "GET", "/api/capabilities", "", fetchMeta("cross-site", "cors", "empty"), 403, "cross_site"},
		{"GET-asset-cross-site", "GET", "/assets/x.js", "", fetchMeta("cross-site", "no-cors", "script"), 403, "cross_site"},
		{"PUT-cross-site", "PUT", "/api/boards/song", servertest.ValidContent, merge(put, fetchMeta("cross-site", "cors", "empty")), 403, "cross_site"},
		{"PUT-same-site", "PUT", "/api/boards/song", servertest.ValidContent, merge(put, fetchMeta("same-site", "cors", "empty")), 403, "cross_site"},
		{"POST-cross-site", "POST", "/api/boards", `{"id":"csrf"}`, merge(http.Header{"Content-Type": {"application/json"}}, fetchMeta("cross-site", "cors", "empty")), 403, "cross_site"},
		{"POST-same-site-form", "POST", "/api/boards", `id=csrf`, merge(http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, fetchMeta("same-site", "navigate", "document")), 403, "cross_site"},
		{"navigate-cross-site-to-api-refused", "GET", "/api/boards", "", fetchMeta("cross-site", "navigate", "document"), 403, "cross_site"},
		{"navigate-cross-site-to-board-json-refused", "GET", "/api/boards/song", "", fetchMeta("cross-site", "navigate", "document"), 403, "cross_site"},
		{"navigate-cross-site-in-iframe-refused", "GET", "/b/song", "", fetchMeta("cross-site", "navigate", "iframe"), 403, "cross_site"},
		{"cross-site-POST-navigation-to-page-refused", "POST", "/b/song", "", fetchMeta("cross-site", "navigate", "document"), 403, "cross_site"},
		{"unknown-sec-fetch-site-refused", "GET", "/api/boards", "", fetchMeta("cross-origin", "cors", "empty"), 403, "cross_site"},

		{"navigate-cross-site-to-board-page", "GET", "/b/song", "", fetchMeta("cross-site", "navigate", "document"), 200, ""},
		{"navigate-cross-site-to-index", "GET", "/", "", fetchMeta("cross-site", "navigate", "document"), 200, ""},
		{"navigate-same-site-to-board-page", "GET", "/b/song", "", fetchMeta("same-site", "navigate", "document"), 200, ""},
		{"GET-api-sec-fetch-none", "GET", "/api/boards", "", fetchMeta("none", "navigate", "document"), 200, ""},
		{"GET-api-same-origin", "GET", "/api/boards/song", "", fetchMeta("same-origin", "cors", "empty"), 200, ""},
		{"GET-api-no-fetch-metadata", "GET", "/api/boards/song", "", nil, 200, ""},
		{"PUT-same-origin", "PUT", "/api/boards/song", servertest.ValidContent, merge(put, fetchMeta("same-origin", "cors", "empty"), http.Header{"Origin": {"http://127.0.0.1:4317"}}), 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := e.Snapshot()
			w := e.Do(st{Method: tt.method, Path: tt.path, Body: tt.body, Header: tt.header})
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d: %.300s", w.Code, tt.wantStatus, w.Body)
			}
			if tt.wantCode != "" {
				if got := servertest.Code(w.Body.Bytes()); got != tt.wantCode {
					t.Errorf("code = %q, want %q", got, tt.wantCode)
				}
				datadirtest.Same(t, tt.name, before, e.Snapshot())
			}
		})
	}
}

// TestPreflightRefused: rule 5. No OPTIONS request succeeds, on any path, and none is answered with
// CORS headers (CheckResponse asserts the latter on every response).
func TestPreflightRefused(t *testing.T) {
	e := servertest.New(t)
	e.OverSockets()
	e.Create("song", "")
	preflight := http.Header{
		"Origin":                         {"http://evil.example"},
		"Access-Control-Request-Method":  {"PUT"},
		"Access-Control-Request-Headers": {"authorization, content-type, if-match"},
	}
	tests := []struct {
		name     string
		path     string
		header   http.Header
		wantCode string
	}{
		{"preflight-board-write", "/api/boards/song", merge(preflight, fetchMeta("cross-site", "cors", "empty")), "cross_site"},
		{"preflight-create", "/api/boards", merge(preflight, fetchMeta("same-site", "cors", "empty")), "cross_site"},
		{"preflight-without-fetch-metadata", "/api/boards/song", preflight, "preflight_refused"},
		{"options-same-origin", "/api/boards", fetchMeta("same-origin", "cors", "empty"), "preflight_refused"},
		{"options-page", "/b/song", nil, "preflight_refused"},
		{"options-unknown-route", "/api/nope", nil, "preflight_refused"},
		{"options-server-wide", "*", nil, "preflight_refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := e.Do(st{Method: "OPTIONS", Path: tt.path, Header: tt.header})
			if w.Code != http.StatusForbidden || servertest.Code(w.Body.Bytes()) != tt.wantCode {
				t.Fatalf("got %d %s, want 403 %s", w.Code, w.Body, tt.wantCode)
			}
			if allow := w.Header().Get("Allow"); allow != "" {
				t.Errorf("Allow = %q: the router answered OPTIONS itself", allow)
			}
		})
	}
	// net/http's own answer to "OPTIONS *" took any Host: the guard's Host check applies to it too.
	if w := e.Do(st{Method: "OPTIONS", Path: "*", Host: "evil.example:4317"}); w.Code != http.StatusMisdirectedRequest {
		t.Fatalf("OPTIONS * with a foreign Host: got %d %s, want 421", w.Code, w.Body)
	}
}

// TestSecurityHeaders: rule 6 on every kind of response: pages, static files, API successes, API
// errors, guard refusals, router 404/405, streams. (CheckResponse does the asserting.)
func TestSecurityHeaders(t *testing.T) {
	e := servertest.New(t)
	e.OverSockets()
	e.RequireAssets()
	e.Create("song", "")
	tests := []struct {
		name       string
		method     string
		path       string
		host       string
		header     http.Header
		wantStatus int
	}{
		{"page-index", "GET", "/", "", nil, 200},
		{"page-board", "GET", "/b/song", "", nil, 200},
		{"page-board-head", "HEAD", "/b/song", "", nil, 200},
		{"page-unknown-board-still-a-page", "GET", "/b/nobody", "", nil, 200},
		{"page-invalid-board-id", "GET", "/b/..", "", nil, 404},
		{"asset-missing", "GET", "/assets/v-0000/missing.js", "", nil, 404},
		{"api-capabilities", "GET", "/api/capabilities", "", nil, 200},
		{"api-board", "GET", "/api/boards/song", "", nil, 200},
		{"api-not-found", "GET", "/api/boards/nope", "", nil, 404},
		{"api-unknown-route", "GET", "/api/nope", "", nil, 404},
		{"api-method-not-allowed", "PATCH", "/api/boards/song", "", nil, 405},
		{"refused-host", "GET", "/b/song", "evil.com:4317", nil, 421},
		{"refused-cross-site", "GET", "/api/boards", "", fetchMeta("cross-site", "cors", "empty"), 403},
		{"refused-preflight", "OPTIONS", "/api/boards", "", nil, 403},
		{"unknown-page", "GET", "/nope", "", nil, 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := e.Do(st{Method: tt.method, Path: tt.path, Host: tt.host, Header: tt.header})
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d: %.200s", w.Code, tt.wantStatus, w.Body)
			}
		})
	}
}

// TestStaticAssetsHeaders: a real static file keeps its own long caching and still gets the security
// headers.
func TestStaticAssetsHeaders(t *testing.T) {
	e := servertest.New(t)
	e.OverSockets()
	e.RequireAssets()
	w := e.Do(st{Method: "GET", Path: e.Assets.Dir() + "/api.js"})
	if w.Code != 200 || !strings.Contains(w.Header().Get("Cache-Control"), "immutable") {
		t.Fatalf("got %d, Cache-Control %q", w.Code, w.Header().Get("Cache-Control"))
	}
}

// TestCSPIsSpec: the one page policy (docs/security.md), every directive of it.
func TestCSPIsSpec(t *testing.T) {
	want := []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
		"media-src 'self'", "img-src 'self'", "font-src 'self'", "manifest-src 'self'", "base-uri 'none'",
		"form-action 'self'", "frame-ancestors 'none'"}
	got := strings.Split(web.CSP, "; ")
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("CSP = %q", web.CSP)
	}
	if strings.Contains(web.CSP, "unsafe") {
		t.Fatal("CSP allows unsafe sources")
	}
}

// TestBodies: rule 7 on both write routes: one JSON object, no unknown field, no duplicate key, no
// trailing data; and nothing changes on disk when a body is refused.
func TestBodies(t *testing.T) {
	e := servertest.New(t)
	e.OverSockets()
	c := e.Create("song", servertest.ValidContent)
	content := servertest.ValidContent
	bodies := []struct {
		name string
		put  string
		post string
	}{
		{"unknown-field", strings.Replace(content, `"title"`, `"extra":1,"title"`, 1), `{"id":"x","extra":1}`},
		{"unknown-nested-field", strings.Replace(content, `"label":"A"`, `"label":"A","colour":"red"`, 1), `{"id":"x","content":` + strings.Replace(content, `"label":"A"`, `"label":"A","colour":"red"`, 1) + `}`},
		{"duplicate-key", strings.Replace(content, `"tempo":120`, `"tempo":120,"tempo":90`, 1), `{"id":"x","id":"y"}`},
		{"duplicate-key-escaped", strings.Replace(content, `"tempo":120`, `"tempo":120,"t\u0065mpo":90`, 1), `{"id":"x","\u0069d":"y"}`},
		{"duplicate-nested-key", strings.Replace(content, `"label":"A"`, `"label":"A","label":"B"`, 1), `{"id":"x","content":` + strings.Replace(content, `"label":"A"`, `"label":"A","label":"B"`, 1) + `}`},
		{"trailing-data", content + " true", `{"id":"x"} true`},
		{"trailing-comma-garbage", content + ",", `{"id":"x"},`},
		{"two-objects", content + content, `{"id":"x"}{"id":"y"}`},
		{"array", "[" + content + "]", `[{"id":"x"}]`},
		{"string", `"` + content + `"`, `"{}"`},
		{"number", `42`, `42`},
		{"null", `null`, `null`},
		{"empty", ``, ``},
		{"truncated", content[:len(content)-1], `{"id":"x"`},
		{"invalid-utf-8", strings.Replace(content, `A test board.`, "A \xff board.", 1), "{\"id\":\"x\xff\"}"},
		{"lone-surrogate", strings.Replace(content, `A test board.`, `A \ud800 board.`, 1), `{"id":"\ud800"}`},
	}
	for _, b := range bodies {
		for _, route := range []string{"PUT", "POST"} {
			t.Run(route+"-"+b.name, func(t *testing.T) {
				req := st{Method: "PUT", Path: "/api/boards/song", Body: b.put, Header: servertest.PutHeader(c.Capability, `"1"`)}
				if route == "POST" {
					req = st{Method: "POST", Path: "/api/boards", Body: b.post, Header: http.Header{"Content-Type": {"application/json"}}}
				}
				before := e.Snapshot()
				w := e.Do(req)
				if w.Code != http.StatusBadRequest || servertest.Code(w.Body.Bytes()) != "bad_json" {
					t.Fatalf("got %d %s, want 400 bad_json", w.Code, w.Body)
				}
				datadirtest.Same(t, b.name, before, e.Snapshot())
			})
		}
	}
}

// routesWithoutChecks registers write routes whose handlers check nothing at all, as a route added later
// might: the guard alone must keep other origins out.
type routesWithoutChecks struct{ reached *atomic.Int64 }

func (c routesWithoutChecks) Register(r *web.Router) {
	h := func(w http.ResponseWriter, _ *http.Request, _ httprouter.Params) {
		c.reached.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	}
	r.Handle(web.Write, "POST", "/api/unchecked", h)
	r.Handle(web.Write, "DELETE", "/api/unchecked", h)
	r.Handle(web.Chat, "POST", "/api/chat/:binding/unchecked", h)
}

// TestNewWriteRouteIsGuarded: a POST or DELETE route registered without any origin check of its own is
// still refused to another origin (and, under /api/chat/, to a request without Origin), before its
// handler runs.
func TestNewWriteRouteIsGuarded(t *testing.T) {
	var reached atomic.Int64
	e := servertest.New(t, func(c *server.Config) { c.Chat = routesWithoutChecks{&reached} })
	e.OverSockets()
	own := http.Header{"Origin": {"http://127.0.0.1:4317"}}
	tests := []struct {
		name       string
		method     string
		path       string
		header     http.Header
		wantStatus int
		wantCode   string
	}{
		{"POST-foreign-origin", "POST", "/api/unchecked", http.Header{"Origin": {"http://evil.example"}}, 403, "bad_origin"},
		{"POST-null-origin", "POST", "/api/unchecked", http.Header{"Origin": {"null"}}, 403, "bad_origin"},
		{"POST-other-port", "POST", "/api/unchecked", http.Header{"Origin": {"http://127.0.0.1:1"}}, 403, "bad_origin"},
		{"DELETE-foreign-origin", "DELETE", "/api/unchecked", http.Header{"Origin": {"http://evil.example"}}, 403, "bad_origin"},
		{"POST-cross-site", "POST", "/api/unchecked", merge(own, fetchMeta("cross-site", "cors", "empty")), 403, "cross_site"},
		{"POST-same-site", "POST", "/api/unchecked", merge(own, fetchMeta("same-site", "cors", "empty")), 403, "cross_site"},
		{"chat-POST-no-origin", "POST", "/api/chat/x/unchecked", nil, 403, "bad_origin"},
		{"chat-POST-foreign-origin", "POST", "/api/chat/x/unchecked", http.Header{"Origin": {"http://evil.example"}}, 403, "bad_origin"},
		{"POST-own-origin", "POST", "/api/unchecked", own, 200, ""},
		{"POST-no-origin-curl", "POST", "/api/unchecked", nil, 200, ""},
		{"chat-POST-own-origin", "POST", "/api/chat/x/unchecked", merge(own, fetchMeta("same-origin", "cors", "empty")), 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := reached.Load()
			w := e.Do(st{Method: tt.method, Path: tt.path, Body: `{}`, Header: tt.header})
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d: %s", w.Code, tt.wantStatus, w.Body)
			}
			if got := servertest.Code(w.Body.Bytes()); tt.wantCode != "" && got != tt.wantCode {
				t.Errorf("code = %q, want %q", got, tt.wantCode)
			}
			if ran := reached.Load() > before; ran != (tt.wantStatus == 200) {
				t.Errorf("handler ran = %v", ran)
			}
		})
	}
}
