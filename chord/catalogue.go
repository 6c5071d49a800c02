// Package chord is Tele's one home for chord knowledge: the catalogue (docs/content.md) as a table of
// qualities, each with its intervals and every alias; the tokenizer and root normaliser every reader of
// a chord symbol uses; suggestions for a symbol the catalogue refuses; and the mapping of other
// programs' spellings (ChordPro, iReal Pro) onto the catalogue. The editor's validation, the importers
// and the model's tool all answer through it, and the page's chords.js mirrors it (both are tested
// against chord/testdata/chord-spellings.json). Pure: no I/O, no state.
package chord

// Version changes whenever a root, quality or alias is added, removed or revoiced. Version 2 added
// qualities and the aliases; version 3 the qualities real books write (maj7#11, 13b9, m(add9), …),
// the roots Cb, Fb, E# and B#, iReal Pro's signs (^, h, ∆) and the spellings of NoChord. Every symbol
// an earlier version accepted is still accepted.
const Version = 3

// Doc is the catalogue as data, for GET /api/catalogue and the tool's catalogue action. A chord symbol
// is a root followed by a quality suffix ("F#" + "m7b5"), optionally "/" and a root for the bass
// ("C/E"), or NoChord. Other spellings musicians write are accepted and stored in the catalogue's:
// every accidental character is replaced ("B♭" → "Bb"), a quality alias stands for its suffix ("CΔ" →
// "Cmaj7"), parentheses around a quality's parts may be left out or added ("C7(b9)" → "C7b9"), and
// noChords (in any letter case) stand for NoChord.
type Doc struct {
	Version     int       `json:"version"`
	Roots       []Root    `json:"roots"`
	Qualities   []Quality `json:"qualities"`
	Aliases     []Alias   `json:"aliases"`
	Accidentals []Alias   `json:"accidentals"`
	NoChord     string    `json:"noChord"`
	NoChords    []string  `json:"noChords"`
}

// Root is a chord root and its pitch class (C = 0 … B = 11). Key is false for the roots a chord may
// have but a board's key may not (Cb, Fb, E#, B#).
type Root struct {
	Name       string `json:"name"`
	PitchClass int    `json:"pitchClass"`
	Key        bool   `json:"key"`
}

// Quality is a chord quality: the suffix written after the root, a readable name, its family (which a
// suggestion never changes), and the chord's intervals in semitones above the root (0 first), enough
// to voice it.
type Quality struct {
	Suffix    string `json:"suffix"`
	Name      string `json:"name"`
	Family    Family `json:"family"`
	Intervals []int  `json:"intervals"`
}

// Catalogue returns the catalogue. The result is the caller's to keep or change.
func Catalogue() Doc {
	doc := Doc{
		Version:     Version,
		Aliases:     append([]Alias(nil), lookup.aliases...),
		Accidentals: append([]Alias(nil), accidentals[:]...),
		NoChord:     NoChord,
		NoChords:    append([]string(nil), noChords[:]...),
	}
	for i, name := range rootNames {
		pc, _ := RootPitch(name)
		doc.Roots = append(doc.Roots, Root{Name: name, PitchClass: pc, Key: i < keyRoots})
	}
	for _, r := range table {
		doc.Qualities = append(doc.Qualities, Quality{
			Suffix:    r.suffix,
			Name:      r.name,
			Family:    familyOf(tonesOf(r.intervals)),
			Intervals: append([]int(nil), r.intervals...),
		})
	}
	return doc
}
