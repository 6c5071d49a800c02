package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// originGuard is a guard in front of routes that record whether they were reached. POST /required/x
// is a Chat route: it must carry an Origin.
func originGuard(reached *bool) http.Handler {
	return Guard(GuardConfig{Port: 4317}, testRouter(func(w http.ResponseWriter, r *http.Request) {
		*reached = true
		w.WriteHeader(http.StatusOK)
	}))
}

// The Origin rule of docs/security.md, applied by the guard to every unsafe method on every path.
func TestGuardOrigin(t *testing.T) {
	tests := []struct {
		name   string
		method string
		path   string
		host   string
		origin []string
		wantOK bool
	}{
		{"exact-origin", "POST", "/required/x", "127.0.0.1:4317", []string{"http://127.0.0.1:4317"}, true},
		{"exact-origin-localhost", "POST", "/required/x", "localhost:4317", []string{"http://localhost:4317"}, true},
		{"exact-origin-ipv6", "POST", "/required/x", "[::1]:4317", []string{"http://[::1]:4317"}, true},
		{"missing-allowed-when-optional", "PUT", "/api/x", "127.0.0.1:4317", nil, true},
		{"missing-refused-when-required", "POST", "/required/x", "127.0.0.1:4317", nil, false},
		{"null-refused", "PUT", "/api/x", "127.0.0.1:4317", []string{"null"}, false},
		{"empty-refused", "PUT", "/api/x", "127.0.0.1:4317", []string{""}, false},
		{"other-port", "POST", "/api/x", "127.0.0.1:4317", []string{"http://127.0.0.1:8080"}, false},
		{"other-host-same-port", "POST", "/api/x", "127.0.0.1:4317", []string{"http://localhost:4317"}, false},
		{"foreign-site", "DELETE", "/api/x", "127.0.0.1:4317", []string{"http://evil.example"}, false},
		{"foreign-site-patch", "PATCH", "/api/x", "127.0.0.1:4317", []string{"http://evil.example"}, false},
		{"foreign-site-unknown-method", "BREW", "/api/x", "127.0.0.1:4317", []string{"http://evil.example"}, false},
		{"foreign-site-page-path", "POST", "/b/x", "127.0.0.1:4317", []string{"http://evil.example"}, false},
		{"https-scheme", "POST", "/api/x", "127.0.0.1:4317", []string{"https://127.0.0.1:4317"}, false},
		{"trailing-slash", "POST", "/api/x", "127.0.0.1:4317", []string{"http://127.0.0.1:4317/"}, false},
		{"prefix-attack", "POST", "/api/x", "127.0.0.1:4317", []string{"http://127.0.0.1:43170"}, false},
		{"two-origins", "POST", "/api/x", "127.0.0.1:4317", []string{"http://127.0.0.1:4317", "http://127.0.0.1:4317"}, false},
		{"GET-ignores-origin", "GET", "/required/x", "127.0.0.1:4317", []string{"http://evil.example"}, true},
		{"HEAD-ignores-origin", "HEAD", "/required/x", "127.0.0.1:4317", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reached := false
			r := httptest.NewRequest(tt.method, "http://127.0.0.1:4317/", nil)
			r.URL.Path = tt.path
			r.Host = tt.host
			for _, o := range tt.origin {
				r.Header.Add("Origin", o)
			}
			w := httptest.NewRecorder()
			originGuard(&reached).ServeHTTP(w, r)
			if tt.wantOK {
				if !reached || w.Code != http.StatusOK {
					t.Fatalf("refused: %d %s", w.Code, w.Body)
				}
				return
			}
			if reached || w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), `"code":"bad_origin"`) {
				t.Fatalf("got %d %s (reached %v), want 403 bad_origin", w.Code, w.Body, reached)
			}
		})
	}
}

// The guard is at least as strict as Go's http.CrossOriginProtection: whatever that refuses, the guard
// refuses too, on every path (the guard adds the exact scheme, the single Origin, the Origin checked
// even with Sec-Fetch-Site same-origin, and the required Origin of the chat routes).
func TestGuardRefusesWhatCrossOriginProtectionRefuses(t *testing.T) {
	cop := http.NewCrossOriginProtection()
	sites := []string{"", "same-origin", "none", "same-site", "cross-site", "bogus"}
	origins := [][]string{nil, {"http://127.0.0.1:4317"}, {"https://127.0.0.1:4317"}, {"http://127.0.0.1:1"},
		{"http://evil.example"}, {"null"}, {""}}
	methods := []string{"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "BREW"}
	for _, method := range methods {
		for _, site := range sites {
			for _, origin := range origins {
				r := httptest.NewRequest(method, "http://127.0.0.1:4317/api/x", nil)
				if site != "" {
					r.Header.Set("Sec-Fetch-Site", site)
				}
				for _, o := range origin {
					r.Header.Add("Origin", o)
				}
				if cop.Check(r) == nil {
					continue
				}
				reached := false
				w := httptest.NewRecorder()
				originGuard(&reached).ServeHTTP(w, r)
				if reached {
					t.Errorf("%s Sec-Fetch-Site=%q Origin=%q: CrossOriginProtection refuses it, the guard let it through",
						method, site, origin)
				}
			}
		}
	}
}
