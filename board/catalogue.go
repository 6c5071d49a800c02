package board

import (
	"encoding/json"
	"strings"
	"sync"
)

// CatalogueVersion changes whenever a root, quality or alias is added, removed or revoiced. Version 2
// added qualities and the aliases; every symbol version 1 accepted is still accepted (mmaj7 is now an
// alias of m(maj7)).
const CatalogueVersion = 2

// NoChord is the symbol of a bar (or part of one) where nothing sounds.
const NoChord = "N.C."

// CatalogueDoc is the chord library (docs/content.md), as GET /api/catalogue and the tool's catalogue action
// serve it. A chord symbol is a root followed by a quality suffix ("F#" + "m7b5"), optionally "/" and a
// root for the bass ("C/E"), or NoChord. Other spellings musicians write are accepted and stored in the
// catalogue's: every accidental character is replaced ("B♭" → "Bb"), and a quality alias stands for its
// suffix ("CΔ" → "Cmaj7").
type CatalogueDoc struct {
	Version        int       `json:"version"`
	SchemaVersions []int     `json:"schemaVersions"` // the content schema versions this server reads (docs/content.md)
	Roots          []Root    `json:"roots"`
	Qualities      []Quality `json:"qualities"`
	Aliases        []Alias   `json:"aliases"`
	Accidentals    []Alias   `json:"accidentals"`
	NoChord        string    `json:"noChord"`
}

// Root is a chord root and its pitch class (C = 0 … B = 11).
type Root struct {
	Name       string `json:"name"`
	PitchClass int    `json:"pitchClass"`
}

// Quality is a chord quality: the suffix written after the root, a readable name, and the chord's
// intervals in semitones above the root (0 first), enough to voice it.
type Quality struct {
	Suffix    string `json:"suffix"`
	Name      string `json:"name"`
	Intervals []int  `json:"intervals"`
}

// Alias is another spelling of a catalogue spelling: a quality suffix ("ø" for "m7b5"), or, among
// the accidentals, a character ("♭" for "b").
type Alias struct {
	Alias  string `json:"alias"`
	Suffix string `json:"suffix"`
}

// Chord is a parsed chord symbol, in the catalogue's spelling. For NoChord only NoChord is set.
type Chord struct {
	Root    string // "F#"
	Quality string // the suffix: "m7b5"; "" is major
	Bass    string // "" or a root: the bass of a slash chord
	NoChord bool
}

// roots and qualities are the catalogue. Read only: Catalogue hands out copies.
var roots = [...]Root{
	{"C", 0}, {"C#", 1}, {"Db", 1}, {"D", 2}, {"D#", 3}, {"Eb", 3}, {"E", 4}, {"F", 5}, {"F#", 6},
	{"Gb", 6}, {"G", 7}, {"G#", 8}, {"Ab", 8}, {"A", 9}, {"A#", 10}, {"Bb", 10}, {"B", 11},
}

