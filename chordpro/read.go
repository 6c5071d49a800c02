package chordpro

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"tele/board"
	"tele/chord"
	"tele/utf16count"
)

// MaxFileBytes bounds a ChordPro file Read accepts.
const MaxFileBytes = 1 << 20

// ErrNoGrid is Read's refusal of a file with neither grid sections nor lines of words; over HTTP its
// code is not_a_grid.
var ErrNoGrid error = noGridError{}

type noGridError struct{}

func (noGridError) Error() string {
	return "the file has no ChordPro grid ({start_of_grid} … {end_of_grid}) and no lines of words: there is nothing to make a board of"
}

// Code is the API's error code of the refusal.
func (noGridError) Code() string { return "not_a_grid" }

// Error is a line Read cannot read.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Read reads the grid sections of a ChordPro file into board content. Notes lists, in a musician's
// words, what was not taken over as written (a chord mapped to the nearest in the catalogue, lyrics and
// other sections left out, …). The content is valid (Validate) when err is nil.
func Read(data []byte) (c board.Content, notes []string, err error) {
	c, r, err := read(data)
	if err != nil {
		return board.Content{}, nil, err
	}
	return c, r.noteList, nil
}

// read is Read with the reader, whose codes say the notes again (ReadCharts gives them).
//
// Its cognitive complexity is over the lint gate of 30, and accepted: a reader of ChordPro: one case per
// directive or grid sign, each named by its table tests.
//
//gocognit:ignore
func read(data []byte) (c board.Content, r *reader, err error) {
	if len(data) > MaxFileBytes {
		return c, nil, fmt.Errorf("the file is %d bytes; a ChordPro file can be at most %d", len(data), MaxFileBytes)
	}
	if !utf8.Valid(data) {
		return c, nil, errors.New("the file is not UTF-8 text")
	}
	r = &reader{notes: map[string]bool{}, shifts: map[int]bool{}}
	c.Tempo, c.BeatsPerBar = 120, 4
	var desc []string
	var sec *gridSection  // the grid being read
	var lyr *lyricSection // the section of lines being read (a ChordPro section, or lines outside any)
	var parts []part
	var comment *string     // a {comment} that labels the lines right after it, if they are outside any section
	timed, time := false, 0 // a {time} was read, and the meter it gives the grids after it
	// endLyrics ends the section of lines being read.
	endLyrics := func() {
		if lyr != nil && len(lyr.sec.Lines) > 0 {
			parts = append(parts, part{lyrics: lyr})
		}
		lyr = nil
	}
	// flushComment takes a {comment} not followed by lines into the description (before any section)
	// or says it was left out.
	flushComment := func() {
		if comment == nil {
			return
		}
		if len(parts) == 0 && lyr == nil {
			desc = append(desc, *comment)
		} else {
			r.note("comment_left_out", map[string]any{"text": *comment}, "the comment %q was left out", *comment)
		}
		comment = nil
	}
	for n, line := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		r.line = n + 1
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") {
			name, value, attrs := parseDirective(t[1 : len(t)-1])
			value = unescape(value)
			if env, start, ok := envOf(name); ok && env != "grid" {
				flushComment()
				if lyr != nil && lyr.env == "" {
					endLyrics() // lines outside any section end where a section starts
				}
				if !start {
					if lyr == nil || lyr.env != env {
						r.note("section_end_alone", map[string]any{"directive": name}, "{%s} ends no section and was left out", name)
						continue
					}
					endLyrics()
					continue
				}
				if lyr != nil {
					r.note("section_unended", map[string]any{"section": lyr.env}, "the %s section had no end: it ends where the next section starts", lyr.env)
					endLyrics()
				}
				if sec != nil {
					return c, nil, &Error{r.line, "a section starts inside a grid: end the grid with {end_of_grid} first"}
				}
				lyr = r.startLyrics(env, value, attrs, parts)
				continue
			}
			if name != "comment" && name != "c" && name != "comment_italic" && name != "ci" && name != "comment_box" && name != "cb" {
				flushComment()
			}
			switch name {
			case "title", "t":
				c.Title = value
			case "subtitle", "st", "su":
				desc = append(desc, value)
				r.note("subtitle_in_description", map[string]any{"text": value}, "the subtitle %q was kept in the description", value)
			case "artist":
				c.Artist = joinCredit(c.Artist, value)
			case "composer":
				c.Composer = joinCredit(c.Composer, value)
			case "meta":
				key, v, _ := strings.Cut(strings.TrimSpace(value), " ")
				switch strings.ToLower(key) {
				case "artist":
					c.Artist = joinCredit(c.Artist, strings.TrimSpace(v))
				case "composer":
					c.Composer = joinCredit(c.Composer, strings.TrimSpace(v))
				case "style":
					c.Style = strings.TrimSpace(v)
				default:
					r.note("directive_left_out", map[string]any{"directive": "meta " + key}, "{meta: %s …} was left out", key)
				}
			case "capo":
				r.note("capo_left_out", map[string]any{"capo": value}, "the capo %s was left out: a board keeps the chords as they sound; set a capo in the view", value)
			case "key":
				c.Key = value
			case "tempo":
				if v, err := strconv.Atoi(strings.TrimSpace(value)); err == nil {
					c.Tempo = v
				} else {
					r.note("tempo_unknown", map[string]any{"tempo": value}, "the tempo %q is not a number of beats per minute: the board plays at 120", value)
				}
			case "time":
				if top, bottom, ok := strings.Cut(value, "/"); ok {
					if v, err := strconv.Atoi(strings.TrimSpace(top)); err == nil {
						// The first {time} is the board's; a later one is the meter of the grids after it.
						if !timed {
							c.BeatsPerBar = v
						}
						timed, time = true, v
						if strings.TrimSpace(bottom) != "4" {
							r.note("time_read", map[string]any{"time": strings.TrimSpace(value), "beats": v}, "the time %s was read as %d beats per bar: a board counts beats and keeps no note value", strings.TrimSpace(value), v)
						}
					}
				}
			case "transpose":
				// {transpose: N} moves the chords after it N semitones; {transpose} alone ends that.
				v, err := strconv.Atoi(strings.TrimSpace(value))
				if err != nil && strings.TrimSpace(value) != "" || v < -12 || v > 12 {
					r.note("transpose_unknown", map[string]any{"transpose": value}, "{transpose: %s} is not a number of semitones from -12 to 12: the chords after it were read as written", value)
					v = 0
				}
				r.transpose = v
				if v != 0 {
					r.note("transposed", map[string]any{"semitones": v}, "the chords after {transpose: %d} were moved %d semitones, as the file asks", v, v)
				}
			case "comment", "c", "comment_italic", "ci", "comment_box", "cb":
				flushComment()
				if lyr != nil && lyr.env == "" {
					endLyrics()
				}
				if sec == nil && lyr == nil {
					comment = &value
				} else {
					r.note("comment_left_out", map[string]any{"text": value}, "the comment %q was left out", value)
				}
			case "chorus":
				if lyr != nil && lyr.env == "" {
					endLyrics()
				}
				if lyr != nil || sec != nil {
					r.note("recall_left_out", nil, "{chorus} inside a section was left out")
					continue
				}
				parts = append(parts, part{recall: &board.Section{Label: value, Recall: board.RecallChorus}, line: r.line})
			case "start_of_grid", "sog":
				if sec != nil {
					return c, nil, &Error{r.line, "a grid starts inside another: end it with {end_of_grid} first"}
				}
				if lyr != nil {
					r.note("section_unended", map[string]any{"section": lyr.env}, "the %s section had no end: it ends where the next section starts", lyr.env)
					endLyrics()
				}
				if r.grids == board.MaxSections {
					return c, nil, &Error{r.line, fmt.Sprintf("the file has more than %d grids, more sections than a board holds", board.MaxSections)}
				}
				sec = &gridSection{label: attrs["label"], role: attrs["role"], shape: attrs["shape"], time: time}
				if sec.shape == "" && sec.label == "" && value != "" {
					// The legacy form {start_of_grid: 1+4x4+1 Label}.
					sec.shape, sec.label, _ = strings.Cut(value, " ")
				}
			case "end_of_grid", "eog":
				if sec == nil {
					return c, nil, &Error{r.line, "{end_of_grid} without a {start_of_grid}"}
				}
				parts = append(parts, part{grid: sec})
				sec = nil
				r.grids++
			default:
				r.note("directive_left_out", map[string]any{"directive": name}, "{%s} was left out: Tele does not read it", name)
			}
			continue
		}
		switch {
		case sec != nil:
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			if err := r.gridLine(sec, t); err != nil {
				return c, nil, err
			}
		case strings.HasPrefix(t, "#"):
			// A comment line of the file.
		case lyr != nil && lyr.env != "":
			r.addLine(lyr, line)
		case t == "":
			endLyrics() // a paragraph of lines outside any section ends at a blank line
		default:
			if lyr == nil {
				lyr = &lyricSection{}
				if comment != nil {
					lyr.sec.Label = utf16count.Cut(*comment, board.MaxLabelUnits)
					comment = nil
				}
			}
			r.addLine(lyr, line)
		}
	}
	flushComment()
	if sec != nil {
		return c, nil, &Error{r.line, "the last grid has no {end_of_grid}"}
	}
	if lyr != nil && lyr.env != "" {
		r.note("section_unended", map[string]any{"section": lyr.env}, "the %s section had no end: it ends where the next section starts", lyr.env)
		for n := len(lyr.sec.Lines); n > 0 && lyr.sec.Lines[n-1].Text == "" && lyr.sec.Lines[n-1].Chords == nil; n-- {
			lyr.sec.Lines = lyr.sec.Lines[:n-1] // the blank lines that end the file
		}
	}
	endLyrics()
	if len(parts) == 0 {
		return c, nil, ErrNoGrid
	}
	if c.Title == "" {
		c.Title = "Untitled"
		r.note("title_missing", nil, "the file has no {title}: the board is called Untitled")
	}
	if c.Key != "" && !chord.IsKey(c.Key) {
		r.note("key_unknown", map[string]any{"key": c.Key}, "the key %q is not one Tele knows (like G, Bb or F#m): the board has no key", c.Key)
		c.Key = ""
	}
	c.Description = strings.Join(desc, "\n")
	r.credits(&c)
	if err := r.sections(&c, parts); err != nil {
		return board.Content{}, nil, err
	}
	if len(c.Sections) == 0 {
		return c, nil, fmt.Errorf("no grid line holds bars Tele can read: %s", r.noteList[0])
	}
	if shift, ok := r.oneShift(); ok && c.Key != "" {
		// Every chord was moved the same: the key moves with them.
		k := transposed(c.Key, shift)
		if !chord.IsKey(k) {
			k = transposed(c.Key, shift-12) // the same pitch spelled with flats: A# is no key, Bb is
		}
		c.Key = k
	}
	// A sign a file gives without its jump (a lone Coda, a Fine with no D.C. al Fine) cannot be played
	// as written: it is left out and said. Anything else that does not make a playable board is refused.
	// A second sign of a kind is left out first, so that what is left takes a few checks, not one a sign.
	r.oneOfEachSign(&c)
	for {
		err := c.Validate()
		if err == nil {
			return c, r, nil
		}
		left, ok := c.LeaveOutSign(err)
		if !ok {
			return board.Content{}, nil, fmt.Errorf("the file does not make a board Tele can play: %w", err)
		}
		ve := left.Err
		r.note("sign_left_out", map[string]any{"sign": string(left.Mark), "bar": left.Number, "path": ve.Path, "rule": ve.Rule, "ruleId": ve.RuleID, "ruleArgs": ve.RuleArgs}, "the sign %s was left out (%s): %s", left.Mark, ve.Path, ve.Rule)
	}
}

