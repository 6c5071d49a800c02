// Package chordpro writes a board as a ChordPro 6 file of grid sections and reads ChordPro grid
// sections back into a board (https://www.chordpro.org, directives start_of_grid/end_of_grid).
//
// How a board is written, so that reading it back gives the same content:
//
//	{title: …} {key: …} {tempo: …} {time: N/4}, then the description as {comment: …} lines
//	{start_of_grid: label="A" shape="1+4xN+2" role="verse"} … {end_of_grid} for each section
//
// The meter: a board holds beats per bar (and a bar's own beats) but no note value, and its tempo counts
// those beats, so {time} is always N/4 with N the board's beats per bar; a bar in another meter is
// written with as many cells as it has beats (the grid's shape says the board's), and a section whose
// most common bar is in another meter under a {time} of that meter. A file's {time: 6/8}
// reads as 6 beats per bar, and the reader says so.
//
// A bar is as many cells as it has beats (its own meter, or the board's); its chords share them
// evenly, the first cell of each chord holding it and the others "."; when a bar has more chords than
// beats they are joined with "~" in its first cell. % is a % cell. Bar lines: |, || (end of a section),
// |. (the end), |: and :| (repeats, :|: for both), |1 and :|2 (voltas). A grid row holds up to four
// bars; a row ends early where a sign needs a margin: "Segno" or "Coda" in the left margin before the
// bar that carries it, and after a bar "x3" (an end repeat played more than twice), "To Coda", "Fine",
// "D.C.", "D.S.", "D.C. al Fine", … in the right margin.
package chordpro

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"tele/board"
)

// Write returns the board's content as a ChordPro 6 file.
func Write(c board.Content) []byte {
	var b strings.Builder
	directive(&b, "title", c.Title)
	if c.Artist != "" {
		directive(&b, "artist", c.Artist)
	}
	if c.Composer != "" {
		directive(&b, "composer", c.Composer)
	}
	if c.Style != "" {
		directive(&b, "meta", "style "+c.Style)
	}
	if c.Key != "" {
		directive(&b, "key", c.Key)
	}
	directive(&b, "tempo", strconv.Itoa(c.Tempo))
	directive(&b, "time", fmt.Sprintf("%d/4", c.BeatsPerBar))
	if c.Description != "" {
		for _, line := range strings.Split(c.Description, "\n") {
			directive(&b, "comment", line)
		}
	}
	last := -1 // the last section with bars, whose grid ends with |.
	for si, s := range c.Sections {
		if len(s.Bars) > 0 {
			last = si
		}
	}
	time := c.BeatsPerBar
	for si, s := range c.Sections {
		switch {
		case s.Recall != "":
			if s.Label != "" {
				b.WriteString("\n")
				directive(&b, "chorus", s.Label)
			} else {
				b.WriteString("\n{chorus}\n")
			}
			continue
		case len(s.Bars) == 0:
			writeLyrics(&b, s, false)
			continue
		}
		// A grid is read with its most common bar as a bar of the meter in force (cellsPerBar), so a
		// section whose most common bar is in another meter is written under a {time} of that meter:
		// its bars then read back with their own beats, not as short or long bars of the one before.
		if m := gridMeter(s, c.BeatsPerBar, time); m != time {
			b.WriteString("\n")
			directive(&b, "time", fmt.Sprintf("%d/4", m))
			time = m
		}
		b.WriteString("\n{start_of_grid:")
		if s.Label != "" {
			b.WriteString(` label="` + escape(s.Label) + `"`)
		}
		fmt.Fprintf(&b, ` shape="1+4x%d+2"`, c.BeatsPerBar)
		if s.Role != "" {
			b.WriteString(` role="` + string(s.Role) + `"`)
		}
		b.WriteString("}\n")
		writeRows(&b, c, s, si == last)
		b.WriteString("{end_of_grid}\n")
		if len(s.Lines) > 0 {
			writeLyrics(&b, s, true)
		}
	}
	return []byte(b.String())
}

// gridMeter is the meter a section's grid is written under: the most common beats of its bars, the
// meter in force (time) first among beats as common, as the reader counts cells (cellsPerBar).
func gridMeter(s board.Section, boardBeats, time int) int {
	beats := make([]int, len(s.Bars))
	for i, bar := range s.Bars {
		beats[i] = cmp.Or(bar.Beats, boardBeats)
	}
	return commonest(beats, time)
}

func directive(b *strings.Builder, name, value string) {
	b.WriteString("{" + name + ": " + escapeValue(value) + "}\n")
}

