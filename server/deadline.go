package server

import (
	"errors"
	"io"
	"net/http"
	"time"
)

// BodyTimeout is the default time a client has to send a request body, from the end of its headers.
// Bodies are at most a few hundred KiB over loopback, so only a client that holds the connection open
// on purpose needs longer.
const BodyTimeout = 10 * time.Second

// bodyDeadline gives every request that has a body a read deadline of timeout: a client sending one
// byte a second is cut (its request fails while the body is read, and the connection is closed) instead
// of holding a handler and a connection open. The deadline is lifted once the body has been read to its
// end, so a handler that then waits (a chat command waiting for the bridge) is not cut, and requests
// without a body, such as SSE streams, never get one. Headers are bounded by ReadHeaderTimeout.
func bodyDeadline(timeout time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody {
			rc := http.NewResponseController(w)
			if err := rc.SetReadDeadline(time.Now().Add(timeout)); err == nil {
				r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// deadlineBody lifts the connection's read deadline when the body has been read to its end.
type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	done bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) && !b.done {
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}
