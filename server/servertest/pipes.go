package servertest

import (
	"context"
	"net"
	"net/http"
	"sync"

	"tele/server"
)

// OverPipes serves e's handler with a real http.Server configured by server.NewHTTPServer over
// in-memory connections (net.Pipe) and returns a client whose every request goes to it. Pipes, unlike
// sockets, block durably, so inside a testing/synctest bubble the server's deadlines run on the
// bubble's clock: a test can let ten seconds pass at once. The server stops when the test ends.
func (e *Env) OverPipes() *http.Client {
	e.T.Helper()
	ln := &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
	srv := server.NewHTTPServer(e.Handler)
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = srv.Serve(ln)
	}()
	e.T.Cleanup(func() {
		_ = srv.Close()
		<-served
	})
	return &http.Client{Transport: &http.Transport{
		DialContext:       func(ctx context.Context, _, _ string) (net.Conn, error) { return ln.dial(ctx) },
		DisableKeepAlives: true,
	}}
}

// DialPipe opens one raw connection to a server from OverPipes' client, for a test that writes bytes
// an http.Client would not (a body that stalls).
func DialPipe(c *http.Client) (net.Conn, error) {
	return c.Transport.(*http.Transport).DialContext(context.Background(), "tcp", Host)
}

// pipeListener is a net.Listener whose connections are the server ends of net.Pipe pairs.
type pipeListener struct {
	conns chan net.Conn
	once  sync.Once
	done  chan struct{}
}

func (l *pipeListener) dial(ctx context.Context) (net.Conn, error) {
	client, srv := net.Pipe()
	select {
	case l.conns <- srv:
		return client, nil
	case <-l.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return Host }
