// Package ireal reads iReal Pro charts: irealb:// and irealbook:// links, alone or in the HTML of a
// playlist, into one board per song, with notes on what could not be taken over as written; and writes a
// board as an irealb:// link (write.go).
//
// The format, as open-source readers describe it: the link is percent-encoded; songs are separated by
// "===" (a playlist's name comes last); a song's fields are separated by "=". irealbook:// songs are
// Title=Composer=Style=Key=n=Music; irealb:// songs are Title=Composer=…=Style=Key=…=Music=…=Tempo=…,
// with the music prefixed by "1r34LbKcu7" and scrambled in blocks of 50 characters.
//
// Music is a string of cells and signs: | bar line, [ ] double bar lines, { } repeat, Z final bar,
// T44 time (T12 is 12/8), *A a section (*i intro, *V verse), N1 N2 N3 endings, S segno, Q coda,
// <D.S. al Coda> and other text (<3x>: the repeat is played three times), x repeat one bar (%), r repeat
// the two bars before (written out), n N.C., p a slash (the chord goes on), W/B (the chord before, over
// B), spaces and commas between cells, chords like C^7 D-7 G7b9 Bh7 Eo7 C7sus/E, (…) an alternate chord
// (left out).
package ireal

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"tele/board"
	"tele/chord"
)

// Song is one song of a link: its board content, or why it could not be read, and the notes on
// what was not taken over as written. It is a board.Chart, as the import route takes it.
type Song = board.Chart

// MaxBytes bounds the input Parse reads.
const MaxBytes = 4 << 20

// ErrNoLink is Parse's refusal of input without an iReal Pro link.
var ErrNoLink = errors.New("no irealb:// or irealbook:// link in the input: paste the link iReal Pro shares, or the HTML of a playlist")

// linkRE finds links. An apostrophe belongs to the link (iReal Pro leaves it unescaped, as
// encodeURIComponent does: "Don't Get Around Much Anymore"), unless the link opened with one: the
// value of a single-quoted attribute, which links closes at its quote.
var linkRE = regexp.MustCompile(`('?)(irealb(?:ook)?)://([^"<>\s]+)`)

// links returns each link's scheme and its still-encoded text.
func links(data string) [][2]string {
	var out [][2]string
	for _, m := range linkRE.FindAllStringSubmatch(data, -1) {
		text := m[3]
		if m[1] == "'" {
			text, _, _ = strings.Cut(text, "'")
		}
		out = append(out, [2]string{m[2], text})
	}
	return out
}

// Parse reads every song of every iReal Pro link in data.
func Parse(data []byte) ([]Song, error) {
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("the input is %d bytes; at most %d", len(data), MaxBytes)
	}
	found := links(string(data))
	if len(found) == 0 {
		return nil, ErrNoLink
	}
	var songs []Song
	for _, l := range found {
		text, err := url.PathUnescape(l[1])
		if err != nil {
			return nil, fmt.Errorf("the %s:// link is not percent-encoded correctly: %v", l[0], err)
		}
		parts := strings.Split(text, "===")
		if len(parts) > 1 {
			parts = parts[:len(parts)-1] // the playlist's name
		}
		for _, p := range parts {
			if strings.TrimSpace(p) == "" {
				continue
			}
			songs = append(songs, readSong(p, l[0] == "irealb"))
		}
	}
	return songs, nil
}

const musicPrefix = "1r34LbKcu7"

// unscramble undoes the irealb scrambling (swapBlocks), then reads the shorthands iReal Pro writes in
// scrambled music: Kcl a % bar, LZ a bar line, XyQ empty space.
func unscramble(s string) string {
	return strings.NewReplacer("Kcl", "| x", "LZ", " |", "XyQ", "   ").Replace(swapBlocks(s))
}

// swapBlocks is the irealb scrambling, which is its own inverse: in every whole block of 50 characters
// (but a last one followed by fewer than two characters) the first five swap with the last five,
// mirrored, and characters 10–23 with 26–39.
func swapBlocks(s string) string {
	var out strings.Builder
	for len(s) > 51 {
		block := []byte(s[:50])
		s = s[50:]
		mirrored := append([]byte(nil), block...)
		for i := 0; i < 5; i++ {
			mirrored[i], mirrored[49-i] = block[49-i], block[i]
		}
		for i := 10; i < 24; i++ {
			mirrored[i], mirrored[49-i] = block[49-i], block[i]
		}
		out.Write(mirrored)
	}
	out.WriteString(s)
	return out.String()
}

