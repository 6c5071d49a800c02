package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// testRouter holds the routes the guard's tests ask for, each of the class the server gives such a
// route; h answers them all.
func testRouter(h http.HandlerFunc) *Router {
	rt := NewRouter(nil)
	for _, m := range []string{"GET", "HEAD"} {
		rt.Handler(Page, m, "/", h)
		rt.Handler(Page, m, "/b/:board", h)
		rt.Handler(Static, m, "/assets/*filepath", h)
		rt.Handler(Read, m, "/api/boards", h)
		rt.Handler(Read, m, "/api/x", h)
		rt.Handler(Read, m, "/required/x", h)
	}
	rt.Handler(PageWrite, "POST", "/api/boards", h)
	rt.Handler(Write, "PUT", "/api/boards/:board", h)
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "BREW"} {
		rt.Handler(Write, m, "/api/x", h)
	}
	rt.Handler(Chat, "POST", "/required/x", h)
	return rt
}

// The guard in isolation; server/hardening_test.go runs the same rules through the whole stack.
func TestGuard(t *testing.T) {
	const port = 4317
	type fm struct{ site, mode, dest string }
	nav := func(site string) fm { return fm{site, "navigate", "document"} }
	tests := []struct {
		name       string
		method     string
		path       string
		host       string
		fetch      fm
		wantStatus int // 200: reached the handler
		wantCode   string
	}{
		{name: "loopback-ipv4", method: "GET", path: "/api/boards", host: "127.0.0.1:4317", wantStatus: 200},
		{name: "loopback-localhost", method: "GET", path: "/api/boards", host: "localhost:4317", wantStatus: 200},
		{name: "loopback-localhost-upper-case", method: "GET", path: "/api/boards", host: "LOCALHOST:4317", wantStatus: 200},
		{name: "loopback-ipv6", method: "GET", path: "/api/boards", host: "[::1]:4317", wantStatus: 200},

		{name: "foreign-host", method: "GET", path: "/api/boards", host: "evil.com:4317", wantStatus: 421, wantCode: "misdirected_request"},
		{name: "foreign-host-no-port", method: "GET", path: "/", host: "evil.com", wantStatus: 421, wantCode: "misdirected_request"},
		{name: "loopback-wrong-port", method: "GET", path: "/api/boards", host: "127.0.0.1:4318", wantStatus: 421, wantCode: "misdirected_request"},
		{name: "loopback-missing-port", method: "GET", path: "/api/boards", host: "127.0.0.1", wantStatus: 421, wantCode: "misdirected_request"},
		{name: "localhost-missing-port", method: "GET", path: "/", host: "localhost", wantStatus: 421, wantCode: "misdirected_request"},
		{name: "empty-host", method: "GET", path: "/", host: "", wantStatus: 421, wantCode: "misdirected_request"},
		{name: "subdomain-of-localhost", method: "GET", path: "/", host: "a.localhost:4317", wantStatus: 421, wantCode: "misdirected_request"},
		{name: "other-loopback-address", method: "GET", path: "/", host: "127.0.0.2:4317", wantStatus: 421, wantCode: "misdirected_request"},
		{name: "foreign-host-put", method: "PUT", path: "/api/boards/a", host: "rebind.example:4317", wantStatus: 421, wantCode: "misdirected_request"},

		{name: "GET-api-sec-fetch-none", method: "GET", path: "/api/boards", host: "127.0.0.1:4317", fetch: fm{"none", "navigate", "document"}, wantStatus: 200},
		{name: "GET-api-same-origin", method: "GET", path: "/api/boards", host: "127.0.0.1:4317", fetch: fm{"same-origin", "cors", "empty"}, wantStatus: 200},
		{name: "PUT-same-origin", method: "PUT", path: "/api/boards/a", host: "127.0.0.1:4317", fetch: fm{"same-origin", "cors", "empty"}, wantStatus: 200},
		{name: "GET-api-cross-site", method: "GET", path: "/api/boards", host: "127.0.0.1:4317", fetch: fm{"cross-site", "cors", "empty"}, wantStatus: 403, wantCode: "cross_site"},
		{name: "GET-api-same-site", method: "GET", path: "/api/boards", host: "127.0.0.1:4317", fetch: fm{"same-site", "no-cors", "empty"}, wantStatus: 403, wantCode: "cross_site"},
		{name: "GET-api-unknown-site", method: "GET", path: "/api/boards", host: "127.0.0.1:4317", fetch: fm{"sideways", "cors", "empty"}, wantStatus: 403, wantCode: "cross_site"},
		{name: "PUT-cross-site", method: "PUT", path: "/api/boards/a", host: "127.0.0.1:4317", fetch: fm{"cross-site", "cors", "empty"}, wantStatus: 403, wantCode: "cross_site"},
		{name: "POST-same-site", method: "POST", path: "/api/boards", host: "127.0.0.1:4317", fetch: fm{"same-site", "no-cors", "empty"}, wantStatus: 403, wantCode: "cross_site"},
		{name: "navigate-cross-site-board-page", method: "GET", path: "/b/x", host: "127.0.0.1:4317", fetch: nav("cross-site"), wantStatus: 200},
		{name: "navigate-cross-site-index-page", method: "GET", path: "/", host: "127.0.0.1:4317", fetch: nav("cross-site"), wantStatus: 200},
		{name: "navigate-same-site-board-page", method: "GET", path: "/b/x", host: "127.0.0.1:4317", fetch: nav("same-site"), wantStatus: 200},
		{name: "navigate-cross-site-api", method: "GET", path: "/api/boards", host: "127.0.0.1:4317", fetch: nav("cross-site"), wantStatus: 403, wantCode: "cross_site"},
		{name: "navigate-cross-site-asset", method: "GET", path: "/assets/app.js", host: "127.0.0.1:4317", fetch: nav("cross-site"), wantStatus: 403, wantCode: "cross_site"},
		{name: "cross-site-page-in-iframe", method: "GET", path: "/b/x", host: "127.0.0.1:4317", fetch: fm{"cross-site", "navigate", "iframe"}, wantStatus: 403, wantCode: "cross_site"},
		{name: "cross-site-page-by-fetch", method: "GET", path: "/b/x", host: "127.0.0.1:4317", fetch: fm{"cross-site", "no-cors", "empty"}, wantStatus: 403, wantCode: "cross_site"},
		{name: "cross-site-form-post-to-page", method: "POST", path: "/b/x", host: "127.0.0.1:4317", fetch: nav("cross-site"), wantStatus: 403, wantCode: "cross_site"},
		{name: "host-checked-before-fetch-metadata", method: "GET", path: "/api/boards", host: "evil.com:4317", fetch: fm{"cross-site", "cors", "empty"}, wantStatus: 421, wantCode: "misdirected_request"},

		{name: "OPTIONS-preflight-cross-site", method: "OPTIONS", path: "/api/boards/a", host: "127.0.0.1:4317", fetch: fm{"cross-site", "cors", "empty"}, wantStatus: 403, wantCode: "cross_site"},
		{name: "OPTIONS-without-fetch-metadata", method: "OPTIONS", path: "/api/boards/a", host: "127.0.0.1:4317", wantStatus: 403, wantCode: "preflight_refused"},
		{name: "OPTIONS-same-origin", method: "OPTIONS", path: "/", host: "127.0.0.1:4317", fetch: fm{"same-origin", "cors", "empty"}, wantStatus: 403, wantCode: "preflight_refused"},
		{name: "OPTIONS-star", method: "OPTIONS", path: "*", host: "127.0.0.1:4317", wantStatus: 403, wantCode: "preflight_refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reached := false
			h := Guard(GuardConfig{Port: port}, testRouter(func(w http.ResponseWriter, r *http.Request) {
				reached = true
				w.WriteHeader(200)
			}))
			r := httptest.NewRequest(tt.method, "http://127.0.0.1:4317/", nil)
			r.URL.Path = tt.path
			r.Host = tt.host
			if tt.fetch.site != "" {
				r.Header.Set("Sec-Fetch-Site", tt.fetch.site)
				r.Header.Set("Sec-Fetch-Mode", tt.fetch.mode)
				r.Header.Set("Sec-Fetch-Dest", tt.fetch.dest)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)

			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d (%s)", w.Code, tt.wantStatus, w.Body)
			}
			if reached != (tt.wantStatus == 200) {
				t.Errorf("handler reached = %v", reached)
			}
			if tt.wantCode != "" {
				var body struct{ Error struct{ Code string } }
				if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Error.Code != tt.wantCode {
					t.Errorf("body = %s, want code %s", w.Body, tt.wantCode)
				}
			}
			checkSecurityHeaders(t, w.Result().Header, IsAPI(tt.path))
		})
	}
}

