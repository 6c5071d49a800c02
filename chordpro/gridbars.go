package chordpro

import (
	"cmp"
	"fmt"
	"strings"

	"tele/board"
	"tele/chord"
)

// gridReading is a grid's bars being made board bars.
type gridReading struct {
	boardBeats  int // the board's meter
	beatsPerBar int // the grid's meter: a later {time} changes it
	perBar      int // cells in a bar of the grid's meter (cellsPerBar)
	out         []board.Bar
	ending      int      // the ending being read; its end repeat sends the band back for pass ending+1
	second      []string // after %%: the chords of the blank bar that follows it
}

// barCells is what a bar's cells say besides its chords.
type barCells struct {
	onsets []int // the cell each chord starts on
	shared bool  // a cell holds several chords (C~G): they share the bar evenly
	double bool  // %%: the bar and the next repeat the two before
}

// sectionBars turns a grid's bars into board bars: beats from the cells, chords mapped onto the
// catalogue, %% (repeat two bars) written out as the chords of the two bars it repeats.
func (r *reader) sectionBars(s *gridSection, boardBeats int) ([]board.Bar, error) {
	beatsPerBar := cmp.Or(s.time, boardBeats)
	g := gridReading{boardBeats: boardBeats, beatsPerBar: beatsPerBar, perBar: cellsPerBar(s, beatsPerBar)}
	r.voltas(s)
	for _, b := range s.bars {
		if err := r.addBar(&g, b); err != nil {
			return nil, err
		}
	}
	return g.out, nil
}

// addBar makes a grid's next bar a board bar.
func (r *reader) addBar(g *gridReading, b gridBar) error {
	if b.repeatStart {
		g.ending = 0
	}
	if b.ending != 0 {
		g.ending = b.ending
	}
	if b.repeatEnd != 0 && g.ending != 0 {
		b.repeatEnd = g.ending + 1
	}
	r.line = b.line
	bar := board.Bar{RepeatStart: b.repeatStart, RepeatEnd: b.repeatEnd, Ending: b.ending, Mark: b.mark, ToCoda: b.toCoda}
	cells, err := r.barChords(b, &bar)
	if err != nil {
		return err
	}
	if err := r.fillBar(g, &bar, &cells, b.line); err != nil {
		return err
	}
	// The cells divide the bar: a bar of the meter has perBar cells, one with another count (but
	// more than one) is a bar in another meter when its cells make whole beats (Tele writes one cell
	// a beat), and a lone cell is a whole bar of the meter.
	n := len(b.cells)
	beats := g.beatsPerBar
	if nb := n * g.beatsPerBar / max(g.perBar, 1); n > 1 && n != g.perBar && n*g.beatsPerBar%max(g.perBar, 1) == 0 && nb >= board.MinBarBeats && nb <= board.MaxBarBeats {
		beats = nb
	}
	if beats != g.boardBeats && beats >= board.MinBarBeats && beats <= board.MaxBarBeats {
		bar.Beats = beats // a bar in another meter than the board's first
	}
	if !cells.shared && !bar.Simile && len(bar.Chords) > 1 {
		bar.Durations = r.durations(cells.onsets, n, beats)
	}
	g.out = append(g.out, bar)
	return nil
}

// barChords reads a bar's cells into its chords and %.
func (r *reader) barChords(b gridBar, bar *board.Bar) (barCells, error) {
	var cells barCells
	for i, cell := range b.cells {
		switch cell {
		case ".", "/", "-":
			continue
		case "%":
			bar.Simile = true
			continue
		case "%%":
			cells.double = true
			continue
		}
		cells.shared = cells.shared || strings.Count(strings.Trim(cell, "~"), "~") > 0
		if err := r.cellChords(b, i, cell, bar, &cells); err != nil {
			return cells, err
		}
	}
	return cells, nil
}

// cellChords reads the chords of a cell (C, or C~G), the cell's index i.
func (r *reader) cellChords(b gridBar, i int, cell string, bar *board.Bar, cells *barCells) error {
	for _, sym := range strings.Split(cell, "~") {
		if sym == "" || sym == "." || sym == "/" {
			continue
		}
		cells.onsets = append(cells.onsets, i)
		r.shifts[b.transpose] = true
		m, ok := chord.Map(transposed(sym, b.transpose))
		if !ok {
			return &Error{b.line, fmt.Sprintf("%q is not a chord (a root A–G and a quality, like Am7)", sym)}
		}
		if !m.Exact {
			r.note("chord_nearest", map[string]any{"from": sym, "to": m.Symbol}, "%s became %s, the nearest chord in Tele's catalogue", sym, m.Symbol)
		}
		bar.Chords = append(bar.Chords, m.Symbol)
	}
	return nil
}

