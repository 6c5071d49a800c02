package ireal

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"tele/board"
	"tele/chord"
)

// The music string is read as a stream of tokens (nextToken), each a step of a musicReader: bar lines,
// section marks and repeats end the bar being read (bars.go), the other tokens add to it.

// tokenKind is what a token of the music string is.
type tokenKind int

const (
	tokSkip        tokenKind = iota // spaces, commas, f (fermata), Y (space), s and l (chord size), …
	tokSection                      // *A: a section; *i an intro, *V a verse
	tokMeter                        // T44: a time signature (T12 is 12/8)
	tokRepeatStart                  // {
	tokRepeatEnd                    // }
	tokBarLine                      // | [ ] Z
	tokEnding                       // N1: an ending (N0, one without a number, is none)
	tokSegno                        // S
	tokCoda                         // Q: To Coda or the coda, by their order (codaSigns)
	tokText                         // <…>: staff text
	tokSimile                       // x: a % bar
	tokTwoBars                      // r: the two bars before, again
	tokNoChord                      // n: N.C.
	tokSlash                        // p: a cell the chord before goes on over
	tokAlternates                   // (…): an alternate chord
	tokChord                        // C^7, W/B, A*m* (with chord text), H7 (H is B)
	tokPlayerEnd                    // U: the bar iReal Pro's player ends at
	tokUnknown                      // any other sign: J7, /X, a digit, a character outside staff text
)

// token is one sign of the music string.
type token struct {
	kind tokenKind
	text string // as written (a chord: its symbol, without its chord text)
	// n is a meter's beats or an ending's number.
	n int
	// custom is a chord's text written by hand between stars (A*m*), with a bass after it.
	custom string
}

// nextToken reads the token m starts with, and the music after it. m is not empty.
func nextToken(m string) (token, string) {
	switch c := m[0]; {
	case c == '*' && len(m) >= 2:
		return sectionToken(m)
	case c == 'T' && len(m) >= 2 && isDigit(m[1]):
		return meterToken(m)
	case c == 'N' && len(m) >= 2 && isDigit(m[1]):
		return token{kind: tokEnding, text: m[:2], n: int(m[1] - '0')}, m[2:]
	case c == '<':
		return textToken(m)
	case c == '(':
		end := strings.IndexByte(m, ')')
		if end < 0 {
			end = len(m) - 1
		}
		return token{kind: tokAlternates, text: m[:end+1]}, m[end+1:]
	case c >= 'A' && c <= 'H' || c == 'W':
		return chordToken(m)
	case oneByteTokens[c] != tokSkip || strings.IndexByte(quietBytes, c) >= 0:
		return token{kind: oneByteTokens[c], text: m[:1]}, m[1:]
	}
	return unknownToken(m)
}

// quietBytes are skipped without a word: space between cells, and signs of how a chart looks (f a
// fermata, Y a spacer, s and l the chord size).
const quietBytes = " ,\t\r\nfYsl"

// unknownToken reads a sign the reader does not know: as far as it reads like a chord, else one whole
// character.
func unknownToken(m string) (token, string) {
	n := len(unknownRE.FindString(m))
	if n == 0 {
		_, n = utf8.DecodeRuneInString(m)
	}
	return token{kind: tokUnknown, text: m[:n]}, m[n:]
}

