package strictjson_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"syscall"
	"testing"
	"time"

	"tele/strictjson"
)

// cpuTime returns the process's CPU time (user + system, all threads, so GC work counts).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds cpu-ns/op: on a shared machine wall time per op (ns/op) includes time spent waiting
// for a CPU; the process's own CPU time does not.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// benchContent mirrors board.Content (strictjson cannot import board in its own benchmarks without
// coupling the two; the shapes are what matter).
type benchContent struct {
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Key         string         `json:"key,omitempty"`
	Tempo       int            `json:"tempo"`
	BeatsPerBar int            `json:"beatsPerBar"`
	Sections    []benchSection `json:"sections"`
}

type benchSection struct {
	Label string     `json:"label"`
	Bars  [][]string `json:"bars"`
}

// board4K returns a realistic board of about 4 KB: a description, eight sections of sixteen bars,
// one to two chords a bar.
func board4K(tb testing.TB) []byte {
	chords := []string{"Am7", "D7", "Gmaj7", "Cmaj7", "F#m7b5", "B7", "Em", "Em/D", "C#m7b5", "F#7"}
	c := benchContent{
		Title:       "Autumn Leaves (practice chart)",
		Description: "Two-five-one practice in G. Play the A section twice, then the bridge; keep the bass walking.",
		Key:         "G", Tempo: 132, BeatsPerBar: 4,
	}
	for s := range 12 {
		sec := benchSection{Label: fmt.Sprintf("Part %c", 'A'+s)}
		for b := range 24 {
			bar := []string{chords[(s*7+b)%len(chords)]}
			if b%3 == 2 {
				bar = append(bar, chords[(s+b)%len(chords)])
			}
			sec.Bars = append(sec.Bars, bar)
		}
		c.Sections = append(c.Sections, sec)
	}
	data, err := json.Marshal(c)
	if err != nil {
		tb.Fatal(err)
	}
	if len(data) < 3500 || len(data) > 4600 {
		tb.Fatalf("board is %d bytes, want about 4 KB", len(data))
	}
	return data
}

// BenchmarkDecodeBoard is the path every board write takes: one strict pass that builds the value.
func BenchmarkDecodeBoard(b *testing.B) {
	data := board4K(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	start := cpuTime()
	defer reportCPU(b, start)
	for b.Loop() {
		var c benchContent
		if err := strictjson.Decode(data, &c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidBoard is the strict scan alone (duplicates, UTF-8, trailing data), as a two-pass
// design would run it before encoding/json.
func BenchmarkValidBoard(b *testing.B) {
	data := board4K(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	start := cpuTime()
	defer reportCPU(b, start)
	for b.Loop() {
		if err := strictjson.Valid(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodingJSONBoard is encoding/json with DisallowUnknownFields alone: the second pass of the
// two-pass alternative, so scan + this is what that design would cost.
func BenchmarkEncodingJSONBoard(b *testing.B) {
	data := board4K(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	start := cpuTime()
	defer reportCPU(b, start)
	for b.Loop() {
		var c benchContent
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeCommand is a small chat command, where per-call setup dominates.
func BenchmarkDecodeCommand(b *testing.B) {
	data := []byte(`{"type":"send","id":"5f0c6f4e-6a43-4b51-9a0e-3c1f7f1f2b9d","epoch":"e1","idleVersion":3,"text":"Please make the bridge modulate to D."}`)
	type command struct {
		Type        string `json:"type"`
		ID          string `json:"id"`
		Epoch       string `json:"epoch"`
		IdleVersion int64  `json:"idleVersion"`
		Text        string `json:"text"`
		RunID       string `json:"runId"`
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	start := cpuTime()
	defer reportCPU(b, start)
	for b.Loop() {
		var c command
		if err := strictjson.Decode(data, &c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidLargeFrame is a 1 MiB link frame whose body is kept raw (json.RawMessage).
func BenchmarkValidLargeFrame(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(`{"note":"branch","reset":true,"entries":[`)
	for i := 0; buf.Len() < 1<<20; i++ {
		if i > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, `{"type":"message","id":"e%d","parentId":"e%d","timestamp":"2025-01-01T00:00:00Z","message":{"role":"toolResult","toolCallId":"c%d","toolName":"bash","content":[{"type":"text","text":"line one\nline two \"quoted\" caf\u00e9 %d"}],"isError":false}}`, i, i-1, i, i)
	}
	buf.WriteString(`]}`)
	data := buf.Bytes()
	var frame struct {
		Note    string          `json:"note"`
		Reset   bool            `json:"reset"`
		Entries json.RawMessage `json:"entries"`
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	start := cpuTime()
	defer reportCPU(b, start)
	for b.Loop() {
		if err := strictjson.Decode(data, &frame); err != nil {
			b.Fatal(err)
		}
	}
}
