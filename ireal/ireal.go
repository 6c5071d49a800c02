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
// T44 time (T12 is 12/8), *A a section (*i intro, *V verse), N1 N2 N3 endings, S segno, Q To Coda (the
// first) and coda (the last), <D.S. al Coda> and other text (<3x> or <x3>: the repeat is played three
// times), x repeat one bar (%), r repeat the two bars before (written out), n N.C., p a slash (the chord
// goes on), W/B (the chord before, over B), spaces and commas between cells, chords like C^7 D-7 G7b9
// Bh7 Eo7 C7sus/E (H7 and C/H: H is the German B), chord text written by hand after a root (A*m*), (…) an
// alternate chord (left out). Any other sign is not read, and a note says so with its bar.
// music.go reads it token by token; bars.go puts the bars together.
package ireal

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"

	"tele/board"
	"tele/chord"
	"tele/utf16count"
)

// Song is one song of a link: its board content, or why it could not be read, and the notes on
// what was not taken over as written. It is a board.Chart, as the import route takes it.
type Song = board.Chart

// MaxBytes bounds the input Parse reads.
const MaxBytes = 4 << 20

// MaxSongs bounds the songs of one input: more than the largest real books hold (about 1,500), few
// enough that reading them all stays quick.
const MaxSongs = 4096

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
	return Read(context.Background(), data)
}

// Read is Parse that stops, with the context's error, once ctx ends. Its cost is linear in the input's
// size whatever the input holds (work.go); an input that would cost more is ErrTooCostly.
func Read(ctx context.Context, data []byte) ([]Song, error) {
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("the input is %d bytes; at most %d", len(data), MaxBytes)
	}
	return read(newWork(ctx, len(data)), data)
}

