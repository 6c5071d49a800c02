package chordpro

import (
	"runtime"
	"strings"
	"testing"
)

// TestLinear: the files that cost the most a byte stop at a board's limits, and what reading them
// allocates grows with the file, not faster: a title of unclosed \u{ escapes (each once looked ahead to
// the end of the line, quadratic), one grid line of 250,000 bars, a margin sign on every row, 20,000
// grids. Work is counted as bytes and allocations per byte of the file, measured on the file and on one
// four times its size: a reading that grew with the square of the file would cost four times as much a
// byte on the larger one.
func TestLinear(t *testing.T) {
	for name, tt := range map[string]struct {
		file func(n int) string
		err  string
	}{
		"unclosed escapes": {func(n int) string {
			return "{title: " + strings.Repeat(`\u{`, 75000*n) + "}\n{start_of_grid}\n| C |\n{end_of_grid}\n"
		}, "title"},
		"one long grid line": {func(n int) string {
			return "{title: T}\n{start_of_grid}\n" + strings.Repeat("| C ", 62500*n) + "|\n{end_of_grid}\n"
		}, "more than 512 bars"},
		"a sign on every row": {func(n int) string {
			return "{title: T}\n{start_of_grid}\n" + strings.Repeat("segno | C | D | Fine\n", 8*n) + "{end_of_grid}\n"
		}, ""},
		"one line of chords": {func(n int) string {
			return "{title: T}\n" + strings.Repeat("[C]", 80000*n) + "\n"
		}, ""},
		"brackets that are no chords": {func(n int) string {
			return "{title: T}\n" + strings.Repeat("[x]a", 60000*n) + "\n"
		}, ""},
		"many lines of words": {func(n int) string {
			return "{title: T}\n{sov}\n" + strings.Repeat("[G]la la\n", 25000*n) + "{eov}\n"
		}, ""},
		"many sections": {func(n int) string {
			return "{title: T}\n" + strings.Repeat("{soc}\n[G]la\n{eoc}\n{chorus}\n", 8000*n)
		}, ""},
		"many grids": {func(n int) string {
			return "{title: T}\n" + strings.Repeat("{start_of_grid}\n| C |\n{end_of_grid}\n", 5000*n)
		}, "more than 32 grids"},
	} {
		t.Run(name, func(t *testing.T) {
			var perByte [2]float64
			var allocsPerByte [2]float64
			for i, n := range []int{1, 4} {
				file := []byte(tt.file(n))
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				_, _, err := Read(file)
				runtime.ReadMemStats(&after)
				if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("%v; want …%s…", err, tt.err)
				}
				perByte[i] = float64(after.TotalAlloc-before.TotalAlloc) / float64(len(file))
				allocsPerByte[i] = float64(after.Mallocs-before.Mallocs) / float64(len(file))
			}
			// A board's limits stop a reading early, so the larger file may cost less a byte, never
			// much more; 512 bytes allocated a byte of the file is far above what any of them needs.
			if perByte[1] > 1.5*perByte[0]+1 || allocsPerByte[1] > 1.5*allocsPerByte[0]+0.01 || perByte[1] > 512 {
				t.Fatalf("bytes allocated a byte of the file %.2f, then %.2f four times larger; allocations a byte %.4f, then %.4f", perByte[0], perByte[1], allocsPerByte[0], allocsPerByte[1])
			}
			t.Logf("bytes allocated a byte %.2f → %.2f, allocations a byte %.4f → %.4f", perByte[0], perByte[1], allocsPerByte[0], allocsPerByte[1])
		})
	}
}
