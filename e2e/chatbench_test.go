package e2e

// The chat panel applying 256 KiB snapshots while a reply streams (issue 13; docs/performance.md). The
// real built `tele host` serves the page and the chat stream; this benchmark plays the bridge's part on
// the host's stdin and stdout (linkHost, docs/link-protocol.md): a branch of 100 long messages, then a
// reply streamed word by word, each `stream` note becoming one ~256 KiB snapshot on the page's stream.
// The page reads that stream in a worker (chat-stream.js), which posts the main thread what changed;
// the main thread's CPU from the note to the frame painted after it counts all the same: the receipt of
// the worker's message, its handler, style, layout and paint.
//
//	go test ./e2e -run '^$' -bench ChatSnapshot -benchtime 10x

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// invite asks the host for a fresh invitation, as the bridge's `invite` call does.
func (h *linkHost) invite() string {
	h.t.Helper()
	h.nextID++
	id := h.nextID
	h.send(map[string]any{"id": id, "call": "invite", "args": map[string]any{}})
	reply := h.wait(func(f map[string]json.RawMessage) bool { return string(f["id"]) == fmt.Sprint(id) }, "the invite reply")
	var ok struct {
		Invite string `json:"invite"`
	}
	if err := json.Unmarshal(reply["ok"], &ok); err != nil || ok.Invite == "" {
		h.t.Fatalf("invite: %s %s", reply["ok"], reply["err"])
	}
	return ok.Invite
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
// script (bareReader) reads the event stream with fetch, cuts it into events and parses each one's
// data, with nothing on screen to change. send pushes one event with the given data and returns once it
// is written.
type bareSSE struct {
	tb     testing.TB
	URL    string
	events chan string
	sent   chan struct{}
}

func startBareSSE(tb testing.TB) *bareSSE {
	bs := &bareSSE{tb: tb, events: make(chan string), sent: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bare</title></head><body><p>bare SSE</p><script src="/bare.js"></script></body></html>`)
	})
	mux.HandleFunc("GET /bare.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, bareReader)
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

// bareReader is the least a page can do with the events: one data line per event (as Tele's server
// writes them), no names, no reconnects.
const bareReader = `(async () => {
  const res = await fetch('/events');
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += value;
    let i;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const at = block.indexOf('\ndata: ');
      if (at >= 0) window.__view = JSON.parse(block.slice(at + 7));
    }
  }
})();
`

func (bs *bareSSE) send(data string) {
	bs.tb.Helper()
	select {
	case bs.events <- data:
		<-bs.sent
	case <-time.After(waitTimeout):
		bs.tb.Fatalf("the bare page's event stream is not connected")
	}
}

// BenchmarkChatSnapshotApply: per snapshot of about 256 KiB, the page's main-thread CPU time from the
// note to the frame painted after it (and the wall time of its tasks), alternately with the floor: the
// same event data received and parsed on the main thread by a bare page (bareSSE), in the same browser.
// Target: ≤ 8 ms a snapshot. handler-ms and event-to-paint-ms start at the main thread's receipt (of the
// worker's message); note-to-paint-ms is the wall time from the note written to the host until the frame
// painted, the worker's reading and parsing included (bare-note-to-paint-ms: the bare page's).
func BenchmarkChatSnapshotApply(b *testing.B) {
	requireTool(b, "Debian chromium", chromiumPath)
	h := startLinkHost(b, "chat-bench")
	h.send(map[string]any{"note": "branch", "reset": true, "entries": longBranch(100, 2700)})
	h.send(map[string]any{"note": "state", "idle": true, "pending": false, "prompt": false})
	bare := startBareSSE(b)
	br := newBrowser(b)
	p := benchPage(b, br)
	p.do(chromedp.Navigate(h.invite()))
	p.waitJS(`document.getElementById('chat').dataset.conn === 'live' && document.querySelectorAll('#chat-items > li').length >= 50`, "the paired panel shows the conversation")
	h.send(map[string]any{"note": "agent_start"})
	p.waitJS(`document.getElementById('chat').dataset.status === 'running'`, "the run has started")
	q := benchPage(b, br)
	q.do(chromedp.Navigate(bare.URL + "/"))
	q.waitJS(`document.readyState === 'complete'`, "the bare page is loaded")

	reply := ""
	var busy, cpu, handled, painted, noted, floor, bareNoted []float64
	data := ""
	paintedAt := func(p *Page) float64 {
		return evalJS[float64](p, `window.__bench.epoch(window.__bench.updates[window.__bench.updates.length - 1].painted)`)
	}
	sinceEpoch := func(t time.Time, epochMS float64) float64 { return epochMS - float64(t.UnixMicro())/1000 }
	for b.Loop() {
		reply += "and the band follows the bass into the bridge where the chords turn. "
		n := evalJS[int](p, `window.__bench.updates.length`)
		before := mainThreadOf(p)
		sent := time.Now()
		h.send(map[string]any{"note": "stream", "message": map[string]any{"role": "assistant",
			"content": []any{map[string]any{"type": "text", "text": reply}}, "timestamp": 1}})
		awaitPainted(p, n)
		wall, c := mainThreadOf(p).since(before)
		busy, cpu = append(busy, wall), append(cpu, c)
		noted = append(noted, sinceEpoch(sent, paintedAt(p)))
		if got := evalJS[int](p, `document.querySelector('#chat-items > li:last-child .chat-text').textContent.length`); got != len(reply) {
			b.Fatalf("the streamed reply shows %d characters after the snapshot, want %d", got, len(reply))
		}
		u := evalJS[updateResult](p, `window.__bench.updates[window.__bench.updates.length - 1]`)
		handled = append(handled, u.Handled-u.Received)
		painted = append(painted, u.Painted-u.Received)
		if data == "" {
			// The page's main thread never sees the event's text (its worker does): the same view, as
			// the status route serves it, is the bare page's event.
			data = evalJS[string](p, `(async () => {
			  const key = Object.keys(localStorage).find((k) => k.startsWith('tele.chat.binding:'));
			  const res = await fetch('/api/chat/' + encodeURIComponent(localStorage.getItem(key)) + '/status');
			  return res.text();
			})()`)
			if !strings.Contains(data, reply) {
				b.Fatalf("the status route's view (%d bytes) does not hold the streamed reply", len(data))
			}
		}

		n = evalJS[int](q, `window.__bench.updates.length`)
		before = mainThreadOf(q)
		sent = time.Now()
		bare.send(data)
		awaitPainted(q, n)
		_, c = mainThreadOf(q).since(before)
		floor = append(floor, c)
		bareNoted = append(bareNoted, sinceEpoch(sent, paintedAt(q)))
	}
	b.ReportMetric(median(cpu), "main-cpu-ms/snapshot")
	b.ReportMetric(median(busy), "main-busy-ms/snapshot")
	b.ReportMetric(median(handled), "handler-ms")
	b.ReportMetric(median(painted), "event-to-paint-ms")
	b.ReportMetric(median(noted), "note-to-paint-ms")
	b.ReportMetric(median(bareNoted), "bare-note-to-paint-ms")
	b.ReportMetric(median(floor), "bare-cpu-ms/snapshot")
	b.ReportMetric(medianRatio(cpu, floor), "main/bare")
	b.ReportMetric(median(cpu)/8, "main-cpu/budget")
	b.ReportMetric(float64(len(data))/1024, "snapshot-KiB")
}
