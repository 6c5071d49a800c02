package board

import (
	"encoding/json"
	"strings"
	"sync"
)

// CatalogueVersion changes whenever a root or quality is added, removed or revoiced.
const CatalogueVersion = 1

// NoChord is the symbol of a bar (or part of one) where nothing sounds.
const NoChord = "N.C."

// CatalogueDoc is the chord library (SPEC 3.3), as GET /api/catalogue and the tool's catalogue action
// serve it. A chord symbol is a root followed by a quality suffix ("F#" + "m7b5"), optionally "/" and a
// root for the bass ("C/E"), or NoChord.
type CatalogueDoc struct {
	Version   int       `json:"version"`
	Roots     []Root    `json:"roots"`
	Qualities []Quality `json:"qualities"`
	NoChord   string    `json:"noChord"`
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

// Chord is a parsed chord symbol. For NoChord only NoChord is set.
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
	{"mmaj7", "minor-major seventh", []int{0, 3, 7, 11}},
	{"7b5", "dominant seventh, flat five", []int{0, 4, 6, 10}},
	{"7#5", "dominant seventh, sharp five", []int{0, 4, 8, 10}},
	{"m11", "minor eleventh", []int{0, 3, 7, 10, 14, 17}},
}

// Catalogue returns the chord library. The result is the caller's to keep or change.
func Catalogue() CatalogueDoc {
	doc := CatalogueDoc{Version: CatalogueVersion, Roots: append([]Root(nil), roots[:]...), NoChord: NoChord}
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
	case "mmaj7":
		return 22
	case "7b5":
		return 23
	case "7#5":
		return 24
	case "m11":
		return 25
	}
	return -1
}

// ParseChord parses a chord symbol: NoChord, or a catalogue root, a catalogue quality suffix, and
// optionally "/" with a catalogue root for the bass. Nothing else is accepted: no spaces, no other
// spellings (E#, Cb), suffixes are case-sensitive ("maj7", not "Maj7").
func ParseChord(symbol string) (Chord, bool) {
	if symbol == NoChord {
		return Chord{NoChord: true}, true
	}
	root, quality, bass, ok := splitChord(symbol)
	if !ok {
		return Chord{}, false
	}
	return Chord{Root: root, Quality: quality, Bass: bass}, true
}

// validChord is ParseChord's verdict alone (validation runs it for every symbol of a board).
func validChord(symbol string) bool {
	if symbol == NoChord {
		return true
	}
	_, _, _, ok := splitChord(symbol)
	return ok
}

// splitChord splits a symbol other than NoChord into catalogue root, quality suffix and bass root. The
// bass follows the last "/" (no quality contains one). The longest root comes first: "C#m" is C#
// minor, and "Cb" is no chord at all (Cb is no catalogue root and "b" no quality).
func splitChord(symbol string) (root, quality, bass string, ok bool) {
	main := symbol
	if i := strings.LastIndexByte(symbol, '/'); i >= 0 {
		main, bass = symbol[:i], symbol[i+1:]
		if _, ok := rootPitch(bass); !ok {
			return "", "", "", false
		}
	}
	if len(main) >= 2 && (main[1] == '#' || main[1] == 'b') {
		if _, ok := rootPitch(main[:2]); ok && qualityIndex(main[2:]) >= 0 {
			return main[:2], main[2:], bass, true
		}
	}
	if len(main) >= 1 {
		if _, ok := rootPitch(main[:1]); ok && qualityIndex(main[1:]) >= 0 {
			return main[:1], main[1:], bass, true
		}
	}
	return "", "", "", false
}

// Intervals returns the semitones above the root of the chord's quality (nil for NoChord).
func (c Chord) Intervals() []int {
	if c.NoChord {
		return nil
	}
	if i := qualityIndex(c.Quality); i >= 0 {
		return append([]int(nil), qualities[i].Intervals...)
	}
	return nil
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
