package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tele/board"
	"tele/board/store/storetest"
)

// reportCPU adds cpu-ns/op: on a shared machine wall time per op (ns/op) includes time spent waiting
// for a CPU; the process's own CPU time does not.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// board4K is a realistic content of about 4 KB serialized: twelve sections of 24 bars, one or two
// chords a bar.
func board4K(tb testing.TB) (board.Content, []byte) {
	tb.Helper()
	chords := []string{"Am7", "D7", "Gmaj7", "Cmaj7", "F#m7b5", "B7", "Em", "Em/D", "C#m7b5", "F#7"}
	c := board.Content{
		Title:       "Autumn Leaves (practice chart)",
		Description: "Two-five-one practice in G. Play the A section twice, then the bridge; keep the bass walking.",
		Key:         "G", Tempo: 132, BeatsPerBar: 4,
	}
	for s := range 12 {
		sec := board.Section{Label: fmt.Sprintf("Part %c", 'A'+s)}
		for b := range 24 {
			bar := []string{chords[(s*7+b)%len(chords)]}
			if b%3 == 2 {
				bar = append(bar, chords[(s+b)%len(chords)])
			}
			sec.Bars = append(sec.Bars, board.PlainBar(bar...))
		}
		c.Sections = append(c.Sections, sec)
	}
	if err := c.Validate(); err != nil {
		tb.Fatal(err)
	}
	raw, err := json.Marshal(c)
	if err != nil {
		tb.Fatal(err)
	}
	if len(raw) < 3500 || len(raw) > 4600 {
		tb.Fatalf("content is %d bytes, want about 4 KB", len(raw))
	}
	return c, raw
}

// BenchmarkParseContent is the strict parse and full validation of a 4 KB board.
func BenchmarkParseContent(b *testing.B) {
	_, raw := board4K(b)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	start := cpuTime()
	defer reportCPU(b, start)
	for b.Loop() {
		if _, err := board.ParseContent(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidate is Content.Validate alone on the same board (what Put adds to a decoded value).
func BenchmarkValidate(b *testing.B) {
	c, _ := board4K(b)
	b.ReportAllocs()
	start := cpuTime()
	defer reportCPU(b, start)
	for b.Loop() {
		if err := c.Validate(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPut is a full write of a 4 KB board: validate, copy, encode, durable commit, publish.
// Compare with BenchmarkRawCommitFloor, the same bytes committed with nothing else.
func BenchmarkPut(b *testing.B) {
	c, _ := board4K(b)
	s, err := Open(b.TempDir(), Options{Logger: quiet, OnCommit: func(Board) {}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, _, err := s.Create("bench", c, AuthorBrowser); err != nil {
		b.Fatal(err)
	}
	rev := int64(1)
	b.ReportAllocs()
	start := cpuTime()
	defer reportCPU(b, start)
	for b.Loop() {
		nb, err := s.Put("bench", rev, c, AuthorBrowser)
		if err != nil {
			b.Fatal(err)
		}
		rev = nb.Revision
	}
}

// BenchmarkRawCommitFloor is the physical floor of a commit: temp file, write, fsync, close, rename,
// fsync the directory, for the same bytes a Put of the 4 KB board writes.
func BenchmarkRawCommitFloor(b *testing.B) {
	c, _ := board4K(b)
	data := boardFileBytes(Board{ID: "bench", Revision: 2, Content: c}.JSON())
	dir := b.TempDir()
	target := filepath.Join(dir, "bench.json")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	start := cpuTime()
	defer reportCPU(b, start)
	for b.Loop() {
		f, err := os.CreateTemp(dir, ".bench.json.tmp-*")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.Write(data); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
		if err := os.Rename(f.Name(), target); err != nil {
			b.Fatal(err)
		}
		d, err := os.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		if err := d.Sync(); err != nil {
			b.Fatal(err)
		}
		d.Close()
	}
}

// BenchmarkPutVsFloorInterleaved is the target of the history design: a Put of the 4 KB board on a
// board that already keeps KeepRevisions revisions (so every commit also prunes one, and the listing
// rows are loaded and kept up to date), against the raw durable-commit floor of the same bytes (temp
// file, fsync, rename, fsync dir), timed alternately in one loop so both see the same machine. It
// reports each side's mean and their ratio (target ≤ 1.3).
func BenchmarkPutVsFloorInterleaved(b *testing.B) {
	c, _ := board4K(b)
	dir := b.TempDir()
	seedRevisions(b, dir, "bench", KeepRevisions, func(int64) Board { return Board{Content: c, Author: AuthorBrowser} })
	s, err := Open(dir, Options{Logger: quiet, OnCommit: func(Board) {}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, _, err := s.Revisions("bench", 0, 1); err != nil {
		b.Fatal(err)
	}
	data := boardFileBytes(Board{ID: "bench", Revision: KeepRevisions + 1, Content: c, Author: AuthorBrowser}.JSON())
	floorDir := b.TempDir()
	target := filepath.Join(floorDir, "bench.json")
	rev := int64(KeepRevisions)
	var put, floor time.Duration
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		nb, err := s.Put("bench", rev, c, AuthorBrowser)
		if err != nil {
			b.Fatal(err)
		}
		rev = nb.Revision
		t1 := time.Now()
		if err := storetest.RawCommitFloor(target, data); err != nil {
			b.Fatal(err)
		}
		put, floor = put+t1.Sub(t0), floor+time.Since(t1)
	}
	b.ReportMetric(float64(put.Nanoseconds())/float64(b.N), "put-ns/op")
	b.ReportMetric(float64(floor.Nanoseconds())/float64(b.N), "floor-ns/op")
	b.ReportMetric(float64(put)/float64(floor), "put/floor")
	if rows, _, _ := s.Revisions("bench", 0, 1); len(rows) != 1 || rows[0].Revision != rev {
		b.Fatal("the history does not end at the last Put")
	}
	if n, _ := os.ReadDir(filepath.Join(dir, "boards", "bench")); len(n) != KeepRevisions {
		b.Fatalf("%d revision files, want %d", len(n), KeepRevisions)
	}
}

// cpuTime is the process's CPU time, or 0 where it cannot be read.
func cpuTime() time.Duration {
	d, _ := storetest.CPUTime()
	return d
}
