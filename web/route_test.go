package web

import (
	"net/http"
	"strings"
	"testing"

	"github.com/julienschmidt/httprouter"
)

// TestRouteNeedsClass: a route cannot be registered without a class, nor with one that does not fit
// its method (a read class takes GET and HEAD only, a write class only unsafe methods, and no class
// takes OPTIONS).
func TestRouteNeedsClass(t *testing.T) {
	h := func(http.ResponseWriter, *http.Request, httprouter.Params) {}
	for _, tt := range []struct {
		class  Class
		method string
		panics string
	}{
		{0, "GET", "without a class"},
		{Class(99), "POST", "without a class"},
		{Read, "POST", "cannot be of class read"},
		{Page, "DELETE", "cannot be of class page"},
		{Static, "PUT", "cannot be of class static"},
		{Write, "GET", "cannot be of class write"},
		{PageWrite, "HEAD", "cannot be of class page-write"},
		{Chat, "OPTIONS", "cannot be of class chat"},
		{Read, "GET", ""},
		{Write, "PATCH", ""},
		{Chat, "POST", ""},
	} {
		t.Run(tt.class.String()+"-"+tt.method, func(t *testing.T) {
			defer func() {
				p, _ := recover().(string)
				if (p == "") != (tt.panics == "") || !strings.Contains(p, tt.panics) {
					t.Fatalf("panic %q, want %q", p, tt.panics)
				}
			}()
			rt := NewRouter(nil)
			rt.Handle(tt.class, tt.method, "/x", h)
			if got := rt.Routes(); len(got) != 1 || got[0] != (Route{tt.class, tt.method, "/x"}) {
				t.Fatalf("Routes() = %v", got)
			}
		})
	}
}
