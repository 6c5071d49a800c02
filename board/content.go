package board

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"tele/chord"
	"tele/strict"

	"tele/utf16count"
)

// Limits of the content schema (docs/content.md; version 2 adds the form: bar objects and section roles,
// see bar.go and form.go). Text lengths are UTF-16 code units, as a browser counts them (an emoji outside
// the BMP is 2).
const (
	ContentSchemaVersion = 3

	MaxContentBytes   = 64 << 10 // a content document, in bytes (ParseContent's input; Validate: the compact encoding)
	MaxTitleUnits     = 120
	MaxDescUnits      = 2000
	MinTempo          = 30
	MaxTempo          = 300
	MinBeatsPerBar    = 1
	MaxBeatsPerBar    = 12
	MaxSections       = 32
	MaxLabelUnits     = 40
	MaxBarsPerSection = 64
	MaxBars           = 512
	MaxChordsPerBar   = 4
	MaxCreditUnits    = 120 // artist, composer, style
)

// The rules as ValidationError.Rule states them.
const (
	ruleTitle       = "must be 1–120 UTF-16 code units, not blank"
	ruleDescription = "must be at most 2,000 UTF-16 code units"
	ruleKey         = "must be a key root (C, C#, Db, … B; not Cb, Fb, E# or B#), optionally followed by m"
	ruleTempo       = "must be an integer from 30 to 300"
	ruleBeats       = "must be an integer from 1 to 12"
	ruleSections    = "must hold 1–32 sections"
	ruleLabel       = "must be at most 40 UTF-16 code units"
	ruleInvisible   = "must show something: it holds only invisible characters (zero-width, control or format characters)"
	ruleBars        = "must hold 1–64 bars"
	ruleTotalBars   = "too many bars: at most 512 in all sections together"
	ruleBar         = "must hold 1–4 chord symbols"
	ruleChord       = "a chord is a root (C, C#, Db … B) and a quality from the catalogue, like Am7 or F#m7b5, optionally /<root> for the bass, or N.C."
	ruleBarChords   = `must hold 1–4 chord symbols, or "%" for "the same as the bar before"`
	ruleSimileBoth  = `is "%" (the same as the bar before), so it cannot have chord symbols too`
	ruleBarBeats    = "must be an integer from 1 to 12: this bar's beats, when they differ from beatsPerBar"
	ruleRepeatEnd   = "must be an integer from 2 to 8: how many times the repeated bars are played"
	ruleEnding      = "must be an integer from 1 to 4: the number of the ending (volta) that starts at this bar"
	ruleMark        = "must be one of segno, coda, fine, dc, ds, dc-al-fine, dc-al-coda, ds-al-fine, ds-al-coda, to-coda"
	ruleRole        = "must be one of intro, verse, prechorus, chorus, bridge, solo, interlude, outro, tag"
	ruleUTF8        = "must be valid UTF-8"
	ruleSize        = "must be at most 65,536 bytes serialized"
	ruleRequired    = "is required"
	ruleCredit      = "must be at most 120 UTF-16 code units"
)

// Content is a board's content (docs/content.md). The zero Key means "no key".
type Content struct {
	Title       string    `json:"title"`
	Description string    `json:"description"`
	Artist      string    `json:"artist,omitempty"`   // who performs the song as the chart has it (schema version 3)
	Composer    string    `json:"composer,omitempty"` // who wrote it (schema version 3)
	Style       string    `json:"style,omitempty"`    // how it is played, as iReal Pro names it ("Medium Swing"; schema version 3)
	Key         string    `json:"key,omitempty"`
	Tempo       int       `json:"tempo"`
	BeatsPerBar int       `json:"beatsPerBar"`
	Sections    []Section `json:"sections"`
}

// contentSchemaVersions lists the versions of the content schema this server reads; every document of
// an earlier version is a document of the later ones too.
var contentSchemaVersions = [...]int{1, 2, 3, 4}

// Section is a labelled part of the song: a run of bars (each 1–4 chord symbols sharing the bar evenly,
// with the form written on it: bar.go), lines of words with their chords (lines.go, schema version 3),
// or both, a grid and then its words. Bars and Lines are nil when the section has none. Role says what
// the section is in the song, beside its free label. A section whose Recall is "chorus" holds nothing of
// its own: it is the chorus again, the nearest chorus before it (ChordPro's {chorus}).
type Section struct {
	Label  string `json:"label"`
	Role   Role   `json:"role,omitempty"`
	Recall Role   `json:"recall,omitempty"`
	Bars   []Bar  `json:"bars,omitempty"`
	Lines  []Line `json:"lines,omitempty"`
}

