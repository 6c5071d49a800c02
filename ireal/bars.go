package ireal

import (
	"fmt"

	"tele/board"
)

// Bar assembly: a musicReader ends the bar it reads at each bar line, section mark and repeat, and
// writes it into the section being read.

// newSection starts a section; a section without bars gives way to the next.
func (mr *musicReader) newSection(label string, role board.Role) error {
	if mr.sec != nil && len(mr.sec.Bars) == 0 {
		mr.sec.Label, mr.sec.Role = label, role
		return nil
	}
	c := mr.c
	if len(c.Sections) == board.MaxSections {
		return fmt.Errorf("the song has more than %d sections", board.MaxSections)
	}
	c.Sections = append(c.Sections, board.Section{Label: label, Role: role})
	mr.sec = &c.Sections[len(c.Sections)-1]
	return nil
}

// lastWritten is the bar written last, nil before the first.
func (mr *musicReader) lastWritten() *board.Bar {
	for i := len(mr.c.Sections) - 1; i >= 0; i-- {
		if b := mr.c.Sections[i].Bars; len(b) > 0 {
			return &b[len(b)-1]
		}
	}
	return nil
}

// endBar ends the bar being read: with an end repeat after it (repeatEnd), or at the end of the music
// (last). A bar without a chord is no bar, but for a jump or Fine over it.
func (mr *musicReader) endBar(repeatEnd, last bool) error {
	mr.unreadNote(mr.written + 1)
	open, n := mr.twoBarsOpen > 0 && len(mr.cells) == 0 && !mr.bar.Simile, mr.twoBarsOpen
	mr.twoBarsOpen = 0
	if open {
		// The empty cell r covers: a jump or Fine over it ends the written-out bars (Moanin': "r| <Fine> }").
		mr.twoBarsOpen = n - 1
		if prev := mr.lastWritten(); endSign(mr.bar.Mark) && prev.Mark == "" {
			prev.Mark, mr.bar.Mark = mr.bar.Mark, ""
		}
	}
	if len(mr.cells) == 0 && !mr.bar.Simile && mr.noBar(repeatEnd, last) {
		return nil
	}
	if err := mr.roomForBar(); err != nil {
		return err
	}
	mr.takeCells()
	mr.simileOrChords()
	mr.countIn()
	mr.barText = false
	if len(mr.bar.Chords) > board.MaxChordsPerBar {
		mr.r.note("bar_chords_cut", "a bar with %d chords kept the first four", "chords", len(mr.bar.Chords))
		mr.bar.Chords = mr.bar.Chords[:board.MaxChordsPerBar]
	}
	if mr.barBeats != mr.c.BeatsPerBar {
		mr.bar.Beats = mr.barBeats
	}
	if repeatEnd {
		mr.bar.RepeatEnd = mr.repeatCount(mr.written + 1)
	}
	return mr.writeBar()
}

// noBar ends a bar without a chord. An end repeat goes to the bar before; a segno or a coda carries to
// the next bar; a jump or Fine over the bar is played, going on with the chord before, but text after
// the last bar line is the last bar's. noBar reports whether there is no bar to write.
func (mr *musicReader) noBar(repeatEnd, last bool) bool {
	if repeatEnd && mr.written > 0 {
		mr.lastWritten().RepeatEnd = mr.repeatCount(mr.written)
	}
	if !endSign(mr.bar.Mark) || mr.written == 0 {
		mr.textBar = mr.textBar || mr.written == 0 && mr.barText
		mr.barText = false
		return true
	}
	if last {
		if prev := mr.lastWritten(); prev.Mark == "" {
			prev.Mark = mr.bar.Mark
		}
		mr.bar.Mark = ""
		return true
	}
	mr.bar.Simile = true
	return false
}

// roomForBar starts a section for a bar before any section mark, and refuses a bar past the limits.
func (mr *musicReader) roomForBar() error {
	if mr.sec == nil {
		if err := mr.newSection("", ""); err != nil {
			return err
		}
	}
	if mr.written == board.MaxBars || len(mr.sec.Bars) == board.MaxBarsPerSection {
		return fmt.Errorf("the song has more bars than a board holds (%d, at most %d in a section)", board.MaxBars, board.MaxBarsPerSection)
	}
	return nil
}

// takeCells puts the bar's chords in it, each at its beat where the cells do not share the bar evenly.
func (mr *musicReader) takeCells() {
	bar := &mr.bar
	for _, ch := range mr.cells {
		if ch != "" {
			bar.Chords = append(bar.Chords, ch)
		}
	}
	onsets := chordCells(mr.cells)
	if len(onsets) <= 1 || len(bar.Chords) > board.MaxChordsPerBar || evenCells(mr.cells) {
		return
	}
	// The cells (a p slash is a cell the chord before goes on over) divide the bar evenly.
	d, moved, ok := board.CellDurations(onsets, len(mr.cells), mr.barBeats)
	bar.Durations = d
	switch {
	case !ok:
		mr.r.note("rhythm_evened", "the chords of bar %d were written closer together than a beat (%s): they share the bar evenly",
			"bar", mr.written+1, "written", cellWords(mr.cells))
	case moved:
		mr.r.note("rhythm_nearest", "the chords of bar %d were written between beats (%s): each was put on the nearest beat",
			"bar", mr.written+1, "written", cellWords(mr.cells))
	}
}

// simileOrChords makes the bar a % bar or a bar of chords: a % bar with chords is its chords, a bar of
// slashes alone a % bar.
func (mr *musicReader) simileOrChords() {
	bar := &mr.bar
	switch {
	case bar.Simile && len(bar.Chords) > 0:
		mr.r.note("simile_with_chords", "a %% bar with chords in it was read as its chords (bar %d)", "bar", mr.written+1)
		bar.Simile = false
	case !bar.Simile && len(bar.Chords) == 0:
		bar.Simile = true
		mr.slashes = mr.written == 0 // a first bar of slashes goes on with no chord
	}
}

// countIn makes a first % bar after a count-in (a bar of text alone, or slashes) N.C.: there is no chord
// to repeat yet. After a bar of text, that bar is N.C. too.
func (mr *musicReader) countIn() {
	if !mr.bar.Simile || mr.written != 0 || !mr.textBar && !mr.slashes {
		return
	}
	mr.r.note("count_in", "the first bar repeats a count-in with no chord: it is N.C.")
	mr.bar.Simile, mr.bar.Chords = false, []string{board.NoChord}
	if mr.textBar {
		mr.sec.Bars = append(mr.sec.Bars, board.Bar{Chords: []string{board.NoChord}})
		mr.written++
		mr.heard = [2][]string{nil, mr.bar.Chords}
	}
}

// writeBar appends the bar to its section and starts the next.
func (mr *musicReader) writeBar() error {
	h := mr.bar.Chords
	if mr.bar.Simile {
		h = mr.heard[1]
	}
	mr.heard = [2][]string{mr.heard[1], h}
	mr.sec.Bars = append(mr.sec.Bars, mr.bar)
	mr.written++
	cost := 1 + len(mr.bar.Chords)
	mr.bar, mr.cells = board.Bar{}, nil
	return mr.r.w.add(cost)
}
