package chordpro

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"tele/board"
)

// directive reads a directive line: {name: value} or {name attr="…" …}, without its braces.
func (s *state) directive(text string) error {
	name, value, attrs := parseDirective(text)
	value = unescape(value)
	if env, start, ok := envOf(name); ok && env != "grid" {
		return s.sectionDirective(name, env, value, attrs, start)
	}
	if !isComment(name) {
		s.flushComment()
	}
	if s.songField(name, value) {
		return nil
	}
	switch name {
	case "meta":
		s.meta(value)
	case "transpose":
		s.r.setTranspose(value)
	case "comment", "c", "comment_italic", "ci", "comment_box", "cb":
		s.commentDirective(value)
	case "chorus":
		s.recallChorus(value)
	case "start_of_grid", "sog":
		return s.startGrid(value, attrs)
	case "end_of_grid", "eog":
		return s.endGrid()
	default:
		s.r.note("directive_left_out", map[string]any{"directive": name}, "{%s} was left out: Tele does not read it", name)
	}
	return nil
}

// songField reads a directive that sets a field of the song, by its short or its long name; false when
// name is no such directive.
func (s *state) songField(name, value string) bool {
	switch name {
	case "title", "t":
		s.c.Title = value
	case "subtitle", "st", "su":
		s.desc = append(s.desc, value)
		s.r.note("subtitle_in_description", map[string]any{"text": value}, "the subtitle %q was kept in the description", value)
	case "artist":
		s.c.Artist = joinCredit(s.c.Artist, value)
	case "composer":
		s.c.Composer = joinCredit(s.c.Composer, value)
	case "capo":
		s.r.note("capo_left_out", map[string]any{"capo": value}, "the capo %s was left out: a board keeps the chords as they sound; set a capo in the view", value)
	case "key":
		s.c.Key = value
	case "tempo":
		s.tempo(value)
	case "time":
		s.timeSignature(value)
	default:
		return false
	}
	return true
}

func isComment(name string) bool {
	switch name {
	case "comment", "c", "comment_italic", "ci", "comment_box", "cb":
		return true
	}
	return false
}

// sectionDirective reads the start or the end of a section of lines ({start_of_verse}, {eoc}, …).
func (s *state) sectionDirective(name, env, value string, attrs map[string]string, start bool) error {
	s.flushComment()
	s.endLooseLines()
	if !start {
		if s.lyr == nil || s.lyr.env != env {
			s.r.note("section_end_alone", map[string]any{"directive": name}, "{%s} ends no section and was left out", name)
			return nil
		}
		s.endLyrics()
		return nil
	}
	if s.lyr != nil {
		s.unended()
	}
	if s.sec != nil {
		return &Error{s.r.line, "a section starts inside a grid: end the grid with {end_of_grid} first"}
	}
	s.lyr = s.r.startLyrics(env, value, attrs, s.parts)
	return nil
}

// meta reads {meta: name value}, ChordPro's long form of the song's directives ({meta: key Am} is
// {key: Am}), for the names a board has a field for.
func (s *state) meta(value string) {
	key, v, _ := strings.Cut(strings.TrimSpace(value), " ")
	v = strings.TrimSpace(v)
	if s.songField(strings.ToLower(key), v) {
		return
	}
	switch strings.ToLower(key) {
	case "style":
		s.c.Style = v
	default:
		s.r.note("directive_left_out", map[string]any{"directive": "meta " + key}, "{meta: %s …} was left out", key)
	}
}

func (s *state) tempo(value string) {
	v, err := strconv.Atoi(strings.TrimSpace(value))
	if err != nil {
		s.r.note("tempo_unknown", map[string]any{"tempo": value}, "the tempo %q is not a number of beats per minute: the board plays at 120", value)
		return
	}
	s.c.Tempo = v
}

// timeSignature reads {time: N/M}: the first is the board's meter; a later one is the meter of the
// grids after it.
func (s *state) timeSignature(value string) {
	top, bottom, ok := strings.Cut(value, "/")
	if !ok {
		return
	}
	v, err := strconv.Atoi(strings.TrimSpace(top))
	if err != nil {
		return
	}
	if !s.timed {
		s.c.BeatsPerBar = v
	}
	s.timed, s.time = true, v
	if strings.TrimSpace(bottom) != "4" {
		s.r.note("time_read", map[string]any{"time": strings.TrimSpace(value), "beats": v}, "the time %s was read as %d beats per bar: a board counts beats and keeps no note value", strings.TrimSpace(value), v)
	}
}