// Role is what a section is in the song (content schema version 2); "" says nothing.
type Role string

// The roles, in the order a song usually meets them.
var roles = [...]Role{"intro", "verse", "prechorus", "chorus", "bridge", "solo", "interlude", "outro", "tag"}

func validRole(r Role) bool {
	for _, k := range roles {
		if r == k {
			return true
		}
	}
	return false
}

// ValidationError says which value breaks the content schema: Path is its JSON path
// (`sections[1].bars[3][0]`, "" for the whole document) and Rule the rule, in a few words. For a chord
// symbol the catalogue refuses, Symbol is the symbol and Suggestion a chord it may have meant ("" when
// there is no good guess), so a page can say it in its own language. A rule of the form (repeats,
// endings, signs: form_rules.go) has RuleID and RuleArgs for the same reason, and Bar, the bar it is
// about, with Member the bar's member at fault ("mark", "ending", … "" for the bar itself), so that a
// caller branches on the bar without reading the path.
type ValidationError struct {
	Path       string
	Rule       string
	Symbol     string
	Suggestion string
	RuleID     string
	RuleArgs   map[string]any
	Bar        *BarRef
	Member     string
}

// chordError is the error of a refused chord symbol at path.
func chordError(path, symbol string) *ValidationError {
	e := &ValidationError{Path: path, Symbol: symbol}
	if s, ok := chord.Suggest(symbol); ok {
		e.Suggestion = s
		e.Rule = "Not a chord Tele knows: `" + symbol + "`. Did you mean `" + s + "`?"
	} else {
		e.Rule = "Not a chord Tele knows: `" + symbol + "`. " + strings.ToUpper(ruleChord[:1]) + ruleChord[1:]
	}
	return e
}

func (e *ValidationError) Error() string {
	if e.Path == "" {
		return "invalid content: " + e.Rule
	}
	return "invalid content: " + e.Path + ": " + e.Rule
}

// ValidID reports whether id is a board id: ^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$.
func ValidID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || i > 0 && (c == '_' || c == '-') {
			continue
		}
		return false
	}
	return true
}

// contentDoc is Content as it arrives: pointers tell a missing required field from a zero value. A
// required field sent as null counts as missing.
type contentDoc struct {
	Title       *string    `json:"title"`
	Description string     `json:"description"`
	Artist      string     `json:"artist"`
	Composer    string     `json:"composer"`
	Style       string     `json:"style"`
	Key         string     `json:"key"`
	Tempo       *int       `json:"tempo"`
	BeatsPerBar *int       `json:"beatsPerBar"`
	Sections    *[]Section `json:"sections"`
}

// ParseContent parses and validates content strictly (docs/content.md): at most MaxContentBytes of input, one
// JSON object, no unknown fields,
// duplicate keys, wrong types or trailing data, within every limit. title, tempo, beatsPerBar and
// sections are required; description and key may be absent. Integers must be written as integers
// (120, not 120.0 or 1.2e2). The error is a *ValidationError naming the first offending value: errors of
// form (syntax, types, unknown or duplicate keys) in document order, then the rules in schema order.
func ParseContent(data []byte) (Content, error) {
	return parseContent(data, true)
}

// parseContent is ParseContent; written says the content is being written, not read back from a board
// file: the rules added after boards could be stored without them (visible text) apply to writes only,
// so that a board an earlier Tele stored still opens.
func parseContent(data []byte, written bool) (Content, error) {
	// The document as sent. (Its compact form, as stored, cannot exceed the limit once every other rule
	// holds; Validate checks that too, for Go values.)
	if len(data) > MaxContentBytes {
		return Content{}, &ValidationError{Rule: fmt.Sprintf("%s, not %d", ruleSize, len(data))}
	}
	var doc contentDoc
	if err := strict.Decode(data, &doc); err != nil {
		if se, ok := errors.AsType[*strict.Error](err); ok {
			return Content{}, &ValidationError{Path: se.Path, Rule: se.Rule}
		}
		return Content{}, err
	}
	switch {
	case doc.Title == nil:
		return Content{}, &ValidationError{Path: "title", Rule: ruleRequired + "; it " + ruleTitle}
	case doc.Tempo == nil:
		return Content{}, &ValidationError{Path: "tempo", Rule: ruleRequired + "; it " + ruleTempo}
	case doc.BeatsPerBar == nil:
		return Content{}, &ValidationError{Path: "beatsPerBar", Rule: ruleRequired + "; it " + ruleBeats}
	case doc.Sections == nil:
		return Content{}, &ValidationError{Path: "sections", Rule: ruleRequired + "; it " + ruleSections}
	}
	c := Content{
		Title:       *doc.Title,
		Description: doc.Description,
		Artist:      doc.Artist,
		Composer:    doc.Composer,
		Style:       doc.Style,
		Key:         doc.Key,
		Tempo:       *doc.Tempo,
		BeatsPerBar: *doc.BeatsPerBar,
		Sections:    *doc.Sections,
	}
	if err := c.validate(written); err != nil {
		return Content{}, err
	}
	return c, nil
}

