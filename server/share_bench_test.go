package server_test

import (
	"bufio"
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tele/band"
	"tele/server"
	"tele/sse"
)

// Issue 22's fan-out target: a board commit and a transport change reach 64 followers' streams on the
// share listener (the band's hub, its SSE route, the guard and the access log, over real sockets on
// 127.0.0.2) within 1.25× of a bare net/http SSE broadcast of the same bytes to 64 connections, both
// in the spread between the first and the last stream to read the event and in the time until the
// last one has. Each iteration times the band's commit, the band's transport change and the bare
// broadcast of each one's bytes, alternately, so all four see the same machine.
//
//	go test ./server -run '^$' -bench BandFanout64 -benchtime 200x -count 5
const fanout = 64

// receipts opens one stream per request and sends, for each event a stream reads in full (a data line
// and the blank line after it), the time it was read.
func receipts(tb testing.TB, reqs []*http.Request) <-chan time.Time {
	tb.Helper()
	got := make(chan time.Time, len(reqs)*4)
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: len(reqs)}}
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	for _, req := range reqs {
		res, err := client.Do(req.WithContext(ctx))
		if err != nil {
			tb.Fatal(err)
		}
		if res.StatusCode != http.StatusOK {
			tb.Fatalf("%s: %d", req.URL.Path, res.StatusCode)
		}
		tb.Cleanup(func() { res.Body.Close() })
		go func() {
			br := bufio.NewReaderSize(res.Body, 64<<10)
			data := false
			for {
				line, err := br.ReadSlice('\n')
				if err != nil && err != bufio.ErrBufferFull {
					return
				}
				switch {
				case bytes.HasPrefix(line, []byte("data:")):
					data = true
				case len(line) == 1 && data:
					data = false
					got <- time.Now()
				}
			}
		}()
	}
	return got
}

// spreadAndLast waits for one receipt per stream and returns the first-to-last spread and the time
// from start to the last.
func spreadAndLast(got <-chan time.Time, start time.Time) (spread, last time.Duration) {
	first := time.Time{}
	var end time.Time
	for i := range fanout {
		t := <-got
		if i == 0 || t.Before(first) {
			first = t
		}
		if t.After(end) {
			end = t
		}
	}
	return end.Sub(first), end.Sub(start)
}

// bareBroadcast is the floor: plain net/http handlers, each writing and flushing what it is handed.
type bareBroadcast struct{ conns chan chan []byte }

func (b *bareBroadcast) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	w.(http.Flusher).Flush()
	in := make(chan []byte, 4)
	b.conns <- in
	for {
		select {
		case frame := <-in:
			_, _ = w.Write(frame)
			w.(http.Flusher).Flush()
		case <-r.Context().Done():
			return
		}
	}
}

