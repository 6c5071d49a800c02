package server_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"tele/server"
	"tele/server/servertest"
)

// serveLimited serves e's handler with server.LimitConnections(limit) on ln until the test ends. The
// returned channel hears each time a connection turns idle, after the limiter has seen it: the server
// says so after the client has read its answer, so a test that needs the limiter to know a connection
// is idle waits for this.
func serveLimited(t *testing.T, e *servertest.Env, ln net.Listener, limit int) <-chan struct{} {
	srv := server.NewHTTPServer(e.Handler)
	idle := make(chan struct{}, 64*limit)
	srv.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateIdle {
			select {
			case idle <- struct{}{}:
			default:
			}
		}
	}
	limited := server.LimitConnections(srv, ln, limit)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(limited) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-served; err != http.ErrServerClosed {
			t.Errorf("Serve: %v", err)
		}
	})
	return idle
}

// keepAlive sends one request on c and reads its answer, leaving c open and idle.
func keepAlive(t *testing.T, c net.Conn, r *bufio.Reader) {
	t.Helper()
	fmt.Fprintf(c, "GET /api/capabilities HTTP/1.1\r\nHost: %s\r\n\r\n", servertest.Host)
	res, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
}

// TestConnectionLimit (issue 26, finding 8), over real loopback sockets: with twice the limit held
// open (idle keep-alive connections, then connections that never send a request), a fresh request is
// answered, the server closes the oldest connections to keep within the limit, and keeps serving.
// Before, nothing bounded the connections: about 20,000 idle ones used up the descriptors, accept
// failed with "too many open files" and a fresh request timed out.
func TestConnectionLimit(t *testing.T) {
	const limit = 8
	e := servertest.New(t)
	ln, err := server.Listen(0)
	if err != nil {
		t.Fatal(err)
	}
	idle := serveLimited(t, e, ln, limit)
	addr := ln.Addr().String()

	closed := make(chan int, 2*limit)
	held := make([]net.Conn, 2*limit)
	for i := range held {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		held[i] = c
		r := bufio.NewReader(c)
		if i < limit {
			keepAlive(t, c, r) // idle keep-alive connections
			<-idle             // and the limiter knows it before the next one comes
		}
		go func() { // the server closing the connection ends this read
			_, _ = io.Copy(io.Discard, r)
			closed <- i
		}()
	}
	fresh := func() {
		t.Helper()
		client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		req, _ := http.NewRequestWithContext(context.Background(), "GET", "http://"+addr+"/api/capabilities", nil)
		req.Host = servertest.Host
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("a fresh request beyond the limit: %v", err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("a fresh request beyond the limit: %d", res.StatusCode)
		}
	}
	fresh()
	// 2×limit held plus the fresh one: at least limit+1 of the held ones were closed, the oldest first
	// (the idle ones, then those that never sent a request).
	seen := map[int]bool{}
	for range limit + 1 {
		seen[<-closed] = true
	}
	for i := range limit {
		if !seen[i] {
			t.Errorf("idle connection %d is open while newer ones were closed (closed: %v)", i, seen)
		}
	}
	fresh() // still serving
}

// TestIdleTimeoutUnderPressure: while three quarters of the limit are in use, an idle connection is
// closed once it has waited server.PressureIdleTimeout, when the next connection comes; without pressure
// it stays. In a testing/synctest bubble over pipes, so the five seconds pass at once.
func TestIdleTimeoutUnderPressure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const limit = 8
		e := servertest.New(t)
		pipes := servertest.NewPipes()
		serveLimited(t, e, pipes, limit)
		var ended [limit]bool
		open := func(i int) net.Conn {
			c, err := pipes.DialContext(context.Background(), "tcp", servertest.Host)
			if err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(c)
			keepAlive(t, c, r)
			go func() {
				_, _ = io.Copy(io.Discard, r)
				ended[i] = true
			}()
			return c
		}
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		conns = append(conns, open(0), open(1))
		time.Sleep(server.PressureIdleTimeout)
		conns = append(conns, open(2)) // 3 of 8: no pressure
		synctest.Wait()
		if ended[0] || ended[1] {
			t.Fatal("idle connections were closed without pressure")
		}
		for i := 3; i < 6; i++ {
			conns = append(conns, open(i)) // 6 of 8: pressure; 0 and 1 have waited long enough
		}
		synctest.Wait()
		if !ended[0] || !ended[1] {
			t.Errorf("under pressure, connections idle for %v stayed open", server.PressureIdleTimeout)
		}
		for i := 2; i < 6; i++ {
			if ended[i] {
				t.Errorf("connection %d, idle for less than %v, was closed", i, server.PressureIdleTimeout)
			}
		}
	})
}

func TestConnectionLimitBelowDescriptors(t *testing.T) {
	if n := server.ConnectionLimit(); n < 16 || n > server.MaxConnections {
		t.Fatalf("ConnectionLimit() = %d", n)
	}
}
