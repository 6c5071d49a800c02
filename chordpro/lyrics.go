package chordpro

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"tele/board"
	"tele/chord"
	"tele/utf16count"
)

// Lyric sections: lines of words with chords in brackets ([G]Amazing [C]grace) inside
// {start_of_verse} … {end_of_verse} and its kin, or outside any section. How they are read:
//
//   - {start_of_verse}, {start_of_chorus}, {start_of_bridge} (and {sov}, {soc}, {sob}) give the section
//     the role verse, chorus or bridge; {start_of_X} for another role of the schema (intro, prechorus,
//     solo, interlude, outro, tag) gives that role; any other {start_of_X} (ChordPro's own sections, and
//     {start_of_part}, which Tele writes for a section without a role) gives none. A role="…" attribute
//     names the role instead. The label is label="…" or the directive's value ({sov: Verse 2}).
//   - {start_of_tab}/{sot}: the lines are kept as text, exactly as written, with no chords (a tab is
//     read by its columns, which only text keeps), in a section labelled Tab unless it has a label.
//   - Every line inside a section is a line of the board, blank ones too (a gap in the song). Lines
//     outside any section become a section of their own, one for each paragraph (lines between blank
//     lines); a {comment} just before such a paragraph is its label.
//   - {chorus} (with an optional label) is the chorus again: a section {"recall": "chorus"}.
//   - A chord is mapped onto the catalogue as a grid's chord is; a bracket that is not a chord ([x2],
//     [*Rit.]) is left out, and two chords with nothing between them ([Am][G]) get a space between
//     them, since two chords never stand at one place; each said in a note.
//   - \[ \] \{ \} \# \< and \\ in a line are the character after the backslash (Tele writes them so for
//     words that hold them; \< only where the words would read as markup).
//   - Text markup (<b>, </i>, <span …>, …) is left out of the words, with a note: a board keeps plain words.
//   - A {comment} standing alone between sections is a section of one line of its words, where it stands,
//     with a note: a board has no comments. (One before any section is the description; one just before
//     lines outside any section is their label; one inside a section or grid is left out, with a note.)
//
// A section written right after a grid with the attribute grid="above" holds the words of that grid's
// section: Tele writes a section with bars and lines so.

// envRoles maps the names of ChordPro's sections onto the schema's roles.
var envRoles = map[string]board.Role{"verse": "verse", "chorus": "chorus", "bridge": "bridge", "intro": "intro",
	"prechorus": "prechorus", "solo": "solo", "interlude": "interlude", "outro": "outro", "tag": "tag"}

// envShort is the short form of a section directive.
var envShort = map[string]string{"sov": "verse", "soc": "chorus", "sob": "bridge", "sot": "tab", "sog": "grid",
	"eov": "verse", "eoc": "chorus", "eob": "bridge", "eot": "tab", "eog": "grid"}

// envOf names the section a directive starts or ends ("verse" for start_of_verse and sov), and whether
// it starts one.
func envOf(name string) (env string, start, ok bool) {
	if e, ok := envShort[name]; ok {
		return e, name[0] == 's', true
	}
	if e, ok := strings.CutPrefix(name, "start_of_"); ok && e != "" {
		return e, true, true
	}
	if e, ok := strings.CutPrefix(name, "end_of_"); ok && e != "" {
		return e, false, true
	}
	return "", false, false
}

// lyricSection is a section of lines as read.
type lyricSection struct {
	sec  board.Section
	env  string // the ChordPro section it was read from; "" for lines outside any
	tab  bool
	skip bool // a section of another notation: its lines are left out
	join bool // grid="above": the words of the grid read just before
}