func readSong(text string, scrambled bool) Song {
	f := strings.Split(text, "=")
	var title, key, music string
	tempo := 0
	switch {
	case scrambled && len(f) >= 7:
		title, key, music = f[0], f[4], f[6]
		if len(f) >= 9 {
			tempo, _ = strconv.Atoi(f[8])
		}
	case !scrambled && len(f) >= 6:
		title, key, music = f[0], f[3], f[5]
	default:
		return Song{Title: f[0], Err: fmt.Errorf("the song %q has %d fields, not the ones iReal Pro writes", f[0], len(f))}
	}
	if scrambled {
		if !strings.HasPrefix(music, musicPrefix) {
			return Song{Title: title, Err: fmt.Errorf("the music of %q does not start as iReal Pro's does", title)}
		}
		music = unscramble(music[len(musicPrefix):])
	}
	r := &songReader{notes: map[string]bool{}}
	c := board.Content{Title: strings.TrimSpace(title), Tempo: 120, BeatsPerBar: 4}
	if tempo >= board.MinTempo && tempo <= board.MaxTempo {
		c.Tempo = tempo
	}
	if c.Title == "" {
		c.Title = "Untitled"
	}
	if k := strings.Replace(key, "-", "m", 1); chord.IsKey(k) {
		c.Key = k
	} else if key != "" {
		r.note("the key %q is not one Tele knows: the board has no key", key)
	}
	if err := r.music(&c, music); err != nil {
		return Song{Title: c.Title, Err: err}
	}
	for range board.MaxBars {
		err := c.Validate()
		if err == nil {
			return Song{Title: c.Title, Content: c, Notes: r.list}
		}
		ve, ok := errors.AsType[*board.ValidationError](err)
		if !ok || !strings.HasSuffix(ve.Path, ".mark") {
			return Song{Title: c.Title, Err: fmt.Errorf("%q does not make a board Tele can play: %w", c.Title, err)}
		}
		var ref board.BarRef
		fmt.Sscanf(ve.Path, "sections[%d].bars[%d]", &ref.Section, &ref.Bar)
		bar := &c.Sections[ref.Section].Bars[ref.Bar]
		r.note("the sign %s was left out (%s): %s", bar.Mark, ve.Path, ve.Rule)
		bar.Mark = ""
	}
	return Song{Title: c.Title, Err: errors.New("the song does not make a board Tele can play")}
}

type songReader struct {
	notes map[string]bool
	list  []string
}

func (r *songReader) note(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if !r.notes[s] {
		r.notes[s] = true
		r.list = append(r.list, s)
	}
}

var (
	chordRE = regexp.MustCompile(`^[A-GW][#b]?(?:[-+^ho0-9#b]|sus|alt|add)*(/[A-G][#b]?)?`)
	textRE  = regexp.MustCompile(`^<[^>]*>`)
	timesRE = regexp.MustCompile(`^(?:\*\d\d)?\s*([2-8])\s*[xX]\s*$`) // <3x>: the repeat is played three times
)

// signText maps staff text onto marks.
var signText = map[string]board.Mark{
	"d.c. al coda": board.MarkDCAlCoda, "d.c. al fine": board.MarkDCAlFine, "d.s. al coda": board.MarkDSAlCoda,
	"d.s. al fine": board.MarkDSAlFine, "d.c.": board.MarkDC, "d.s.": board.MarkDS, "fine": board.MarkFine,
}