// fillBar settles what a bar plays: its chords within a board's limit, %% written out, and an empty bar
// going on with the chords before it.
func (r *reader) fillBar(g *gridReading, bar *board.Bar, cells *barCells, line int) error {
	if bar.Simile && len(bar.Chords) > 0 {
		bar.Simile = false
		r.note("simile_with_chords", map[string]any{"line": line}, "a %% bar with chords in it was read as its chords")
	}
	if len(bar.Chords) > board.MaxChordsPerBar {
		r.note("bar_chords_cut", map[string]any{"chords": len(bar.Chords)}, "a bar with %d chords kept the first four", len(bar.Chords))
		bar.Chords = bar.Chords[:board.MaxChordsPerBar]
		cells.shared = true
	}
	empty := !bar.Simile && len(bar.Chords) == 0
	switch {
	case cells.double && len(g.out) >= 2:
		// %% repeats the two bars before: this bar plays the first of them, the next (blank) bar the second.
		bar.Chords = chordsAt(g.out, len(g.out)-2)
		g.second = chordsAt(g.out, len(g.out)-1)
		r.note("two_bar_repeat", nil, "%%%% (repeat two bars) was written out as the chords of those bars")
	case cells.double:
		return &Error{line, "%% repeats the two bars before it, and there are not two bars before it"}
	case empty && g.second != nil:
		bar.Chords = g.second
	case empty && len(g.out) > 0:
		bar.Simile = true // an empty bar goes on with the chords before it
	case empty:
		bar.Chords = []string{board.NoChord}
		r.note("first_bar_nc", nil, "the first bar has no chord: it is N.C.")
	}
	if !cells.double {
		g.second = nil
	}
	return nil
}

// voltas reads endings written without repeat signs (|1 … |2 …, as ChordPro lets a grid write them) as
// the repeat they stand for: it starts after the last end repeat before ending 1 (or at the grid's first
// bar) and ends on ending 1's last bar. An ending right after a D.C. or D.S. is the one the jump leads to
// (content schema version 3): the ending before it does not go back. A repeat still open at the end of a
// grid goes on in the next (r.repeatOpen): an ending 1 that starts a grid belongs to it.
func (r *reader) voltas(s *gridSection) {
	open, after, ending := r.repeatOpen, 0, 0
	for i := range s.bars {
		g := &s.bars[i]
		if g.repeatStart {
			open = true
		}
		if closesEnding(s.bars, i, ending) {
			s.bars[i-1].repeatEnd = 2 // the ending before closes where this one starts
			open, after = false, i
		}
		if g.ending != 0 {
			ending = g.ending
		}
		if g.ending == 1 && !open {
			s.bars[after].repeatStart, open = true, true
			r.note("volta_repeat", map[string]any{"line": g.line}, "the endings of line %d have no repeat signs: they were read as a repeat from the bar after the last end repeat", g.line)
		}
		if g.repeatEnd != 0 {
			after, ending = i+1, 0
			open = i+1 < len(s.bars) && s.bars[i+1].ending > 1 // the next ending belongs to this repeat
		}
	}
	r.repeatOpen = open
}

// closesEnding reports whether bars[i] starts the ending after the one being read (ending) with no end
// repeat before it to close that one, and no jump (after a D.C. or D.S. comes the ending it leads to).
func closesEnding(bars []gridBar, i, ending int) bool {
	g := bars[i]
	if g.ending <= 1 || i == 0 || ending != g.ending-1 || bars[i-1].repeatEnd != 0 {
		return false
	}
	return bars[i-1].mark != board.MarkDC && bars[i-1].mark != board.MarkDS
}

// chordsAt returns a copy of the chords heard in bars[i], following % back.
func chordsAt(bars []board.Bar, i int) []string {
	for i > 0 && bars[i].Simile {
		i--
	}
	return append([]string(nil), bars[i].Chords...)
}

// cellsPerBar is how many cells a bar of the grid's meter has: the most common count of cells in a
// bar, the meter's beats first among counts as common. (The grid's shape only lays the cells out on the
// page: a 4/4 grid of shape 4x8 with four cells a bar has 4-beat bars.)
func cellsPerBar(s *gridSection, beatsPerBar int) int {
	counts := make([]int, len(s.bars))
	for i, b := range s.bars {
		counts[i] = len(b.cells)
	}
	return commonest(counts, beatsPerBar)
}

// commonest is the most common of ns; among those as common, prefer, else the smaller; 0 for none. The
// writer chooses a grid's meter by this rule too (gridMeter), so that the reader's count of cells gives
// each bar its beats back.
func commonest(ns []int, prefer int) int {
	count := map[int]int{}
	best, bestN := 0, 0
	for _, n := range ns {
		count[n]++
		if c := count[n]; c > bestN || c == bestN && best != prefer && (n < best || n == prefer) {
			best, bestN = n, c
		}
	}
	return best
}

// durations are the beats each chord of a bar of beats beats lasts, from the cells its chords start
// on (onsets, of n cells): nil when they share the bar evenly (board.CellDurations), with a note when
// a chord was moved to the nearest beat or the bar could only be shared evenly.
func (r *reader) durations(onsets []int, n, beats int) []int {
	d, moved, ok := board.CellDurations(onsets, n, beats)
	switch {
	case !ok:
		r.note("rhythm_evened", map[string]any{"line": r.line}, "a bar's chords fall closer together than a beat and were spread evenly over the bar (line %d)", r.line)
	case moved:
		r.note("rhythm_nearest", map[string]any{"line": r.line}, "chords between beats were put on the nearest beat (line %d)", r.line)
	}
	return d
}