// lyricLine reads one line of words: its text and chords. A line longer than a board's line is cut,
// with a note.
func (r *reader) lyricLine(raw string) board.Line {
	var w lineWords
	for i := 0; i < len(raw) && w.units <= board.MaxLineUnits; { // the rest of a line too long is cut
		c := raw[i]
		switch {
		case c == '\\' && i+1 < len(raw) && strings.IndexByte(`[]{}#\<`, raw[i+1]) >= 0:
			w.text.WriteByte(raw[i+1])
			w.units++
			i += 2
			continue
		case c == '<' && markupTag(raw[i:]) > 0:
			i += r.markupLeftOut(raw[i:])
			continue
		case c == '[' && strings.IndexByte(raw[i+1:], ']') >= 0: // a lone [ is a character of the words
			end := strings.IndexByte(raw[i+1:], ']')
			if sym, ok := r.bracketChord(raw[i+1 : i+1+end]); ok {
				w.addChord(r, sym)
			}
			i += end + 2
			continue
		}
		ch, size := utf8.DecodeRuneInString(raw[i:])
		w.text.WriteString(raw[i : i+size])
		w.units += utf16count.Of(string(ch))
		i += size
	}
	l, cut := board.Line{Text: w.text.String(), Chords: w.chords}.Fit()
	if cut {
		r.note("line_cut", map[string]any{"max": board.MaxLineUnits}, "a line longer than %d characters was cut there", board.MaxLineUnits)
	}
	if len(l.Chords) == 0 {
		l.Chords = nil
	}
	return l
}

// lineWords is a line of words being read: its text, its chords, and where it is in UTF-16 units.
type lineWords struct {
	text        strings.Builder
	chords      []board.LineChord
	units       int
	lastChordAt int // where the last chord stands, +1 (0: none yet)
}

// addChord puts a chord where the line is; two chords with nothing between them get a space between
// them, since two chords never stand at one place.
func (w *lineWords) addChord(r *reader, sym string) {
	if w.lastChordAt == w.units+1 {
		w.text.WriteByte(' ')
		w.units++
		r.note("chords_spaced", nil, "chords written with nothing between them ([Am][G]) were given a space between them")
	}
	w.chords = append(w.chords, board.LineChord{At: w.units, Chord: sym})
	r.shifts[r.transpose] = true
	w.lastChordAt = w.units + 1
}

// bracketChord reads the chord of a bracket in words ([G7]) onto the catalogue, with the {transpose} in
// force; a bracket that is no chord ([x2]) is left out, with a note.
func (r *reader) bracketChord(sym string) (string, bool) {
	m, ok := chord.Map(transposed(strings.TrimSpace(sym), r.transpose))
	if !ok || strings.TrimSpace(sym) == "" {
		r.note("chord_left_out", map[string]any{"text": sym}, "[%s] is not a chord and was left out", sym)
		return "", false
	}
	if !m.Exact {
		r.note("chord_nearest", map[string]any{"from": sym, "to": m.Symbol}, "%s became %s, the nearest chord in Tele's catalogue", sym, m.Symbol)
	}
	return m.Symbol, true
}

// tabLine keeps a line of a tab as its text, cut to a board's line.
func (r *reader) tabLine(raw string) board.Line {
	if utf16count.Of(raw) > board.MaxLineUnits {
		r.note("line_cut", map[string]any{"max": board.MaxLineUnits}, "a line longer than %d characters was cut there", board.MaxLineUnits)
		raw = utf16count.Cut(raw, board.MaxLineUnits)
	}
	return board.Line{Text: raw}
}

// markupRE is a tag of ChordPro's text markup (<b>, </i>, <span size="large">, …), which a board's
// plain words do not keep.
var markupRE = regexp.MustCompile(`^</?(?i:b|i|u|s|tt|big|small|sup|sub|span)(\s[^<>]*)?>`)

// markupTag is the length of the markup tag s starts with; 0 when it starts with none.
func markupTag(s string) int {
	if len(s) < 3 || s[0] != '<' {
		return 0
	}
	return len(markupRE.FindString(s))
}

