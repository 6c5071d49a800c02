// Package servertest runs the whole Tele HTTP stack (server.Handler over a real board store in a
// temporary directory) for tests of the server and board packages, in process or on a real loopback
// listener, and holds the checks every response of every test must pass.
package servertest

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"tele/assets"
	"tele/board/datadirtest"
	"tele/board/store"
	"tele/server"
	"tele/sse"
	"tele/web"
)

// Port is the port the in-process handler believes it serves; requests carry Host 127.0.0.1:Port.
const Port = 4317

// Host is the default Host of requests.
const Host = "127.0.0.1:4317"

// ValidContent is a small board content that passes docs/content.md.
const ValidContent = `{"title":"Test","description":"A test board.","key":"C","tempo":120,"beatsPerBar":4,` +
	`"sections":[{"label":"A","bars":[["C"],["Am7"],["Dm7","G7"],["Cmaj7"]]}]}`

// Env is a store, its hub and the full handler, in a fresh data directory.
type Env struct {
	T       testing.TB
	Dir     string
	Store   *store.Store
	Hub     *sse.Hub
	Assets  *assets.Assets // nil when assets.New fails (see AssetsErr)
	Handler http.Handler   // server.Handler for Port
	Config  server.Config
	Log     *LogBuffer // everything the stack logged, at Debug and above

	AssetsErr error

	socket string // after OverSockets: the address of the real http.Server that Do sends to
}