var qualities = [...]Quality{
	{"", "major", []int{0, 4, 7}},
	{"m", "minor", []int{0, 3, 7}},
	{"7", "dominant seventh", []int{0, 4, 7, 10}},
	{"maj7", "major seventh", []int{0, 4, 7, 11}},
	{"m7", "minor seventh", []int{0, 3, 7, 10}},
	{"6", "major sixth", []int{0, 4, 7, 9}},
	{"m6", "minor sixth", []int{0, 3, 7, 9}},
	{"9", "dominant ninth", []int{0, 4, 7, 10, 14}},
	{"m9", "minor ninth", []int{0, 3, 7, 10, 14}},
	{"maj9", "major ninth", []int{0, 4, 7, 11, 14}},
	{"add9", "added ninth", []int{0, 4, 7, 14}},
	{"sus2", "suspended second", []int{0, 2, 7}},
	{"sus4", "suspended fourth", []int{0, 5, 7}},
	{"7sus4", "dominant seventh, suspended fourth", []int{0, 5, 7, 10}},
	{"dim", "diminished", []int{0, 3, 6}},
	{"dim7", "diminished seventh", []int{0, 3, 6, 9}},
	{"m7b5", "half-diminished (minor seventh, flat five)", []int{0, 3, 6, 10}},
	{"aug", "augmented", []int{0, 4, 8}},
	{"7b9", "dominant seventh, flat nine", []int{0, 4, 7, 10, 13}},
	{"7#9", "dominant seventh, sharp nine", []int{0, 4, 7, 10, 15}},
	{"13", "dominant thirteenth", []int{0, 4, 7, 10, 14, 21}},
	{"5", "power chord (root and fifth)", []int{0, 7}},
	{"m(maj7)", "minor-major seventh", []int{0, 3, 7, 11}},
	{"7b5", "dominant seventh, flat five", []int{0, 4, 6, 10}},
	{"7#5", "dominant seventh, sharp five", []int{0, 4, 8, 10}},
	{"m11", "minor eleventh", []int{0, 3, 7, 10, 14, 17}},
	{"6/9", "six-nine", []int{0, 4, 7, 9, 14}},
	{"9sus4", "ninth, suspended fourth", []int{0, 5, 7, 10, 14}},
	{"11", "dominant eleventh (no third)", []int{0, 7, 10, 14, 17}},
	{"13sus4", "thirteenth, suspended fourth", []int{0, 5, 7, 10, 14, 21}},
	{"7#11", "dominant seventh, sharp eleven", []int{0, 4, 7, 10, 18}},
	{"9#11", "dominant ninth, sharp eleven", []int{0, 4, 7, 10, 14, 18}},
	{"7b13", "dominant seventh, flat thirteen", []int{0, 4, 7, 10, 20}},
	{"7alt", "altered dominant (flat nine, sharp nine, flat thirteen)", []int{0, 4, 10, 13, 15, 20}},
	{"add2", "added second", []int{0, 2, 4, 7}},
	{"maj13", "major thirteenth", []int{0, 4, 7, 11, 14, 21}},
	{"m13", "minor thirteenth", []int{0, 3, 7, 10, 14, 21}},
	{"7b9b13", "dominant seventh, flat nine, flat thirteen", []int{0, 4, 7, 10, 13, 20}},
}

// accidentals are characters replaced wherever they appear in a symbol. Read only.
var accidentals = [...]Alias{{"♭", "b"}, {"♯", "#"}}

// qualityAliases are the other spellings of quality suffixes musicians write, each standing for one
// catalogue suffix. Read only. Generated families: "M", "Maj", "ma" and "Δ" for the "maj" of maj7,
// maj9, maj13; "-", "min" and "mi" for the "m" of the minor qualities.
var qualityAliases = func() []Alias {
	out := []Alias{
		{"Δ", "maj7"}, {"ø", "m7b5"}, {"m7-5", "m7b5"},
		{"mmaj7", "m(maj7)"}, {"mMaj7", "m(maj7)"}, {"mM7", "m(maj7)"}, {"m(M7)", "m(maj7)"},
		{"°", "dim"}, {"°7", "dim7"}, {"o", "dim"}, {"o7", "dim7"},
		{"+", "aug"}, {"+7", "7#5"}, {"7+", "7#5"}, {"aug7", "7#5"},
		{"69", "6/9"}, {"sus", "sus4"}, {"7sus", "7sus4"}, {"9sus", "9sus4"}, {"13sus", "13sus4"},
		{"alt", "7alt"},
	}
	for _, q := range qualities {
		if rest, ok := strings.CutPrefix(q.Suffix, "maj"); ok {
			for _, p := range []string{"M", "Maj", "ma", "Δ"} {
				out = append(out, Alias{p + rest, q.Suffix})
			}
		} else if rest, ok := strings.CutPrefix(q.Suffix, "m"); ok {
			out = append(out, Alias{"-" + rest, q.Suffix}, Alias{"min" + rest, q.Suffix}, Alias{"mi" + rest, q.Suffix})
		}
	}
	return out
}()

