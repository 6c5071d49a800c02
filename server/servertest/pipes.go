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
	ln := NewPipes()
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
		DialContext:       ln.DialContext,
		DisableKeepAlives: true,
	}}
}

// DialPipe opens one raw connection to a server from OverPipes' client, for a test that writes bytes
// an http.Client would not (a body that stalls).
func DialPipe(c *http.Client) (net.Conn, error) {
	return c.Transport.(*http.Transport).DialContext(context.Background(), "tcp", Host)
}

// Pipes is an in-memory network of one listener at Host: each DialContext makes a net.Pipe whose
// other end Accept returns. A test that runs inside a testing/synctest bubble serves over it, because a
// goroutine blocked on a pipe is durably blocked and one blocked on a socket is not: over sockets the
// bubble's clock would never move.
type Pipes struct {
	conns chan net.Conn
	once  sync.Once
	done  chan struct{}
}

// NewPipes makes an empty network; Close ends it.
func NewPipes() *Pipes { return &Pipes{conns: make(chan net.Conn), done: make(chan struct{})} }

// DialContext connects to the listener; network and address are ignored.
func (l *Pipes) DialContext(ctx context.Context, _, _ string) (net.Conn, error) {
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

// Accept waits for the next dial.
func (l *Pipes) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops accepting and dialling.
func (l *Pipes) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr is Host.
func (l *Pipes) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return Host }
