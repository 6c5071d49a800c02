package server_test

import (
	"net"
	"net/http"
	"testing"
	"time"

	"tele/server"
	"tele/server/servertest"
)

// BenchmarkNewConnectionVsUnlimited: a request on a new loopback connection each time (the worst case
// for the connection limit, which does its work at accept), through server.LimitConnections and through
// the same server without it, alternating in one loop (docs/performance.md). Reports the ratio.
func BenchmarkNewConnectionVsUnlimited(b *testing.B) {
	e := servertest.New(b)
	serve := func(limit int) string {
		ln, err := server.Listen(0)
		if err != nil {
			b.Fatal(err)
		}
		srv := server.NewHTTPServer(e.Handler)
		var l net.Listener = ln
		if limit > 0 {
			l = server.LimitConnections(srv, ln, limit)
		}
		go srv.Serve(l)
		b.Cleanup(func() { srv.Close() })
		return "http://" + ln.Addr().String() + "/api/capabilities"
	}
	limited, bare := serve(server.ConnectionLimit()), serve(0)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	get := func(url string) time.Duration {
		start := time.Now()
		req, _ := http.NewRequest("GET", url, nil)
		req.Host = servertest.Host
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			b.Fatalf("status %d", res.StatusCode)
		}
		return time.Since(start)
	}
	var tl, tb time.Duration
	for b.Loop() {
		tl += get(limited)
		tb += get(bare)
	}
	b.ReportMetric(float64(tl)/float64(b.N), "limited-ns/op")
	b.ReportMetric(float64(tb)/float64(b.N), "bare-ns/op")
	b.ReportMetric(float64(tl)/float64(tb), "ratio")
}
