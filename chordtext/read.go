// Package chordtext reads songs written as chords over lyrics, the way chord sites and most song
// sheets print them: a line of chords above the line of words they fall on, with headings such as
// [Verse 1], [Chorus] or Chorus: between the parts. Import only: Tele writes ChordPro. Every guess the
// reader makes is said in a note (docs/content.md):
//
//   - A line of chords alone (chord.LineOfChords, read more strictly: no fingering such as C/B=020010,
//     and at most half its chords letters alone that only map to the nearest chord) above a line of
//     words puts each chord over the character in its column on a monospaced sheet (a tab reaches the
//     next stop of every 8 columns, a wide character takes two); the words are padded with spaces when
//     a chord stands past their end. [ch]G[/ch] markup is read as the chord.
//   - A line of chords with no words under it is a line of chords over spaces.
//   - The lines of a tablature staff are left out; chords over a staff fall on the words under it.
//   - A heading ([Verse 2], [Chorus], Chorus:, Pre-Chorus:, …: a few words in brackets, or ending with a
//     colon, that are no chords; -- Chorus --, (Verse): a part's name between dashes or parentheses)
//     starts a section with that label and, when its first word names one, a role. A part's name and a
//     colon followed by chords (Intro: A  A#m7) starts the section with a line of those chords.
//   - A blank line ends a section that has lines; lines after it start another, without a label.
//   - The first line is the title when a blank line follows it and it is no chord line or heading;
//     else the board is called Untitled.
package chordtext

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"tele/board"
	"tele/chord"
	"tele/utf16count"
)

// MaxFileBytes bounds a file Read accepts.
const MaxFileBytes = 1 << 20

// ErrNoChords is the refusal of a text with no line of chords: not a chord sheet.
var ErrNoChords error = noChordsError{}

type noChordsError struct{}

func (noChordsError) Error() string {
	return "the text has no line of chords: it is not a chord sheet Tele can read"
}

// Code is the API's error code of the refusal.
func (noChordsError) Code() string { return "not_a_grid" }

// ReadCharts is Read as the import route takes a format: a chord sheet is one chart. The reading is
// linear in the text and bounded by its limits: one that has begun runs to its end.
func ReadCharts(ctx context.Context, data []byte) ([]board.Chart, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, r, err := read(data)
	if err != nil {
		return nil, err
	}
	return []board.Chart{{Title: c.Title, Content: c, Notes: r.notes.Texts(), Codes: r.notes.Codes()}}, nil
}

// Read reads a chord sheet into board content; notes say every guess made. The content is valid when
// err is nil.
func Read(data []byte) (board.Content, []string, error) {
	c, r, err := read(data)
	if err != nil {
		return board.Content{}, nil, err
	}
	return c, r.notes.Texts(), nil
}

type reader struct {
	notes board.Notes
	lines int
}

func (r *reader) note(code string, args map[string]any, format string, a ...any) {
	r.notes.Add(board.NoteCode{Code: code, Args: args}, fmt.Sprintf(format, a...))
}

