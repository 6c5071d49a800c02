package sse

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"tele/sse/ssetest"
	"testing"
)

// The two benchmarks below move the same bytes over loopback to 4 clients and wait until every client
// has read the whole frame. BenchmarkPublish4 goes through the Hub; BenchmarkBareSSE4 is the floor:
// plain net/http handlers writing and flushing the frame. Their ratio is the hub's overhead.

const benchStreams = 4

func benchPayload() []byte {
	return []byte(`{"x":"` + strings.Repeat("a", 64<<10-8) + `"}`) // 64 KiB of single-line JSON
}

// startBenchReaders opens n streams at url and returns a channel that receives one value per complete
// event (blank-line terminated) read by any of them.
func startBenchReaders(b *testing.B, client *http.Client, url string, n int) <-chan struct{} {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	got := make(chan struct{}, n)
	for range n {
		req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { resp.Body.Close() })
		go func() {
			br := bufio.NewReaderSize(resp.Body, 256<<10)
			for {
				line, err := br.ReadSlice('\n')
				if err != nil {
					return
				}
				if len(line) == 1 {
					got <- struct{}{}
				}
			}
		}()
	}
	return got
}

func BenchmarkPublish4(b *testing.B) {
	hub := NewHub(Options{Heartbeat: -1, MaxPerTopic: benchStreams})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sub, err := hub.Subscribe("bench")
		if err != nil {
			http.Error(w, err.Error(), http.StatusTooManyRequests)
			return
		}
		hub.Stream(w, r, sub, Event{Name: "board", Seq: 0, Data: []byte(`{}`)})
	}))
	b.Cleanup(srv.Close)
	b.Cleanup(hub.Close)

	got := startBenchReaders(b, srv.Client(), srv.URL, benchStreams)
	for range benchStreams {
		<-got // the snapshots
	}
	payload := benchPayload()
	b.SetBytes(int64(benchStreams * len(Encode(Event{Name: "board", Data: payload}))))
	b.ReportAllocs()
	var seq int64
	for b.Loop() {
		seq++
		hub.Publish("bench", Event{Name: "board", Seq: seq, Data: payload})
		for range benchStreams {
			<-got
		}
	}
}

func BenchmarkBareSSE4(b *testing.B) {
	srv := ssetest.NewBare(b, "event: board\ndata: {}\n\n")
	got := startBenchReaders(b, srv.Client(), srv.URL, benchStreams)
	var ins []chan<- []byte
	for range benchStreams {
		<-got
		ins = append(ins, srv.Next())
	}
	frame := Encode(Event{Name: "board", Data: benchPayload()})
	b.SetBytes(int64(benchStreams * len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		for _, in := range ins {
			in <- frame
		}
		for range benchStreams {
			<-got
		}
	}
}