// commentDirective reads a {comment}: it labels the lines outside any section right after it, or goes
// into the description before any section (flushComment).
func (s *state) commentDirective(value string) {
	s.flushComment()
	s.endLooseLines()
	if s.sec == nil && s.lyr == nil {
		s.comment = &value
		return
	}
	s.r.note("comment_left_out", map[string]any{"text": value}, "the comment %q was left out", value)
}

// recallChorus reads {chorus}: the chorus again.
func (s *state) recallChorus(value string) {
	s.endLooseLines()
	if s.lyr != nil || s.sec != nil {
		s.r.note("recall_left_out", nil, "{chorus} inside a section was left out")
		return
	}
	s.parts = append(s.parts, part{recall: &board.Section{Label: value, Recall: board.RecallChorus}, line: s.r.line})
}

func (s *state) startGrid(value string, attrs map[string]string) error {
	if s.sec != nil {
		return &Error{s.r.line, "a grid starts inside another: end it with {end_of_grid} first"}
	}
	if s.lyr != nil {
		s.unended()
	}
	if s.r.grids == board.MaxSections {
		return &Error{s.r.line, fmt.Sprintf("the file has more than %d grids, more sections than a board holds", board.MaxSections)}
	}
	s.sec = &gridSection{label: attrs["label"], role: attrs["role"], shape: attrs["shape"], time: s.time}
	if s.sec.shape == "" && s.sec.label == "" && value != "" {
		// The legacy form {start_of_grid: 1+4x4+1 Label}.
		s.sec.shape, s.sec.label, _ = strings.Cut(value, " ")
	}
	return nil
}

func (s *state) endGrid() error {
	if s.sec == nil {
		return &Error{s.r.line, "{end_of_grid} without a {start_of_grid}"}
	}
	s.parts = append(s.parts, part{grid: s.sec})
	s.sec = nil
	s.r.grids++
	return nil
}

// parseDirective splits a directive's text: {name: value} or {name attr="v" …}.
func parseDirective(s string) (name, value string, attrs map[string]string) {
	attrs = map[string]string{}
	name, rest, colon := strings.Cut(s, ":")
	if !colon {
		name, rest, _ = strings.Cut(s, " ")
	}
	name = strings.ToLower(strings.TrimSpace(name))
	rest = strings.TrimSpace(rest)
	if !hasAttributes(rest, colon) {
		return name, rest, attrs
	}
	for rest != "" {
		key, after, ok := strings.Cut(rest, `="`)
		if !ok {
			break
		}
		val, end := quoted(after)
		attrs[strings.ToLower(strings.TrimSpace(key))] = unescape(val)
		if end >= len(after) {
			break
		}
		rest = strings.TrimSpace(after[end+1:])
	}
	return name, "", attrs
}

// hasAttributes reports whether a directive's text after its name is attributes (label="A" …) rather
// than a value: an attribute's name comes first, or there is one and no colon after the name.
func hasAttributes(rest string, colon bool) bool {
	i := strings.Index(rest, `="`)
	return i > 0 && !strings.Contains(rest[:i], " ") || i >= 0 && !colon
}

// quoted reads an attribute's value after its opening quote: the value, its escapes kept for unescape,
// and where its closing quote is (len(after) when there is none).
func quoted(after string) (string, int) {
	var val strings.Builder
	i := 0
	for ; i < len(after); i++ {
		if after[i] == '\\' && i+1 < len(after) {
			val.WriteByte('\\')
			i++
			val.WriteByte(after[i])
			continue
		}
		if after[i] == '"' {
			break
		}
		val.WriteByte(after[i])
	}
	return val.String(), i
}

// unescape reads the escapes escapeValue writes: \u{hex} is that character, \ and any other character
// is that character.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		if r, end, ok := codePoint(s[i:]); ok {
			b.WriteRune(r)
			i += end
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// codePoint reads u{hex} at the start of s: the character and the index of its closing brace.
func codePoint(s string) (rune, int, bool) {
	if len(s) < 2 || s[0] != 'u' || s[1] != '{' {
		return 0, 0, false
	}
	// \u{10FFFF} is the longest: looking no further keeps a line of unclosed \u{ linear.
	end := strings.IndexByte(s[:min(len(s), 10)], '}')
	if end < 0 {
		return 0, 0, false
	}
	r, err := strconv.ParseUint(s[2:end], 16, 32)
	if err != nil || !utf8.ValidRune(rune(r)) {
		return 0, 0, false
	}
	return rune(r), end, true
}
