package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestWriteError(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		wantStatus int
		wantBody   string
		wantRetry  string
	}{
		{
			name:       "plain-error",
			err:        NewError(404, "not_found", "no such board"),
			wantStatus: 404,
			wantBody:   `{"error":{"code":"not_found","message":"no such board"}}`,
		},
		{
			name:       "fields-in-key-order",
			err:        NewError(422, "invalid_content", "bad").With("rule", "r").With("path", "sections[0]"),
			wantStatus: 422,
			wantBody:   `{"error":{"code":"invalid_content","message":"bad","path":"sections[0]","rule":"r"}}`,
		},
		{
			name:       "fields-cannot-override-code-or-message",
			err:        NewError(412, "revision_conflict", "stale").With("code", "x").With("message", "y").With("currentRevision", 7),
			wantStatus: 412,
			wantBody:   `{"error":{"code":"revision_conflict","message":"stale","currentRevision":7}}`,
		},
		{
			name:       "retry-after-rounds-up",
			err:        &Error{Status: 429, Code: "rate_limited", Message: "slow down", RetryAfter: 1500 * time.Millisecond},
			wantStatus: 429,
			wantBody:   `{"error":{"code":"rate_limited","message":"slow down","retryAfterMs":1500}}`,
			wantRetry:  "2",
		},
		{
			name:       "retry-after-below-a-second-is-one",
			err:        &Error{Status: 429, Code: "rate_limited", Message: "slow down", RetryAfter: 49*time.Millisecond + 100},
			wantStatus: 429,
			wantBody:   `{"error":{"code":"rate_limited","message":"slow down","retryAfterMs":50}}`,
			wantRetry:  "1",
		},
		{
			name:       "wrapped-error-is-found",
			err:        fmt.Errorf("put: %w", NewError(403, "bad_capability", "wrong capability")),
			wantStatus: 403,
			wantBody:   `{"error":{"code":"bad_capability","message":"wrong capability"}}`,
		},
		{
			name:       "other-error-is-internal",
			err:        errors.New("open /secret/path: capability abc123 leaked"),
			wantStatus: 500,
			wantBody:   `{"error":{"code":"internal","message":"internal error"}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			WriteError(w, httptest.NewRequest("GET", "/api/x?q=1", nil), tt.err)
			if w.Code != tt.wantStatus {
				t.Errorf("status = %d, want %d", w.Code, tt.wantStatus)
			}
			if got := w.Body.String(); got != tt.wantBody {
				t.Errorf("body = %s\nwant   %s", got, tt.wantBody)
			}
			if !json.Valid(w.Body.Bytes()) {
				t.Errorf("body is not JSON")
			}
			if got := w.Header().Get("Retry-After"); got != tt.wantRetry {
				t.Errorf("Retry-After = %q, want %q", got, tt.wantRetry)
			}
			if got := w.Header().Get("Content-Type"); got != "application/json" {
				t.Errorf("Content-Type = %q", got)
			}
		})
	}
}

// recordingWriter stands for the server's access-log writer.
type recordingWriter struct {
	*httptest.ResponseRecorder
	recorded error
}

func (w *recordingWriter) RecordError(err error) { w.recorded = err }

func TestWriteErrorInternalGoesToTheAccessLog(t *testing.T) {
	cause := errors.New("disk on fire")
	w := &recordingWriter{ResponseRecorder: httptest.NewRecorder()}
	WriteError(w, httptest.NewRequest("PUT", "/api/boards/a", nil), cause)
	if w.recorded != cause {
		t.Fatalf("recorded = %v, want the cause", w.recorded)
	}
	if strings.Contains(w.Body.String(), "fire") {
		t.Fatalf("the cause reached the client: %s", w.Body)
	}
}

func TestWriteErrorInternalLogsWithoutQuery(t *testing.T) {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	defer slog.SetDefault(old)

	WriteError(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/x?token=s3cret", nil), errors.New("boom"))
	log := buf.String()
	if !strings.Contains(log, "boom") || !strings.Contains(log, "/api/x") {
		t.Errorf("log lacks the cause or the path: %s", log)
	}
	if strings.Contains(log, "s3cret") {
		t.Errorf("log carries the query: %s", log)
	}
}

func TestWriteJSON(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"bytes-pass-through", []byte(`{"a":1}`), `{"a":1}`},
		{"raw-message-pass-through", json.RawMessage(`[1,2]`), `[1,2]`},
		{"value-is-encoded", map[string]bool{"chat": false}, `{"chat":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			WriteJSON(w, http.StatusCreated, tt.v)
			if w.Code != http.StatusCreated || w.Body.String() != tt.want {
				t.Errorf("got %d %s, want 201 %s", w.Code, w.Body, tt.want)
			}
			if got := w.Header().Get("Content-Type"); got != "application/json" {
				t.Errorf("Content-Type = %q", got)
			}
		})
	}
	t.Run("unencodable-is-internal", func(t *testing.T) {
		w := &recordingWriter{ResponseRecorder: httptest.NewRecorder()}
		WriteJSON(w, 200, func() {})
		if w.Code != 500 || w.recorded == nil {
			t.Errorf("got %d, recorded %v; want 500 and a recorded cause", w.Code, w.recorded)
		}
	})
}
