package e2e

// The chat panel applying 256 KiB snapshots while a reply streams (issue 13; docs/performance.md). The
// real built `tele host` serves the page and the chat stream; this benchmark plays the bridge's part on
// the host's stdin and stdout (docs/link-protocol.md): a branch of 100 long messages, then a reply
// streamed word by word, each `stream` note becoming one ~256 KiB snapshot on the page's SSE stream.
//
//	go test ./e2e -run '^$' -bench ChatSnapshot -benchtime 40x

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// hostLink is a running `tele host` whose link this process holds.
type hostLink struct {
	tb    testing.TB
	in    io.WriteCloser
	notes chan map[string]any
}

func startHostLink(tb testing.TB, board string) (*hostLink, map[string]any) {
	tb.Helper()
	cmd := exec.Command(teleBinary(tb), "host", "--port", "0", "--data", tb.TempDir())
	cmd.Env = append(os.Environ(), "HOME="+tb.TempDir(), "TELE_NO_BROWSER=1")
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	h := &hostLink{tb: tb, in: in, notes: make(chan map[string]any, 16)}
	done := make(chan struct{})
	go func() { // owned by the host process: ends when its stdout closes
		defer close(done)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var f map[string]any
			if json.Unmarshal(sc.Bytes(), &f) == nil && f["note"] != nil {
				select {
				case h.notes <- f:
				default:
				}
			}
		}
	}()
	tb.Cleanup(func() {
		h.send(map[string]any{"note": "revoke", "reason": "off"})
		in.Close()
		cmd.Wait()
		<-done
	})
	h.send(map[string]any{"note": "hello", "protocol": 1, "bridge": "bench", "pi": "0", "board": board,
		"session": map[string]any{"id": "bench-session"}})
	select {
	case ready := <-h.notes:
		if ready["note"] != "ready" {
			tb.Fatalf("tele host answered %v", ready)
		}
		return h, ready
	case <-time.After(30 * time.Second):
		tb.Fatal("tele host did not say ready within 30s")
		return nil, nil
	}
}

func (h *hostLink) send(frame any) {
	b, err := json.Marshal(frame)
	if err != nil {
		h.tb.Fatal(err)
	}
	if _, err := h.in.Write(append(b, '\n')); err != nil {
		h.tb.Fatalf("writing to tele host: %v", err)
	}
}

// longBranch is a session branch of n messages, user and assistant in turn, each about size bytes of text.
func longBranch(n, size int) []any {
	words := strings.Fields("the tune walks down from Ebmaj7 and the band follows the bass into the bridge where the chords turn")
	entries := make([]any, n)
	for i := range entries {
		var b strings.Builder
		for k := 0; b.Len() < size; k++ {
			b.WriteString(words[(i+k)%len(words)])
			b.WriteByte(' ')
		}
		role := []string{"user", "assistant"}[i%2]
		entries[i] = map[string]any{"type": "message", "id": fmt.Sprintf("m%05d", i), "parentId": nil,
			"timestamp": "2026-12-01T08:00:00.000Z",
			"message":   map[string]any{"role": role, "content": []any{map[string]any{"type": "text", "text": b.String()}}, "timestamp": 1}}
	}
	return entries
}

// bareSSE is the floor of a snapshot's cost: a page of this test's own loopback server whose only
// script receives `snapshot` events from an EventSource and parses them, with nothing on screen to
// change. send pushes one event with the given data and returns once it is written.
type bareSSE struct {
	URL    string
	events chan string
	sent   chan struct{}
}