// Validate applies the rules of docs/content.md to a Go value, in schema order, and returns a
// *ValidationError for the first value that breaks one. It also refuses strings that are not valid
// UTF-8, which a Go value (unlike parsed JSON) can hold.
func (c Content) Validate() error { return c.validate(true) }

// Its cognitive complexity is over the lint gate of 30, and accepted: the content's rules in the order
// docs/content.md lists them, one branch a rule.
//
//gocognit:ignore
func (c Content) validate(written bool) error {
	if err := checkText("title", c.Title, 1, MaxTitleUnits, ruleTitle); err != nil {
		return err
	}
	if strings.TrimFunc(c.Title, unicode.IsSpace) == "" {
		return &ValidationError{Path: "title", Rule: ruleTitle}
	}
	if written && !hasVisible(c.Title) {
		return &ValidationError{Path: "title", Rule: ruleInvisible}
	}
	if err := checkText("description", c.Description, 0, MaxDescUnits, ruleDescription); err != nil {
		return err
	}
	for _, f := range [...]struct{ path, s string }{{"artist", c.Artist}, {"composer", c.Composer}, {"style", c.Style}} {
		if err := checkText(f.path, f.s, 0, MaxCreditUnits, ruleCredit); err != nil {
			return err
		}
		if written && !hasVisible(f.s) && strings.TrimFunc(f.s, unicode.IsSpace) != "" {
			return &ValidationError{Path: f.path, Rule: ruleInvisible}
		}
	}
	if c.Key != "" && !chord.IsKey(c.Key) {
		return &ValidationError{Path: "key", Rule: ruleKey}
	}
	if c.Tempo < MinTempo || c.Tempo > MaxTempo {
		return &ValidationError{Path: "tempo", Rule: ruleTempo}
	}
	if c.BeatsPerBar < MinBeatsPerBar || c.BeatsPerBar > MaxBeatsPerBar {
		return &ValidationError{Path: "beatsPerBar", Rule: ruleBeats}
	}
	if len(c.Sections) < 1 || len(c.Sections) > MaxSections {
		return &ValidationError{Path: "sections", Rule: ruleSections}
	}
	total, lines := 0, 0
	chorus := false  // a chorus stands before this section, for a recall to repeat
	formed := false  // some bar carries form: check it as a whole, after every bar's own rules
	aliased := false // some chord is stored in another spelling, which may be longer
	for i, s := range c.Sections {
		if err := checkText("", s.Label, 0, MaxLabelUnits, ruleLabel); err != nil {
			err.(*ValidationError).Path = sectionPath(i, "label") // built only on error
			return err
		}
		if written && !hasVisible(s.Label) && strings.TrimFunc(s.Label, unicode.IsSpace) != "" {
			// A blank label is no label; one of only invisible characters looks like none and is not.
			return &ValidationError{Path: sectionPath(i, "label"), Rule: ruleInvisible}
		}
		if s.Role != "" && !validRole(s.Role) {
			return &ValidationError{Path: sectionPath(i, "role"), Rule: ruleRole}
		}
		if err := s.checkHolds(i, chorus); err != nil {
			return err
		}
		chorus = chorus || s.Role == RecallChorus
		for j, l := range s.Lines {
			lines++
			if lines > MaxLines {
				return barRuleError(linePath(i, j), "linesTotal", "max", MaxLines)
			}
			a, err := l.check(linePath(i, j))
			if err != nil {
				return err
			}
			aliased = aliased || a
		}
		for j, bar := range s.Bars {
			total++
			if total > MaxBars {
				return &ValidationError{Path: barPath(i, j), Rule: ruleTotalBars}
			}
			if bar.Plain() {
				if len(bar.Chords) < 1 || len(bar.Chords) > MaxChordsPerBar {
					return &ValidationError{Path: barPath(i, j), Rule: ruleBar}
				}
				for k, sym := range bar.Chords {
					canonical, ok := chord.Canonical(sym)
					if !ok {
						return chordError(barPath(i, j)+"["+strconv.Itoa(k)+"]", sym)
					}
					aliased = aliased || !canonical
				}
				continue
			}
			formed = true
			if err := bar.check(barPath(i, j)); err != nil {
				return err
			}
			if err := bar.checkDurations(barPath(i, j), cmp.Or(bar.Beats, c.BeatsPerBar)); err != nil {
				return err
			}
			for _, sym := range bar.Chords {
				canonical, _ := chord.Canonical(sym)
				aliased = aliased || !canonical
			}
		}
	}
	if formed {
		if _, err := c.PlayOrder(); err != nil {
			return err
		}
	}
	// The size is that of the content as stored: an alias can be longer in the catalogue's spelling
	// ("mM7" is stored "m(maj7)"), and what is stored must pass these rules when it is read again.
	stored := c
	if aliased {
		stored = c.storedCopy()
	}
	// A cheap bound first: boards far from the limit skip the exact count.
	if encodedLenBound(stored) > MaxContentBytes {
		if n := exactEncodedLen(stored); n > MaxContentBytes {
			return &ValidationError{Rule: fmt.Sprintf("%s (as stored, every chord in the catalogue's spelling), not %d", ruleSize, n)}
		}
	}
	return nil
}