// aliasSuffix maps each quality alias to its suffix. Read only.
var aliasSuffix = func() map[string]string {
	m := make(map[string]string, len(qualityAliases))
	for _, a := range qualityAliases {
		m[a.Alias] = a.Suffix
	}
	return m
}()

// Catalogue returns the chord library. The result is the caller's to keep or change.
func Catalogue() CatalogueDoc {
	doc := CatalogueDoc{
		Version:        CatalogueVersion,
		SchemaVersions: append([]int(nil), contentSchemaVersions[:]...),
		Roots:          append([]Root(nil), roots[:]...),
		Aliases:        append([]Alias(nil), qualityAliases...),
		Accidentals:    append([]Alias(nil), accidentals[:]...),
		NoChord:        NoChord,
	}
	doc.Qualities = make([]Quality, len(qualities))
	for i, q := range qualities {
		q.Intervals = append([]int(nil), q.Intervals...)
		doc.Qualities[i] = q
	}
	return doc
}

// catalogueJSON is the catalogue encoded once, on first use.
var catalogueJSON = sync.OnceValue(func() []byte {
	b, err := json.Marshal(Catalogue())
	if err != nil {
		panic("board: cannot encode the catalogue: " + err.Error())
	}
	return b
})

// CatalogueJSON returns the catalogue's JSON encoding (made once; each call returns its own copy).
func CatalogueJSON() []byte {
	return append([]byte(nil), catalogueJSON()...)
}

// rootPitch returns the pitch class of a catalogue root: a letter A–G, optionally # or b, except the
// enharmonic spellings the catalogue leaves out (E#, B#, Cb, Fb). It agrees with the roots table (a test
// checks), and is written out because chord validation calls it for every symbol.
func rootPitch(name string) (int, bool) {
	if len(name) == 0 || len(name) > 2 {
		return 0, false
	}
	pc := 0
	switch name[0] {
	case 'C':
		pc = 0
	case 'D':
		pc = 2
	case 'E':
		pc = 4
	case 'F':
		pc = 5
	case 'G':
		pc = 7
	case 'A':
		pc = 9
	case 'B':
		pc = 11
	default:
		return 0, false
	}
	if len(name) == 1 {
		return pc, true
	}
	switch name {
	case "E#", "B#", "Cb", "Fb":
		return 0, false
	}
	switch name[1] {
	case '#':
		return (pc + 1) % 12, true
	case 'b':
		return (pc + 11) % 12, true
	}
	return 0, false
}

// qualityIndex returns the index in qualities of a suffix, or -1. It is written out as a switch (the
// compiler makes it a binary search, faster than hashing into a map) and agrees with the table (a test
// checks): chord validation calls it for every symbol.
func qualityIndex(suffix string) int {
	switch suffix {
	case "":
		return 0
	case "m":
		return 1
	case "7":
		return 2
	case "maj7":
		return 3
	case "m7":
		return 4
	case "6":
		return 5
	case "m6":
		return 6
	case "9":
		return 7
	case "m9":
		return 8
	case "maj9":
		return 9
	case "add9":
		return 10
	case "sus2":
		return 11
	case "sus4":
		return 12
	case "7sus4":
		return 13
	case "dim":
		return 14
	case "dim7":
		return 15
	case "m7b5":
		return 16
	case "aug":
		return 17
	case "7b9":
		return 18
	case "7#9":
		return 19
	case "13":
		return 20
	case "5":
		return 21
	case "m(maj7)":
		return 22
	case "7b5":
		return 23
	case "7#5":
		return 24
	case "m11":
		return 25
	case "6/9":
		return 26
	case "9sus4":
		return 27
	case "11":
		return 28
	case "13sus4":
		return 29
	case "7#11":
		return 30
	case "9#11":
		return 31
	case "7b13":
		return 32
	case "7alt":
		return 33
	case "add2":
		return 34
	case "maj13":
		return 35
	case "m13":
		return 36
	case "7b9b13":
		return 37
	}
	return -1
}