// music reads the music string into sections of bars.
func (r *songReader) music(c *board.Content, m string) error {
	var sec *board.Section
	var bar board.Bar
	var cells []string // this bar's cells: chord symbols, "" for a beat that goes on
	barBeats := 4
	meterRead := false // the first time signature is the board's
	times := 0         // from <Nx>: the times the next end repeat is played
	newSection := func(label string, role board.Role) {
		c.Sections = append(c.Sections, board.Section{Label: label, Role: role})
		sec = &c.Sections[len(c.Sections)-1]
	}
	endBar := func(repeatEnd bool) {
		if len(cells) == 0 && !bar.Simile {
			if repeatEnd && sec != nil && len(sec.Bars) > 0 {
				sec.Bars[len(sec.Bars)-1].RepeatEnd = max(2, times)
				times = 0
			}
			return
		}
		if sec == nil {
			newSection("", "")
		}
		for _, ch := range cells {
			if ch != "" {
				bar.Chords = append(bar.Chords, ch)
			}
		}
		switch {
		case bar.Simile && len(bar.Chords) > 0:
			bar.Simile = false
		case !bar.Simile && len(bar.Chords) == 0:
			bar.Simile = true
		}
		if len(bar.Chords) > board.MaxChordsPerBar {
			r.note("a bar with %d chords kept the first four", len(bar.Chords))
			bar.Chords = bar.Chords[:board.MaxChordsPerBar]
		}
		if barBeats != c.BeatsPerBar {
			bar.Beats = barBeats
		}
		if repeatEnd {
			bar.RepeatEnd = max(2, times)
			times = 0
		}
		sec.Bars = append(sec.Bars, bar)
		bar, cells = board.Bar{}, nil
	}
	first := true
	lastChord := "" // the last chord written with its root, for W/B
	for len(m) > 0 {
		switch {
		case strings.HasPrefix(m, "*"):
			if len(m) < 2 {
				m = ""
				continue
			}
			endBar(false)
			newSection(markSection(m[1:2]))
			m = m[2:]
		case strings.HasPrefix(m, "T") && len(m) >= 3 && m[1] >= '0' && m[1] <= '9':
			n, _ := strconv.Atoi(m[1:3])
			beats := n / 10
			if n == 12 {
				beats = 12
			}
			if first && !meterRead {
				c.BeatsPerBar = beats
			}
			meterRead = true
			barBeats = beats
			m = m[3:]
		case m[0] == '{':
			endBar(false)
			bar.RepeatStart = true
			m = m[1:]
		case m[0] == '}':
			endBar(true)
			m = m[1:]
		case m[0] == '|' || m[0] == '[' || m[0] == ']' || m[0] == 'Z':
			endBar(false)
			m = m[1:]
		case strings.HasPrefix(m, "N") && len(m) >= 2 && m[1] >= '0' && m[1] <= '9':
			bar.Ending = int(m[1] - '0') // N0 (an ending without a number) reads as none
			m = m[2:]
		case m[0] == 'S':
			bar.Mark = board.MarkSegno
			m = m[1:]
		case m[0] == 'Q':
			if len(cells) > 0 {
				bar.Mark = board.MarkToCoda // Q after the bar's chords: leave for the coda here
			} else {
				bar.Mark = board.MarkCoda
			}
			m = m[1:]
		case m[0] == '<':
			t := textRE.FindString(m)
			if t == "" {
				m = m[1:]
				continue
			}
			words := strings.ToLower(strings.TrimSpace(strings.Trim(t, "<>*0123456789")))
			if n := timesRE.FindStringSubmatch(t[1 : len(t)-1]); n != nil {
				times = int(n[1][0] - '0')
			} else if mark, ok := signText[words]; ok {
				bar.Mark = mark
			} else if words != "" {
				r.note("the text %q was left out", strings.Trim(t, "<>"))
			}
			m = m[len(t):]
		case m[0] == 'x':
			bar.Simile = true
			m = m[1:]
		case m[0] == 'r':
			// r repeats the two bars before it; two % bars would play the second of them twice.
			endBar(false)
			prev := lastTwoBars(c)
			if prev == nil {
				return errors.New("a two-bar repeat (r) has fewer than two bars of chords before it")
			}
			r.note("a two-bar repeat (r) was written out as the two bars before it")
			for _, chords := range prev {
				cells = append([]string(nil), chords...)
				endBar(false)
			}
			m = m[1:]
		case m[0] == 'n':
			cells = append(cells, board.NoChord)
			m = m[1:]
		case m[0] == 'p':
			cells = append(cells, "")
			m = m[1:]
		case m[0] == '(':
			end := strings.IndexByte(m, ')')
			if end < 0 {
				end = len(m) - 1
			}
			r.note("alternate chords in parentheses were left out")
			m = m[end+1:]
		case m[0] >= 'A' && m[0] <= 'G' || m[0] == 'W':
			sym := chordRE.FindString(m)
			if sym == "" {
				sym = m[:1]
			}
			m = m[len(sym):]
			if sym[0] == 'W' {
				// An invisible root: the chord before goes on; W/B puts it over the bass B.
				base, _, _ := strings.Cut(lastChord, "/")
				if !strings.HasPrefix(sym, "W/") || base == "" {
					continue
				}
				sym = base + sym[1:]
			} else {
				lastChord = sym
			}
			mapped, ok := chord.Map(sym)
			if !ok {
				return fmt.Errorf("%q is not a chord", sym)
			}
			if !mapped.Exact {
				r.note("%s became %s, the nearest chord in Tele's catalogue", sym, mapped.Symbol)
			}
			cells = append(cells, mapped.Symbol)
			first = false
		default:
			m = m[1:] // spaces, commas, f (fermata), Y (space), s and l (chord size), U, …
		}
	}
	endBar(false)
	if len(c.Sections) == 0 {
		return errors.New("the song has no bars")
	}
	// Sections without bars (a label at the very end) are dropped; endings numbered as iReal Pro does.
	out := c.Sections[:0]
	for _, s := range c.Sections {
		if len(s.Bars) > 0 {
			out = append(out, s)
		}
	}
	c.Sections = out
	fixEndings(c)
	return nil
}

// lastTwoBars is the chords of the last two bars read so far, a % bar standing for the chords it repeats;
// nil if there are fewer than two.
func lastTwoBars(c *board.Content) [][]string {
	var bars []board.Bar
	for _, s := range c.Sections {
		bars = append(bars, s.Bars...)
	}
	if len(bars) < 2 {
		return nil
	}
	chordsAt := func(i int) []string {
		for ; i >= 0 && bars[i].Simile; i-- {
		}
		if i < 0 {
			return nil
		}
		return bars[i].Chords
	}
	a, b := chordsAt(len(bars)-2), chordsAt(len(bars)-1)
	if a == nil || b == nil {
		return nil
	}
	return [][]string{a, b}
}

// fixEndings gives each end repeat that closes an ending the count the next ending's number implies.
func fixEndings(c *board.Content) {
	ending := 0
	for si := range c.Sections {
		for bi := range c.Sections[si].Bars {
			b := &c.Sections[si].Bars[bi]
			if b.RepeatStart {
				ending = 0
			}
			if b.Ending != 0 {
				ending = b.Ending
			}
			if b.RepeatEnd != 0 && ending != 0 {
				b.RepeatEnd = ending + 1
			}
		}
	}
}