func sectionPath(i int, field string) string {
	return "sections[" + strconv.Itoa(i) + "]." + field
}

func barPath(i, j int) string {
	return "sections[" + strconv.Itoa(i) + "].bars[" + strconv.Itoa(j) + "]"
}

// hasVisible reports whether s holds a character that shows: not a space, a control or format
// character (zero-width space, joiners, bidi controls, soft hyphen, BOM), a variation selector, another
// default-ignorable code point (the Hangul fillers) or the blank Braille pattern.
func hasVisible(s string) bool {
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf && r > ' ' && r != 0x7f:
			return true
		case unicode.IsSpace(r), unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Variation_Selector, r),
			unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r), r == '\u2800', r == utf8.RuneError:
		default:
			return true
		}
	}
	return false
}

// checkText checks that s is valid UTF-8 of min–max UTF-16 code units.
func checkText(path, s string, min, max int, rule string) error {
	if !utf8.ValidString(s) {
		return &ValidationError{Path: path, Rule: ruleUTF8}
	}
	n := utf16count.Of(s)
	if n < min || n > max {
		return &ValidationError{Path: path, Rule: rule}
	}
	return nil
}

// encodedLenBound is an upper bound of exactEncodedLen: every byte of a string costs at most six bytes
// encoded (\u00XX), and everything else as much as in the exact count.
func encodedLenBound(c Content) int {
	n := len(`{"title":,"description":,"key":,"tempo":,"beatsPerBar":,"sections":[]}`) + 2*24
	n += 6*len(c.Title) + 2 + 6*len(c.Description) + 2 + 6*len(c.Key) + 2
	n += len(`,"artist":,"composer":,"style":`) + 6*(len(c.Artist)+len(c.Composer)+len(c.Style)) + 6
	for _, s := range c.Sections {
		n += len(`{"label":,"role":,"recall":,"bars":null,"lines":[]},`) + 6*len(s.Label) + 2 + 6*len(s.Role) + 2 + 6*len(s.Recall) + 2
		for _, l := range s.Lines {
			n += lineEncodedBound(l)
		}
		for _, bar := range s.Bars {
			n += len(`null,`) + barObjectBound
			for _, sym := range bar.Chords {
				n += 6*len(sym) + 3
			}
			n += 6*len(bar.Mark) + len(`,"durations":[]`) + 21*len(bar.Durations)
		}
	}
	return n
}

// barObjectBound bounds what a bar object adds to its chords and its mark's text (each counted apart).
const barObjectBound = len(`{"chords":"%","beats":-9223372036854775808,"repeatStart":true,"repeatEnd":-9223372036854775808,"ending":-9223372036854775808,"mark":""}`)

// exactEncodedLen is len(json.Marshal(c)), computed without encoding. (The stored encoding is
// json.Marshal's: HTML-escaped, compact.)
func exactEncodedLen(c Content) int {
	// {"title":…,"description":…,"key":…,"tempo":…,"beatsPerBar":…,"sections":[…]}
	n := len(`{"title":,"description":,"tempo":,"beatsPerBar":,"sections":[]}`)
	n += jsonStringLen(c.Title) + jsonStringLen(c.Description)
	for _, f := range [...]struct{ name, s string }{{"artist", c.Artist}, {"composer", c.Composer}, {"style", c.Style}, {"key", c.Key}} {
		if f.s != "" {
			n += len(`"":,`) + len(f.name) + jsonStringLen(f.s)
		}
	}
	n += intLen(c.Tempo) + intLen(c.BeatsPerBar)
	for i, s := range c.Sections {
		if i > 0 {
			n++ // ,
		}
		n += len(`{"label":}`) + jsonStringLen(s.Label)
		if s.Role != "" {
			n += len(`,"role":`) + jsonStringLen(string(s.Role))
		}
		if s.Recall != "" {
			n += len(`,"recall":`) + jsonStringLen(string(s.Recall))
		}
		if len(s.Bars) > 0 {
			n += len(`,"bars":[]`)
		}
		for j, bar := range s.Bars {
			if j > 0 {
				n++
			}
			n += barEncodedLen(bar)
		}
		if len(s.Lines) > 0 {
			n += len(`,"lines":[]`)
		}
		for j, l := range s.Lines {
			if j > 0 {
				n++
			}
			n += lineEncodedLen(l)
		}
	}
	if c.Sections == nil {
		n += len(`null`) - len(`[]`)
	}
	return n
}

