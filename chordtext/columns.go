package chordtext

import (
	"strings"
	"unicode"
	"unicode/utf16"

	"tele/board"
	"tele/chord"
)

// tabStop is how far apart a text editor, and the sheets written in one, set tab stops.
const tabStop = 8

// wide are the ranges of East Asian wide and fullwidth characters, which a monospaced sheet draws two
// columns wide: Hangul jamo, CJK punctuation, kana and ideographs, Yi, Hangul syllables, compatibility
// ideographs and forms, fullwidth forms, the ideographs of the supplementary planes, and the emoji
// drawn as pictures.
var wide = [...][2]rune{
	{0x1100, 0x115F}, {0x2E80, 0x303E}, {0x3041, 0x33FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF},
	{0xA000, 0xA4CF}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF}, {0xFE30, 0xFE4F}, {0xFF00, 0xFF60},
	{0xFFE0, 0xFFE6}, {0x1F300, 0x1F64F}, {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
}

// columns is how many columns of a monospaced sheet r takes.
func columns(r rune) int {
	if r < 0x1100 {
		return 1
	}
	for _, w := range wide {
		if r >= w[0] && r <= w[1] {
			return 2
		}
	}
	return 1
}

func hasWide(s string) bool {
	for _, r := range s {
		if columns(r) == 2 {
			return true
		}
	}
	return false
}

// expandTabs writes each tab as the spaces up to the next tab stop.
func expandTabs(line string) string {
	var b strings.Builder
	col := 0
	for _, r := range line {
		if r == '\t' {
			n := tabStop - col%tabStop
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col += columns(r)
	}
	return b.String()
}

// lineOfChords reads a line of chords as the chord package does, and then more strictly: no word is a
// fingering (C/B=020010), and at most half its chords are letters alone that the catalogue reads only
// as the nearest chord, so words that only begin with a chord's letter (Fooo Bar Baz, Amazing Grace)
// stay words. Each chord's At
// is its column on a monospaced sheet.
func lineOfChords(line string) ([]chord.Placed, bool) {
	ps, ok := chord.LineOfChords(line)
	if !ok {
		return nil, false
	}
	exact := 0 // chords read exactly, or written with a digit or sign no word has (Cm7/add2, Cmaj7b9)
	for _, p := range ps {
		if strings.ContainsRune(p.Written, '=') {
			return nil, false
		}
		if p.Exact || strings.ContainsFunc(p.Written, func(r rune) bool { return !unicode.IsLetter(r) }) {
			exact++
		}
	}
	if 2*exact < len(ps) {
		return nil, false
	}
	// The chord package counts UTF-16 units; a sheet's columns count a wide character twice.
	units, col, k := 0, 0, 0
	for _, r := range line {
		for k < len(ps) && ps[k].At == units {
			ps[k].At = col
			k++
		}
		units += utf16.RuneLen(r)
		col += columns(r)
	}
	return ps, true
}

// isTabStaff reports a line of a guitar tablature staff: a string's letter, then a run of dashes, frets,
// bar lines and playing signs (E|--3--5-|, B--5--5-8--, e:--1--:), perhaps followed by margin words
// (| do not use e string).
func isTabStaff(line string) bool {
	t := strings.TrimSpace(line)
	if len(t) < 4 || !strings.ContainsRune("ABCDEFGabcdefg", rune(t[0])) {
		return false
	}
	t = t[1:]
	if t[0] == '#' || t[0] == 'b' {
		t = t[1:]
	}
	t = strings.TrimLeft(t, " ")
	if t == "" || !strings.ContainsRune("|:-0123456789", rune(t[0])) {
		return false
	}
	dashes := 0
	for _, c := range t {
		if c == '-' {
			dashes++
		} else if (c < '0' || c > '9') && !strings.ContainsRune("|:hpbrstxX/\\~^()<>.*=", c) {
			break
		}
	}
	return dashes >= 4
}

// headingWithChords reads a heading followed by the chords of its part on the same line: Intro: A  A#m7.
// The chords are placed from the first one's column.
func headingWithChords(line string) (label string, role board.Role, chords []chord.Placed, ok bool) {
	head, rest, found := strings.Cut(line, ":")
	if !found {
		return "", "", nil, false
	}
	label = strings.TrimSpace(head)
	role, part := sectionWords[strings.TrimRight(firstWord(label), ",.")]
	if !part || label == "" || len(label) > board.MaxLabelUnits {
		return "", "", nil, false
	}
	chords, ok = lineOfChords(rest)
	if !ok {
		return "", "", nil, false
	}
	from := chords[0].At
	for k := range chords {
		chords[k].At -= from
	}
	return label, role, chords, true
}

func (r *reader) headingNote(line string, role board.Role) {
	h := strings.TrimSpace(line)
	if role != "" {
		r.note("heading_role", map[string]any{"heading": h, "role": string(role)}, "the heading %q starts a section with the role %s", h, role)
	} else {
		r.note("heading", map[string]any{"heading": h}, "the heading %q starts a section", h)
	}
}

// undecorated is a heading's words without the dashes, stars or parentheses a sheet draws around them
// (-- Chorus --, ** Verse **, (Bridge)), and whether there were any.
func undecorated(t string) (string, bool) {
	if len(t) > 2 && t[0] == '(' && t[len(t)-1] == ')' {
		return strings.TrimSpace(t[1 : len(t)-1]), true
	}
	u := strings.Trim(t, "-=*~_# ")
	return u, u != t && u != ""
}
