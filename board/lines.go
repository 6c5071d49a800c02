package board

import (
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"tele/chord"
	"tele/strict"
	"tele/utf16count"
)

// Lines of words (content schema version 3): a section may hold lyric lines beside or instead of its
// bars, each a line of text with chords standing at places in it, as a songbook prints chords over the
// syllables they fall on. A section may instead repeat the chorus (Recall), as ChordPro's {chorus} does.

// Limits of lines of words. A long song (200 lines of 200 characters, a few chords each) fits in
// MaxContentBytes; the size of the whole document is the limit that binds.
const (
	MaxLineUnits       = 500 // a line's text, in UTF-16 code units
	MaxLinesPerSection = 200
	MaxLines           = 1000 // in all sections together
)

// RecallChorus is the only value Recall takes today: the section is the chorus again.
const RecallChorus Role = "chorus"

// Line is a line of words with its chords. Each chord stands At a place in Text counted in UTF-16 code
// units from its start (as a browser's String indexes it): 0 before the first character, len(Text) after
// the last. The places increase strictly, and none falls inside a character written as two units.
type Line struct {
	Text   string      `json:"text"`
	Chords []LineChord `json:"chords,omitempty"`
}

// LineChord is a chord standing at a place in a line's text.
type LineChord struct {
	At    int    `json:"at"`
	Chord string `json:"chord"`
}

// lineDoc and lineChordDoc are a line and its chord as they arrive: pointers tell a missing required
// member from a zero value.
type lineDoc struct {
	Text   *string     `json:"text"`
	Chords []LineChord `json:"chords"`
}

type lineChordDoc struct {
	At    *int    `json:"at"`
	Chord *string `json:"chord"`
}

const (
	ruleLine      = `must be a line of words {"text": "…", "chords": [{"at": <place>, "chord": "<symbol>"}, …]}`
	ruleLineChord = `must be a chord at a place in its line: {"at": <UTF-16 code units from the line's start>, "chord": "<symbol>"}`
	ruleLineText  = "must be at most 500 UTF-16 code units"
	ruleLineBreak = "must be one line: no line break (a new line of words is a new line of the section)"
)

// UnmarshalJSONFrom reads a line with the decoder's options (strict.Decode's), text required.
func (l *Line) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	*l = Line{}
	if dec.PeekKind() != '{' {
		if _, err := dec.ReadValue(); err != nil {
			return err
		}
		return &strict.Error{Rule: ruleLine}
	}
	var d lineDoc
	if err := json.UnmarshalDecode(dec, &d); err != nil {
		return err
	}
	if d.Text == nil {
		return &strict.Error{Path: "text", Rule: ruleRequired + "; a line " + ruleLine[5:]}
	}
	*l = Line{Text: *d.Text}
	if len(d.Chords) > 0 {
		l.Chords = d.Chords // "chords": [] says what none says, and is read (and stored) as none
	}
	return nil
}

// UnmarshalJSONFrom reads a line's chord with the decoder's options, both members required.
func (lc *LineChord) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	*lc = LineChord{}
	if dec.PeekKind() != '{' {
		if _, err := dec.ReadValue(); err != nil {
			return err
		}
		return &strict.Error{Rule: ruleLineChord}
	}
	var d lineChordDoc
	if err := json.UnmarshalDecode(dec, &d); err != nil {
		return err
	}
	switch {
	case d.At == nil:
		return &strict.Error{Path: "at", Rule: ruleRequired + "; it " + ruleLineChord}
	case d.Chord == nil:
		return &strict.Error{Path: "chord", Rule: ruleRequired + "; it " + ruleLineChord}
	}
	*lc = LineChord{At: *d.At, Chord: *d.Chord}
	return nil
}

// UnmarshalJSON lets encoding/json read a line by the same rules.
func (l *Line) UnmarshalJSON(data []byte) error { return strict.Decode(data, l) }

// UnmarshalJSON lets encoding/json read a line's chord by the same rules.
func (lc *LineChord) UnmarshalJSON(data []byte) error { return strict.Decode(data, lc) }

