package server

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"tele/web"
)

// Refusal lines of the access log: a burst of RefusalLogBurst, then at most one every RefusalLogEvery.
// A flood of bad requests (the review's produced 193,838 lines) costs the log a line a second; the next
// line that is written says how many were left out.
const (
	RefusalLogBurst = 20
	RefusalLogEvery = time.Second
)

// refusals rate-limits the access log's 4xx lines and counts the ones it leaves out.
type refusals struct {
	limit      *rate.Limiter
	mu         sync.Mutex
	suppressed int64
}

// allow reports whether a refusal is logged now and, if so, how many were left out before it.
func (q *refusals) allow() (bool, int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.limit.Allow() {
		q.suppressed++
		return false, 0
	}
	n := q.suppressed
	q.suppressed = 0
	return true, n
}

// accessLog is the outermost layer: it recovers a panic into a 500 (when nothing was written yet) and
// logs one line per request with the method, the path without its query (web.LogPath: no binding id),
// the status and the duration. Never a header, a query or a body: capabilities travel in headers,
// secrets in fragments.
//
// A request whose client went away before it was answered is status 499 (StatusClientClosedRequest),
// at Info with the cause the handler met. Levels: 5xx at Error (with the cause WriteError handed over),
// 4xx at Info (refusals are worth seeing,
// but rate-limited: see RefusalLogBurst), everything else at Debug (a board page polls nothing, but a
// busy editor is not worth a line per save).
//
// Its cognitive complexity is over the lint gate of 30, and accepted: one branch per request outcome the
// access log tells apart.
//
//gocognit:ignore
func accessLog(log *slog.Logger, next http.Handler) http.Handler {
	quiet := &refusals{limit: rate.NewLimiter(rate.Every(RefusalLogEvery), RefusalLogBurst)}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		lw := &logWriter{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p) // the handler asked net/http to abort the response
				}
				lw.err = errors.New("panic")
				log.Error("panic serving request", "method", r.Method, "path", web.LogPath(r.URL.Path),
					"panic", p, "stack", string(debug.Stack()))
				if !lw.wrote {
					web.WriteError(lw, r, errPanic)
				}
			}
			status := lw.status
			if clientClosed(r, lw) {
				status = StatusClientClosedRequest
			} else if status == 0 {
				status = http.StatusOK // the handler wrote nothing: net/http sends 200
			}
			level := slog.LevelDebug
			switch {
			case status >= 500:
				level = slog.LevelError
			case status >= 400:
				level = slog.LevelInfo
			}
			ctx := r.Context()
			if !log.Enabled(ctx, level) {
				return
			}
			var suppressed int64
			if level == slog.LevelInfo {
				var ok bool
				if ok, suppressed = quiet.allow(); !ok {
					return
				}
			}
			attrs := []slog.Attr{
				slog.String("method", r.Method),
				slog.String("path", web.LogPath(r.URL.Path)),
				slog.Int("status", status),
				slog.Duration("duration", time.Since(start)),
			}
			if lw.err != nil {
				attrs = append(attrs, slog.String("err", lw.err.Error()))
			}
			if suppressed > 0 {
				attrs = append(attrs, slog.Int64("suppressed", suppressed))
			}
			log.LogAttrs(ctx, level, "request", attrs...)
		}()
		next.ServeHTTP(lw, r)
	})
}

// StatusClientClosedRequest is the status the access log gives a request whose client went away before
// it was answered (the status nginx gave the case): no answer reached anyone, and the error the handler
// met on its way out (a reading stopped, an internal error) is the client's doing, not the server's.
const StatusClientClosedRequest = 499

// clientClosed reports whether r's client went away before it was answered: its context was canceled
// while the handler ran, and the handler wrote nothing, or a refusal or an error. A stream that answered
// 200 and later lost its client was answered.
func clientClosed(r *http.Request, lw *logWriter) bool {
	if !errors.Is(r.Context().Err(), context.Canceled) {
		return false
	}
	return !lw.wrote || lw.status >= 400
}

// errPanic is what the client of a panicking handler gets: a plain internal error.
var errPanic = web.NewError(http.StatusInternalServerError, "internal", "internal error")

// logWriter records the status for the access log. It unwraps for http.ResponseController (the sse
// streams set write deadlines and flush through it) and takes the cause of a 500 from web.WriteError.
type logWriter struct {
	http.ResponseWriter
	status int
	wrote  bool
	err    error
}

func (w *logWriter) WriteHeader(code int) {
	if !w.wrote && code >= 200 {
		w.status = code
		w.wrote = true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *logWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.status = http.StatusOK
		w.wrote = true
	}
	return w.ResponseWriter.Write(b)
}

// Flush is for code that asserts http.Flusher instead of using a ResponseController.
func (w *logWriter) Flush() {
	if !w.wrote {
		w.status = http.StatusOK
		w.wrote = true
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *logWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// RecordError keeps the cause of an internal error for the access log line (see web.WriteError).
func (w *logWriter) RecordError(err error) { w.err = err }