type reader struct {
	line      int
	bars      int // read so far, in all grids
	notes     map[string]bool
	noteList  []string
	codes     []board.NoteCode // codes[i] is noteList[i] as a code and its arguments (docs/api.md)
	transpose int              // semitones {transpose} moves the chords read from here on
	shifts    map[int]bool     // every {transpose} a chord was read under
	grids     int              // grids read so far
	lines     int              // lines of words read so far
}

// note says once what was not taken over as written: in English, and as a code with its arguments.
func (r *reader) note(code string, args map[string]any, format string, a ...any) {
	s := fmt.Sprintf(format, a...)
	if !r.notes[s] {
		r.notes[s] = true
		r.noteList = append(r.noteList, s)
		r.codes = append(r.codes, board.NoteCode{Code: code, Args: args})
	}
}

// flatBar numbers a bar across sections, from 0.
func flatBar(c board.Content, ref board.BarRef) int {
	n := ref.Bar
	for _, s := range c.Sections[:ref.Section] {
		n += len(s.Bars)
	}
	return n
}

// oneOfEachSign keeps the first sign of each kind (segno, coda, Fine, To Coda, a jump), as a chart has
// one of each, and says what it left out.
func (r *reader) oneOfEachSign(c *board.Content) {
	seen := map[string]bool{}
	for s := range c.Sections {
		for b := range c.Sections[s].Bars {
			bar := &c.Sections[s].Bars[b]
			kind := string(bar.Mark)
			if strings.HasPrefix(kind, "dc") || strings.HasPrefix(kind, "ds") {
				kind = "jump"
			}
			if kind == "" {
				continue
			}
			if seen[kind] {
				r.note("sign_repeated", map[string]any{"sign": string(bar.Mark), "bar": flatBar(*c, board.BarRef{Section: s, Bar: b}) + 1, "path": fmt.Sprintf("sections[%d].bars[%d]", s, b)}, "the sign %s was left out (sections[%d].bars[%d]): a chart has one", bar.Mark, s, b)
				bar.Mark = ""
			}
			seen[kind] = true
		}
	}
}

