package server_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/julienschmidt/httprouter"

	"tele/server"
	"tele/server/servertest"
	"tele/web"
)

// fakeChat stands for the chat gateway of `tele host`.
type fakeChat struct{}

func (fakeChat) Register(r *web.Router) {
	r.Handle(web.Read, "GET", "/api/chat/:binding", func(w http.ResponseWriter, r *http.Request, ps httprouter.Params) {
		if ps.ByName("binding") == "boom" {
			panic("chat exploded")
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"binding":"`+ps.ByName("binding")+`"}`)
	})
}

func TestCapabilities(t *testing.T) {
	tests := []struct {
		name string
		chat server.ChatRoutes
		want string
	}{
		{"serve-without-chat", nil, `{"chat":false}`},
		{"host-with-chat", fakeChat{}, `{"chat":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := servertest.New(t, func(c *server.Config) { c.Chat = tt.chat })
			w := e.Do(st{Method: "GET", Path: "/api/capabilities"})
			if w.Code != 200 || w.Body.String() != tt.want || w.Header().Get("Content-Type") != "application/json" {
				t.Fatalf("got %d %s", w.Code, w.Body)
			}
			w = e.Do(st{Method: "GET", Path: "/api/chat/abc"})
			if want := map[bool]int{true: 200, false: 404}[tt.chat != nil]; w.Code != want {
				t.Fatalf("chat route: %d, want %d", w.Code, want)
			}
		})
	}
}

// TestRouting: explicit matches only; JSON 404 and 405 under /api/.
func TestRouting(t *testing.T) {
	e := servertest.New(t)
	e.RequireAssets()
	e.Create("song", "")
	tests := []struct {
		name       string
		method     string
		path       string
		wantStatus int
		wantCode   string // for JSON errors
		wantAllow  string
	}{
		{"api-unknown", "GET", "/api/nope", 404, "not_found", ""},
		{"api-root", "GET", "/api", 404, "not_found", ""},
		{"api-trailing-slash-not-redirected", "GET", "/api/boards/", 404, "not_found", ""},
		{"api-board-trailing-slash-not-redirected", "GET", "/api/boards/song/", 404, "not_found", ""},
		{"api-case-not-redirected", "GET", "/API/boards", 404, "not_found", ""},
		{"api-dot-segments-not-redirected", "GET", "/api/x/../boards", 404, "not_found", ""},
		{"api-double-slash-not-redirected", "GET", "//api/boards", 404, "not_found", ""},
		{"api-patch-board", "PATCH", "/api/boards/song", 405, "method_not_allowed", "DELETE, GET, PUT"},
		{"api-post-board", "POST", "/api/boards/song", 405, "method_not_allowed", "DELETE, GET, PUT"},
		{"api-get-copy", "GET", "/api/boards/song/copy", 405, "method_not_allowed", "POST"},
		{"api-put-list", "PUT", "/api/boards", 405, "method_not_allowed", "GET, POST"},
		{"api-post-events", "POST", "/api/boards/song/events", 405, "method_not_allowed", "GET"},
		{"api-head-capabilities", "HEAD", "/api/capabilities", 405, "", "GET"},
		{"page-unknown", "GET", "/nope", 404, "not_found", ""},
		{"page-board-without-id", "GET", "/b/", 404, "not_found", ""},
		{"page-board-trailing-slash", "GET", "/b/song/", 404, "not_found", ""},
		{"page-index", "GET", "/", 200, "", ""},
		{"page-index-head", "HEAD", "/", 200, "", ""},
		{"page-board", "GET", "/b/song", 200, "", ""},
		{"page-post", "POST", "/b/song", 405, "method_not_allowed", "GET, HEAD"},
		{"asset-unknown", "GET", "/assets/nope.js", 404, "not_found", ""},
		{"asset-other-version", "GET", "/assets/v-0000/app.js", 404, "not_found", ""},
		{"asset-post", "POST", "/assets/app.js", 405, "method_not_allowed", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := e.Do(st{Method: tt.method, Path: tt.path})
			if w.Code != tt.wantStatus {
				t.Fatalf("status = %d, want %d: %.200s", w.Code, tt.wantStatus, w.Body)
			}
			if loc := w.Header().Get("Location"); loc != "" {
				t.Errorf("redirected to %q", loc)
			}
			// Every error has the one JSON shape, pages and assets included (a HEAD answer has no body).
			if tt.wantStatus >= 400 && tt.method != "HEAD" && tt.wantCode == "" {
				t.Fatal("an error row must name its code")
			}
			if tt.wantCode != "" {
				if ct := w.Header().Get("Content-Type"); ct != "application/json" {
					t.Errorf("Content-Type = %q, want application/json", ct)
				}
				if got := servertest.Code(w.Body.Bytes()); got != tt.wantCode {
					t.Errorf("code = %q, want %q: %s", got, tt.wantCode, w.Body)
				}
			}
			if tt.wantAllow != "" {
				if got := w.Header().Get("Allow"); got != tt.wantAllow {
					t.Errorf("Allow = %q, want %q", got, tt.wantAllow)
				}
			}
		})
	}
}

func TestPanicRecovery(t *testing.T) {
	e := servertest.New(t, func(c *server.Config) { c.Chat = fakeChat{} })
	w := e.Do(st{Method: "GET", Path: "/api/chat/boom"})
	if w.Code != 500 || servertest.Code(w.Body.Bytes()) != "internal" {
		t.Fatalf("got %d %s", w.Code, w.Body)
	}
	if strings.Contains(w.Body.String(), "exploded") {
		t.Errorf("the panic reached the client: %s", w.Body)
	}
	if log := e.Log.String(); !strings.Contains(log, "chat exploded") || !strings.Contains(log, "status=500") {
		t.Errorf("panic not logged:\n%s", log)
	}
	if w := e.Do(st{Method: "GET", Path: "/api/chat/fine"}); w.Code != 200 {
		t.Errorf("after a panic: %d", w.Code)
	}
}