func BenchmarkBandFanout64(b *testing.B) {
	ln, err := net.Listen("tcp4", "127.0.0.2:0")
	if err != nil {
		b.Skipf("no 127.0.0.2 on this machine: %v", err)
	}
	addr := ln.Addr().String()
	ln.Close()
	st, err := server.Start(server.Setup{DataDir: filepath.Join(b.TempDir(), "data"), Example: "welcome", Share: addr, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- st.Serve(ctx, nil) }()
	b.Cleanup(func() { cancel(); <-done })

	join, leader := st.Band.Start()
	key := join[strings.Index(join, "#key=")+len("#key="):]
	if _, err := st.Band.SetState(leader, band.State{Board: "welcome"}); err != nil {
		b.Fatal(err)
	}
	var reqs []*http.Request
	for range fanout {
		res, err := http.Post("http://"+addr+"/api/join", "application/json", strings.NewReader(`{"key":"`+key+`"}`))
		if err != nil || res.StatusCode != http.StatusNoContent {
			b.Fatalf("join: %v %v", res, err)
		}
		res.Body.Close()
		req, _ := http.NewRequest("GET", "http://"+addr+"/api/band/events", nil)
		req.Header.Set("Accept", "text/event-stream")
		for _, c := range res.Cookies() {
			req.AddCookie(c)
		}
		reqs = append(reqs, req)
	}
	got := receipts(b, reqs)
	// Each stream that opens tells every open one the new count: wait until they have all been read.
	for quiet := time.NewTimer(time.Second); ; {
		select {
		case <-got:
			quiet.Reset(200 * time.Millisecond)
			continue
		case <-quiet.C:
		}
		break
	}
	bd, err := st.Store.Get("welcome")
	if err != nil {
		b.Fatal(err)
	}
	tempo := 120
	transport := func() band.State {
		tempo = 120 + (tempo+1)%60
		return band.State{Board: "welcome", Transport: &band.Transport{Playing: true, Tempo: tempo, StartedAt: time.Now().UnixMilli()}}
	}
	state, err := st.Band.SetState(leader, transport())
	if err != nil {
		b.Fatal(err)
	}
	spreadAndLast(got, time.Now())
	commitFrame := sse.Encode(sse.Event{Name: "board", Seq: 1000, Data: bd.JSON()})
	stateFrame := sse.Encode(sse.Event{Name: "state", Seq: 1000, Data: state})

	bare := &bareBroadcast{conns: make(chan chan []byte, fanout)}
	bareSrv := &http.Server{Handler: bare}
	bareLn, err := net.Listen("tcp4", "127.0.0.2:0")
	if err != nil {
		b.Fatal(err)
	}
	go func() { _ = bareSrv.Serve(bareLn) }()
	b.Cleanup(func() { _ = bareSrv.Close() })
	var bareReqs []*http.Request
	for range fanout {
		req, _ := http.NewRequest("GET", "http://"+bareLn.Addr().String()+"/", nil)
		bareReqs = append(bareReqs, req)
	}
	bareGot := receipts(b, bareReqs)
	var conns []chan []byte
	for range fanout {
		conns = append(conns, <-bare.conns)
	}
	broadcast := func(frame []byte) {
		for _, c := range conns {
			c <- frame
		}
	}

	var commitSpread, commitLast, stateSpread, stateLast, bareCommitSpread, bareCommitLast, bareStateSpread, bareStateLast []float64
	add := func(spread, last *[]float64, s, l time.Duration) {
		*spread = append(*spread, float64(s.Microseconds()))
		*last = append(*last, float64(l.Microseconds()))
	}
	for b.Loop() {
		start := time.Now()
		st.Band.Commit(bd)
		s, l := spreadAndLast(got, start)
		add(&commitSpread, &commitLast, s, l)

		start = time.Now()
		broadcast(commitFrame)
		s, l = spreadAndLast(bareGot, start)
		add(&bareCommitSpread, &bareCommitLast, s, l)

		next := transport()
		start = time.Now()
		if _, err := st.Band.SetState(leader, next); err != nil {
			b.Fatal(err)
		}
		s, l = spreadAndLast(got, start)
		add(&stateSpread, &stateLast, s, l)

		start = time.Now()
		broadcast(stateFrame)
		s, l = spreadAndLast(bareGot, start)
		add(&bareStateSpread, &bareStateLast, s, l)
	}
	med := func(xs []float64) float64 {
		ys := slices.Clone(xs)
		slices.Sort(ys)
		return ys[len(ys)/2]
	}
	ratio := func(a, b []float64) float64 { return med(a) / max(1, med(b)) }
	b.ReportMetric(ratio(commitSpread, bareCommitSpread), "commit-spread-x")
	b.ReportMetric(ratio(commitLast, bareCommitLast), "commit-last-x")
	b.ReportMetric(ratio(stateSpread, bareStateSpread), "state-spread-x")
	b.ReportMetric(ratio(stateLast, bareStateLast), "state-last-x")
	b.ReportMetric(med(commitLast), "commit-last-µs")
	b.ReportMetric(med(bareCommitLast), "bare-commit-last-µs")
	b.ReportMetric(med(stateLast), "state-last-µs")
	b.ReportMetric(med(bareStateLast), "bare-state-last-µs")
	b.Logf("frames: a commit %d bytes, a state %d bytes", len(commitFrame), len(stateFrame))
}