// gridSection is a grid as read: its bars with the bar lines around them.
type gridSection struct {
	label, role, shape string
	time               int // the beats of the {time} in force where the grid starts; 0: none read
	bars               []gridBar
	// What the last bar line read opens for the next bar (it may end the row before).
	pendingStart  bool
	pendingEnding int
}

type gridBar struct {
	cells       []string // chord tokens and "." and "/" and "%"
	repeatStart bool
	repeatEnd   int
	ending      int
	mark        board.Mark
	toCoda      bool // To Coda beside mark (content schema version 3)
	line        int
	transpose   int // semitones {transpose} moved the bar's chords
}

// barLineRE is a grid bar line: | || |. |: :| :|: and voltas |1 :|2 :|2> (the colon is optional).
var barLineRE = regexp.MustCompile(`^(:?)(\|\|?)([:.]?)([1-9]?)(>?)$`)

func isBarLine(t string) bool {
	return t == "|" || t != "" && (t[0] == '|' || t[0] == ':') && barLineRE.MatchString(t)
}

// gridLine reads one row of a grid: its left margin, bars and right margin.
//
// Its cognitive complexity is over the lint gate of 30, and accepted: a reader of ChordPro: one case per
// directive or grid sign, each named by its table tests.
//
//gocognit:ignore
func (r *reader) gridLine(sec *gridSection, line string) error {
	tokens := strings.Fields(line)
	if strings.HasPrefix(tokens[0], "|s") {
		r.note("strum_left_out", map[string]any{"line": line}, "the strum line %q was left out: a board has no strumming", line)
		return nil
	}
	firstBar, lastBar := -1, -1
	for i, t := range tokens {
		if isBarLine(t) {
			if firstBar < 0 {
				firstBar = i
			}
			lastBar = i
		}
	}
	if firstBar < 0 {
		r.note("line_left_out", map[string]any{"line": line}, "the grid line %q has no bar line and was left out", line)
		return nil
	}
	for _, t := range tokens[firstBar : lastBar+1] {
		if isBarLine(t) || t == "." || t == "/" || t == "-" || t == "%" || t == "%%" {
			continue
		}
		for _, sym := range strings.Split(t, "~") {
			if _, ok := chord.Map(transposed(sym, r.transpose)); sym != "" && sym != "." && sym != "/" && !ok {
				r.note("line_left_out", map[string]any{"line": line, "word": sym}, "the grid line %q was left out: %q is not a chord (a root A–G and a quality, like Am7)", line, sym)
				return nil
			}
		}
	}
	left := strings.Join(tokens[:firstBar], " ")
	right := strings.Join(tokens[lastBar+1:], " ")
	start := len(sec.bars)
	var cur *gridBar
	for _, t := range tokens[firstBar : lastBar+1] {
		m := barLineRE.FindStringSubmatch(t)
		if m == nil {
			if cur == nil {
				cur = &gridBar{repeatStart: sec.pendingStart, ending: sec.pendingEnding, line: r.line, transpose: r.transpose}
				sec.pendingStart, sec.pendingEnding = false, 0
			}
			cur.cells = append(cur.cells, t)
			continue
		}
		// A bar line: it closes the bar before it and opens the next.
		if cur != nil && r.bars == board.MaxBars {
			return &Error{r.line, fmt.Sprintf("the grids hold more than %d bars, more than a board holds", board.MaxBars)}
		}
		if cur != nil {
			r.bars++
			if m[1] == ":" {
				cur.repeatEnd = 2
			}
			sec.bars = append(sec.bars, *cur)
			cur = nil
		} else if m[1] == ":" && len(sec.bars) > 0 {
			sec.bars[len(sec.bars)-1].repeatEnd = 2 // :| at the start of a row closes the row before
		}
		if m[3] == ":" {
			sec.pendingStart = true
		}
		if m[4] != "" {
			sec.pendingEnding = int(m[4][0] - '0')
		}
	}
	if cur != nil {
		sec.bars = append(sec.bars, *cur) // cells after the last bar line are its right margin
		r.bars++
	}
	if len(sec.bars) == start {
		if left != "" || right != "" {
			r.note("margin_left_out", map[string]any{"text": strings.TrimSpace(left + " " + right)}, "the margin text %q was left out", strings.TrimSpace(left+" "+right))
		}
		return nil
	}
	if left != "" {
		switch strings.ToLower(left) {
		case "segno":
			sec.bars[start].mark = board.MarkSegno
		case "coda":
			sec.bars[start].mark = board.MarkCoda
		default:
			r.note("margin_left_out", map[string]any{"text": left}, "the margin text %q was left out", left)
		}
	}
	if right != "" {
		last := &sec.bars[len(sec.bars)-1]
		rest := right
		if f := strings.Fields(rest); len(f) > 0 && len(f[0]) == 2 && (f[0][0] == 'x' || f[0][0] == 'X') && f[0][1] >= '2' && f[0][1] <= '8' && last.repeatEnd != 0 && last.ending == 0 {
			last.repeatEnd = int(f[0][1] - '0')
			rest = strings.TrimSpace(strings.TrimPrefix(rest, f[0]))
		}
		if before, ok := cutSuffixFold(rest, " "+rightSign[board.MarkToCoda]); ok && before != "" {
			last.toCoda, rest = true, before // To Coda beside another sign (version 3)
		}
		if rest != "" {
			found := false
			for mark, words := range rightSign {
				if strings.EqualFold(rest, words) {
					last.mark, found = mark, true
				}
			}
			if !found {
				r.note("margin_left_out", map[string]any{"text": rest}, "the margin text %q was left out", rest)
			}
		}
	}
	return nil
}

