package chord

// row is one quality of the catalogue: its suffix (the catalogue's spelling, written after the root), a
// readable name, its intervals in semitones above the root (0 first, rising, within two octaves, enough
// to voice it), and the other spellings musicians write for it. More spellings are generated from these
// (see aliases.go): "-", "min" and "mi" for a leading "m"; "M", "Maj", "ma", "j", "^", "Δ", "∆" and "△"
// for a "maj"; and any spelling may put its alterations in parentheses ("7(b9)").
type row struct {
	suffix    string
	name      string
	intervals []int
	aliases   []string
}

// table is the catalogue's qualities, in the order the catalogue lists them. Read only. A test checks
// that every row reads (read.go) to its own intervals, so the table and the reader of other programs'
// spellings cannot disagree.
var table = [...]row{
	{"", "major", []int{0, 4, 7}, []string{"maj", "major"}},
	{"m", "minor", []int{0, 3, 7}, []string{"minor"}},
	{"7", "dominant seventh", []int{0, 4, 7, 10}, nil},
	{"maj7", "major seventh", []int{0, 4, 7, 11}, []string{"Δ", "∆", "△", "^"}},
	{"m7", "minor seventh", []int{0, 3, 7, 10}, nil},
	{"6", "major sixth", []int{0, 4, 7, 9}, nil},
	{"m6", "minor sixth", []int{0, 3, 7, 9}, nil},
	{"9", "dominant ninth", []int{0, 4, 7, 10, 14}, nil},
	{"m9", "minor ninth", []int{0, 3, 7, 10, 14}, nil},
	{"maj9", "major ninth", []int{0, 4, 7, 11, 14}, nil},
	{"add9", "added ninth", []int{0, 4, 7, 14}, nil},
	{"sus2", "suspended second", []int{0, 2, 7}, []string{"2"}},
	{"sus4", "suspended fourth", []int{0, 5, 7}, []string{"sus"}},
	{"7sus4", "dominant seventh, suspended fourth", []int{0, 5, 7, 10}, []string{"7sus"}},
	{"dim", "diminished", []int{0, 3, 6}, []string{"°", "o"}},
	{"dim7", "diminished seventh", []int{0, 3, 6, 9}, []string{"°7", "o7"}},
	{"m7b5", "half-diminished (minor seventh, flat five)", []int{0, 3, 6, 10}, []string{"ø", "ø7", "Ø", "Ø7", "h", "h7", "m7-5"}},
	{"aug", "augmented", []int{0, 4, 8}, []string{"+", "+5"}},
	{"7b9", "dominant seventh, flat nine", []int{0, 4, 7, 10, 13}, nil},
	{"7#9", "dominant seventh, sharp nine", []int{0, 4, 7, 10, 15}, nil},
	{"13", "dominant thirteenth", []int{0, 4, 7, 10, 14, 21}, nil},
	{"5", "power chord (root and fifth)", []int{0, 7}, nil},
	{"m(maj7)", "minor-major seventh", []int{0, 3, 7, 11}, []string{"mmaj7", "mM7", "minmaj7"}},
	{"7b5", "dominant seventh, flat five", []int{0, 4, 6, 10}, nil},
	{"7#5", "dominant seventh, sharp five", []int{0, 4, 8, 10}, []string{"+7", "7+", "aug7", "7+5"}},
	{"m11", "minor eleventh", []int{0, 3, 7, 10, 14, 17}, nil},
	{"6/9", "six-nine", []int{0, 4, 7, 9, 14}, []string{"69"}},
	{"9sus4", "ninth, suspended fourth", []int{0, 5, 7, 10, 14}, []string{"9sus"}},
	{"11", "dominant eleventh (no third)", []int{0, 7, 10, 14, 17}, nil},
	{"13sus4", "thirteenth, suspended fourth", []int{0, 5, 7, 10, 14, 21}, []string{"13sus"}},
	{"7#11", "dominant seventh, sharp eleven", []int{0, 4, 7, 10, 18}, nil},
	{"9#11", "dominant ninth, sharp eleven", []int{0, 4, 7, 10, 14, 18}, nil},
	{"7b13", "dominant seventh, flat thirteen", []int{0, 4, 7, 10, 20}, nil},
	{"7alt", "altered dominant (flat nine, sharp nine, flat thirteen)", []int{0, 4, 10, 13, 15, 20}, []string{"alt"}},
	{"add2", "added second", []int{0, 2, 4, 7}, nil},
	{"maj13", "major thirteenth", []int{0, 4, 7, 11, 14, 21}, nil},
	{"m13", "minor thirteenth", []int{0, 3, 7, 10, 14, 21}, nil},
	{"7b9b13", "dominant seventh, flat nine, flat thirteen", []int{0, 4, 7, 10, 13, 20}, nil},
	// Catalogue version 3: the qualities real books write (iReal Pro's own list among them).
	{"maj7#11", "major seventh, sharp eleven (Lydian)", []int{0, 4, 7, 11, 18}, nil},
	{"maj9#11", "major ninth, sharp eleven", []int{0, 4, 7, 11, 14, 18}, nil},
	{"maj7#5", "major seventh, sharp five", []int{0, 4, 8, 11}, []string{"maj7+5", "+maj7", "augmaj7"}},
	{"m(add9)", "minor, added ninth", []int{0, 3, 7, 14}, []string{"madd9"}},
	{"m(maj9)", "minor-major ninth", []int{0, 3, 7, 11, 14}, []string{"mmaj9", "mM9"}},
	{"m6/9", "minor six-nine", []int{0, 3, 7, 9, 14}, []string{"m69"}},
	{"mb6", "minor, flat six", []int{0, 3, 7, 8}, nil},
	{"m#5", "minor, sharp five", []int{0, 3, 8}, []string{"m+", "m+5"}},
	{"m9b5", "half-diminished ninth", []int{0, 3, 6, 10, 14}, []string{"ø9", "Ø9", "h9"}},
	{"dim(maj7)", "diminished major seventh", []int{0, 3, 6, 11}, []string{"o(maj7)", "°(maj7)", "dimmaj7"}},
	{"6/9#11", "six-nine, sharp eleven", []int{0, 4, 7, 9, 14, 18}, []string{"69#11"}},
	{"13b9", "dominant thirteenth, flat nine", []int{0, 4, 7, 10, 13, 21}, nil},
	{"13#9", "dominant thirteenth, sharp nine", []int{0, 4, 7, 10, 15, 21}, nil},
	{"13#11", "dominant thirteenth, sharp eleven", []int{0, 4, 7, 10, 14, 18, 21}, nil},
	{"9b5", "dominant ninth, flat five", []int{0, 4, 6, 10, 14}, nil},
	{"9#5", "dominant ninth, sharp five", []int{0, 4, 8, 10, 14}, []string{"9+", "9+5"}},
	{"7b9b5", "dominant seventh, flat nine, flat five", []int{0, 4, 6, 10, 13}, nil},
	{"7b9#5", "dominant seventh, flat nine, sharp five", []int{0, 4, 8, 10, 13}, nil},
	{"7#9b5", "dominant seventh, sharp nine, flat five", []int{0, 4, 6, 10, 15}, nil},
	{"7#9#5", "dominant seventh, sharp nine, sharp five", []int{0, 4, 8, 10, 15}, nil},
	{"7b9#9", "dominant seventh, flat nine, sharp nine", []int{0, 4, 7, 10, 13, 15}, nil},
	{"7b9#11", "dominant seventh, flat nine, sharp eleven", []int{0, 4, 7, 10, 13, 18}, nil},
	{"7#9#11", "dominant seventh, sharp nine, sharp eleven", []int{0, 4, 7, 10, 15, 18}, nil},
	{"7sus4b9", "dominant seventh, suspended fourth, flat nine", []int{0, 5, 7, 10, 13}, []string{"7b9sus", "7b9sus4", "7susb9"}},
	{"7sus4b13", "dominant seventh, suspended fourth, flat thirteen", []int{0, 5, 7, 10, 20}, []string{"7b13sus", "7b13sus4"}},
	{"7sus4add3", "dominant seventh, suspended fourth, added third", []int{0, 4, 5, 7, 10}, []string{"7susadd3"}},
}

// noChords are the spellings of NoChord, matched in any letter case: iReal Pro writes "n", lead
// sheets "N.C." and "NC".
var noChords = [...]string{"N.C.", "NC", "N.C", "NC.", "N"}

// pitchOfLetter is the pitch class of each root letter, A to G.
var pitchOfLetter = [...]int{9, 11, 0, 2, 4, 5, 7}

// rootNames are the roots in the catalogue's order. Keys take the first 17; Cb, Fb, E# and B# are
// roots of chords only (a chart in B writes Cb… rarely, but a chord in a flat key may be spelled so).
var rootNames = [...]string{
	"C", "C#", "Db", "D", "D#", "Eb", "E", "F", "F#", "Gb", "G", "G#", "Ab", "A", "A#", "Bb", "B",
	"Cb", "Fb", "E#", "B#",
}

const keyRoots = 17
