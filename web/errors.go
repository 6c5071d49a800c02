package web

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// Error is the one error shape of the API. It is written as
//
//	{"error":{"code":"…","message":"…", <Fields…>}}
//
// Code is stable (clients branch and localize on it); Message is English prose for people and logs and
// never carries a secret.
type Error struct {
	Status     int
	Code       string
	Message    string
	Fields     map[string]any // currentRevision, path, rule, … (never "code" or "message")
	RetryAfter time.Duration  // > 0 adds a Retry-After header (whole seconds, rounded up) and retryAfterMs
}

// NewError returns an *Error without fields.
func NewError(status int, code, message string) *Error {
	return &Error{Status: status, Code: code, Message: message}
}

// With returns a copy of e with one more field.
func (e *Error) With(key string, value any) *Error {
	c := *e
	c.Fields = make(map[string]any, len(e.Fields)+1)
	for k, v := range e.Fields {
		c.Fields[k] = v
	}
	c.Fields[key] = value
	return &c
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

var errInternal = &Error{Status: http.StatusInternalServerError, Code: "internal", Message: "internal error"}

// errorRecorder is implemented by a ResponseWriter wrapper that logs the request (the server's access
// log): WriteError hands it the cause of a 500 so the cause is logged once, next to the request line.
type errorRecorder interface{ RecordError(error) }

// WriteError writes err as a JSON error response. An *Error (anywhere in err's chain) is written as is.
// Anything else is an internal error: the client gets 500 "internal" and nothing more, and the cause is
// logged (through the access log when the writer offers it, else slog.Default) with the method and the
// path, never the query or a header.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	e, ok := errors.AsType[*Error](err)
	if !ok || e == nil {
		recordInternal(w, r, err)
		e = errInternal
	}
	e.write(w)
}

func recordInternal(w http.ResponseWriter, r *http.Request, err error) {
	if rec, ok := w.(errorRecorder); ok {
		rec.RecordError(err)
		return
	}
	attrs := []any{"err", err}
	if r != nil && r.URL != nil {
		attrs = append(attrs, "method", r.Method, "path", LogPath(r.URL.Path))
	}
	slog.Default().Error("internal error", attrs...)
}

func (e *Error) write(w http.ResponseWriter) {
	h := w.Header()
	if e.RetryAfter > 0 {
		secs := (e.RetryAfter + time.Second - 1) / time.Second
		h.Set("Retry-After", strconv.FormatInt(int64(secs), 10))
	}
	h.Set("Content-Type", "application/json")
	w.WriteHeader(e.Status)
	_, _ = w.Write(e.body())
}

// body encodes e: code and message first, then the fields in key order, then retryAfterMs.
func (e *Error) body() []byte {
	b := make([]byte, 0, 96+len(e.Message))
	b = append(b, `{"error":{"code":`...)
	b = appendJSON(b, e.Code)
	b = append(b, `,"message":`...)
	b = appendJSON(b, e.Message)
	keys := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		if k != "code" && k != "message" && !(k == "retryAfterMs" && e.RetryAfter > 0) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		b = append(b, ',')
		b = appendJSON(b, k)
		b = append(b, ':')
		b = appendJSON(b, e.Fields[k])
	}
	if e.RetryAfter > 0 {
		ms := (e.RetryAfter + time.Millisecond - 1) / time.Millisecond
		b = append(b, `,"retryAfterMs":`...)
		b = strconv.AppendInt(b, int64(ms), 10)
	}
	return append(b, "}}"...)
}

func appendJSON(b []byte, v any) []byte {
	enc, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, enc...)
}

// WriteJSON writes v as a JSON response with the given status. A []byte or json.RawMessage is taken as
// already-encoded JSON and written as is (the board's cached encoding, the catalogue). A value that
// cannot be encoded becomes a 500.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	var body []byte
	switch v := v.(type) {
	case []byte:
		body = v
	case json.RawMessage:
		body = v
	default:
		var err error
		if body, err = json.Marshal(v); err != nil {
			recordInternal(w, nil, err)
			errInternal.write(w)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