// markupLeftOut says that the markup tag s starts with was left out of the words; it is its length.
func (r *reader) markupLeftOut(s string) int {
	tag := s[:markupTag(s)]
	r.note("markup_left_out", map[string]any{"tag": tag}, "the text markup %s was left out of the words: a board keeps plain words", tag)
	return len(tag)
}

// escapeText writes a line's words so that lyricLine reads them back: a backslash before [ ] { } # \.
func escapeText(s string) string {
	if !strings.ContainsAny(s, `[]{}#\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`[]{}#\`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// writeLine writes a line of words with its chords in brackets where they stand.
func writeLine(b *strings.Builder, l board.Line) {
	k := 0
	units := 0
	for i, ch := range l.Text {
		for k < len(l.Chords) && l.Chords[k].At == units {
			b.WriteString("[" + l.Chords[k].Chord + "]")
			k++
		}
		if ch == '<' && markupTag(l.Text[i:]) > 0 {
			b.WriteByte('\\') // words that read as markup are words: \< keeps them
		}
		b.WriteString(escapeText(string(ch)))
		units += utf16count.Of(string(ch))
	}
	for ; k < len(l.Chords); k++ {
		b.WriteString("[" + l.Chords[k].Chord + "]")
	}
	b.WriteString("\n")
}

// writeLyrics writes a section's lines as a ChordPro section: its directive by its role, and
// grid="above" when the section's grid was just written.
func writeLyrics(b *strings.Builder, s board.Section, withGrid bool) {
	env := "part"
	if s.Role != "" {
		env = string(s.Role)
	} else if isTab(s) {
		env = "tab"
	}
	b.WriteString("\n{start_of_" + env)
	switch {
	case withGrid:
		b.WriteString(`: grid="above"`)
	case s.Label != "":
		b.WriteString(`: label="` + escape(s.Label) + `"`)
	}
	b.WriteString("}\n")
	for _, l := range s.Lines {
		if env == "tab" {
			b.WriteString(l.Text + "\n")
			continue
		}
		writeLine(b, l)
	}
	b.WriteString("{end_of_" + env + "}\n")
}

// isTab reports whether s is a tab as the reader makes one of {start_of_tab}: labelled Tab, no role, no
// chords, and no line a reader would take for a directive or a comment (a tab's lines are read as written).
func isTab(s board.Section) bool {
	if s.Label != "Tab" || s.Role != "" {
		return false
	}
	for _, l := range s.Lines {
		if t := strings.TrimSpace(l.Text); l.Chords != nil || strings.HasPrefix(t, "{") || strings.HasPrefix(t, "#") {
			return false
		}
	}
	return true
}

// part is a section of the file as read, in the file's order: a grid, lines, or a recall of the chorus.
type part struct {
	grid   *gridSection
	lyrics *lyricSection
	recall *board.Section
	line   int
}

// delegates are ChordPro's sections of other notations (ABC, LilyPond, SVG, MusicXML, a text block
// drawn as an image): not words with chords.
var delegates = map[string]bool{"abc": true, "ly": true, "svg": true, "textblock": true, "musicxml": true}

// startLyrics begins a section of lines from its directive ({start_of_verse: Verse 2}, …).
func (r *reader) startLyrics(env, value string, attrs map[string]string, parts []part) *lyricSection {
	l := &lyricSection{env: env, tab: env == "tab"}
	if delegates[env] {
		r.note("section_left_out", map[string]any{"section": "start_of_" + env}, "the start_of_%s section was left out: it is not words with chords", env)
		l.skip = true
		return l
	}
	l.sec.Label = strings.TrimSpace(value)
	if v, ok := attrs["label"]; ok {
		l.sec.Label = v
	}
	l.sec.Role = envRoles[env]
	if v, ok := attrs["role"]; ok {
		l.sec.Role = envRoles[v]
	}
	if l.tab && l.sec.Label == "" {
		l.sec.Label = "Tab"
	}
	if utf16count.Of(l.sec.Label) > board.MaxLabelUnits {
		r.note("label_cut", map[string]any{"label": l.sec.Label}, "the label %q was cut to %d characters", l.sec.Label, board.MaxLabelUnits)
		l.sec.Label = utf16count.Cut(l.sec.Label, board.MaxLabelUnits)
	}
	if attrs["grid"] == "above" && len(parts) > 0 && parts[len(parts)-1].grid != nil {
		l.join = true
	}
	return l
}

// addLine adds a line of the file to the section being read, within a board's limits.
func (r *reader) addLine(l *lyricSection, raw string) {
	if l.skip {
		return
	}
	if len(l.sec.Lines) == board.MaxLinesPerSection || r.lines == board.MaxLines {
		r.note("lines_cut", map[string]any{"max": board.MaxLinesPerSection, "total": board.MaxLines}, "lines past %d in a section or %d in all were left out", board.MaxLinesPerSection, board.MaxLines)
		return
	}
	raw = strings.Map(func(c rune) rune {
		switch c {
		case '\r':
			return -1
		case '\u2028', '\u2029':
			return ' '
		}
		return c
	}, raw)
	r.lines++
	if l.tab {
		l.sec.Lines = append(l.sec.Lines, r.tabLine(raw))
		return
	}
	l.sec.Lines = append(l.sec.Lines, r.lyricLine(raw))
}

// joinCredit adds a name to the names of an artist or composer read before.
func joinCredit(names, name string) string {
	name = strings.TrimSpace(name)
	if names == "" || name == "" {
		return names + name
	}
	return names + ", " + name
}

// credits cuts the artist, composer and style to a board's length, with a note.
func (r *reader) credits(c *board.Content) {
	for _, f := range []*string{&c.Artist, &c.Composer, &c.Style} {
		if utf16count.Of(*f) > board.MaxCreditUnits {
			r.note("credit_cut", map[string]any{"text": *f}, "%q was cut to %d characters", *f, board.MaxCreditUnits)
			*f = utf16count.Cut(*f, board.MaxCreditUnits)
		}
	}
}

// sections makes the board's sections of the parts read, in their order: a grid's bars, a section's
// lines (the words of the grid before it when Tele wrote them so), a recall of the chorus.
func (r *reader) sections(c *board.Content, parts []part) error {
	prevGrid := false // the last section made is a grid's, with no words yet
	chorus := false
	for _, p := range parts {
		if len(c.Sections) == board.MaxSections && !(p.lyrics != nil && p.lyrics.join && prevGrid) {
			r.note("sections_cut", map[string]any{"max": board.MaxSections}, "the sections past the %dth were left out: a board holds %d", board.MaxSections, board.MaxSections)
			break
		}
		switch {
		case p.grid != nil:
			bars, err := r.sectionBars(p.grid, c.BeatsPerBar)
			if err != nil {
				return err
			}
			prevGrid = len(bars) > 0
			if len(bars) == 0 {
				r.note("grid_empty", map[string]any{"label": p.grid.label}, "the grid %q has no bars and was left out", p.grid.label)
				continue
			}
			c.Sections = append(c.Sections, board.Section{Label: p.grid.label, Role: board.Role(p.grid.role), Bars: bars})
		case p.lyrics != nil:
			if p.lyrics.join && prevGrid {
				c.Sections[len(c.Sections)-1].Lines = p.lyrics.sec.Lines
			} else {
				c.Sections = append(c.Sections, p.lyrics.sec)
			}
			prevGrid = false
		default:
			prevGrid = false
			if !chorus {
				r.note("recall_no_chorus", nil, "{chorus} before any chorus was left out: it repeats the chorus before it")
				continue
			}
			c.Sections = append(c.Sections, *p.recall)
		}
		chorus = chorus || c.Sections[len(c.Sections)-1].Role == board.RecallChorus
	}
	return nil
}
