package chat

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"tele/projection"
	"testing"

	"tele/sse"
)

// benchEntry is one persisted user message of about 1 KiB.
func benchEntry(i int) string {
	return fmt.Sprintf(`{"type":"message","id":"e%06d","message":{"role":"user","content":%q}}`, i,
		strings.Repeat(fmt.Sprintf("bar %d, play it again; ", i), 40))
}

// BenchmarkPublishSnapshot: one `branch` note (one appended entry, a full 100-item view of about
// 100 KiB) until the last of 4 chat streams has read the new snapshot, next to a bare SSE write of the
// same bytes to 4 connections. Both include the same client-side parsing.
func BenchmarkPublishSnapshot(b *testing.B) {
	const streams = MaxStreams
	b.Run("gateway", func(b *testing.B) {
		e := newEnv(b)
		c := e.pair()
		var all []string
		for i := range projection.MaxViewItems {
			all = append(all, benchEntry(i))
		}
		if err := e.gw.ApplyBranch(true, []byte("["+strings.Join(all, ",")+"]")); err != nil {
			b.Fatal(err)
		}
		var ss []*stream
		for range streams {
			s, r := e.openStream(c)
			if s == nil {
				b.Fatalf("%d %s", r.status, r.body)
			}
			s.next(b)
			ss = append(ss, s)
		}
		b.SetBytes(int64(len(e.snapshotBytes())))
		i := projection.MaxViewItems
		b.ResetTimer()
		for b.Loop() {
			if err := e.gw.ApplyBranch(false, []byte("["+benchEntry(i)+"]")); err != nil {
				b.Fatal(err)
			}
			i++
			for _, s := range ss {
				s.next(b)
			}
		}
	})
	b.Run("bare-sse", func(b *testing.B) {
		e := newEnv(b)
		var all []string
		for i := range projection.MaxViewItems {
			all = append(all, benchEntry(i))
		}
		e.gw.ApplyBranch(true, []byte("["+strings.Join(all, ",")+"]"))
		frame := sse.Encode(sse.Event{Name: "snapshot", Seq: 1, Data: e.snapshotBytes()})
		b.SetBytes(int64(len(frame)))

		feeds := make(chan chan []byte, streams)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			feed := make(chan []byte, 1)
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			http.NewResponseController(w).Flush()
			feeds <- feed
			for {
				select {
				case <-r.Context().Done():
					return
				case f := <-feed:
					w.Write(f)
					http.NewResponseController(w).Flush()
				}
			}
		}))
		defer srv.Close()
		var ss []*stream
		var fs []chan []byte
		for range streams {
			res, err := srv.Client().Get(srv.URL)
			if err != nil {
				b.Fatal(err)
			}
			defer res.Body.Close()
			ss = append(ss, readStream(res))
			fs = append(fs, <-feeds)
		}
		b.ResetTimer()
		for b.Loop() {
			for _, f := range fs {
				f <- frame
			}
			for _, s := range ss {
				s.next(b)
			}
		}
	})
}

// snapshotBytes is the current snapshot document (for sizes).
func (e *env) snapshotBytes() []byte {
	e.gw.mu.Lock()
	defer e.gw.mu.Unlock()
	return e.gw.snapshot
}