// Its cognitive complexity is over the lint gate of 30, and accepted: one case per kind of line.
//
//gocognit:ignore
func read(data []byte) (board.Content, *reader, error) {
	if len(data) > MaxFileBytes {
		return board.Content{}, nil, fmt.Errorf("the text is %d bytes; a chord sheet can be at most %d", len(data), MaxFileBytes)
	}
	if !utf8.Valid(data) {
		return board.Content{}, nil, errors.New("the text is not UTF-8")
	}
	r := &reader{}
	c := board.Content{Tempo: 120, BeatsPerBar: 4}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(strings.Map(func(c rune) rune {
			switch c {
			case '\r':
				return -1
			case '\u2028', '\u2029':
				return ' '
			}
			return c
		}, lines[i]), " \t")
		if strings.Contains(lines[i], "[ch]") {
			lines[i] = strings.ReplaceAll(strings.ReplaceAll(lines[i], "[ch]", ""), "[/ch]", "")
			r.note("chord_markup", nil, "chords marked up as [ch]G[/ch], as chord sites export them, were read as chords")
		}
		if strings.ContainsRune(lines[i], '\t') {
			lines[i] = expandTabs(lines[i])
			r.note("tab_stops", nil, "a tab was read as spaces to the next tab stop, every 8 columns, as a text editor shows it")
		}
	}
	// Each line is read as chords once: mapping a chord the catalogue lacks costs more than reading it.
	type chordLine struct {
		chords []chord.Placed
		ok     bool
	}
	memo := make(map[int]chordLine, len(lines))
	chordsOf := func(i int) ([]chord.Placed, bool) {
		if l, seen := memo[i]; seen {
			return l.chords, l.ok
		}
		ps, ok := lineOfChords(lines[i])
		memo[i] = chordLine{ps, ok}
		return ps, ok
	}
	first := 0
	for first < len(lines) && lines[first] == "" {
		first++
	}
	if first+1 < len(lines) && lines[first+1] == "" {
		if _, chords := chordsOf(first); !chords {
			_, _, h := heading(lines[first])
			if _, _, _, hc := headingWithChords(lines[first]); !h && !hc {
				c.Title = utf16count.Cut(strings.TrimSpace(lines[first]), board.MaxTitleUnits)
				r.note("title_first_line", map[string]any{"title": c.Title}, "the first line %q was read as the title", c.Title)
				first++
			}
		}
	}
	if c.Title == "" {
		c.Title = "Untitled"
		r.note("title_missing", nil, "the text names no title: the board is called Untitled")
	}
	var sec *board.Section
	over, alone := false, false // chords were put over words; a line of chords stood alone
	end := func() {
		if sec != nil && len(sec.Lines) > 0 {
			if len(c.Sections) == board.MaxSections {
				r.note("sections_cut", map[string]any{"max": board.MaxSections}, "the sections past the %dth were left out: a board holds %d", board.MaxSections, board.MaxSections)
			} else {
				c.Sections = append(c.Sections, *sec)
			}
		}
		sec = nil
	}
	add := func(l board.Line) {
		if sec == nil {
			sec = &board.Section{}
		}
		if len(sec.Lines) == board.MaxLinesPerSection || r.lines == board.MaxLines {
			r.note("lines_cut", map[string]any{"max": board.MaxLinesPerSection, "total": board.MaxLines}, "lines past %d in a section or %d in all were left out", board.MaxLinesPerSection, board.MaxLines)
			return
		}
		l, cut := l.Fit()
		if cut {
			r.note("line_cut", map[string]any{"max": board.MaxLineUnits}, "a line longer than %d characters was cut there", board.MaxLineUnits)
		}
		r.lines++
		sec.Lines = append(sec.Lines, l)
	}
	for i := first; i < len(lines); i++ {
		line := lines[i]
		if strings.TrimSpace(line) == "" {
			if sec != nil && len(sec.Lines) > 0 {
				end()
			}
			continue
		}
		if isTabStaff(line) {
			r.note("tab_left_out", nil, "the lines of a tablature staff were left out: a board keeps chords and words")
			continue
		}
		if label, role, ok := heading(line); ok {
			end()
			sec = &board.Section{Label: label, Role: role}
			r.headingNote(line, role)
			continue
		}
		if label, role, chords, ok := headingWithChords(line); ok {
			end()
			sec = &board.Section{Label: label, Role: role}
			r.headingNote(line[:strings.IndexByte(line, ':')+1], role)
			r.note("heading_chords", map[string]any{"heading": strings.TrimSpace(line)}, "the chords after the heading %q were kept as a line of chords over spaces", strings.TrimSpace(line))
			r.mapped(chords)
			l, cut := placeOver("", chords)
			if cut {
				r.note("line_cut", map[string]any{"max": board.MaxLineUnits}, "a line longer than %d characters was cut there", board.MaxLineUnits)
			}
			add(l)
			alone = true
			continue
		}
		chords, ok := chordsOf(i)
		if !ok {
			add(board.Line{Text: line})
			continue
		}
		r.mapped(chords)
		var words string
		// A staff between the chords and their words is left out: the chords fall on the words under it.
		for i+1 < len(lines) && isTabStaff(lines[i+1]) {
			r.note("tab_left_out", nil, "the lines of a tablature staff were left out: a board keeps chords and words")
			i++
		}
		if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
			_, chordsNext := chordsOf(i + 1)
			_, _, headingNext := heading(lines[i+1])
			if !chordsNext && !headingNext {
				words = lines[i+1]
				i++
				over = true
			}
		}
		if words == "" {
			alone = true
		}
		l, cut := placeOver(words, chords)
		if words != "" && hasWide(words) {
			r.note("wide_columns", nil, "a wide character (such as 中 or 가) was counted as two columns, as a monospaced sheet shows it")
		}
		if cut {
			r.note("line_cut", map[string]any{"max": board.MaxLineUnits}, "a line longer than %d characters was cut there", board.MaxLineUnits)
		}
		add(l)
	}
	end()
	if over {
		r.note("chords_over_words", nil, "each chord was put over the character of the words in its column")
	}
	if alone {
		r.note("chords_alone", nil, "a line of chords with no words under it was kept as chords over spaces")
	}
	if !over && !alone {
		return board.Content{}, nil, ErrNoChords
	}
	if len(c.Sections) == 0 {
		return board.Content{}, nil, ErrNoChords
	}
	if err := c.Validate(); err != nil {
		return board.Content{}, nil, fmt.Errorf("the chord sheet does not make a board: %w", err)
	}
	return c, r, nil
}

