package server

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tele/web"
)

// TestClientClosedRequestIs499 (issue 27, item 10): a request whose client hung up before it was
// answered is logged as status 499 at Info, with the cause its handler met, not as the handler's 500
// at Error (before: "level=ERROR … status=500 err=context canceled" for every import whose client
// left). A stream that answered 200, then lost its client, stays a 200.
func TestClientClosedRequestIs499(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(w http.ResponseWriter, r *http.Request) // after the client has gone
		want   []string
		never  []string
	}{
		{"internal error after the client left", func(w http.ResponseWriter, r *http.Request) {
			web.WriteError(w, r, r.Context().Err())
		}, []string{"level=INFO", "status=499", "err=\"context canceled\""}, []string{"level=ERROR", "status=500"}},
		{"nothing written", func(http.ResponseWriter, *http.Request) {}, []string{"level=INFO", "status=499"}, []string{"status=200"}},
		{"a stream answered before", nil, []string{"status=200"}, []string{"status=499"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
			started, done := make(chan struct{}), make(chan struct{})
			h := accessLog(log, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.answer == nil {
					w.WriteHeader(http.StatusOK)
					http.NewResponseController(w).Flush()
				}
				close(started)
				<-r.Context().Done()
				if tc.answer != nil {
					tc.answer(w, r)
				}
			}))
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				defer close(done)
				h.ServeHTTP(w, r)
			}))
			defer srv.Close()
			ctx, cancel := context.WithCancel(t.Context())
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/import", nil)
			errc := make(chan error, 1)
			go func() {
				res, err := srv.Client().Do(req)
				if err == nil {
					<-started
					cancel() // the client leaves in the middle of the stream
					_, err = res.Body.Read(make([]byte, 1))
					res.Body.Close()
				}
				errc <- err
			}()
			<-started
			cancel()
			if err := <-errc; !errors.Is(err, context.Canceled) {
				t.Fatalf("the client's request ended with %v, want context.Canceled", err)
			}
			<-done
			line := buf.String()
			for _, w := range tc.want {
				if !strings.Contains(line, w) {
					t.Errorf("the log line %q lacks %q", line, w)
				}
			}
			for _, n := range tc.never {
				if strings.Contains(line, n) {
					t.Errorf("the log line %q has %q", line, n)
				}
			}
		})
	}
}
