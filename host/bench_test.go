package host

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"tele/projection"
	"tele/sse/ssetest"
	"testing"
	"time"
)

// Publishing one chat snapshot to 4 paired streams (issue 4: host ≤ 2× bare):
//
//	host: from the `branch` note (one appended entry, on top of the real 0.73.1 branch fixture) written
//	      to the host's stdin to the last of 4 SSE clients (real HTTP on loopback) having read the whole
//	      new snapshot event;
//	bare: a bare net/http SSE handler writing and flushing the same bytes (the host's last snapshot
//	      frame) to 4 connections, until the last client has read them.
//
// BenchmarkSnapshotTo4Streams runs them one after the other; BenchmarkSnapshotTo4StreamsInterleaved
// alternates one host publish and one bare write of the frame that publish produced per iteration, and
// reports host-ns, bare-ns and their ratio, which is steadier on a noisy machine. Setup fills the view
// (100 items), so every measured snapshot is the same size (about 28 KB).
//
//	go test ./host -run '^$' -bench SnapshotTo4Streams -benchmem -count 5

const benchClients = 4

func BenchmarkSnapshotTo4Streams(b *testing.B) {
	var frame []byte
	b.Run("host", func(b *testing.B) {
		publish, last := setupHostBench(b)
		b.ReportAllocs()
		for b.Loop() {
			publish()
		}
		b.StopTimer()
		frame = last()
		b.SetBytes(int64(len(frame)))
	})
	if frame == nil {
		b.Skip("no snapshot captured")
	}
	b.Run("bare", func(b *testing.B) {
		write := setupBareBench(b)
		b.ReportAllocs()
		for b.Loop() {
			write(frame)
		}
		b.StopTimer()
		b.SetBytes(int64(len(frame)))
	})
}

func BenchmarkSnapshotTo4StreamsInterleaved(b *testing.B) {
	publish, last := setupHostBench(b)
	write := setupBareBench(b)
	var hostT, bareT time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		publish()
		t1 := time.Now()
		write(last()) // the same bytes
		bareT += time.Since(t1)
		hostT += t1.Sub(t0)
		n++
	}
	b.ReportMetric(float64(hostT.Nanoseconds())/float64(n), "host-ns/op")
	b.ReportMetric(float64(bareT.Nanoseconds())/float64(n), "bare-ns/op")
	b.ReportMetric(float64(hostT)/float64(bareT), "host/bare")
	b.ReportMetric(float64(len(last())), "snapshot-bytes")
}

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

// setupHostBench starts a host with the fixture branch and 4 paired streams. publish appends one entry
// and waits until all 4 streams have the new snapshot; last returns the last snapshot frame read.
func setupHostBench(b *testing.B) (publish func(), last func() []byte) {
	fixture, err := os.ReadFile("../projection/testdata/pi-branch-example.json")
	if err != nil {
		b.Skipf("fixture: %v", err)
	}
	fb := startHost(b, hostOpts{})
	r := fb.ready("bench")
	fb.send(`{"note":"branch","reset":true,"entries":` + compact(fixture) + `}`)
	fb.send(`{"note":"state","idle":true,"pending":false,"prompt":false}`)
	br, code := pair(b, r, r.Invite)
	if code != 200 {
		b.Fatalf("pair: %d", code)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	got := make(chan []byte, 64)
	for range benchClients {
		req, _ := http.NewRequestWithContext(ctx, "GET", r.origin+"/api/chat/"+r.Binding+"/events", nil)
		req.AddCookie(br.cookie)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("stream: %v", err)
		}
		b.Cleanup(func() { resp.Body.Close() })
		go benchEvents(resp.Body, got)
	}
	parent := "629dd532" // the fixture's last entry
	text := strings.Repeat("A bar of D, then G, then A7 back to D. ", 6)
	var frame []byte
	n := 0
	note := func() string {
		n++
		id := fmt.Sprintf("b%07x", n)
		fb.send(fmt.Sprintf(`{"note":"branch","reset":false,"entries":[{"type":"message","id":%q,"parentId":%q,"timestamp":"2026-11-30T08:44:08.151Z","message":{"role":"user","content":[{"type":"text","text":"%s %d"}],"timestamp":1796028248135}}]}`,
			id, parent, text, n))
		parent = id
		return id
	}
	// Each stream starts with a snapshot, and may then get those of setup notes the host had not applied
	// yet. Notes are applied in order: once every stream has the snapshot with a first entry, nothing
	// else is on its way.
	marker := []byte(`"id":"` + note() + `"`)
	for k := 0; k < benchClients; {
		if bytes.Contains(wait(b, got, "setup snapshot"), marker) {
			k++
		}
	}
	if len(got) > 0 {
		b.Fatal("a snapshot after the marker's")
	}
	publish = func() {
		note()
		for range benchClients {
			frame = wait(b, got, "snapshot")
		}
	}
	for range projection.MaxViewItems { // a full view: every measured snapshot has the same size
		publish()
	}
	last = func() []byte {
		if !strings.HasPrefix(string(frame), "event: snapshot") {
			b.Fatalf("not a snapshot: %.200s", frame)
		}
		return frame
	}
	return publish, last
}

// setupBareBench serves plain net/http SSE to 4 clients; write sends frame once to each and waits until
// all 4 have read it.
func setupBareBench(b *testing.B) (write func(frame []byte)) {
	srv := ssetest.NewBare(b, "event: hello\ndata: {}\n\n")
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	got := make(chan []byte, 64)
	var ins []chan<- []byte
	for range benchClients {
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL, nil)
		resp, err := srv.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { resp.Body.Close() })
		go benchEvents(resp.Body, got)
		wait(b, got, "first event")
		ins = append(ins, srv.Next())
	}
	return func(frame []byte) {
		for _, in := range ins {
			in <- frame
		}
		for range benchClients {
			if ev := wait(b, got, "event"); len(ev) != len(frame) {
				b.Fatalf("read %d bytes of a %d-byte frame", len(ev), len(frame))
			}
		}
	}
}
