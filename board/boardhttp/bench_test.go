package boardhttp_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tele/board"
	"tele/board/boardhttp"
	"tele/board/store"
	"tele/board/store/storetest"
	"tele/server"
	"tele/server/servertest"
	"tele/sse"
)

// Benchmarks of the board's hot paths through the whole stack, each next to its floor:
//
//	BenchmarkBoardGET            vs BenchmarkBoardGETBareHandler   (target: ≥ 0.8 of the bare throughput)
//	BenchmarkBoardPUT            vs BenchmarkBoardPUTFloor         (target: ≤ 1.3 × the floor's latency)
//	BenchmarkBoardRevisionsVsGET: listing 50 revisions of a 1,000-revision board vs one board GET,
//	                              interleaved in one loop       (target: ≤ 2 × the GET)
//
// (The store's BenchmarkPutVsFloorInterleaved times a Put on a board that keeps 1,000 revisions, so
// every commit also prunes one, against the raw commit floor, interleaved: the history's own target.)
//
// Run (the numbers in the report came from this):
//
//	go test ./board -run '^$' -bench '^BenchmarkBoard' -benchmem -count 5
//
// Profile with -cpuprofile cpu.out and `go tool pprof -top board.test cpu.out`. The data directory is
// b.TempDir(), so it must be on a real disk for the PUT numbers to mean anything (TMPDIR).

// benchContent is a realistic board of about 3 KB encoded: 4 sections of 16 bars, a long description.
func benchContent() string {
	chords := []string{"Am7", "D7", "Gmaj7", "Cmaj7", "F#m7b5", "B7", "Em", "Em/D", "C#m7b5", "F#7", "Bbmaj7", "Eb9"}
	var sections []string
	for s := range 4 {
		var bars []string
		for i := range 16 {
			if i%3 == 2 {
				bars = append(bars, fmt.Sprintf(`[%q,%q]`, chords[(s+i)%len(chords)], chords[(s+i+5)%len(chords)]))
			} else {
				bars = append(bars, fmt.Sprintf(`[%q]`, chords[(s*7+i)%len(chords)]))
			}
		}
		sections = append(sections, fmt.Sprintf(`{"label":"Section %c","bars":[%s]}`, 'A'+s, strings.Join(bars, ",")))
	}
	return `{"title":"Benchmark standard","description":"` + strings.Repeat("Two-five-one practice in G. ", 70) +
		`","key":"G","tempo":132,"beatsPerBar":4,"sections":[` + strings.Join(sections, ",") + `]}`
}

// quietLogger is the production default level (Info): successful requests are not logged.
func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// discardWriter is a reusable ResponseWriter that keeps only the status and the byte count. It also
// has the methods http.ResponseController uses, so an sse stream can write to it.
type discardWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *discardWriter) Header() http.Header                { return w.h }
func (w *discardWriter) WriteHeader(s int)                  { w.status = s }
func (w *discardWriter) Write(b []byte) (int, error)        { w.n += len(b); return len(b), nil }
func (w *discardWriter) FlushError() error                  { return nil }
func (w *discardWriter) SetWriteDeadline(t time.Time) error { return nil }
func (w *discardWriter) reset()                             { clear(w.h); w.status, w.n = 0, 0 }

func benchEnv(b *testing.B, opts ...func(*server.Config)) (*servertest.Env, servertest.Created) {
	opts = append([]func(*server.Config){func(c *server.Config) { c.Logger = quietLogger() }}, opts...)
	e := servertest.New(b, opts...)
	c := e.Create("bench", benchContent())
	return e, c
}

// bareHandler serves the same bytes with the same headers a board GET has, and nothing else: the floor
// of a net/http handler.
func bareHandler(body []byte, etag string) http.Handler {
	length := strconv.Itoa(len(body))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Content-Length", length)
		h.Set("ETag", etag)
		w.Write(body)
	})
}

func BenchmarkBoardGET(b *testing.B) {
	e, _ := benchEnv(b)
	bd, _ := e.Store.Get("bench")
	b.Run("in-process", func(b *testing.B) {
		benchInProcess(b, e.Handler, len(bd.JSON()))
	})
	b.Run("loopback", func(b *testing.B) {
		l := e.Start()
		benchLoopback(b, l.URL, len(bd.JSON()))
	})
}

func BenchmarkBoardGETBareHandler(b *testing.B) {
	e, _ := benchEnv(b)
	bd, _ := e.Store.Get("bench")
	h := bareHandler(bd.JSON(), `"1"`)
	b.Run("in-process", func(b *testing.B) {
		benchInProcess(b, h, len(bd.JSON()))
	})
	b.Run("loopback", func(b *testing.B) {
		ln, err := server.Listen(0)
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- server.Serve(ctx, ln, h) }()
		defer func() { cancel(); <-done }()
		benchLoopback(b, "http://"+ln.Addr().String(), len(bd.JSON()))
	})
}