// sectionBars turns a grid's bars into board bars: beats from the cells, chords mapped onto the
// catalogue, %% (repeat two bars) written out as the chords of the two bars it repeats.
//
// Its cognitive complexity is over the lint gate of 30, and accepted: a reader of ChordPro: one case per
// directive or grid sign, each named by its table tests.
//
//gocognit:ignore
func (r *reader) sectionBars(s *gridSection, boardBeats int) ([]board.Bar, error) {
	beatsPerBar := cmp.Or(s.time, boardBeats) // this grid's meter: a later {time} changes it
	perBar := cellsPerBar(s, beatsPerBar)
	r.voltas(s)
	var out []board.Bar
	ending := 0         // the ending being read; its end repeat sends the band back for pass ending+1
	var second []string // after %%: the chords of the blank bar that follows it
	for _, g := range s.bars {
		if g.repeatStart {
			ending = 0
		}
		if g.ending != 0 {
			ending = g.ending
		}
		if g.repeatEnd != 0 && ending != 0 {
			g.repeatEnd = ending + 1
		}
		r.line = g.line
		bar := board.Bar{RepeatStart: g.repeatStart, RepeatEnd: g.repeatEnd, Ending: g.ending, Mark: g.mark, ToCoda: g.toCoda}
		double := false
		var onsets []int // the cell each chord starts on
		shared := false  // a cell holds several chords (C~G): they share the bar evenly
		for i, cell := range g.cells {
			switch cell {
			case ".", "/", "-":
				continue
			case "%":
				bar.Simile = true
				continue
			case "%%":
				double = true
				continue
			}
			shared = shared || strings.Count(strings.Trim(cell, "~"), "~") > 0
			for _, sym := range strings.Split(cell, "~") {
				if sym == "" || sym == "." || sym == "/" {
					continue
				}
				onsets = append(onsets, i)
				r.shifts[g.transpose] = true
				m, ok := chord.Map(transposed(sym, g.transpose))
				if !ok {
					return nil, &Error{g.line, fmt.Sprintf("%q is not a chord (a root A–G and a quality, like Am7)", sym)}
				}
				if !m.Exact {
					r.note("chord_nearest", map[string]any{"from": sym, "to": m.Symbol}, "%s became %s, the nearest chord in Tele's catalogue", sym, m.Symbol)
				}
				bar.Chords = append(bar.Chords, m.Symbol)
			}
		}
		if bar.Simile && len(bar.Chords) > 0 {
			bar.Simile = false
			r.note("simile_with_chords", map[string]any{"line": g.line}, "a %% bar with chords in it was read as its chords")
		}
		if len(bar.Chords) > board.MaxChordsPerBar {
			r.note("bar_chords_cut", map[string]any{"chords": len(bar.Chords)}, "a bar with %d chords kept the first four", len(bar.Chords))
			bar.Chords = bar.Chords[:board.MaxChordsPerBar]
			shared = true
		}
		switch {
		case double && len(out) >= 2:
			// %% repeats the two bars before: this bar plays the first of them, the next (blank) bar the second.
			bar.Chords = chordsAt(out, len(out)-2)
			second = chordsAt(out, len(out)-1)
			r.note("two_bar_repeat", nil, "%%%% (repeat two bars) was written out as the chords of those bars")
		case double:
			return nil, &Error{g.line, "%% repeats the two bars before it, and there are not two bars before it"}
		case !bar.Simile && len(bar.Chords) == 0 && second != nil:
			bar.Chords = second
		case !bar.Simile && len(bar.Chords) == 0 && len(out) > 0:
			bar.Simile = true // an empty bar goes on with the chords before it
		case !bar.Simile && len(bar.Chords) == 0:
			bar.Chords = []string{board.NoChord}
			r.note("first_bar_nc", nil, "the first bar has no chord: it is N.C.")
		}
		if !double {
			second = nil
		}
		// The cells divide the bar: a bar of the meter has perBar cells, one with another count (but
		// more than one) is a bar in another meter when its cells make whole beats (Tele writes one cell
		// a beat), and a lone cell is a whole bar of the meter.
		n := len(g.cells)
		beats := beatsPerBar
		if b := n * beatsPerBar / max(perBar, 1); n > 1 && n != perBar && n*beatsPerBar%max(perBar, 1) == 0 && b >= board.MinBarBeats && b <= board.MaxBarBeats {
			beats = b
		}
		if beats != boardBeats && beats >= board.MinBarBeats && beats <= board.MaxBarBeats {
			bar.Beats = beats // a bar in another meter than the board's first
		}
		if !shared && !bar.Simile && len(bar.Chords) > 1 {
			bar.Durations = r.durations(onsets, n, beats)
		}
		out = append(out, bar)
	}
	return out, nil
}

