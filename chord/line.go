package chord

import (
	"strings"
	"unicode/utf16"
)

// Placed is a chord of a line of chords, at the column where it is written.
type Placed struct {
	At      int    // UTF-16 code units from the line's start
	Written string // as written
	Mapped         // in the catalogue
}

// LineOfChords reads a line written as chords alone, as chord sheets print them over the words they fall
// on ("G        D/F#     Em"): ok when it holds a chord and every other word is a bar line (| or ||), a
// dash or slash, or a repeat count (x2, 2x, (x2)). A chord here starts with an upper-case root, or is
// N.C., so a line of words such as "a" or "Am I" is not read as chords. Columns count UTF-16 code units.
func LineOfChords(line string) (chords []Placed, ok bool) {
	start, startAt := -1, 0 // the word being read: its byte index and its column
	units := 0
	word := func(end int) bool {
		if start < 0 {
			return true
		}
		w := line[start:end]
		start = -1
		switch {
		case isRepeatCount(w) || strings.Trim(w, "|-/.:") == "":
			return true
		case w[0] >= 'A' && w[0] <= 'G' || isNoChord(w):
			m, ok := Map(w)
			if !ok {
				return false
			}
			chords = append(chords, Placed{At: startAt, Written: w, Mapped: m})
			return true
		}
		return false
	}
	for i, r := range line {
		if r == ' ' || r == '\t' {
			if !word(i) {
				return nil, false
			}
		} else if start < 0 {
			start, startAt = i, units
		}
		units += utf16.RuneLen(r)
	}
	if !word(len(line)) {
		return nil, false
	}
	return chords, len(chords) > 0
}

// isRepeatCount reports a repeat count written beside chords: x2, 2x, (x2), (2x), x 2 is two words.
func isRepeatCount(w string) bool {
	w = strings.ToLower(strings.Trim(w, "()[]"))
	w = strings.TrimSuffix(strings.TrimPrefix(w, "x"), "x")
	if w == "" || len(w) > 2 {
		return false
	}
	for _, c := range w {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