// barEncodedLen is len(json.Marshal(bar)) (see Bar.MarshalJSON).
func barEncodedLen(bar Bar) int {
	n := 0
	switch {
	case bar.Simile:
		n += len(`"%"`)
	case bar.Chords == nil:
		n += len(`null`)
	default:
		n += 2 // []
		for k, sym := range bar.Chords {
			if k > 0 {
				n++
			}
			n += jsonStringLen(sym)
		}
	}
	if bar.Plain() {
		return n
	}
	n += len(`{"chords":}`)
	if bar.Durations != nil {
		n += len(`,"durations":[]`)
		for k, d := range bar.Durations {
			if k > 0 {
				n++
			}
			n += intLen(d)
		}
	}
	if bar.Beats != 0 {
		n += len(`,"beats":`) + intLen(bar.Beats)
	}
	if bar.RepeatStart {
		n += len(`,"repeatStart":true`)
	}
	if bar.RepeatEnd != 0 {
		n += len(`,"repeatEnd":`) + intLen(bar.RepeatEnd)
	}
	if bar.Ending != 0 {
		n += len(`,"ending":`) + intLen(bar.Ending)
	}
	if bar.Mark != "" {
		n += len(`,"mark":`) + jsonStringLen(string(bar.Mark))
	}
	if bar.ToCoda {
		n += len(`,"toCoda":true`)
	}
	return n
}

func intLen(i int) int {
	var b [24]byte
	return len(strconv.AppendInt(b[:0], int64(i), 10))
}

// jsonStringLen is the length of s as encoding/json writes it: quoted, with \" \\ \n \r \t \b \f as
// two bytes, other control characters and < > & U+2028 U+2029 as \uXXXX, and invalid bytes as \ufffd.
func jsonStringLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n += int(asciiJSONLen[c])
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 6
		case r == '\u2028' || r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}

// asciiJSONLen is how many bytes encoding/json writes for each ASCII byte in a string. Read only.
var asciiJSONLen = func() (t [utf8.RuneSelf]uint8) {
	for c := range t {
		switch {
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f':
			t[c] = 2
		case c < 0x20 || c == '<' || c == '>' || c == '&':
			t[c] = 6
		default:
			t[c] = 1
		}
	}
	return t
}()

// storable validates c and returns it as the store keeps it. Every write of the store (create, put,
// restore, a move from the previous layout) passes its content through here, so nothing is stored that
// the next Open would refuse: Validate's size rule is the stored copy's.
func storable(c Content) (Content, error) {
	if err := c.Validate(); err != nil {
		return Content{}, err
	}
	return c.storedCopy(), nil
}

// storedCopy returns a copy of valid content, as the store keeps it: every chord symbol in the
// catalogue's spelling ("Cø" → "Cm7b5", "B♭7" → "Bb7"), in bars and lines, and durations that share the bar evenly
// ([2, 2]) left out, as they say what no durations say. A symbol already so spelled is kept as is.
func (c Content) storedCopy() Content {
	out := c.Clone()
	for _, s := range out.Sections {
		respellLines(s.Lines)
		for j, bar := range s.Bars {
			if evenDurations(bar.Durations) {
				s.Bars[j].Durations = nil
			}
			for k, sym := range bar.Chords {
				if canonical, _ := chord.Canonical(sym); !canonical {
					if ch, ok := chord.Parse(sym); ok {
						bar.Chords[k] = ch.String()
					}
				}
			}
		}
	}
	return out
}

// respellLines writes every chord of lines in the catalogue's spelling, in place.
func respellLines(lines []Line) {
	for _, l := range lines {
		for k, lc := range l.Chords {
			if canonical, _ := chord.Canonical(lc.Chord); !canonical {
				if ch, ok := chord.Parse(lc.Chord); ok {
					l.Chords[k].Chord = ch.String()
				}
			}
		}
	}
}