// oneShift is the semitones every chord (of the grids and the lines) was moved, if they were all moved
// the same.
func (r *reader) oneShift() (int, bool) {
	if len(r.shifts) != 1 {
		return 0, false
	}
	for shift := range r.shifts {
		return shift, shift != 0
	}
	return 0, false
}

// voltas reads endings written without repeat signs (|1 … |2 …, as ChordPro lets a grid write them) as
// the repeat they stand for: it starts after the last end repeat before ending 1 (or at the grid's first
// bar) and ends on ending 1's last bar. An ending right after a D.C. or D.S. is the one the jump leads to
// (content schema version 3): the ending before it does not go back.
func (r *reader) voltas(s *gridSection) {
	open, after, ending := false, 0, 0
	for i := range s.bars {
		g := &s.bars[i]
		if g.repeatStart {
			open = true
		}
		jumpBefore := i > 0 && (s.bars[i-1].mark == board.MarkDC || s.bars[i-1].mark == board.MarkDS)
		if g.ending > 1 && i > 0 && ending == g.ending-1 && s.bars[i-1].repeatEnd == 0 && !jumpBefore {
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
			open, after, ending = false, i+1, 0
			if i+1 < len(s.bars) && s.bars[i+1].ending > 1 {
				open = true // the next ending belongs to this repeat
			}
		}
	}
}

