package chordtext

import (
	"runtime"
	"strings"
	"testing"

	"tele/board"
)

// TestLinear: the sheets that cost the most a byte stop at a board's limits, and what reading them (and
// telling their format) allocates grows with the text, not faster: measured on a text and on one four
// times its size.
func TestLinear(t *testing.T) {
	for name, file := range map[string]func(n int) string{
		"one long line of chords": func(n int) string { return "T\n\n" + strings.Repeat("G ", 100000*n) + "\nwords\n" },
		"many pairs":              func(n int) string { return "T\n\n" + strings.Repeat("G    C\nla la la\n", 15000*n) },
		"many headings":           func(n int) string { return "T\n\nG\nla\n" + strings.Repeat("[Verse]\nG\nla\n\n", 15000*n) },
		"brackets":                func(n int) string { return strings.Repeat("[x", 100000*n) + "\nG\nla\n" },
	} {
		t.Run(name, func(t *testing.T) {
			var perByte [2]float64
			for i, n := range []int{1, 4} {
				data := []byte(file(n))
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				board.SniffFormat(data)
				_, _, _ = Read(data)
				runtime.ReadMemStats(&after)
				perByte[i] = float64(after.TotalAlloc-before.TotalAlloc) / float64(len(data))
			}
			if perByte[1] > 1.5*perByte[0]+1 || perByte[1] > 512 {
				t.Fatalf("bytes allocated a byte of the text %.2f, then %.2f four times larger", perByte[0], perByte[1])
			}
			t.Logf("bytes allocated a byte %.2f → %.2f", perByte[0], perByte[1])
		})
	}
}
