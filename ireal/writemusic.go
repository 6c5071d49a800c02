package ireal

import (
	"strconv"
	"strings"

	"tele/board"
)

// musicWriter writes a board's bars as iReal Pro's music string (Write gives its signs).
type musicWriter struct {
	c        board.Content
	out      strings.Builder
	meter    string // the time signature written last
	lastBars int    // the last section with bars, which ends with Z
}

// writeMusic is the music string of c, before scrambling.
func writeMusic(c board.Content) string {
	w := newMusicWriter(c)
	w.out.WriteString(w.meter)
	first := true
	for si, s := range c.Sections {
		if len(s.Bars) == 0 {
			continue // words alone: an iReal Pro chart has none (Lost)
		}
		if !first || s.Label != "" {
			w.out.WriteString("*" + sectionMark(s.Label))
		}
		first = false
		for bi := range s.Bars {
			w.bar(si, bi)
		}
	}
	return w.out.String()
}

// newMusicWriter starts writing c: its meter is the board's.
func newMusicWriter(c board.Content) *musicWriter {
	w := &musicWriter{c: c, meter: meter(c.BeatsPerBar), lastBars: -1}
	for si, s := range c.Sections {
		if len(s.Bars) > 0 {
			w.lastBars = si
		}
	}
	return w
}

// bar writes bar bi of section si: its opening bar line, meter, label, ending and signs, its chords,
// and the bar line after it.
func (w *musicWriter) bar(si, bi int) {
	s := w.c.Sections[si]
	bar := s.Bars[bi]
	switch {
	case bar.RepeatStart:
		w.out.WriteString("{")
	case bi == 0:
		w.out.WriteString("[")
	}
	w.barMeter(bar)
	if bi == 0 && labelText(s.Label) {
		w.out.WriteString("<" + s.Label + ">")
	}
	if bar.Ending != 0 {
		w.out.WriteString("N" + strconv.Itoa(bar.Ending))
	}
	switch bar.Mark {
	case board.MarkSegno:
		w.out.WriteString("S")
	case board.MarkCoda:
		w.out.WriteString("Q")
	}
	w.chords(bar)
	w.signAfter(bar, nextBar(w.c, si, bi))
	w.barLine(si, bi)
}

// barMeter writes a time signature before a bar whose meter differs from the one written last.
func (w *musicWriter) barMeter(bar board.Bar) {
	beats := bar.Beats
	if beats == 0 {
		beats = w.c.BeatsPerBar
	}
	if t := meter(beats); t != w.meter && t != "" {
		w.out.WriteString(t)
		w.meter = t
	}
}

// chords writes a % bar as x, a bar of chords one cell a beat: a p slash for each further beat a chord
// lasts.
func (w *musicWriter) chords(bar board.Bar) {
	if bar.Simile {
		w.out.WriteString(" x ")
		return
	}
	for k, sym := range bar.Chords {
		if k > 0 {
			w.out.WriteString(" ")
		}
		w.out.WriteString(chordSpelling(sym))
		if len(bar.Durations) == len(bar.Chords) {
			// A valid duration is 1 to 12 beats; any other writes no slash, or a bar's worth.
			w.out.WriteString(strings.Repeat(" p", min(max(bar.Durations[k]-1, 0), board.MaxBarBeats)))
		}
	}
}

// signAfter writes what is read at the end of a bar: a jump or Fine as staff text, and To Coda (once,
// whether the mark or ToCoda says it). A mark Tele does not know writes nothing.
func (w *musicWriter) signAfter(bar board.Bar, next *board.Bar) {
	if text := jumpText(bar, next); text != "" {
		w.out.WriteString("<" + text + ">")
	}
	if bar.Mark == board.MarkToCoda || bar.ToCoda {
		if out := w.out.String(); strings.HasSuffix(out, "Q") {
			w.out.WriteString(" ") // a coda's Q on a bar without chords: QQ would read as one sign
		}
		w.out.WriteString("Q")
	}
}

// barLine writes the bar line after bar bi of section si: an end repeat (with its count, <3x>, unless it
// closes an ending), Z after the last bar, ] after a section's, | between bars, none before a start
// repeat.
func (w *musicWriter) barLine(si, bi int) {
	bars := w.c.Sections[si].Bars
	bar := bars[bi]
	last := bi == len(bars)-1
	switch {
	case bar.RepeatEnd > 2 && !closesEnding(bars, bi):
		w.out.WriteString("<" + strconv.Itoa(bar.RepeatEnd) + "x>}")
	case bar.RepeatEnd != 0:
		w.out.WriteString("}")
	case last && si == w.lastBars:
		w.out.WriteString(" Z")
	case last:
		w.out.WriteString("]")
	case !bars[bi+1].RepeatStart:
		w.out.WriteString("|")
	}
}