// New opens a store in a temporary directory and builds the full handler over it. Options change the
// configuration before the handler is built.
func New(t testing.TB, options ...func(*server.Config)) *Env {
	t.Helper()
	dir := t.TempDir()
	store, hub, err := server.OpenStore(dir)
	if err != nil {
		t.Fatalf("OpenStore: %v", err)
	}
	t.Cleanup(func() {
		hub.Close()
		if err := store.Close(); err != nil {
			t.Errorf("store.Close: %v", err)
		}
	})
	e := &Env{T: t, Dir: dir, Store: store, Hub: hub, Log: &LogBuffer{}}
	e.Assets, e.AssetsErr = assets.New()
	e.Config = server.Config{
		Store:    store,
		BoardHub: hub,
		Assets:   e.Assets,
		Logger:   slog.New(slog.NewTextHandler(e.Log, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	for _, o := range options {
		o(&e.Config)
	}
	e.Handler = server.Handler(e.Config, Port)
	return e
}

// RequireAssets fails the test when the embedded UI could not be loaded.
func (e *Env) RequireAssets() {
	e.T.Helper()
	if e.Assets == nil {
		e.T.Fatalf("assets.New: %v", e.AssetsErr)
	}
}

// Request is one request to the stack. Host defaults to Host.
type Request struct {
	Method string
	Path   string
	Body   string
	Host   string
	Header http.Header
	// Chunked hides the body's length (no Content-Length), so size limits are found while reading.
	Chunked bool
}

// OverSockets makes every later Do go over a loopback connection to a real http.Server configured by
// server.NewHTTPServer, so a test sees what net/http does before the handler (such as "OPTIONS *").
// The handler still believes it serves Port: requests keep Host 127.0.0.1:Port.
func (e *Env) OverSockets() {
	e.T.Helper()
	ln, err := server.Listen(0)
	if err != nil {
		e.T.Fatalf("Listen: %v", err)
	}
	srv := server.NewHTTPServer(e.Handler)
	srv.ErrorLog = slog.NewLogLogger(e.Config.Logger.Handler(), slog.LevelDebug)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	e.T.Cleanup(func() {
		_ = srv.Close()
		<-done
	})
	e.socket = ln.Addr().String()
}

// Do serves r, in process or (after OverSockets) over a real connection, and checks the response with
// CheckResponse.
func (e *Env) Do(r Request) *httptest.ResponseRecorder {
	e.T.Helper()
	w := httptest.NewRecorder()
	if e.socket == "" {
		e.Handler.ServeHTTP(w, r.build())
		CheckResponse(e.T, r.Path, w.Result())
		return w
	}
	res, body, err := roundTrip(e.socket, r.build())
	if err != nil {
		e.T.Fatalf("%s %s over a socket: %v", r.Method, r.Path, err)
	}
	CheckResponse(e.T, r.Path, res)
	maps.Copy(w.Header(), res.Header)
	w.WriteHeader(res.StatusCode)
	w.Body.Write(body)
	return w
}

// roundTrip writes req as it is (Host, path and all) on a new connection to addr and reads the answer.
func roundTrip(addr string, req *http.Request) (*http.Response, []byte, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close()
	if err := req.Write(conn); err != nil {
		return nil, nil, err
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	return res, body, err
}

func (r Request) build() *http.Request {
	var body io.Reader
	if r.Body != "" {
		body = strings.NewReader(r.Body)
		if r.Chunked {
			body = io.MultiReader(body)
		}
	}
	req := httptest.NewRequest(r.Method, "http://"+Host+"/", body)
	req.URL.Path = r.Path
	if r.Path == "*" { // the server-wide form, "OPTIONS * HTTP/1.1"
		req.URL.Opaque = "*"
	}
	if i := strings.IndexByte(r.Path, '?'); i >= 0 {
		req.URL.Path, req.URL.RawQuery = r.Path[:i], r.Path[i+1:]
	}
	req.RequestURI = r.Path
	req.Host = r.Host
	if req.Host == "" {
		req.Host = Host
	}
	for k, vs := range r.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	return req
}

// CheckResponse is asserted on every response of every test: no Access-Control-* header ever (docs/security.md
// rule 5); the CSP, nosniff, Referrer-Policy, COOP and CORP headers on every response, refusals and
// pages included (rule 6); Cache-Control no-store on every /api/ response.
func CheckResponse(t testing.TB, path string, res *http.Response) {
	t.Helper()
	for k := range res.Header {
		if strings.HasPrefix(strings.ToLower(k), "access-control-") {
			t.Errorf("%s: CORS header %s: %q", path, k, res.Header[k])
		}
	}
	want := map[string]string{
		"Content-Security-Policy":      web.CSP,
		"X-Content-Type-Options":       "nosniff",
		"Referrer-Policy":              "no-referrer",
		"Cross-Origin-Opener-Policy":   "same-origin",
		"Cross-Origin-Resource-Policy": "same-origin",
	}
	if web.IsAPI(strings.SplitN(path, "?", 2)[0]) {
		want["Cache-Control"] = "no-store"
		want["Content-Security-Policy"] = web.APICSP
	}
	for k, v := range want {
		if got := res.Header.Values(k); len(got) != 1 || got[0] != v {
			t.Errorf("%s: %s = %q, want %q", path, k, got, v)
		}
	}
}

// ErrorBody is the API's error shape.
type ErrorBody struct {
	Error struct {
		Code            string `json:"code"`
		Message         string `json:"message"`
		Path            string `json:"path"`
		Rule            string `json:"rule"`
		CurrentRevision int64  `json:"currentRevision"`
		RetryAfterMs    int64  `json:"retryAfterMs"`
	} `json:"error"`
}

// Code returns the error code of a JSON error body, or "" when the body is not one.
func Code(body []byte) string {
	var e ErrorBody
	if json.Unmarshal(body, &e) != nil {
		return ""
	}
	return e.Error.Code
}

// Created is the answer to POST /api/boards.
type Created struct {
	ID         string          `json:"id"`
	Revision   int64           `json:"revision"`
	Content    json.RawMessage `json:"content"`
	UpdatedAt  string          `json:"updatedAt"`
	Capability string          `json:"capability"`
}

// Create creates board id with content (the teaching example when "") over HTTP and returns the answer.
func (e *Env) Create(id, content string) Created {
	e.T.Helper()
	body := `{"id":"` + id + `"`
	if content != "" {
		body += `,"content":` + content
	}
	body += "}"
	w := e.Do(Request{Method: "POST", Path: "/api/boards", Body: body,
		Header: http.Header{"Content-Type": {"application/json"}}})
	if w.Code != http.StatusCreated {
		e.T.Fatalf("create %s: %d %s", id, w.Code, w.Body)
	}
	var c Created
	if err := json.Unmarshal(w.Body.Bytes(), &c); err != nil {
		e.T.Fatalf("create %s: %v", id, err)
	}
	return c
}

// PutHeader returns the headers of a well-formed board write.
func PutHeader(capability, ifMatch string) http.Header {
	h := http.Header{"Content-Type": {"application/json"}}
	if capability != "" {
		h.Set("Authorization", "Bearer "+capability)
	}
	if ifMatch != "" {
		h.Set("If-Match", ifMatch)
	}
	return h
}

// Snapshot returns every file under the data directory (but the lock) with its mode and bytes.
func (e *Env) Snapshot() map[string]string {
	e.T.Helper()
	return datadirtest.Snapshot(e.T, e.Dir)
}

// Live is the stack served by server.Serve on a real 127.0.0.1 listener.
type Live struct {
	*Env
	URL    string // http://127.0.0.1:<port>
	Port   int
	Cancel context.CancelFunc // stops Serve (graceful shutdown)
	Done   <-chan struct{}    // closed when Serve has returned; then Err is its result
	err    error
}

// Err is what Serve returned; valid once Done is closed.
func (l *Live) Err() error {
	<-l.Done
	return l.err
}

// Start serves e's store on a real listener (port chosen by the OS) until the test ends or Cancel.
func (e *Env) Start() *Live {
	e.T.Helper()
	ln, err := server.Listen(0)
	if err != nil {
		e.T.Fatalf("Listen: %v", err)
	}
	port := server.Port(ln)
	h := server.Handler(e.Config, port)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	l := &Live{Env: e, URL: "http://" + ln.Addr().String(), Port: port, Cancel: cancel, Done: done}
	go func() {
		l.err = server.Serve(ctx, ln, h, e.Hub)
		close(done)
	}()
	e.T.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			e.T.Errorf("Serve did not return after cancel")
		}
	})
	return l
}

// LogBuffer collects log output safely across goroutines.
type LogBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *LogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
