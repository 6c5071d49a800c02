package chord

import "strings"

// minorSigns are the other spellings of a quality's leading "m"; majorSigns those of a "maj".
var (
	minorSigns = [...]string{"-", "min", "mi"}
	majorSigns = [...]string{"M", "Maj", "ma", "^", "Δ", "∆"}
)

// Alias is another spelling of a catalogue spelling: a quality suffix ("ø" for "m7b5"), or, among
// the accidentals, a character ("♭" for "b").
type Alias struct {
	Alias  string `json:"alias"`
	Suffix string `json:"suffix"`
}

// accidentals are characters replaced wherever they appear in a symbol. Read only.
var accidentals = [...]Alias{{"♭", "b"}, {"♯", "#"}}

// index is what the tokenizer looks qualities up in; built once from table and read only after.
type index struct {
	row     map[string]int // catalogue suffix → row
	alias   map[string]int // alias → row
	tones   map[tones]int  // the tones of a row → row
	aliases []Alias        // every alias, in table order
}

var lookup = buildIndex()

func buildIndex() index {
	ix := index{row: map[string]int{}, alias: map[string]int{}, tones: map[tones]int{}}
	for i, r := range table {
		ix.row[r.suffix] = i
		if _, twice := ix.tones[tonesOf(r.intervals)]; !twice {
			ix.tones[tonesOf(r.intervals)] = i
		}
	}
	for i, r := range table {
		for _, a := range spellingsOf(r) {
			if _, isSuffix := ix.row[a]; isSuffix || a == r.suffix {
				continue
			}
			if _, seen := ix.alias[a]; seen {
				continue
			}
			ix.alias[a] = i
			ix.aliases = append(ix.aliases, Alias{a, r.suffix})
		}
	}
	return ix
}

// spellingsOf returns the suffix and explicit aliases of r with the generated ones: a leading "m" (not
// "maj") written with each minor sign, or a "maj" before a number with each major sign. Other
// combinations ("-^7", "m(Δ9)") are read as chord symbols are built (read.go).
func spellingsOf(r row) []string {
	var out []string
	for _, s := range append([]string{r.suffix}, r.aliases...) {
		out = append(out, s)
		if rest, ok := strings.CutPrefix(s, "m"); ok && !strings.HasPrefix(rest, "a") && !strings.HasPrefix(rest, "i") {
			for _, sign := range minorSigns {
				out = append(out, sign+rest)
			}
		}
		// Only a "maj" before a number: "maj" alone is the major triad, and "M" alone too easily a typo.
		if before, after, ok := strings.Cut(s, "maj"); ok && after != "" && '0' <= after[0] && after[0] <= '9' {
			for _, sign := range majorSigns {
				out = append(out, before+sign+after)
			}
		}
	}
	return out
}

// rowOf returns the row a typed quality stands for: a suffix, an alias, or a quality read as chord
// symbols are built (parentheses and commas allowed) to exactly a row's intervals ("7(b9,#11)",
// "-^9"). exact is true when typed is the suffix itself.
func rowOf(typed string) (i int, exact, ok bool) {
	if i, ok := lookup.row[typed]; ok {
		return i, true, true
	}
	if i, ok := lookup.alias[typed]; ok {
		return i, false, true
	}
	if strings.ContainsAny(typed, " /") {
		return 0, false, false // a symbol holds no space, and a slash only in the suffixes that have one
	}
	if r := read(typed); r.all && r.any {
		i, ok := rowWithTones(r.tones)
		return i, false, ok
	}
	return 0, false, false
}