// checkHolds applies the rules of what a section holds: bars, lines, both, or a recall of the chorus
// and nothing else. chorusBefore says an earlier section is a chorus a recall can repeat.
func (s Section) checkHolds(i int, chorusBefore bool) *ValidationError {
	if s.Recall != "" {
		switch {
		case s.Recall != RecallChorus:
			return barRuleError(sectionPath(i, "recall"), "recallWhat")
		case s.Bars != nil || s.Lines != nil || s.Role != "":
			return barRuleError(sectionPath(i, "recall"), "recallAlone")
		case !chorusBefore:
			return barRuleError(sectionPath(i, "recall"), "recallNoChorus")
		}
		return nil
	}
	if s.Bars == nil && s.Lines == nil {
		return barRuleError(sectionPath(i, "bars"), "sectionEmpty")
	}
	if s.Bars != nil && (len(s.Bars) < 1 || len(s.Bars) > MaxBarsPerSection) {
		return &ValidationError{Path: sectionPath(i, "bars"), Rule: ruleBars}
	}
	if s.Lines != nil && (len(s.Lines) < 1 || len(s.Lines) > MaxLinesPerSection) {
		return barRuleError(sectionPath(i, "lines"), "linesCount", "max", MaxLinesPerSection)
	}
	return nil
}

// checkLine applies the rules of a line of words; path is its JSON path. aliased reports a chord not in
// the catalogue's spelling (stored respelled).
func (l Line) check(path string) (aliased bool, err *ValidationError) {
	if e := checkText(path+".text", l.Text, 0, MaxLineUnits, ruleLineText); e != nil {
		return false, e.(*ValidationError)
	}
	if strings.ContainsAny(l.Text, "\n\r\u2028\u2029") {
		return false, &ValidationError{Path: path + ".text", Rule: ruleLineBreak}
	}
	n := utf16count.Of(l.Text)
	prev := -1
	for k, lc := range l.Chords {
		at := path + ".chords[" + strconv.Itoa(k) + "]"
		switch _, ok := utf16count.ByteIndex(l.Text, lc.At); {
		case lc.At < 0 || lc.At > n:
			return false, barRuleError(at+".at", "lineChordAt", "at", lc.At, "len", n)
		case lc.At <= prev:
			return false, barRuleError(at+".at", "lineChordOrder", "at", lc.At, "prev", prev)
		case !ok:
			return false, barRuleError(at+".at", "lineChordSplit", "at", lc.At)
		}
		prev = lc.At
		canonical, ok := chord.Canonical(lc.Chord)
		if !ok {
			return false, chordError(at+".chord", lc.Chord)
		}
		aliased = aliased || !canonical
	}
	return aliased, nil
}

// linePath is the JSON path of line j of section i.
func linePath(i, j int) string {
	return "sections[" + strconv.Itoa(i) + "].lines[" + strconv.Itoa(j) + "]"
}

// lineEncodedLen is len(json.Marshal(l)).
func lineEncodedLen(l Line) int {
	n := len(`{"text":}`) + jsonStringLen(l.Text)
	if len(l.Chords) > 0 {
		n += len(`,"chords":[]`)
		for k, lc := range l.Chords {
			if k > 0 {
				n++
			}
			n += len(`{"at":,"chord":}`) + intLen(lc.At) + jsonStringLen(lc.Chord)
		}
	}
	return n
}

// lineEncodedBound bounds lineEncodedLen cheaply (six bytes for every byte of a string).
func lineEncodedBound(l Line) int {
	n := len(`{"text":,"chords":[]},`) + 6*len(l.Text) + 2
	for _, lc := range l.Chords {
		n += len(`{"at":-9223372036854775808,"chord":},`) + 6*len(lc.Chord) + 2
	}
	return n
}

// Equal reports whether two lines are the same words with the same chords at the same places.
func (l Line) Equal(m Line) bool {
	if l.Text != m.Text || len(l.Chords) != len(m.Chords) {
		return false
	}
	for k := range l.Chords {
		if l.Chords[k] != m.Chords[k] {
			return false
		}
	}
	return true
}

// cloneLines returns a copy of lines sharing no memory with them (nil stays nil).
func cloneLines(lines []Line) []Line {
	if lines == nil {
		return nil
	}
	out := make([]Line, len(lines))
	for j, l := range lines {
		out[j] = Line{Text: l.Text}
		if l.Chords != nil {
			out[j].Chords = append([]LineChord{}, l.Chords...)
		}
	}
	return out
}

// Fit cuts a line longer than a board's line to MaxLineUnits and leaves out the chords past the cut;
// cut reports whether it did. The importers use it, so a long line is kept in part, never refused.
func (l Line) Fit() (fitted Line, cut bool) {
	if utf16count.Of(l.Text) <= MaxLineUnits {
		return l, false
	}
	l.Text = utf16count.Cut(l.Text, MaxLineUnits)
	n := utf16count.Of(l.Text)
	var kept []LineChord
	for _, lc := range l.Chords {
		if lc.At <= n {
			kept = append(kept, lc)
		}
	}
	l.Chords = kept
	return l, true
}