// escapeValue writes a directive value so that Read gets it back exactly: a backslash before \ and },
// and \u{hex} for white space a reader would trim or split on (all but an inner plain space).
func escapeValue(v string) string {
	var b strings.Builder
	rs := []rune(v)
	for i, r := range rs {
		switch {
		case r == '\\' || r == '}':
			b.WriteByte('\\')
			b.WriteRune(r)
		case unicode.IsSpace(r) && (r != ' ' || i == 0 || i == len(rs)-1):
			fmt.Fprintf(&b, `\u{%x}`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// escape writes an attribute value as escapeValue does, and " with a backslash.
func escape(s string) string {
	return strings.ReplaceAll(escapeValue(s), `"`, `\"`)
}

// leftSign and rightSign are the margin words of the marks.
var leftSign = map[board.Mark]string{board.MarkSegno: "Segno", board.MarkCoda: "Coda"}

var rightSign = map[board.Mark]string{
	board.MarkToCoda: "To Coda", board.MarkFine: "Fine", board.MarkDC: "D.C.", board.MarkDS: "D.S.",
	board.MarkDCAlFine: "D.C. al Fine", board.MarkDCAlCoda: "D.C. al Coda",
	board.MarkDSAlFine: "D.S. al Fine", board.MarkDSAlCoda: "D.S. al Coda",
}

// writeRows writes a section's bars as grid rows.
func writeRows(b *strings.Builder, c board.Content, s board.Section, lastSection bool) {
	var row []board.Bar
	first := 0 // index in s.Bars of row[0]
	// An end repeat that closes an ending needs no count: the next ending's number says it.
	implied := make([]bool, len(s.Bars))
	ending := 0
	for j, bar := range s.Bars {
		if bar.RepeatStart {
			ending = 0
		}
		if bar.Ending != 0 {
			ending = bar.Ending
		}
		implied[j] = ending != 0
	}
	rightMargin := func(j int) []string {
		bar := s.Bars[j]
		var out []string
		if bar.RepeatEnd > 2 && !implied[j] {
			out = append(out, "x"+strconv.Itoa(bar.RepeatEnd))
		}
		if w, ok := rightSign[bar.Mark]; ok {
			out = append(out, w)
		}
		if bar.ToCoda {
			out = append(out, rightSign[board.MarkToCoda])
		}
		return out
	}
	flush := func() {
		if len(row) == 0 {
			return
		}
		var tokens []string
		if w, ok := leftSign[row[0].Mark]; ok {
			tokens = append(tokens, w)
		}
		for k, bar := range row {
			var prev *board.Bar
			if k > 0 {
				prev = &row[k-1]
			}
			tokens = append(tokens, barLine(prev, bar, first+k == 0))
			tokens = append(tokens, cells(bar, c.BeatsPerBar)...)
		}
		lastBar := row[len(row)-1]
		end := first+len(row) == len(s.Bars)
		tokens = append(tokens, closeLine(lastBar, end, end && lastSection))
		tokens = append(tokens, rightMargin(first+len(row)-1)...)
		b.WriteString(strings.Join(tokens, " ") + "\n")
		first += len(row)
		row = row[:0]
	}
	for j, bar := range s.Bars {
		if _, ok := leftSign[bar.Mark]; ok || len(row) == 4 {
			flush()
		}
		row = append(row, bar)
		if len(rightMargin(j)) > 0 {
			flush()
		}
	}
	flush()
}

// barLine is the bar line before a bar, made of the previous bar's end in the same row (if any) and
// this bar's start.
func barLine(prev *board.Bar, bar board.Bar, sectionStart bool) string {
	end := prev != nil && prev.RepeatEnd != 0
	var s string
	switch {
	case end && bar.RepeatStart:
		s = ":|:"
	case end && bar.Ending != 0:
		return ":|" + strconv.Itoa(bar.Ending)
	case end:
		s = ":|"
	case bar.RepeatStart:
		s = "|:"
	case bar.Ending != 0:
		return "|" + strconv.Itoa(bar.Ending)
	case sectionStart:
		s = "||"
	default:
		s = "|"
	}
	if bar.Ending != 0 { // a repeat that starts with its first ending: two bar lines, read as one
		s += " |" + strconv.Itoa(bar.Ending)
	}
	return s
}

// closeLine is the bar line after the last bar of a row.
func closeLine(bar board.Bar, sectionEnd, songEnd bool) string {
	switch {
	case bar.RepeatEnd != 0:
		return ":|"
	case songEnd:
		return "|."
	case sectionEnd:
		return "||"
	}
	return "|"
}

// cells are a bar's grid cells: one per beat, each chord on the beat it starts (its durations, or an
// even share); "." goes on with the chord before.
func cells(bar board.Bar, beatsPerBar int) []string {
	beats := bar.Beats
	if beats == 0 {
		beats = beatsPerBar
	}
	out := make([]string, beats)
	for i := range out {
		out[i] = "."
	}
	switch n := len(bar.Chords); {
	case bar.Simile:
		out[0] = "%"
	case len(bar.Durations) == n:
		at := 0
		for k, sym := range bar.Chords {
			out[at] = sym
			at += bar.Durations[k]
		}
	case beats%n != 0:
		// Chords sharing the bar evenly but not on whole beats (three in 4/4) share one cell.
		out[0] = strings.Join(bar.Chords, "~")
	default:
		for k, sym := range bar.Chords {
			out[k*beats/n] = sym
		}
	}
	return out
}