// TestAccessLog: one line per request with method, path, status and duration; never a query, a header
// or a body.
func TestAccessLog(t *testing.T) {
	e := servertest.New(t)
	c := e.Create("song", servertest.ValidContent)
	const secret = "s3cr3t-query-value"
	e.Do(st{Method: "PUT", Path: "/api/boards/song?token=" + secret, Body: servertest.ValidContent,
		Header: merge(servertest.PutHeader(c.Capability, `"1"`), http.Header{"Cookie": {"tele=" + secret}})})
	e.Do(st{Method: "PUT", Path: "/api/boards/song", Body: `{"title":"` + secret + `"}`,
		Header: servertest.PutHeader("wrong-"+secret, `"2"`)})
	log := e.Log.String()
	for _, want := range []string{"method=PUT", "path=/api/boards/song", "status=200", "status=403", "duration="} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	for _, never := range []string{secret, c.Capability, "token=", "Authorization", "Bearer"} {
		if strings.Contains(log, never) {
			t.Errorf("log carries %q:\n%s", never, log)
		}
	}
}

func TestListen(t *testing.T) {
	ln, err := server.Listen(0)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().(*net.TCPAddr)
	if !addr.IP.Equal(net.IPv4(127, 0, 0, 1)) || addr.Port == 0 || server.Port(ln) != addr.Port {
		t.Fatalf("listening on %v", addr)
	}

	_, err = server.Listen(addr.Port)
	if !errors.Is(err, server.ErrPortInUse) {
		t.Fatalf("second Listen on %d: %v, want ErrPortInUse", addr.Port, err)
	}
	if !strings.Contains(err.Error(), strconv.Itoa(addr.Port)) {
		t.Errorf("error does not name the port: %v", err)
	}
	for _, bad := range []int{-1, 65536} {
		if _, err := server.Listen(bad); err == nil || errors.Is(err, server.ErrPortInUse) {
			t.Errorf("Listen(%d) = %v", bad, err)
		}
	}
}

// TestServeRefusesOtherInterfaces: the real listener answers on 127.0.0.1 only, and through the guard
// a request naming the wrong port (as a rebinding page would) is 421.
func TestServeRealListener(t *testing.T) {
	l := servertest.New(t).Start()
	res, err := http.Get(l.URL + "/api/capabilities")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	servertest.CheckResponse(t, "/api/capabilities", res)
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	req, _ := http.NewRequest("GET", l.URL+"/api/capabilities", nil)
	req.Host = "localhost:" + strconv.Itoa(l.Port+1)
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMisdirectedRequest {
		t.Fatalf("wrong port in Host: %d", res.StatusCode)
	}
}

// TestGracefulShutdown: ending Serve's context while a board write is in flight lets the write finish
// and become durable, ends the board's SSE stream, and Serve returns nil.
func TestGracefulShutdown(t *testing.T) {
	l := servertest.New(t).Start()
	c := l.Create("song", servertest.ValidContent)

	// A stream that must end at shutdown.
	sreq, _ := http.NewRequest("GET", l.URL+"/api/boards/song/events", nil)
	sres, err := http.DefaultClient.Do(sreq)
	if err != nil {
		t.Fatal(err)
	}
	defer sres.Body.Close()
	streamEnded := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, sres.Body)
		streamEnded <- err
	}()

	// A write whose handler is running: Expect: 100-continue makes the server say when the handler
	// starts reading the body (every check before the body has passed by then).
	conn, err := net.Dial("tcp", l.URL[len("http://"):])
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := strings.Replace(servertest.ValidContent, `"Test"`, `"Written during shutdown"`, 1)
	fmt.Fprintf(conn, "PUT /api/boards/song HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
		"Authorization: Bearer %s\r\nIf-Match: \"1\"\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n",
		l.URL[len("http://"):], c.Capability, len(body))
	br := bufio.NewReader(conn)
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := br.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "HTTP/1.1 100") {
		t.Fatalf("waiting for 100 Continue: %q %v", line, err)
	}
	br.ReadString('\n') // the blank line after the interim response

	l.Cancel()

	select {
	case err := <-streamEnded:
		if err != nil {
			t.Errorf("stream ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the SSE stream did not end at shutdown")
	}
	select {
	case <-l.Done:
		t.Fatalf("Serve returned (%v) while a write was in flight", l.Err())
	case <-time.After(100 * time.Millisecond):
	}

	io.WriteString(conn, body)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("in-flight write: %d", res.StatusCode)
	}
	select {
	case <-l.Done:
		if err := l.Err(); err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after the write finished")
	}

	// Durable: on disk, not only in memory.
	data, err := os.ReadFile(filepath.Join(l.Dir, "boards", "song", "2.json"))
	if err != nil || !strings.Contains(string(data), "Written during shutdown") || !strings.Contains(string(data), `"revision":2`) {
		t.Fatalf("on disk after shutdown: %s %v", data, err)
	}
	// And the listener is closed.
	if _, err := net.DialTimeout("tcp", l.URL[len("http://"):], time.Second); err == nil {
		t.Errorf("still accepting after Serve returned")
	}
}

func TestServeReturnsServeError(t *testing.T) {
	ln, err := server.Listen(0)
	if err != nil {
		t.Fatal(err)
	}
	ln.Close() // Serve cannot accept: it must return the error, not hang
	done := make(chan error, 1)
	go func() { done <- server.Serve(context.Background(), ln, http.NotFoundHandler()) }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Serve on a closed listener returned nil")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve hung")
	}
}