func checkSecurityHeaders(t *testing.T, h http.Header, api bool) {
	t.Helper()
	want := map[string]string{
		"Content-Security-Policy":      CSP,
		"X-Content-Type-Options":       "nosniff",
		"Referrer-Policy":              "no-referrer",
		"Cross-Origin-Opener-Policy":   "same-origin",
		"Cross-Origin-Resource-Policy": "same-origin",
	}
	if api {
		want["Cache-Control"] = "no-store"
		want["Content-Security-Policy"] = APICSP
	}
	for k, v := range want {
		if got := h.Values(k); len(got) != 1 || got[0] != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	for k := range h {
		if strings.HasPrefix(strings.ToLower(k), "access-control-") {
			t.Errorf("CORS header sent: %s", k)
		}
	}
}

func TestGuardHeadersAreNotShared(t *testing.T) {
	// The guard assigns shared header slices; a handler that adds to one must not change the next response.
	h := Guard(GuardConfig{Port: 1}, testRouter(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Content-Security-Policy", "img-src *")
		w.Header().Set("Cache-Control", "max-age=60")
	}))
	for range 2 {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "/api/x", nil)
		r.Host = "127.0.0.1:1"
		h.ServeHTTP(w, r)
	}
	if len(hdrAPICSP) != 1 || hdrAPICSP[0] != APICSP || len(hdrCSP) != 1 || hdrCSP[0] != CSP || hdrNoStore[0] != "no-store" {
		t.Fatalf("shared header values changed: %q %q %q", hdrAPICSP, hdrCSP, hdrNoStore)
	}
}

func TestCSP(t *testing.T) {
	// The exact policy of docs/security.md; a change here is a security decision, not a refactor.
	const want = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
		"media-src 'self'; img-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; " +
		"form-action 'self'; frame-ancestors 'none'"
	if CSP != want {
		t.Fatalf("CSP = %q", CSP)
	}
	if strings.Contains(CSP, "unsafe") {
		t.Fatalf("CSP allows something unsafe: %q", CSP)
	}
}
