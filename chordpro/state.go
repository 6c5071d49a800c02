package chordpro

import (
	"fmt"
	"strings"

	"tele/board"
	"tele/chord"
	"tele/utf16count"
)

// reader is what outlives a file's lines: the notes, the limits counted across sections, and the
// {transpose} in force.
type reader struct {
	line      int
	bars      int // read so far, in all grids
	notes     board.Notes
	transpose int          // semitones {transpose} moves the chords read from here on
	shifts    map[int]bool // every {transpose} a chord was read under
	grids     int          // grids read so far
	lines     int          // lines of words read so far
	// A repeat opened in a grid read so far and not yet closed: its endings may start a later grid.
	repeatOpen bool
}

// note says once what was not taken over as written: in English, and as a code with its arguments.
func (r *reader) note(code string, args map[string]any, format string, a ...any) {
	r.notes.Add(board.NoteCode{Code: code, Args: args}, fmt.Sprintf(format, a...))
}

// state is a file as read so far: the board's fields, the sections read, and the one being read.
type state struct {
	r       *reader
	c       board.Content
	desc    []string
	sec     *gridSection  // the grid being read
	lyr     *lyricSection // the section of lines being read (a ChordPro section, or lines outside any)
	parts   []part
	comment *string // a {comment} that labels the lines right after it, if they are outside any section
	timed   bool    // a {time} was read
	time    int     // the meter the last {time} gives the grids after it
}

func newState() *state {
	s := &state{r: &reader{shifts: map[int]bool{}}}
	s.c.Tempo, s.c.BeatsPerBar = 120, 4
	return s
}

// endLyrics ends the section of lines being read.
func (s *state) endLyrics() {
	if s.lyr != nil && len(s.lyr.sec.Lines) > 0 {
		s.parts = append(s.parts, part{lyrics: s.lyr})
	}
	s.lyr = nil
}

// endLooseLines ends the lines outside any section being read, if any: they end where a section, a
// comment or a recall starts.
func (s *state) endLooseLines() {
	if s.lyr != nil && s.lyr.env == "" {
		s.endLyrics()
	}
}

// unended ends a section that has no end directive, where the next one starts.
func (s *state) unended() {
	s.r.note("section_unended", map[string]any{"section": s.lyr.env}, "the %s section had no end: it ends where the next section starts", s.lyr.env)
	s.endLyrics()
}

// flushComment takes a {comment} not followed by lines into the description (before any section)
// or says it was left out.
func (s *state) flushComment() {
	if s.comment == nil {
		return
	}
	if len(s.parts) == 0 && s.lyr == nil {
		s.desc = append(s.desc, *s.comment)
	} else {
		s.commentLine(*s.comment)
	}
	s.comment = nil
}

// commentLine keeps a {comment} standing alone between sections where the file has it: a board has no
// comment of its own, so it is a section of one line of its words, as written (no chords or markup read
// in it), and the reader says so.
func (s *state) commentLine(text string) {
	l := &lyricSection{tab: true}
	s.r.addLine(l, strings.Map(func(c rune) rune {
		if c == '\n' || c == '\r' {
			return ' ' // an escaped line break: the words stay one line
		}
		return c
	}, text))
	if len(l.sec.Lines) == 0 {
		return // past the board's lines: addLine said so
	}
	s.parts = append(s.parts, part{lyrics: l})
	s.r.note("comment_as_line", map[string]any{"text": text}, "the comment %q was kept as a line of words where it stands: a board has no comments", text)
}

// readLine reads one line of the file: a directive, a row of a grid, or a line of words.
func (s *state) readLine(line string) error {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") {
		return s.directive(t[1 : len(t)-1])
	}
	switch {
	case s.sec != nil:
		if t == "" || strings.HasPrefix(t, "#") {
			return nil
		}
		return s.r.gridLine(s.sec, t)
	case strings.HasPrefix(t, "#"):
		// A comment line of the file.
	case s.lyr != nil && s.lyr.env != "":
		s.r.addLine(s.lyr, line)
	case t == "":
		s.endLyrics() // a paragraph of lines outside any section ends at a blank line
	default:
		s.looseLine(line)
	}
	return nil
}

// looseLine reads a line of words outside any section: it starts a section at the start of a paragraph,
// labelled by the {comment} just before it.
func (s *state) looseLine(line string) {
	if s.lyr == nil {
		s.lyr = &lyricSection{}
		if s.comment != nil {
			s.lyr.sec.Label = utf16count.Cut(*s.comment, board.MaxLabelUnits)
			s.comment = nil
		}
	}
	s.r.addLine(s.lyr, line)
}

// finish ends the file: the last section, the board's fields, and its sections of the parts read.
func (s *state) finish() (board.Content, error) {
	s.flushComment()
	if s.sec != nil {
		return board.Content{}, &Error{s.r.line, "the last grid has no {end_of_grid}"}
	}
	if s.lyr != nil && s.lyr.env != "" {
		s.r.note("section_unended", map[string]any{"section": s.lyr.env}, "the %s section had no end: it ends where the next section starts", s.lyr.env)
		lines := s.lyr.sec.Lines
		for n := len(lines); n > 0 && lines[n-1].Text == "" && lines[n-1].Chords == nil; n-- {
			lines = lines[:n-1] // the blank lines that end the file
		}
		s.lyr.sec.Lines = lines
	}
	s.endLyrics()
	if len(s.parts) == 0 {
		return board.Content{}, ErrNoGrid
	}
	c, r := &s.c, s.r
	if c.Title == "" {
		c.Title = "Untitled"
		r.note("title_missing", nil, "the file has no {title}: the board is called Untitled")
	}
	if c.Key != "" && !chord.IsKey(c.Key) {
		r.note("key_unknown", map[string]any{"key": c.Key}, "the key %q is not one Tele knows (like G, Bb or F#m): the board has no key", c.Key)
		c.Key = ""
	}
	c.Description = strings.Join(s.desc, "\n")
	r.credits(c)
	if err := r.sections(c, s.parts); err != nil {
		return board.Content{}, err
	}
	if len(c.Sections) == 0 {
		return board.Content{}, fmt.Errorf("no grid line holds bars Tele can read: %s", r.notes.Texts()[0])
	}
	r.moveKey(c)
	return r.playable(*c)
}