func startBareSSE(tb testing.TB) *bareSSE {
	bs := &bareSSE{events: make(chan string), sent: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bare</title></head><body><p>bare SSE</p><script src="/bare.js"></script></body></html>`)
	})
	mux.HandleFunc("GET /bare.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, `new EventSource('/events').addEventListener('snapshot', (ev) => { window.__view = JSON.parse(ev.data); });`)
	})
	mux.HandleFunc("GET /events", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-store")
		rc := http.NewResponseController(w)
		fmt.Fprint(w, ": hello\n\n")
		rc.Flush()
		for {
			select {
			case <-r.Context().Done():
				return
			case data := <-bs.events:
				fmt.Fprintf(w, "event: snapshot\ndata: %s\n\n", data)
				rc.Flush()
				bs.sent <- struct{}{}
			}
		}
	})
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	bs.URL = srv.URL
	return bs
}

func (bs *bareSSE) send(data string) {
	bs.events <- data
	<-bs.sent
}

// BenchmarkChatSnapshotApply: per snapshot of about 256 KiB, the page's main-thread CPU time from the
// note to the frame painted after it (and the wall time of its tasks), alternately with the floor: the
// same event data received by a bare EventSource page and parsed (bareSSE), in the same browser.
// Target: ≤ 8 ms a snapshot.
func BenchmarkChatSnapshotApply(b *testing.B) {
	requireTool(b, "Debian chromium", chromiumPath)
	h, ready := startHostLink(b, "chat-bench")
	h.send(map[string]any{"note": "branch", "reset": true, "entries": longBranch(100, 2700)})
	h.send(map[string]any{"note": "state", "idle": true, "pending": false, "prompt": false})
	bare := startBareSSE(b)
	br := newBrowser(b)
	p := benchPage(b, br)
	p.do(chromedp.Navigate(ready["invite"].(string)))
	p.waitJS(`document.getElementById('chat').dataset.conn === 'live' && document.querySelectorAll('#chat-items > li').length >= 50`, "the paired panel shows the conversation")
	h.send(map[string]any{"note": "agent_start"})
	p.waitJS(`document.getElementById('chat').dataset.status === 'running'`, "the run has started")
	q := benchPage(b, br)
	q.do(chromedp.Navigate(bare.URL + "/"))
	q.waitJS(`document.readyState === 'complete'`, "the bare page is loaded")

	reply := ""
	var busy, cpu, handled, painted, floor []float64
	data := ""
	for b.Loop() {
		reply += "and the band follows the bass into the bridge where the chords turn. "
		n := evalJS[int](p, `window.__bench.updates.length`)
		before := mainThreadOf(p)
		h.send(map[string]any{"note": "stream", "message": map[string]any{"role": "assistant",
			"content": []any{map[string]any{"type": "text", "text": reply}}, "timestamp": 1}})
		awaitPainted(p, n)
		wall, c := mainThreadOf(p).since(before)
		busy, cpu = append(busy, wall), append(cpu, c)
		if got := evalJS[int](p, `document.querySelector('#chat-items > li:last-child .chat-text').textContent.length`); got != len(reply) {
			b.Fatalf("the streamed reply shows %d characters after the snapshot, want %d", got, len(reply))
		}
		u := evalJS[updateResult](p, `window.__bench.updates[window.__bench.updates.length - 1]`)
		handled = append(handled, u.Handled-u.Received)
		painted = append(painted, u.Painted-u.Received)
		if data == "" {
			data = evalJS[string](p, `window.__bench.lastData`)
		}

		n = evalJS[int](q, `window.__bench.updates.length`)
		before = mainThreadOf(q)
		bare.send(data)
		awaitPainted(q, n)
		_, c = mainThreadOf(q).since(before)
		floor = append(floor, c)
	}
	b.ReportMetric(median(cpu), "main-cpu-ms/snapshot")
	b.ReportMetric(median(busy), "main-busy-ms/snapshot")
	b.ReportMetric(median(handled), "handler-ms")
	b.ReportMetric(median(painted), "event-to-paint-ms")
	b.ReportMetric(median(floor), "bare-cpu-ms/snapshot")
	b.ReportMetric(medianRatio(cpu, floor), "main/bare")
	b.ReportMetric(median(cpu)/8, "main-cpu/budget")
	b.ReportMetric(float64(len(data))/1024, "snapshot-KiB")
}
