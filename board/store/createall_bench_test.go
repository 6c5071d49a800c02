package store

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"tele/board"
	"tele/board/store/storetest"
)

// importBoards is a playlist of n boards of about 2 KB each, as an import makes them: six sections of
// 24 bars, one or two chords a bar, each board its own title and chords.
func importBoards(tb testing.TB, n int) []NewBoard {
	tb.Helper()
	chords := []string{"Am7", "D7", "Gmaj7", "Cmaj7", "F#m7b5", "B7", "Em", "Em/D", "C#m7b5", "F#7", "Bbmaj7", "Eb7"}
	items := make([]NewBoard, n)
	for i := range items {
		c := board.Content{
			Title:       fmt.Sprintf("Standard no. %d", i+1),
			Description: "From the band's book: A twice, then the bridge.",
			Key:         []string{"G", "C", "F", "Bb"}[i%4], Tempo: 90 + i%120, BeatsPerBar: 4,
		}
		for s := range 6 {
			sec := board.Section{Label: fmt.Sprintf("Part %c", 'A'+s)}
			for b := range 24 {
				bar := []string{chords[(i+s*7+b)%len(chords)]}
				if b%3 == 2 {
					bar = append(bar, chords[(i+s+b)%len(chords)])
				}
				sec.Bars = append(sec.Bars, board.PlainBar(bar...))
			}
			c.Sections = append(c.Sections, sec)
		}
		if n := len(boardFileBytes(Board{ID: "standard-no-1", Revision: 1, Content: c}.JSON())); n < 1700 || n > 2600 {
			tb.Fatalf("board %d is %d bytes, want about 2 KB", i, n)
		}
		items[i] = NewBoard{ID: fmt.Sprintf("standard-%d", i+1), Content: c}
	}
	return items
}

// BenchmarkCreateAllVsFloor is the target of an import without a server (tele board import): CreateAll
// of a playlist of 200 boards of about 2 KB, against 200 durable writes of the same bytes through the
// store's durable-write primitive (temp file, fsync, rename, fsync dir: storetest.RawCommitFloor), timed
// alternately in one loop so both see the same machine. It reports each side's time per board and
// their ratio (target ≤ 1.3).
func BenchmarkCreateAllVsFloor(b *testing.B) {
	const n = 200
	items := importBoards(b, n)
	s, err := Open(b.TempDir(), Options{Logger: quiet, OnCommit: func(Board) {}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := s.SetQuota(Quota{MaxBoards: 1 << 30, MaxBytes: 1 << 50}); err != nil {
		b.Fatal(err)
	}
	data := make([][]byte, n)
	for i, it := range items {
		data[i] = boardFileBytes(Board{ID: it.ID, Revision: 1, Content: it.Content, Author: AuthorTele}.JSON())
	}
	floorDir := b.TempDir()
	var create, floor time.Duration
	round := 0
	b.ReportAllocs()
	for b.Loop() {
		round++
		batch := make([]NewBoard, n)
		for i, it := range items {
			batch[i] = NewBoard{ID: fmt.Sprintf("%s-r%d", it.ID, round), Content: it.Content}
		}
		t0 := time.Now()
		if _, err := s.CreateAll(batch, AuthorTele); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		for i := range n {
			if err := storetest.RawCommitFloor(filepath.Join(floorDir, fmt.Sprint(i)), data[i]); err != nil {
				b.Fatal(err)
			}
		}
		create, floor = create+t1.Sub(t0), floor+time.Since(t1)
	}
	b.ReportMetric(float64(create.Nanoseconds())/float64(b.N*n), "create-ns/board")
	b.ReportMetric(float64(floor.Nanoseconds())/float64(b.N*n), "floor-ns/board")
	b.ReportMetric(float64(create)/float64(floor), "create/floor")
	if got := len(s.List()); got != b.N*n {
		b.Fatalf("%d boards listed, want %d", got, b.N*n)
	}
}