// oneByteTokens are the tokens of one character.
var oneByteTokens = [256]tokenKind{
	'{': tokRepeatStart, '}': tokRepeatEnd, '|': tokBarLine, '[': tokBarLine, ']': tokBarLine, 'Z': tokBarLine,
	'S': tokSegno, 'Q': tokCoda, 'x': tokSimile, 'r': tokTwoBars, 'n': tokNoChord, 'p': tokSlash,
	'U': tokPlayerEnd,
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// sectionToken reads a section mark, * and the whole character after it (*A, *é); a * before a byte
// that is no character marks nothing.
func sectionToken(m string) (token, string) {
	r, n := utf8.DecodeRuneInString(m[1:])
	if r == utf8.RuneError {
		return unknownToken(m)
	}
	return token{kind: tokSection, text: m[:1+n]}, m[1+n:]
}

// meterToken reads a time signature: T and two digits as iReal Pro writes them, or T and one digit
// alone, which a musician reads as that many beats (T4). Its n is the beats, 0 for one no one reads.
func meterToken(m string) (token, string) {
	if len(m) >= 3 && isDigit(m[2]) {
		return token{kind: tokMeter, text: m[:3], n: meterBeats(m[1:3])}, m[3:]
	}
	return token{kind: tokMeter, text: m[:2], n: int(m[1] - '0')}, m[2:]
}

// meterBeats reads the two digits after T: beats over a note value of 2, 4 or 8 (T44 is 4 beats, T68 6),
// and T12 is 12/8. Any other (T13, T40, T08) is 0.
func meterBeats(t string) int {
	switch {
	case t == "12":
		return 12
	case t[0] != '0' && strings.IndexByte("248", t[1]) >= 0:
		return int(t[0] - '0')
	}
	return 0
}

// textToken reads staff text, <…> within maxText. A < without its > is a sign the reader cannot read
// (its bar's note names it), and what follows it is read as music.
func textToken(m string) (token, string) {
	end := strings.IndexByte(m[:min(len(m), maxText)], '>')
	if end < 0 {
		return token{kind: tokUnknown, text: m[:1]}, m[1:]
	}
	return token{kind: tokText, text: m[:end+1]}, m[end+1:]
}

// chordToken reads a chord symbol and the chord text written by hand after it.
func chordToken(m string) (token, string) {
	sym := chordRE.FindString(m)
	if sym == "" {
		sym = m[:1]
	}
	tok := token{kind: tokChord, text: sym}
	rest := m[len(sym):]
	if text, after, ok := customText(rest); ok {
		tok.custom, rest = text, after
		if bass := germanBassRE.FindString(rest); bass != "" && !strings.Contains(text, "/") {
			tok.custom, rest = text+bass, rest[len(bass):] // A*m*/H
		}
	}
	return tok, rest
}

// musicReader reads one song's music string into its board's sections of bars.
type musicReader struct {
	r *songReader
	c *board.Content

	sec      *board.Section // the section being read
	bar      board.Bar      // the bar being read
	cells    []string       // this bar's cells: chord symbols, "" for a beat that goes on
	barBeats int            // this bar's meter

	meterRead bool        // the first time signature is the board's
	chordRead bool        // a chord was read: a time signature now is not the board's
	times     int         // from <Nx>: the times the next end repeat is played
	timesAt   int         // the bar (from 1) the count was written in
	timesText string      // the count as written
	written   int         // bars written so far, in all sections
	heard     [2][]string // the chords heard in the last two bars written (a % bar's are those before it)
	textBar   bool        // the music starts with a bar of text alone (a count-in)
	slashes   bool        // the first bar is slashes alone
	barText   bool        // this bar has text
	unread    []string    // the signs of this bar the reader does not know
	lastChord string      // the last chord written with its root, for W/B
	// twoBarsOpen counts the bar ends still to come of the bars r covers after it wrote them out: its
	// own cell and the empty cell after it, whose signs (Fine, an end repeat) are the written bars'.
	twoBarsOpen int

	qs     []qSign
	als    []alEnding
	closed map[int]bool // bars followed by ] or Z: where a last ending ends
}

// music reads the music string into sections of bars, at most the board's limits of them.
func (r *songReader) music(c *board.Content, m string) error {
	mr := &musicReader{r: r, c: c, barBeats: 4, closed: map[int]bool{}}
	for len(m) > 0 {
		if err := r.w.add(1); err != nil {
			return err
		}
		var tok token
		tok, m = nextToken(m)
		if err := mr.step(tok); err != nil {
			return err
		}
	}
	return mr.finish()
}

// step reads one token.
func (mr *musicReader) step(tok token) error {
	switch tok.kind {
	case tokSection:
		if err := mr.endBar(false, false); err != nil {
			return err
		}
		return mr.newSection(markSection(tok.text[1:]))
	case tokMeter:
		mr.meter(tok)
	case tokRepeatStart:
		err := mr.endBar(false, false)
		if mr.written >= mr.timesAt { // a count belongs to the repeat it is written in, or starts right after it
			mr.timesUnused()
		}
		mr.bar.RepeatStart = true
		return err
	case tokRepeatEnd:
		return mr.endBar(true, false)
	case tokBarLine:
		return mr.barLine(tok.text[0])
	case tokEnding:
		mr.bar.Ending = tok.n
	case tokSegno:
		mr.bar.Mark = board.MarkSegno
	case tokCoda:
		mr.qs = append(mr.qs, qSign{at: mr.written, content: len(mr.cells) > 0 || mr.bar.Simile})
	case tokText:
		return mr.text(tok.text)
	case tokSimile:
		mr.bar.Simile = true
	case tokTwoBars:
		return mr.twoBars()
	case tokNoChord:
		mr.cells = append(mr.cells, board.NoChord)
	case tokSlash:
		mr.cells = append(mr.cells, "")
	case tokAlternates:
		err := mr.r.w.add(len(tok.text) - 1)
		mr.r.note("alternates_left_out", "alternate chords in parentheses were left out")
		return err
	case tokChord:
		return mr.chord(tok)
	case tokPlayerEnd:
		mr.r.ends = append(mr.r.ends, mr.written)
	case tokUnknown:
		return mr.unknown(tok.text)
	}
	return nil
}

// unknown keeps a sign the reader does not know for the bar's note, at most maxUnread of them, each cut
// to maxUnreadBytes.
func (mr *musicReader) unknown(sign string) error {
	err := mr.r.w.add(len(sign))
	if len(sign) > maxUnreadBytes {
		sign = sign[:maxUnreadBytes] + "…"
	}
	if len(mr.unread) < maxUnread {
		mr.unread = append(mr.unread, strings.ToValidUTF8(sign, "\uFFFD"))
	}
	return err
}

// maxUnread and maxUnreadBytes bound what a note names of the unknown signs of one bar.
const (
	maxUnread      = 8
	maxUnreadBytes = 16
)

// unreadNote says which signs of a bar (numbered from 1) were not read: left out, or, when the bar had
// nothing else, read as a bar of N.C. (cells is then that).
func (mr *musicReader) unreadNote(bar int) {
	if len(mr.unread) == 0 {
		return
	}
	signs := strings.Join(mr.unread, " ")
	mr.unread = nil
	if len(mr.cells) == 0 && !mr.bar.Simile {
		mr.cells = []string{board.NoChord}
		mr.r.note("sign_unknown_nc", "bar %d holds %q, which Tele cannot read: the bar is N.C.", "bar", bar, "signs", signs)
		return
	}
	mr.r.note("sign_unknown_left_out", "%q in bar %d is not something Tele can read: it was left out", "signs", signs, "bar", bar)
}

// finish ends the last bar and places what is read across bars: endings, codas, jumps to an ending.
func (mr *musicReader) finish() error {
	if err := mr.endBar(false, true); err != nil {
		return err
	}
	if mr.written == 0 {
		return errors.New("the song has no bars")
	}
	c := mr.c
	if len(c.Sections[len(c.Sections)-1].Bars) == 0 {
		c.Sections = c.Sections[:len(c.Sections)-1] // a label at the very end
	}
	mr.timesUnused()
	fixEndings(c)
	mr.r.codaSigns(c, mr.qs, mr.written)
	mr.r.alEndings(c, mr.als, mr.closed)
	return nil
}

// meter reads a time signature: the board's, before the first chord, and this bar's on. One with a
// single digit is read as that many beats, and one no one reads is left out, each with a note.
func (mr *musicReader) meter(tok token) {
	beats := tok.n
	switch {
	case beats == 0:
		mr.r.note("meter_left_out", "the time signature %s at bar %d is not one iReal Pro writes: it was left out, and the bars go on in %d beats",
			"written", tok.text, "bar", mr.written+1, "beats", mr.barBeats)
		return
	case len(tok.text) == 2:
		mr.r.note("meter_read", "the time signature %s at bar %d was read as %d beats a bar", "written", tok.text, "bar", mr.written+1, "beats", beats)
	}
	if !mr.chordRead && !mr.meterRead {
		mr.c.BeatsPerBar = beats
	}
	mr.meterRead = true
	mr.barBeats = beats
}

// barLine ends the bar at | [ ] or Z; ] and Z also close a last ending.
func (mr *musicReader) barLine(line byte) error {
	err := mr.endBar(false, false)
	if (line == ']' || line == 'Z') && mr.written > 0 {
		mr.closed[mr.written-1] = true
	}
	return err
}

// text reads staff text: a repeat count, a jump or Fine, a section's full label, or words left out.
func (mr *musicReader) text(t string) error {
	err := mr.r.w.add(len(t))
	mr.barText = true
	words := strings.ToLower(strings.TrimSpace(strings.Trim(t, "<>*0123456789")))
	if n, ok := repeatTimes(t[1 : len(t)-1]); ok {
		mr.timesUnused()
		mr.times, mr.timesAt, mr.timesText = n, mr.written+1, strings.Trim(t, "<>")
	} else if mark, ok := mr.r.cueJump(words, mr.written); ok {
		mr.bar.Mark = mark
	} else if mark, n, ok := textSign(words); ok {
		mr.bar.Mark = mark
		if n != 0 {
			mr.als = append(mr.als, alEnding{at: mr.written, ending: n})
		}
	} else if label, ok := sectionLabel(mr.sec, mr.cells, t); ok {
		mr.sec.Label = label // the full label Write puts beside a section's letter
		mr.barText = false
	} else if words != "" {
		mr.r.note("text_left_out", "the text %q was left out", "text", strings.Trim(t, "<>"))
	}
	return err
}

// repeatTimes reads the times a repeat is played from staff text: 3x or x3 (repeatCount says what a
// board holds of it).
func repeatTimes(words string) (int, bool) {
	n := timesRE.FindStringSubmatch(words)
	if n == nil {
		return 0, false
	}
	times, _ := strconv.Atoi(n[1] + n[2]) // one of them is empty
	return times, true
}

// timesUnused says that a repeat count was left out when no end repeat follows it in its repeat: the
// bars are played as written, once.
func (mr *musicReader) timesUnused() {
	if mr.times == 0 {
		return
	}
	mr.r.note("repeat_times_unused", "the text %q in bar %d has no end repeat after it to count: it was left out", "text", mr.timesText, "bar", mr.timesAt)
	mr.times = 0
}

// repeatCount is the count of an end repeat after bar (numbered from 1): the times read before it, or
// twice, within what a board holds, with a note when the chart says a count it cannot hold.
func (mr *musicReader) repeatCount(bar int) int {
	times := mr.times
	mr.times = 0
	if times == 0 {
		return board.MinRepeatTimes
	}
	read := min(max(times, board.MinRepeatTimes), board.MaxRepeatTimes)
	if read != times {
		mr.r.note("repeat_times_cut", "the repeat that ends at bar %d says %dx: a board plays a repeat %d to %d times, so it is played %d times",
			"bar", bar, "times", times, "min", board.MinRepeatTimes, "max", board.MaxRepeatTimes, "read", read)
	}
	return read
}

// twoBars writes out r, the two bars before it again: two % bars would play the second of them twice.
func (mr *musicReader) twoBars() error {
	if err := mr.endBar(false, false); err != nil {
		return err
	}
	before := mr.heard
	if mr.written < 2 || before[0] == nil || before[1] == nil {
		return errors.New("a two-bar repeat (r) has fewer than two bars of chords before it")
	}
	mr.r.note("two_bar_repeat", "a two-bar repeat (r) was written out as the two bars before it")
	for _, chords := range before {
		mr.cells = append([]string(nil), chords...)
		if err := mr.endBar(false, false); err != nil {
			return err
		}
	}
	mr.twoBarsOpen = 2
	return nil
}

// chord reads a chord into the bar's next cell. W is an invisible root: the chord before goes on, and
// W/B puts it over the bass B.
func (mr *musicReader) chord(tok token) error {
	sym := tok.text
	if err := mr.r.w.add(len(sym)); err != nil {
		return err
	}
	if sym[0] == 'W' {
		base, _, _ := strings.Cut(mr.lastChord, "/")
		if !strings.HasPrefix(sym, "W/") || base == "" {
			return nil
		}
		sym = base + sym[1:]
	}
	written := sym
	if tok.custom != "" {
		written += "*" + tok.custom + "*"
	}
	sym, tok.custom = fromGerman(sym), fromGerman(tok.custom)
	if tok.text[0] != 'W' {
		mr.lastChord = sym
	}
	var mapped chord.Mapped
	var err error
	if tok.custom != "" {
		mapped, err = mr.r.customChord(sym, tok.custom)
	} else {
		mapped, err = mr.r.chord(sym)
	}
	if err != nil {
		return err
	}
	if fromGerman(written) != written {
		mr.r.note("chord_german_h", "%s was read as %s: H is the German name of B", "from", written, "to", mapped.Symbol)
	}
	mr.cells = append(mr.cells, mapped.Symbol)
	mr.chordRead = true
	return nil
}

var (
	// germanBassRE is a German bass note after chord text written by hand (A*m*/H).
	germanBassRE = regexp.MustCompile(`^/H[#b]?`)
	// unknownRE is a sign the reader does not know, as far as it reads like a chord (J7, /X).
	unknownRE = regexp.MustCompile(`^[/A-Za-z0-9][#b]?(?:[-+^ho0-9#b]|sus|alt|add)*(/[A-Za-z][#b]?)?`)
)

// fromGerman writes a root or bass H, the German name of B, as B (as the chord package reads a root).
func fromGerman(s string) string {
	if strings.HasPrefix(s, "H") {
		s = "B" + s[1:]
	}
	return strings.Replace(s, "/H", "/B", 1)
}