func read(w *work, data []byte) ([]Song, error) {
	if err := w.add(len(data)); err != nil {
		return nil, err
	}
	found := links(string(data))
	if len(found) == 0 {
		return nil, ErrNoLink
	}
	var songs []Song
	for _, l := range found {
		if err := w.add(linkCost + 2*len(l[1])); err != nil {
			return nil, err
		}
		text, err := url.PathUnescape(l[1])
		if err != nil {
			return nil, fmt.Errorf("the %s:// link is not percent-encoded correctly: %v", l[0], err)
		}
		parts := strings.Split(text, "===")
		if len(parts) > 1 {
			parts = parts[:len(parts)-1] // the playlist's name
		}
		for _, p := range parts {
			if err := w.add(songCost); err != nil {
				return nil, err
			}
			if strings.TrimSpace(p) == "" {
				continue
			}
			if len(songs) == MaxSongs {
				return nil, fmt.Errorf("the input holds more than %d songs: import the playlist in parts", MaxSongs)
			}
			s, err := readSong(w, p, l[0] == "irealb")
			if err != nil {
				return nil, err
			}
			songs = append(songs, s)
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
// mirrored, and characters 10–23 with 26–39. Characters are UTF-16 code units, as in iReal Pro and in
// the JavaScript readers: music holding ♪ or an emoji in its text scrambles as theirs does.
func swapBlocks(s string) string {
	if isASCII(s) {
		b := []byte(s)
		swapUnits(b)
		return string(b)
	}
	u := utf16.Encode([]rune(s))
	swapUnits(u)
	return string(utf16.Decode(u))
}

func swapUnits[T byte | uint16](s []T) {
	for ; len(s) > 51; s = s[50:] {
		for i := 0; i < 5; i++ {
			s[i], s[49-i] = s[49-i], s[i]
		}
		for i := 10; i < 24; i++ {
			s[i], s[49-i] = s[49-i], s[i]
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// readSong reads one song. A song that cannot be read is a Song with Err; the error is for a reading
// that has to stop (its context ended, or it costs too much).
func readSong(w *work, text string, scrambled bool) (Song, error) {
	if err := w.add(len(text)); err != nil {
		return Song{}, err
	}
	f := strings.Split(text, "=")
	var title, composer, style, key, music string
	tempo := 0
	switch {
	case scrambled && len(f) >= 7:
		title, composer, style, key, music = f[0], f[1], f[3], f[4], f[6]
		if len(f) >= 9 {
			tempo, _ = strconv.Atoi(f[8])
		}
	case !scrambled && len(f) >= 6:
		title, composer, style, key, music = f[0], f[1], f[2], f[3], f[5]
	default:
		return Song{Title: f[0], Err: fmt.Errorf("the song %q has %d fields, not the ones iReal Pro writes", f[0], len(f))}, nil
	}
	if scrambled {
		if !strings.HasPrefix(music, musicPrefix) {
			return Song{Title: title, Err: fmt.Errorf("the music of %q does not start as iReal Pro's does", title)}, nil
		}
		if err := w.add(3 * len(music)); err != nil {
			return Song{}, err
		}
		music = unscramble(music[len(musicPrefix):])
	}
	r := &songReader{w: w}
	c := board.Content{Title: strings.TrimSpace(title), Tempo: 120, BeatsPerBar: 4}
	if tempo >= board.MinTempo && tempo <= board.MaxTempo {
		c.Tempo = tempo
	}
	if c.Title == "" {
		c.Title = "Untitled"
	}
	c.Composer, c.Style = credits(composer, style)
	if k := strings.Replace(key, "-", "m", 1); chord.IsKey(k) {
		c.Key = k
	} else if key != "" {
		r.note("key_unknown", "the key %q is not one Tele knows: the board has no key", "key", key)
	}
	if err := r.music(&c, music); err != nil {
		if stopped(err) {
			return Song{}, err
		}
		return Song{Title: c.Title, Err: err}, nil
	}
	r.oneOfEachSign(&c)
	r.jumpsAsMusiciansRead(&c)
	r.jumpsWhereIRealPlaysThem(&c)
	r.strayEndings(&c)
	r.repeatsAsMusiciansRead(&c)
	// What is left can break a rule only where a sign has no jump, or stands where the jump cannot use
	// it: each such sign is left out, at most once per kind of sign.
	for {
		if err := w.add(validateCost(c)); err != nil {
			return Song{}, err
		}
		err := c.Validate()
		if err == nil {
			return Song{Title: c.Title, Content: c, Notes: r.notes.Texts(), Codes: r.notes.Codes()}, nil
		}
		left, ok := c.LeaveOutSign(err)
		if !ok {
			return Song{Title: c.Title, Err: fmt.Errorf("%q does not make a board Tele can play: %w", c.Title, err)}, nil
		}
		ve := left.Err
		r.notes.Add(board.NoteCode{Code: "sign_left_out", Args: map[string]any{"sign": string(left.Mark), "bar": left.Number,
			"path": ve.Path, "rule": ve.Rule, "ruleId": ve.RuleID, "ruleArgs": ve.RuleArgs}},
			fmt.Sprintf("the sign %s was left out (%s): %s", left.Mark, ve.Path, ve.Rule))
	}
}

// validateCost is the work of checking a content: about its encoded size.
func validateCost(c board.Content) int {
	n := 64
	for _, s := range c.Sections {
		n += 16 * len(s.Bars)
	}
	return n
}

// stopped reports whether err ends the whole reading rather than one song.
func stopped(err error) bool {
	return errors.Is(err, ErrTooCostly) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

type songReader struct {
	w     *work
	notes board.Notes
	ends  []int // the bars iReal Pro's player ends at (U), for an al Fine jump with no Fine
	cues  []int // the bars of the jumps read from "D.C. on cue", kept only as a chart's one jump
}

// note records a note once: its code, its English words (format, filled with the values of the name,
// value pairs in order) and its arguments (the pairs).
func (r *songReader) note(code, format string, pairs ...any) {
	args := map[string]any{}
	var values []any
	for i := 0; i+1 < len(pairs); i += 2 {
		args[pairs[i].(string)] = pairs[i+1]
		values = append(values, pairs[i+1])
	}
	r.notes.Add(board.NoteCode{Code: code, Args: args}, fmt.Sprintf(format, values...))
}

var (
	chordRE = regexp.MustCompile(`^[A-HW][#b]?(?:[-+^ho0-9#b]|sus|alt|add)*(/[A-H][#b]?)?`)            // H: the German B
	timesRE = regexp.MustCompile(`^(?:\*\d\d)?\s*(?:([1-9]\d{0,2})\s*[xX]|[xX]\s*([1-9]\d{0,2}))\s*$`) // <3x>, <x3>: the repeat is played three times
	// alEndingRE is a D.C. or D.S. to an ending: "D.C. al 2nd ending", "D.S. al 2nd End.".
	alEndingRE = regexp.MustCompile(`^d\.([cs])\. al ([1-4])(?:st|nd|rd|th) end(?:ing|\.)?$`)
)

// maxText bounds staff text (<…>); a < without its > within it is no text.
const maxText = 256

// signText maps staff text onto marks.
var signText = map[string]board.Mark{
	"d.c. al coda": board.MarkDCAlCoda, "d.c. al fine": board.MarkDCAlFine, "d.s. al coda": board.MarkDSAlCoda,
	"d.s. al fine": board.MarkDSAlFine, "d.c.": board.MarkDC, "d.s.": board.MarkDS, "fine": board.MarkFine,
}

// textSign reads staff text as a mark: one signText names, also after words that say when ("after solos,
// D.C. al Fine", "After solos D.C. al fine", "Solos on CD, after solos D.S. al Coda"). al is the ending
// of a "D.C. al 2nd ending" (the mark is then its al Fine jump).
func textSign(words string) (mark board.Mark, al int, ok bool) {
	if m, ok := signText[words]; ok {
		return m, 0, true
	}
	if i := max(strings.LastIndex(words, "d.c."), strings.LastIndex(words, "d.s.")); i > 0 && words[i-1] == ' ' {
		if m, al, ok := textSign(words[i:]); ok && m != board.MarkFine {
			return m, al, true
		}
	}
	if m := alEndingRE.FindStringSubmatch(words); m != nil {
		mark = board.MarkDCAlFine
		if m[1] == "s" {
			mark = board.MarkDSAlFine
		}
		return mark, int(m[2][0] - '0'), true
	}
	return "", 0, false
}

// sectionLabel reads staff text t (<…>) before the first chord of a section marked with a letter as
// the section's full label: text whose letter is that mark ("Pre-Chorus" beside *P), as Write puts it.
func sectionLabel(sec *board.Section, cells []string, t string) (string, bool) {
	if sec == nil || len(sec.Bars) > 0 || len(cells) > 0 || sec.Label == "" {
		return "", false
	}
	label := strings.TrimSpace(t[1 : len(t)-1])
	if !labelText(label) || sectionMark(label) != sectionMark(sec.Label) || utf16count.Of(label) > board.MaxLabelUnits {
		return "", false
	}
	return label, true
}

// qSign is a Q read in the music: the bar it was read in (its flat index once written) and whether that
// bar had chords (or was a % bar) before it.
type qSign struct {
	at      int
	content bool
}

// alEnding is a "D.C./D.S. al Nth ending" read: the jump's bar and the ending.
type alEnding struct {
	at, ending int
}

// chordCells lists the cells of a bar that start a chord.
func chordCells(cells []string) []int {
	var out []int
	for i, c := range cells {
		if c != "" {
			out = append(out, i)
		}
	}
	return out
}

// evenCells reports whether a bar's chords share it evenly as written: each chord on the same number of
// cells (a p slash is a cell the chord before goes on over), the first on the first cell.
func evenCells(cells []string) bool {
	span, last := 0, -1
	for i, c := range cells {
		if c == "" {
			continue
		}
		if last < 0 && i > 0 || last >= 0 && span != 0 && i-last != span {
			return false
		}
		if last >= 0 {
			span = i - last
		}
		last = i
	}
	return last < 0 || span == 0 || len(cells)-last == span
}

// cellWords writes a bar's cells as a musician reads them: chords, and / for a slash.
func cellWords(cells []string) string {
	words := make([]string, len(cells))
	for i, c := range cells {
		words[i] = cmp.Or(c, "/")
	}
	return strings.Join(words, " ")
}

// chord maps a chord symbol onto the catalogue, with a note when it is not the same chord.
func (r *songReader) chord(sym string) (chord.Mapped, error) {
	mapped, ok := chord.Map(sym)
	if !ok {
		return mapped, fmt.Errorf("%q is not a chord", sym)
	}
	if !mapped.Exact {
		r.note("chord_nearest", "%s became %s, the nearest chord in Tele's catalogue", "from", sym, "to", mapped.Symbol)
	}
	return mapped, nil
}

// fixEndings gives each end repeat that closes an ending the count the next ending's number implies. A
// last ending ends where a section starts (as the form reads it), so an end repeat after it closes a
// repeat of its own (Here's To Life: N2 …, then a section ending in } with no {), unless the ending
// runs across the section mark to its end repeat (endingCrosses).
func fixEndings(c *board.Content) {
	flat, _ := flatBars(c)
	ending := 0
	i := 0
	for si := range c.Sections {
		for bi := range c.Sections[si].Bars {
			b := &c.Sections[si].Bars[bi]
			if b.RepeatStart || bi == 0 && !endingCrosses(flat, i, ending) {
				ending = 0
			}
			i++
			if b.Ending != 0 {
				ending = b.Ending
			}
			if b.RepeatEnd != 0 && ending != 0 {
				b.RepeatEnd = ending + 1
			}
		}
	}
}

// credits reads a song's composer and style. Tele writes "Tele" and "Medium Swing" for a board with
// neither (iReal Pro wants both), and "Tele" for a board with no composer: read back, they are none.
// Each is cut to a board's length.
func credits(composer, style string) (string, string) {
	composer, style = strings.TrimSpace(composer), strings.TrimSpace(style)
	if composer == placeholderComposer {
		composer = ""
		if style == placeholderStyle {
			style = ""
		}
	}
	return utf16count.Cut(composer, board.MaxCreditUnits), utf16count.Cut(style, board.MaxCreditUnits)
}