var sharpNames = [12]string{"C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"}
var flatNames = [12]string{"C", "Db", "D", "Eb", "E", "F", "Gb", "G", "Ab", "A", "Bb", "B"}

// transposed is sym moved n semitones: its root and its bass, spelled with flats when the root was
// written with one or the move is down, else with sharps. A symbol without a root comes back as it was.
func transposed(sym string, n int) string {
	if n == 0 {
		return sym
	}
	root := func(s string) (string, string) {
		if s == "" || s[0] < 'A' || s[0] > 'G' {
			return "", s
		}
		if len(s) > 1 && (s[1] == 'b' || s[1] == '#') {
			return s[:2], s[2:]
		}
		return s[:1], s[1:]
	}
	move := func(name string) string {
		p, ok := chord.RootPitch(name)
		if !ok {
			return name
		}
		p = ((p+n)%12 + 12) % 12
		if strings.HasSuffix(name, "b") || n < 0 && !strings.HasSuffix(name, "#") {
			return flatNames[p]
		}
		return sharpNames[p]
	}
	name, rest := root(sym)
	if name == "" {
		return sym
	}
	quality, bass, slash := strings.Cut(rest, "/")
	out := move(name) + quality
	if slash {
		if b, tail := root(bass); b != "" && tail == "" {
			bass = move(b)
		}
		out += "/" + bass
	}
	return out
}

