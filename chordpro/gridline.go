package chordpro

import (
	"fmt"
	"regexp"
	"strings"

	"tele/board"
	"tele/chord"
)

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

// isCellSign reports whether a grid cell is a sign rather than a chord: . / - (the chord goes on),
// % and %% (repeat one or two bars).
func isCellSign(t string) bool {
	switch t {
	case ".", "/", "-", "%", "%%":
		return true
	}
	return false
}

// gridLine reads one row of a grid: its left margin, bars and right margin. A row Tele cannot read
// (a strum line, words with no bar line, a word that is no chord) is left out whole, with a note.
func (r *reader) gridLine(sec *gridSection, line string) error {
	tokens := strings.Fields(line)
	if strings.HasPrefix(tokens[0], "|s") {
		r.note("strum_left_out", map[string]any{"line": line}, "the strum line %q was left out: a board has no strumming", line)
		return nil
	}
	firstBar, lastBar := barLineSpan(tokens)
	if firstBar < 0 {
		r.note("line_left_out", map[string]any{"line": line}, "the grid line %q has no bar line and was left out", line)
		return nil
	}
	bars := tokens[firstBar : lastBar+1]
	if sym, ok := r.notAChord(bars); ok {
		r.note("line_left_out", map[string]any{"line": line, "word": sym}, "the grid line %q was left out: %q is not a chord (a root A–G and a quality, like Am7)", line, sym)
		return nil
	}
	start := len(sec.bars)
	if err := r.rowBars(sec, bars); err != nil {
		return err
	}
	r.margins(sec, start, strings.Join(tokens[:firstBar], " "), strings.Join(tokens[lastBar+1:], " "))
	return nil
}

// barLineSpan is where a row's first and last bar lines are; -1 when it has none.
func barLineSpan(tokens []string) (first, last int) {
	first, last = -1, -1
	for i, t := range tokens {
		if !isBarLine(t) {
			continue
		}
		if first < 0 {
			first = i
		}
		last = i
	}
	return first, last
}

// notAChord is the first word between a row's bar lines that is neither a bar line, a cell sign nor
// a chord (with the {transpose} in force).
func (r *reader) notAChord(tokens []string) (string, bool) {
	for _, t := range tokens {
		if isBarLine(t) || isCellSign(t) {
			continue
		}
		for _, sym := range strings.Split(t, "~") {
			if _, ok := chord.Map(transposed(sym, r.transpose)); sym != "" && sym != "." && sym != "/" && !ok {
				return sym, true
			}
		}
	}
	return "", false
}

// rowBars reads a row's bar lines and cells into the grid's bars.
func (r *reader) rowBars(sec *gridSection, tokens []string) error {
	var cur *gridBar
	for _, t := range tokens {
		m := barLineRE.FindStringSubmatch(t)
		if m == nil {
			cur = r.addCell(sec, cur, t)
			continue
		}
		if err := r.barLine(sec, cur, m); err != nil {
			return err
		}
		cur = nil
	}
	if cur != nil {
		sec.bars = append(sec.bars, *cur) // cells after the last bar line are its right margin
		r.bars++
	}
	return nil
}

// addCell adds a cell to the bar being read, cur, or to a new bar when cur is nil.
func (r *reader) addCell(sec *gridSection, cur *gridBar, cell string) *gridBar {
	if cur == nil {
		cur = &gridBar{repeatStart: sec.pendingStart, ending: sec.pendingEnding, line: r.line, transpose: r.transpose}
		sec.pendingStart, sec.pendingEnding = false, 0
	}
	cur.cells = append(cur.cells, cell)
	return cur
}

// barLine reads a bar line (m, barLineRE's match): it closes the bar before it (cur, if any) and opens
// the next.
func (r *reader) barLine(sec *gridSection, cur *gridBar, m []string) error {
	switch {
	case cur != nil && r.bars == board.MaxBars:
		return &Error{r.line, fmt.Sprintf("the grids hold more than %d bars, more than a board holds", board.MaxBars)}
	case cur != nil:
		r.bars++
		if m[1] == ":" {
			cur.repeatEnd = 2
		}
		sec.bars = append(sec.bars, *cur)
	case m[1] == ":" && len(sec.bars) > 0:
		sec.bars[len(sec.bars)-1].repeatEnd = 2 // :| at the start of a row closes the row before
	}
	if m[3] == ":" {
		sec.pendingStart = true
	}
	if m[4] != "" {
		sec.pendingEnding = int(m[4][0] - '0')
	}
	return nil
}

// margins reads the words before a row's first bar line (left) and after its last (right): the signs
// of the row's first and last bars (from start in sec.bars).
func (r *reader) margins(sec *gridSection, start int, left, right string) {
	if len(sec.bars) == start {
		if left != "" || right != "" {
			r.note("margin_left_out", map[string]any{"text": strings.TrimSpace(left + " " + right)}, "the margin text %q was left out", strings.TrimSpace(left+" "+right))
		}
		return
	}
	if left != "" {
		r.leftMargin(&sec.bars[start], left)
	}
	if right != "" {
		r.rightMargin(&sec.bars[len(sec.bars)-1], right)
	}
}

func (r *reader) leftMargin(first *gridBar, left string) {
	switch strings.ToLower(left) {
	case "segno":
		first.mark = board.MarkSegno
	case "coda":
		first.mark = board.MarkCoda
	default:
		r.note("margin_left_out", map[string]any{"text": left}, "the margin text %q was left out", left)
	}
}

// rightMargin reads the words after a row: a count of an end repeat (x3), To Coda, and another sign.
func (r *reader) rightMargin(last *gridBar, right string) {
	rest := right
	if n, word, ok := repeatCount(rest); ok && last.repeatEnd != 0 && last.ending == 0 {
		last.repeatEnd = n
		rest = strings.TrimSpace(strings.TrimPrefix(rest, word))
	}
	if before, ok := cutSuffixFold(rest, " "+rightSign[board.MarkToCoda]); ok && before != "" {
		last.toCoda, rest = true, before // To Coda beside another sign (version 3)
	}
	if rest == "" {
		return
	}
	for mark, words := range rightSign {
		if !strings.EqualFold(rest, words) {
			continue
		}
		if mark == board.MarkToCoda && last.mark != "" {
			last.toCoda = true // To Coda on a bar that has a Segno or Coda of the left margin
			return
		}
		last.mark = mark
		return
	}
	r.note("margin_left_out", map[string]any{"text": rest}, "the margin text %q was left out", rest)
}

// repeatCount reads the count of an end repeat (x2 … x8) that begins a right margin, and its word.
func repeatCount(margin string) (int, string, bool) {
	f := strings.Fields(margin)
	if len(f) == 0 || len(f[0]) != 2 || f[0][0] != 'x' && f[0][0] != 'X' || f[0][1] < '2' || f[0][1] > '8' {
		return 0, "", false
	}
	return int(f[0][1] - '0'), f[0], true
}

// cutSuffixFold is strings.CutSuffix with the suffix matched regardless of case.
func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return strings.TrimSpace(s[:len(s)-len(suffix)]), true
	}
	return s, false
}
