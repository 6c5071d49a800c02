package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tele/board"
)

// BenchmarkFirstHistoryListing: the first listing after a start (GET …/revisions: the newest 50 rows)
// of a board with 1,000 revisions, against reading one old revision (GET …/revisions/500) in the same
// iteration, each after a fresh Open; with the history index (rowindex.go), and without it, as an
// earlier Tele left its boards (every revision file read and validated, then the index written).
// Reported: list-ns, read-ns and their ratio list/read; before the index a first listing cost 1,000
// revision reads. Sizes: a 4 KB board, and one of about 30 KB (1,000 of them fit in KeepHistoryBytes).
func BenchmarkFirstHistoryListing(b *testing.B) {
	small, _ := board4K(b)
	large := small
	large.Description = strings.Repeat("Walk the bass. ", 130)
	large.Sections = nil
	for s := range 8 {
		sec := board.Section{Label: "Part " + string(rune('A'+s))}
		for range 64 {
			sec.Bars = append(sec.Bars, board.PlainBar("C#m7b5/G#", "F#7b9/A#", "Bbmaj7/D", "Ebm7b5/A"))
		}
		large.Sections = append(large.Sections, sec)
	}
	if err := large.Validate(); err != nil {
		b.Fatal(err)
	}
	for _, size := range []struct {
		name string
		c    board.Content
	}{{"4KB", small}, {"30KB", large}} {
		dir := b.TempDir()
		seedRevisions(b, dir, "h", KeepRevisions, func(rev int64) Board { return Board{Content: size.c, Author: AuthorPi} })
		// 1,000 revisions of the large board stay within KeepHistoryBytes, so all are kept.
		if fi, _ := os.Stat(filepath.Join(dir, "boards", "h", "1.json")); size.name == "30KB" && (fi.Size() < 25_000 || fi.Size()*KeepRevisions > KeepHistoryBytes) {
			b.Fatalf("the large board is %d bytes", fi.Size())
		}
		for _, index := range []bool{true, false} {
			name := size.name + "/index"
			if !index {
				name = size.name + "/no-index"
			}
			b.Run(name, func(b *testing.B) {
				s, err := Open(dir, Options{Logger: quiet})
				if err != nil {
					b.Fatal(err)
				}
				s.Revisions("h", 0, 50) // writes the index (seeded boards have none)
				s.Close()
				var tList, tRead time.Duration
				for b.Loop() {
					if !index {
						matches, _ := filepath.Glob(filepath.Join(dir, "boards", "h", rowsPrefix+"*"))
						for _, m := range matches {
							os.Remove(m)
						}
					}
					s, err := Open(dir, Options{Logger: quiet})
					if err != nil {
						b.Fatal(err)
					}
					t0 := time.Now()
					if _, err := s.GetRevision("h", 500); err != nil {
						b.Fatal(err)
					}
					t1 := time.Now()
					rows, _, err := s.Revisions("h", 0, 50)
					t2 := time.Now()
					if err != nil || len(rows) != 50 {
						b.Fatalf("listing: %d rows, %v", len(rows), err)
					}
					s.Close()
					tRead, tList = tRead+t1.Sub(t0), tList+t2.Sub(t1)
				}
				b.ReportMetric(float64(tList.Nanoseconds())/float64(b.N), "list-ns")
				b.ReportMetric(float64(tRead.Nanoseconds())/float64(b.N), "read-ns")
				b.ReportMetric(float64(tList)/float64(tRead), "list/read")
			})
		}
	}
}