// chordsAt returns a copy of the chords heard in bars[i], following % back.
func chordsAt(bars []board.Bar, i int) []string {
	for i > 0 && bars[i].Simile {
		i--
	}
	return append([]string(nil), bars[i].Chords...)
}

// cellsPerBar is how many cells a bar of the board's meter has in this grid: the most common count of
// cells in a bar, the meter's beats first among counts as common. (The grid's shape only lays the cells out on the page: a 4/4 grid of shape 4x8 with
// four cells a bar has 4-beat bars.)
func cellsPerBar(s *gridSection, beatsPerBar int) int {
	count := map[int]int{}
	best, bestN := 0, 0
	for _, b := range s.bars {
		count[len(b.cells)]++
		if c := count[len(b.cells)]; c > bestN || c == bestN && best != beatsPerBar && (len(b.cells) < best || len(b.cells) == beatsPerBar) {
			best, bestN = len(b.cells), c
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
		if s[i] == 'u' && i+1 < len(s) && s[i+1] == '{' {
			// \u{10FFFF} is the longest: looking no further keeps a line of unclosed \u{ linear.
			if end := strings.IndexByte(s[i:min(len(s), i+10)], '}'); end > 0 {
				if r, err := strconv.ParseUint(s[i+2:i+end], 16, 32); err == nil && utf8.ValidRune(rune(r)) {
					b.WriteRune(rune(r))
					i += end
					continue
				}
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
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
	if i := strings.Index(rest, `="`); i > 0 && !strings.Contains(rest[:i], " ") || strings.Contains(rest, `="`) && !colon {
		for rest != "" {
			key, after, ok := strings.Cut(rest, `="`)
			if !ok {
				break
			}
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
			attrs[strings.ToLower(strings.TrimSpace(key))] = unescape(val.String())
			if i >= len(after) {
				break
			}
			rest = strings.TrimSpace(after[i+1:])
		}
		return name, "", attrs
	}
	return name, rest, attrs
}

// cutSuffixFold is strings.CutSuffix with the suffix matched regardless of case.
func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return strings.TrimSpace(s[:len(s)-len(suffix)]), true
	}
	return s, false
}
