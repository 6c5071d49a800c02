package server

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// Connection limits of Serve (docs/security.md). Each connection holds a file descriptor; a local
// process that opened thousands of idle keep-alive connections made accept fail with "too many open
// files", and the server stopped answering anyone.
const (
	// MaxConnections bounds open connections whatever the descriptor limit allows: streams are capped at
	// 256 in all and a browser opens a handful of connections per page, so no use of Tele comes near.
	MaxConnections = 4096
	// reservedDescriptors are kept for what is not a connection: the store's files, the link's pipes,
	// the browser's redirect file, the log.
	reservedDescriptors = 128
	// minConnections is the least ConnectionLimit gives, however low the descriptor limit.
	minConnections = 16
	// PressureIdleTimeout replaces IdleTimeout while three quarters of the connections are in use: an
	// idle connection is closed once it has waited this long, when the next connection comes.
	PressureIdleTimeout = 5 * time.Second
)

// ConnectionLimit is how many connections Serve keeps open at once: MaxConnections, or fewer when the
// process's descriptor limit (RLIMIT_NOFILE, where there is one) leaves less room.
func ConnectionLimit() int {
	n := MaxConnections
	if fds, ok := descriptorLimit(); ok && fds-reservedDescriptors < uint64(n) {
		n = int(max(fds, reservedDescriptors) - reservedDescriptors)
	}
	return max(n, minConnections)
}

// LimitConnections makes srv keep at most limit connections from ln open (it sets srv.ConnState, to
// know which are idle) and returns the listener to serve. At the limit, a new connection takes the
// place of the oldest idle one, else of the oldest that has not sent a request yet; a connection with a
// request in flight (a stream, a write) is never closed for another, and when every connection has one,
// the new connection is closed at once. While three quarters of the limit are in use, idle connections
// live PressureIdleTimeout instead of IdleTimeout. So whatever a local process holds open, a fresh
// request gets an answer, and accept never runs out of descriptors.
func LimitConnections(srv *http.Server, ln net.Listener, limit int) net.Listener {
	l := &connLimiter{Listener: ln, limit: max(limit, 1), conns: map[net.Conn]*connInfo{}}
	next := srv.ConnState
	srv.ConnState = func(c net.Conn, s http.ConnState) {
		l.track(c, s)
		if next != nil {
			next(c, s)
		}
	}
	return l
}

type connLimiter struct {
	net.Listener
	limit int

	mu    sync.Mutex
	seq   uint64
	conns map[net.Conn]*connInfo // every accepted connection not yet closed
}

type connInfo struct {
	seq   uint64 // accept order: the oldest goes first
	state http.ConnState
	since time.Time // when it entered state
}

func (l *connLimiter) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		victims, ok := l.admit(c)
		closeAll(victims)
		if ok {
			return c, nil
		}
		c.Close() // every connection has a request in flight: none is closed for this one
	}
}

// admit records c and returns the connections to close for it; ok is false when c itself must go.
func (l *connLimiter) admit(c net.Conn) (victims []net.Conn, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if 4*(len(l.conns)+1) >= 3*l.limit {
		for vc, info := range l.conns {
			if info.state == http.StateIdle && now.Sub(info.since) >= PressureIdleTimeout {
				victims = append(victims, vc)
				delete(l.conns, vc)
			}
		}
	}
	if len(l.conns) >= l.limit {
		v := l.oldest(http.StateIdle)
		if v == nil {
			v = l.oldest(http.StateNew)
		}
		if v == nil {
			return victims, false
		}
		victims = append(victims, v)
		delete(l.conns, v)
	}
	l.seq++
	l.conns[c] = &connInfo{seq: l.seq, state: http.StateNew, since: now}
	return victims, true
}

// oldest is the earliest accepted connection in state s, or nil.
func (l *connLimiter) oldest(s http.ConnState) net.Conn {
	var found net.Conn
	var seq uint64
	for c, info := range l.conns {
		if info.state == s && (found == nil || info.seq < seq) {
			found, seq = c, info.seq
		}
	}
	return found
}

// track follows srv's view of each connection.
func (l *connLimiter) track(c net.Conn, s http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	info, ok := l.conns[c]
	switch {
	case !ok: // closed for another already
	case s == http.StateClosed || s == http.StateHijacked:
		delete(l.conns, c)
	case s != info.state:
		info.state, info.since = s, time.Now()
	}
}

func closeAll(conns []net.Conn) {
	for _, c := range conns {
		c.Close()
	}
}
