package chordpro

import (
	"strings"
	"testing"
	"time"
)

// TestLinear: the files that cost the most a byte read quickly, and stop at a board's limits: a title
// of unclosed \u{ escapes (each looked ahead to the end of the line before, quadratic: seconds for a
// megabyte), one grid line of 250,000 bars, a margin sign on every row. The bound is generous (a
// linear reading takes milliseconds, a few hundred under the race detector); the quadratic one took
// seconds.
func TestLinear(t *testing.T) {
	for name, tt := range map[string]struct{ file, err string }{
		"unclosed escapes":    {"{title: " + strings.Repeat(`\u{`, 300000) + "}\n{start_of_grid}\n| C |\n{end_of_grid}\n", "title"},
		"one long grid line":  {"{title: T}\n{start_of_grid}\n" + strings.Repeat("| C ", 250000) + "|\n{end_of_grid}\n", "more than 512 bars"},
		"a sign on every row": {"{title: T}\n{start_of_grid}\n" + strings.Repeat("segno | C | D | Fine\n", 30) + "{end_of_grid}\n", ""},
		"many grids":          {"{title: T}\n" + strings.Repeat("{start_of_grid}\n| C |\n{end_of_grid}\n", 20000), "more than 32 grids"},
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			_, _, err := Read([]byte(tt.file))
			if took := time.Since(start); took > 2*time.Second {
				t.Fatalf("%d bytes took %v", len(tt.file), took)
			}
			if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("%v; want …%s…", err, tt.err)
			}
		})
	}
}
