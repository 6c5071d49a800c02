package host

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// BenchmarkSnapshotTo4Streams measures publishing one chat snapshot to 4 paired streams:
//
//	host: from the `branch` note (one appended entry) written to the host's stdin to the last of 4 SSE
//	      clients (real HTTP on loopback) having read the whole new snapshot event;
//	bare: a bare net/http SSE handler writing and flushing the same bytes (the last snapshot's frame) to
//	      4 connections, until the last client has read them.
//
// Target (issue 4): host ≤ 2× bare. Run: go test ./host -run XXX -bench SnapshotTo4Streams -count 5
func BenchmarkSnapshotTo4Streams(b *testing.B) {
	var frame []byte
	b.Run("host", func(b *testing.B) { frame = benchHost(b) })
	if frame == nil {
		b.Skip("no snapshot captured")
	}
	b.Run("bare", func(b *testing.B) { benchBare(b, frame) })
}

const benchClients = 4

// benchEvents reads SSE events from body and sends the raw bytes of each complete event on got.
func benchEvents(body io.Reader, got chan<- []byte) {
	br := bufio.NewReaderSize(body, 1<<20)
	var ev []byte
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return
		}
		if line[0] == ':' { // heartbeat comment
			continue
		}
		ev = append(ev, line...)
		if len(line) == 1 {
			got <- ev
			ev = nil
		}
	}
}

func benchHost(b *testing.B) []byte {
	fb := startHost(b, hostOpts{})
	r := fb.ready("bench")
	fixture, err := os.ReadFile("../../shared/research/pi-branch-example.json")
	if err != nil {
		b.Skipf("fixture: %v", err)
	}
	fb.send(`{"note":"branch","reset":true,"entries":` + compact(fixture) + `}`)
	fb.send(`{"note":"state","idle":true,"pending":false,"prompt":false}`)
	br, code := pair(b, r, r.Invite)
	if code != 200 {
		b.Fatalf("pair: %d", code)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan []byte, 64)
	for range benchClients {
		req, _ := http.NewRequestWithContext(ctx, "GET", r.origin+"/api/chat/"+r.Binding+"/events", nil)
		req.AddCookie(br.cookie)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("stream: %v", err)
		}
		defer resp.Body.Close()
		go benchEvents(resp.Body, got)
	}
	for range benchClients {
		wait(b, got, "first snapshot")
	}
	// Let the fixture's snapshots settle (the streams may see one more), then drain.
	time.Sleep(50 * time.Millisecond)
	for len(got) > 0 {
		<-got
	}

	parent := "root"
	var last []byte
	n := 0
	text := strings.Repeat("A bar of D, then G, then A7 back to D. ", 6)
	b.ReportAllocs()
	for b.Loop() {
		n++
		id := fmt.Sprintf("b%07x", n)
		note := fmt.Sprintf(`{"note":"branch","reset":false,"entries":[{"type":"message","id":%q,"parentId":%q,"timestamp":"2026-11-30T08:44:08.151Z","message":{"role":"user","content":[{"type":"text","text":"%s %d"}],"timestamp":1796028248135}}]}`,
			id, parent, text, n)
		parent = id
		fb.send(note)
		for range benchClients {
			last = wait(b, got, "snapshot")
		}
	}
	b.StopTimer()
	b.SetBytes(int64(len(last)))
	b.ReportMetric(float64(len(last)), "snapshot-bytes")
	if !strings.Contains(string(last), "event: snapshot") {
		b.Fatalf("not a snapshot: %.200s", last)
	}
	return last
}

func benchBare(b *testing.B, frame []byte) {
	conns := make(chan chan []byte, benchClients)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.Write(frame)
		w.(http.Flusher).Flush()
		in := make(chan []byte, 1)
		conns <- in
		for {
			select {
			case <-r.Context().Done():
				return
			case p := <-in:
				if _, err := w.Write(p); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan []byte, 64)
	var ins []chan []byte
	for range benchClients {
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL, nil)
		resp, err := srv.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		go benchEvents(resp.Body, got)
		wait(b, got, "first event")
		ins = append(ins, <-conns)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, in := range ins {
			in <- frame
		}
		for range benchClients {
			wait(b, got, "event")
		}
	}
	b.StopTimer()
	b.SetBytes(int64(len(frame)))
	b.ReportMetric(float64(len(frame)), "snapshot-bytes")
}