func benchInProcess(b *testing.B, h http.Handler, size int) {
	req := httptest.NewRequest("GET", "/api/boards/bench", nil)
	req.Host = servertest.Host
	w := &discardWriter{h: http.Header{}}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		w.reset()
		h.ServeHTTP(w, req)
	}
	if w.status != 0 && w.status != 200 || w.n != size {
		b.Fatalf("status %d, %d bytes, want 200 and %d", w.status, w.n, size)
	}
}

// cpuTime is the CPU time (user + system) this process has used so far.
func cpuTime(b *testing.B) time.Duration {
	d, err := storetest.CPUTime()
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// benchLoopback runs parallel keep-alive clients (8 per CPU) against a real listener. Besides the wall
// time it reports cpu-ns/op, the CPU time of the whole process (server and clients) per request, which a
// busy shared host disturbs far less than the wall time.
func benchLoopback(b *testing.B, url string, size int) {
	tr := &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	b.SetBytes(int64(size))
	b.SetParallelism(8)
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	defer func() { b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/op") }()
	b.RunParallel(func(pb *testing.PB) {
		req, _ := http.NewRequest("GET", url+"/api/boards/bench", nil)
		for pb.Next() {
			res, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			n, _ := io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != 200 || int(n) != size {
				b.Errorf("status %d, %d bytes", res.StatusCode, n)
				return
			}
		}
	})
}

// BenchmarkBoardPUT: one write through the whole stack, serially: guard, router, checks, strict decode,
// validation, durable commit (temp file, fsync, rename, fsync dir), publish to one live stream.
//
// The write rate limit (boardhttp.WriteBurst per board, then 20/s) is part of the measured path but must not
// refuse: the writes go round a pool of boards made before the timer starts, each taking at most
// WriteBurst of them, and each with one subscriber streaming to a discarding writer.
func BenchmarkBoardPUT(b *testing.B) {
	put, _ := putPool(b, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime(b)
	for i := range b.N {
		put(i)
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkBoardPUTVsFloor alternates one BenchmarkBoardPUT write and one BenchmarkBoardPUTFloor commit
// of the same bytes in one loop, so both meet the same disk and the same neighbours on a shared machine,
// and reports the ratio of their total times (put/floor).
func BenchmarkBoardPUTVsFloor(b *testing.B) {
	put, data := putPool(b, b.N)
	dir := b.TempDir()
	target := filepath.Join(dir, "bench.json")
	var putTime, floorTime time.Duration
	b.ResetTimer()
	for i := range b.N {
		t0 := time.Now()
		put(i)
		t1 := time.Now()
		if err := storetest.RawCommitFloor(target, data); err != nil {
			b.Fatal(err)
		}
		putTime += t1.Sub(t0)
		floorTime += time.Since(t1)
	}
	b.StopTimer()
	b.ReportMetric(float64(putTime)/float64(b.N), "put-ns/op")
	b.ReportMetric(float64(floorTime)/float64(b.N), "floor-ns/op")
	b.ReportMetric(float64(putTime)/float64(floorTime), "put/floor")
}

// putPool makes the boards for n writes (see BenchmarkBoardPUT) and returns put, which makes write i, and
// the bytes of a board file, for the floor.
func putPool(b *testing.B, n int) (put func(i int), file []byte) {
	e, first := benchEnv(b)
	type target struct {
		req *http.Request
		rev int64
	}
	ctx, cancel := context.WithCancel(context.Background())
	var streams sync.WaitGroup
	b.Cleanup(func() { cancel(); streams.Wait() })
	body := []byte(benchContent())
	content, err := board.ParseContent(body)
	if err != nil {
		b.Fatal(err)
	}
	pool := make([]*target, (n+boardhttp.WriteBurst-1)/boardhttp.WriteBurst)
	for i := range pool {
		id, capability := "bench", first.Capability
		if i > 0 {
			// Straight into the store: the pool is set-up, and more than CreateBurst boards over HTTP
			// would meet the creation limit.
			id = "bench-" + strconv.Itoa(i)
			if _, capability, err = e.Store.Create(id, content, store.AuthorBrowser); err != nil {
				b.Fatal(err)
			}
		}
		sub, err := e.Hub.Subscribe(boardhttp.Topic(id))
		if err != nil {
			b.Fatal(err)
		}
		streams.Go(func() {
			r := httptest.NewRequest("GET", "/api/boards/"+id+"/events", nil).WithContext(ctx)
			e.Hub.Stream(&discardWriter{h: http.Header{}}, r, sub, sse.Event{Name: boardhttp.EventName, Seq: 1, Data: []byte("{}")})
		})
		req := httptest.NewRequest("PUT", "/api/boards/"+id, nil)
		req.Host = servertest.Host
		req.Header = servertest.PutHeader(capability, "")
		req.ContentLength = int64(len(body))
		pool[i] = &target{req: req, rev: 1}
	}
	w := &discardWriter{h: http.Header{}}
	put = func(i int) {
		t := pool[i/boardhttp.WriteBurst]
		t.req.Header["If-Match"] = []string{`"` + strconv.FormatInt(t.rev, 10) + `"`}
		t.req.Body = io.NopCloser(bytes.NewReader(body))
		w.reset()
		e.Handler.ServeHTTP(w, t.req)
		if w.status != 200 {
			b.Fatalf("put %s revision %d: status %d", t.req.URL.Path, t.rev, w.status)
		}
		t.rev++
	}
	bd, _ := e.Store.Get("bench")
	return put, append(bytes.Clone(bd.JSON()), '\n')
}

// BenchmarkBoardPUTFloor is the durable commit alone, as docs/api.md describes it, of the bytes
// BenchmarkBoardPUT commits: write a temporary file in the same directory, fsync it, rename it over the
// board, fsync the directory. (The store's own BenchmarkRawCommitFloor does the same for its 4 KB board,
// from inside the package; this one sits next to the HTTP benchmark and uses its board.)
func BenchmarkBoardPUTFloor(b *testing.B) {
	e, _ := benchEnv(b)
	bd, _ := e.Store.Get("bench")
	data := append(bytes.Clone(bd.JSON()), '\n') // the board file: the board's JSON and a newline
	dir := b.TempDir()
	target := filepath.Join(dir, "bench.json")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu0 := cpuTime(b)
	defer func() { b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(b.N), "cpu-ns/op") }()
	for b.Loop() {
		if err := storetest.RawCommitFloor(target, data); err != nil {
			b.Fatal(err)
		}
	}
}

// historyBenchEnv is benchEnv with board "bench" at revision 1,000: 999 real commits, so its history is
// what a long-edited board keeps.
func historyBenchEnv(b *testing.B) (*servertest.Env, servertest.Created) {
	e, c := benchEnv(b)
	content, err := board.ParseContent([]byte(benchContent()))
	if err != nil {
		b.Fatal(err)
	}
	for rev := int64(1); rev < store.KeepRevisions; rev++ {
		content.Title = fmt.Sprintf("Benchmark standard, take %d", rev+1)
		if _, err := e.Store.Put("bench", rev, content, store.AuthorPi); err != nil {
			b.Fatal(err)
		}
	}
	return e, c
}

// BenchmarkBoardRevisionsVsGET: listing the newest 50 revisions of a board with 1,000 revisions
// (GET /api/boards/bench/revisions) against one board GET, through the whole stack, timed alternately
// in one loop (target: the listing within 2× of the GET). In process, and over loopback with one
// keep-alive client.
func BenchmarkBoardRevisionsVsGET(b *testing.B) {
	e, _ := historyBenchEnv(b)
	get := httptest.NewRequest("GET", "/api/boards/bench", nil)
	get.Host = servertest.Host
	list := httptest.NewRequest("GET", "/api/boards/bench/revisions", nil)
	list.Host = servertest.Host
	w := &discardWriter{h: http.Header{}}
	e.Handler.ServeHTTP(w, list) // the first listing reads the history's rows from the files
	b.Run("in-process", func(b *testing.B) {
		var tGet, tList time.Duration
		b.ReportAllocs()
		for b.Loop() {
			t0 := time.Now()
			w.reset()
			e.Handler.ServeHTTP(w, get)
			t1 := time.Now()
			if w.status != 0 && w.status != 200 {
				b.Fatalf("GET: %d", w.status)
			}
			w.reset()
			e.Handler.ServeHTTP(w, list)
			tGet, tList = tGet+t1.Sub(t0), tList+time.Since(t1)
			if w.status != 0 && w.status != 200 {
				b.Fatalf("list: %d", w.status)
			}
		}
		reportPair(b, tGet, tList)
	})
	b.Run("loopback", func(b *testing.B) {
		l := e.Start()
		tr := &http.Transport{DisableCompression: true}
		defer tr.CloseIdleConnections()
		client := &http.Client{Transport: tr}
		fetch := func(path string) int {
			res, err := client.Get(l.URL + path)
			if err != nil {
				b.Fatal(err)
			}
			n, _ := io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != 200 {
				b.Fatalf("%s: %d", path, res.StatusCode)
			}
			return int(n)
		}
		if n := fetch("/api/boards/bench/revisions"); n < 50*100 {
			b.Fatalf("the listing is %d bytes: not 50 rows", n)
		}
		var tGet, tList time.Duration
		b.ReportAllocs()
		for b.Loop() {
			t0 := time.Now()
			fetch("/api/boards/bench")
			t1 := time.Now()
			fetch("/api/boards/bench/revisions")
			tGet, tList = tGet+t1.Sub(t0), tList+time.Since(t1)
		}
		reportPair(b, tGet, tList)
	})
}

func reportPair(b *testing.B, tGet, tList time.Duration) {
	b.ReportMetric(float64(tGet.Nanoseconds())/float64(b.N), "get-ns/op")
	b.ReportMetric(float64(tList.Nanoseconds())/float64(b.N), "list-ns/op")
	b.ReportMetric(float64(tList)/float64(tGet), "list/get")
}
