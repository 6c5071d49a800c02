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

// BenchmarkChatSnapshotApply: per snapshot of about 256 KiB, the page's main-thread time (CPU, and the
// wall time of its tasks; from the note to the frame painted after it) against its floor, JSON.parse of
// the same event data in the same page. Target: ≤ 8 ms a snapshot.
func BenchmarkChatSnapshotApply(b *testing.B) {
	h, ready := startHostLink(b, "chat-bench")
	h.send(map[string]any{"note": "branch", "reset": true, "entries": longBranch(100, 2700)})
	h.send(map[string]any{"note": "state", "idle": true, "pending": false, "prompt": false})
	br := newBrowser(b)
	p := benchPage(b, br)
	p.do(chromedp.Navigate(ready["invite"].(string)))
	p.waitJS(`document.getElementById('chat').dataset.conn === 'live' && document.querySelectorAll('#chat-items > li').length >= 50`, "the paired panel shows the conversation")
	h.send(map[string]any{"note": "agent_start"})
	p.waitJS(`document.getElementById('chat').dataset.status === 'running'`, "the run has started")

	reply := ""
	var busy, cpu, handled, painted []float64
	size := 0
	for b.Loop() {
		reply += "and the band follows the bass into the bridge where the chords turn. "
		n := evalJS[int](p, `window.__bench.updates.length`)
		before := mainThreadOf(p)
		h.send(map[string]any{"note": "stream", "message": map[string]any{"role": "assistant",
			"content": []any{map[string]any{"type": "text", "text": reply}}, "timestamp": 1}})
		p.waitJS(fmt.Sprintf(`window.__bench.updates.length > %d && window.__bench.updates[window.__bench.updates.length - 1].painted > 0 && document.querySelector('#chat-items > li:last-child .chat-text').textContent.length === %d`, n, len(reply)), "the streamed words are painted")
		wall, c := mainThreadOf(p).since(before)
		busy, cpu = append(busy, wall), append(cpu, c)
		u := evalJS[updateResult](p, `window.__bench.updates[window.__bench.updates.length - 1]`)
		handled = append(handled, u.Handled-u.Received)
		painted = append(painted, u.Painted-u.Received)
		size = evalJS[int](p, `window.__bench.lastData.length`)
	}
	parse := evalJS[float64](p, `(() => {
		const data = window.__bench.lastData, ts = [];
		for (let i = 0; i < 21; i++) { const t0 = performance.now(); JSON.parse(data); ts.push(performance.now() - t0); }
		return ts.sort((a, b) => a - b)[10];
	})()`)
	b.ReportMetric(median(cpu), "main-cpu-ms/snapshot")
	b.ReportMetric(median(busy), "main-busy-ms/snapshot")
	b.ReportMetric(median(handled), "handler-ms")
	b.ReportMetric(median(painted), "event-to-paint-ms")
	b.ReportMetric(parse, "parse-ms")
	b.ReportMetric(median(cpu)/parse, "main-cpu/parse")
	b.ReportMetric(median(cpu)/8, "main-cpu/budget")
	b.ReportMetric(float64(size)/1024, "snapshot-KiB")
}