// mapped says each chord that became the nearest in the catalogue.
func (r *reader) mapped(chords []chord.Placed) {
	for _, p := range chords {
		if !p.Exact {
			r.note("chord_nearest", map[string]any{"from": p.Written, "to": p.Symbol}, "%s became %s, the nearest chord in Tele's catalogue", p.Written, p.Symbol)
		}
	}
}

// placeOver puts chords over words by their columns on a monospaced sheet, where a wide character
// takes two: a chord goes to the first character starting at or after its column, past the end of the
// words after spaces, and one at the place of the chord before it to the next place. Chords past a
// board's line are left out (cut).
func placeOver(words string, chords []chord.Placed) (line board.Line, cut bool) {
	var between []bool // between[k]: place k falls between characters
	for _, r := range words {
		between = append(between, true)
		if utf16.RuneLen(r) == 2 {
			between = append(between, false)
		}
	}
	between = append(between, true)
	line.Text = words
	n := len(between) - 1 // the words' length
	width := 0
	for _, r := range words {
		width += columns(r)
	}
	prev := -1
	place, col := 0, 0 // the place and column of the character rest starts with
	rest := words
	for _, p := range chords {
		for rest != "" && col < p.At {
			r, size := utf8.DecodeRuneInString(rest)
			rest = rest[size:]
			place += utf16.RuneLen(r)
			col += columns(r)
		}
		at := place
		if rest == "" && p.At > width {
			at = n + p.At - width
		}
		at = max(at, prev+1)
		for at < len(between) && !between[at] {
			at++
		}
		if at > board.MaxLineUnits {
			return line, true
		}
		line.Chords = append(line.Chords, board.LineChord{At: at, Chord: p.Symbol})
		prev = at
	}
	if prev > n {
		line.Text += strings.Repeat(" ", prev-n)
	}
	return line, false
}

// sectionWords maps a heading's first word onto a role.
var sectionWords = map[string]board.Role{"verse": "verse", "chorus": "chorus", "refrain": "chorus", "bridge": "bridge",
	"intro": "intro", "outro": "outro", "ending": "outro", "coda": "outro", "solo": "solo", "interlude": "interlude",
	"instrumental": "interlude", "tag": "tag", "pre-chorus": "prechorus", "prechorus": "prechorus", "pre": "prechorus"}

// heading reads a line that names a part of the song: [Verse 1], [Chorus], Chorus:, Pre-Chorus 2:. A
// bracketed heading starts with a word that names a part, or is any few words that are no chord; a
// heading with a colon starts with a word that names a part.
func heading(line string) (label string, role board.Role, ok bool) {
	t := strings.TrimSpace(line)
	switch {
	case len(t) > 2 && t[0] == '[' && t[len(t)-1] == ']' && !strings.ContainsAny(t[1:len(t)-1], "[]"):
		label = strings.TrimSpace(t[1 : len(t)-1])
		// A word that names a part is a heading even where the chord reader would find a chord in
		// it: "Chorus" reads as C with an unknown quality, mapped to the nearest chord.
		if _, part := sectionWords[firstWord(label)]; part {
			break
		}
		if _, chords := chord.LineOfChords(label); chords || label == "" {
			return "", "", false
		}
	case t != "" && (t[0] == '(' || t[0] == '-' || t[0] == '*' || t[0] == '=' || t[0] == '~'):
		var decorated bool
		label, decorated = undecorated(t)
		if _, part := sectionWords[firstWord(label)]; !part || !decorated {
			return "", "", false
		}
	case strings.HasSuffix(t, ":") && len(t) > 1:
		label = strings.TrimSpace(strings.TrimSuffix(t, ":"))
		if _, known := sectionWords[firstWord(label)]; !known {
			return "", "", false
		}
	default:
		return "", "", false
	}
	if utf16count.Of(label) > board.MaxLabelUnits {
		return "", "", false
	}
	return label, sectionWords[firstWord(label)], true
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(s)), " ")
	return strings.TrimRight(w, "0123456789:")
}