// qualityOf returns the catalogue suffix a typed quality stands for: itself, or the suffix of an alias.
func qualityOf(typed string) (string, bool) {
	if qualityIndex(typed) >= 0 {
		return typed, true
	}
	suffix, ok := aliasSuffix[typed]
	return suffix, ok
}

// ParseChord parses a chord symbol: NoChord, or a root, a quality, and optionally "/" with a root for
// the bass, where the root is a catalogue root and the quality a catalogue suffix or one of its
// aliases, and accidental characters (♭ ♯) may stand for b and #. The Chord is in the catalogue's
// spelling: ParseChord("B♭Δ/D").String() is "Bbmaj7/D". Nothing else is accepted: no spaces, no
// enharmonic roots the catalogue leaves out (E#, Cb), and suffixes are case-sensitive ("M7" is maj7,
// "m7" minor seventh).
func ParseChord(symbol string) (Chord, bool) {
	if symbol == NoChord {
		return Chord{NoChord: true}, true
	}
	root, quality, bass, ok := splitChord(withPlainAccidentals(symbol))
	if !ok {
		return Chord{}, false
	}
	quality, _ = qualityOf(quality)
	return Chord{Root: root, Quality: quality, Bass: bass}, true
}

// canonicalChord reports whether symbol is a chord (ok) and whether it is already written in the
// catalogue's spelling (canonical). It allocates nothing for a symbol in the catalogue's spelling:
// validation calls it for every symbol of a board.
func canonicalChord(symbol string) (canonical, ok bool) {
	if symbol == NoChord {
		return true, true
	}
	if _, quality, _, ok := splitChord(symbol); ok {
		return qualityIndex(quality) >= 0, true
	}
	if plain := withPlainAccidentals(symbol); plain != symbol {
		_, _, _, ok := splitChord(plain)
		return false, ok
	}
	return false, false
}

// withPlainAccidentals replaces the accidental characters (♭ ♯) of s by b and #.
func withPlainAccidentals(s string) string {
	for _, a := range accidentals {
		if strings.Contains(s, a.Alias) {
			s = strings.ReplaceAll(s, a.Alias, a.Suffix)
		}
	}
	return s
}

// splitChord splits a symbol other than NoChord, written with plain accidentals, into catalogue root,
// typed quality (a suffix or an alias) and bass root. The bass follows the last "/" when what follows
// is a root ("C6/9" is C six-nine, "C6/9/E" has the bass E). The longest root comes first: "C#m" is C#
// minor, and "Cb" is no chord at all (Cb is no catalogue root and "b" no quality).
func splitChord(symbol string) (root, quality, bass string, ok bool) {
	main := symbol
	if i := strings.LastIndexByte(symbol, '/'); i >= 0 {
		if _, ok := rootPitch(symbol[i+1:]); ok {
			main, bass = symbol[:i], symbol[i+1:]
		}
	}
	if len(main) >= 2 && (main[1] == '#' || main[1] == 'b') {
		if _, ok := rootPitch(main[:2]); ok {
			if _, ok := qualityOf(main[2:]); ok {
				return main[:2], main[2:], bass, true
			}
		}
	}
	if len(main) >= 1 {
		if _, ok := rootPitch(main[:1]); ok {
			if _, ok := qualityOf(main[1:]); ok {
				return main[:1], main[1:], bass, true
			}
		}
	}
	return "", "", "", false
}

// String writes the chord back as a symbol.
func (c Chord) String() string {
	if c.NoChord {
		return NoChord
	}
	if c.Bass != "" {
		return c.Root + c.Quality + "/" + c.Bass
	}
	return c.Root + c.Quality
}
