package chord

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"tele/chord/chordtest"
)

func TestTable(t *testing.T) {
	required := strings.Fields("m 7 maj7 m7 6 m6 9 m9 maj9 add9 sus2 sus4 7sus4 dim dim7 m7b5 aug 7b9 7#9 13 " +
		"m(maj7) 6/9 9sus4 11 m11 13sus4 7#11 9#11 7b13 7b5 7#5 7alt add2 5 maj13 m13 7b9b13 " +
		"maj7#11 maj9#11 maj7#5 m(add9) 13b9 13#11 7b9#9 7#9#5 7b9#5 7sus4b9 9b5 m9b5 6/9#11 m6/9 " +
		"m(maj9) m#5 dim(maj7) 13#9 7#9b5")
	required = append(required, "")
	seen := map[string]bool{}
	for _, q := range Catalogue().Qualities {
		if seen[q.Suffix] {
			t.Errorf("quality %q twice", q.Suffix)
		}
		seen[q.Suffix] = true
		if q.Name == "" || q.Family == "" || len(q.Intervals) < 2 || q.Intervals[0] != 0 {
			t.Errorf("quality %q: name %q, family %q, intervals %v", q.Suffix, q.Name, q.Family, q.Intervals)
		}
		for i := 1; i < len(q.Intervals); i++ {
			if q.Intervals[i] <= q.Intervals[i-1] || q.Intervals[i] > 23 {
				t.Errorf("quality %q: intervals %v not rising within two octaves", q.Suffix, q.Intervals)
			}
		}
		if ambiguousSpelling(q.Suffix) {
			t.Errorf("quality %q would make symbols ambiguous", q.Suffix)
		}
		// The table and the reader of built spellings agree: every suffix reads to its own intervals,
		// and no two qualities sound alike.
		if r := read(q.Suffix); !r.all || r.tones != tonesOf(q.Intervals) {
			t.Errorf("quality %q reads as %v (all %v), its intervals are %v", q.Suffix, r.tones, r.all, q.Intervals)
		}
		if i, _ := rowWithTones(tonesOf(q.Intervals)); table[i].suffix != q.Suffix {
			t.Errorf("qualities %q and %q have the same intervals", table[i].suffix, q.Suffix)
		}
	}
	for _, s := range required {
		if !seen[s] {
			t.Errorf("quality %q missing", s)
		}
	}
	want := map[string][]int{"": {0, 4, 7}, "m": {0, 3, 7}, "7": {0, 4, 7, 10}, "maj7": {0, 4, 7, 11}, "m7b5": {0, 3, 6, 10}, "dim7": {0, 3, 6, 9},
		"maj7#11": {0, 4, 7, 11, 18}, "13b9": {0, 4, 7, 10, 13, 21}, "m(add9)": {0, 3, 7, 14}, "maj7#5": {0, 4, 8, 11}, "m(maj9)": {0, 3, 7, 11, 14},
		"7sus4b9": {0, 5, 7, 10, 13}, "6/9#11": {0, 4, 7, 9, 14, 18}, "m6/9": {0, 3, 7, 9, 14}, "m9b5": {0, 3, 6, 10, 14}, "7b9#9": {0, 4, 7, 10, 13, 15}}
	for _, q := range Catalogue().Qualities {
		if w, ok := want[q.Suffix]; ok && !reflect.DeepEqual(q.Intervals, w) {
			t.Errorf("%q = %v, want %v", q.Suffix, q.Intervals, w)
		}
	}
	families := map[string]Family{"": Major, "m": Minor, "7": Dominant, "maj7": Major, "m7b5": HalfDiminished, "dim7": Diminished,
		"aug": Augmented, "maj7#5": Augmented, "sus4": Suspended, "7sus4": Suspended, "5": Power, "13b9": Dominant, "m(maj7)": Minor}
	for _, q := range Catalogue().Qualities {
		if f, ok := families[q.Suffix]; ok && q.Family != f {
			t.Errorf("%q is %s, want %s", q.Suffix, q.Family, f)
		}
	}
}

// ambiguousSpelling: a suffix or alias that could be read as part of a root ("b…", "#…") or hold a
// bass ("/E"), or a space. Only "/" followed by a digit is allowed, as in 6/9: no root starts with one.
func ambiguousSpelling(s string) bool {
	if strings.ContainsAny(s, " ") || strings.HasPrefix(s, "#") || strings.HasPrefix(s, "b") {
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '/' && (i+1 == len(s) || s[i+1] < '0' || s[i+1] > '9') {
			return true
		}
	}
	for _, a := range accidentals {
		if strings.Contains(s, a.Alias) {
			return true
		}
	}
	return false
}

func TestAliases(t *testing.T) {
	doc := Catalogue()
	seen := map[string]bool{}
	for _, a := range doc.Aliases {
		i, ok := lookup.row[a.Suffix]
		switch {
		case seen[a.Alias]:
			t.Errorf("alias %q twice", a.Alias)
		case !ok:
			t.Errorf("alias %q stands for %q, not a catalogue suffix", a.Alias, a.Suffix)
		case a.Alias == "" || ambiguousSpelling(a.Alias):
			t.Errorf("alias %q would make symbols ambiguous", a.Alias)
		}
		if _, isSuffix := lookup.row[a.Alias]; isSuffix {
			t.Errorf("alias %q is a catalogue suffix too", a.Alias)
		}
		seen[a.Alias] = true
		// Each alias means what it reads as: the reader and the aliases cannot disagree.
		if r := read(a.Alias); !r.all || r.tones != tonesOf(table[i].intervals) {
			t.Errorf("alias %q of %q reads as %v (all %v)", a.Alias, a.Suffix, r.tones, r.all)
		}
	}
	for alias, suffix := range map[string]string{
		"ø": "m7b5", "h": "m7b5", "h7": "m7b5", "ø7": "m7b5", "m7-5": "m7b5", "Δ": "maj7", "∆": "maj7", "^": "maj7", "^7": "maj7", "Δ7": "maj7", "∆7": "maj7",
		"M7": "maj7", "ma7": "maj7", "Maj7": "maj7", "-": "m", "min": "m", "°": "dim", "°7": "dim7", "+": "aug", "mMaj7": "m(maj7)", "mM7": "m(maj7)",
		"m(M7)": "m(maj7)", "69": "6/9", "sus": "sus4", "7sus": "7sus4", "mmaj7": "m(maj7)", "madd9": "m(add9)", "^7#11": "maj7#11", "-69": "m6/9",
		"7b9sus": "7sus4b9", "h9": "m9b5", "maj": "",
	} {
		if i, ok := lookup.alias[alias]; !ok || table[i].suffix != suffix {
			t.Errorf("alias %q is missing or stands for another quality, want %q", alias, suffix)
		}
	}
	if !reflect.DeepEqual(doc.Accidentals, []Alias{{"♭", "b"}, {"♯", "#"}}) {
		t.Errorf("accidentals %+v", doc.Accidentals)
	}
}

func TestRoots(t *testing.T) {
	doc := Catalogue()
	var names, keys []string
	for _, r := range doc.Roots {
		names = append(names, r.Name)
		if r.Key {
			keys = append(keys, r.Name)
		}
		pc, ok := RootPitch(r.Name)
		if !ok || pc != r.PitchClass {
			t.Errorf("RootPitch(%q) = %d, %v; the catalogue says %d", r.Name, pc, ok, r.PitchClass)
		}
		if IsKey(r.Name) != r.Key || IsKey(r.Name+"m") != r.Key {
			t.Errorf("IsKey(%q) = %v", r.Name, IsKey(r.Name))
		}
	}
	if got := strings.Join(names, " "); got != "C C# Db D D# Eb E F F# Gb G G# Ab A A# Bb B Cb Fb E# B#" {
		t.Errorf("roots %s", got)
	}
	if len(keys) != 17 || slices.Contains(keys, "Cb") {
		t.Errorf("keys %v", keys)
	}
	for _, bad := range []string{"", "H", "c", "C##", "Cbb", "Cx", "m", "Cmm", "Hm"} {
		if _, ok := RootPitch(bad); ok && len(bad) <= 2 && bad != "" && bad[0] != 'H' && bad[0] != 'c' {
			continue
		}
		if IsKey(bad) {
			t.Errorf("IsKey(%q)", bad)
		}
	}
	for typed, want := range map[string]string{"h": "B", "H": "B", "hb": "Bb", "cb": "Cb", "f♯": "F#", "e#": "E#", "C": "C"} {
		if got, respelled, ok := fixRoot(typed); !ok || got != want || respelled != (typed != want) {
			t.Errorf("fixRoot(%q) = %q, %v, %v; want %q", typed, got, respelled, ok, want)
		}
	}
}

// readSpellings is testdata/chord-spellings.json, the table Go and the page are both tested against,
// with the code review's five rows.
func readSpellings(t *testing.T) chordtest.Spellings {
	sp := chordtest.ReadSpellings(t, "testdata/chord-spellings.json")
	if len(sp.Everywhere) != 5 {
		t.Fatalf("the table has %d rows everywhere, want the review's 5", len(sp.Everywhere))
	}
	return sp
}

func TestSpellings(t *testing.T) {
	sp := readSpellings(t)
	for _, tt := range sp.Accepted {
		typed, want := tt[0], tt[1]
		c, ok := Parse(typed)
		if !ok || c.String() != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", typed, c.String(), ok, want)
			continue
		}
		if canonical, ok := Canonical(typed); !ok || canonical != (typed == want) {
			t.Errorf("Canonical(%q) = %v, %v", typed, canonical, ok)
		}
		if back, ok := Parse(want); !ok || back != c {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", want, back, ok, c)
		}
		if s, ok := Suggest(typed); ok {
			t.Errorf("Suggest(%q) = %q for an accepted chord", typed, s)
		}
		// The importers read what the editor accepts as the editor stores it.
		if m, ok := Map(typed); !ok || m.Symbol != want || !m.Exact {
			t.Errorf("Map(%q) = %+v, %v; want %q exactly", typed, m, ok, want)
		}
	}
	for _, tt := range sp.Refused {
		typed, want := tt[0], tt[1]
		if c, ok := Parse(typed); ok {
			t.Errorf("Parse(%q) = %q, want refusal", typed, c)
			continue
		}
		if _, ok := Canonical(typed); ok {
			t.Errorf("Canonical(%q) says it is a chord", typed)
		}
		got, ok := Suggest(typed)
		if ok != (want != "") || got != want {
			t.Errorf("Suggest(%q) = %q, %v; want %q", typed, got, ok, want)
		}
		// Where the editor suggests, an importer takes the suggestion and says so.
		if want != "" {
			if m, ok := Map(typed); !ok || m.Symbol != want || m.Exact && !strings.Contains(typed, " ") {
				t.Errorf("Map(%q) = %+v, %v; want %q, noted", typed, m, ok, want)
			}
		}
	}
}

// The code review's table (2026-12-03): the editor (Parse, Suggest), the importers (Map) and the tool
// (which validates through the editor's rules) give each symbol the same answer.
func TestSameAnswerEverywhere(t *testing.T) {
	for _, tt := range readSpellings(t).Everywhere {
		typed, want := tt[0], tt[1]
		editor := ""
		if c, ok := Parse(typed); ok {
			editor = c.String()
		} else if s, ok := Suggest(typed); ok {
			editor = s
		}
		m, ok := Map(typed)
		if editor != want || !ok || m.Symbol != want {
			t.Errorf("%q: editor %q, importer %q (%v); want %q from both", typed, editor, m.Symbol, ok, want)
		}
	}
}

// typos are the single-character slips of a spelling: a character left out, doubled, replaced by a
// stray one, or a stray one added.
func typos(s string) []string {
	r := []rune(s)
	var out []string
	for i := range r {
		out = append(out, string(r[:i])+string(r[i+1:]), string(r[:i+1])+string(r[i:]), string(r[:i])+"x"+string(r[i+1:]))
	}
	for i := 0; i <= len(r); i++ {
		out = append(out, string(r[:i])+"x"+string(r[i:]), string(r[:i])+"?"+string(r[i:]))
	}
	return out
}

// A suggestion never changes a chord's family: over every spelling of every quality (suffixes and
// aliases) and every one-character slip of it, what Suggest proposes is of the spelling's family, or
// nothing.
func TestSuggestionsKeepTheFamily(t *testing.T) {
	doc := Catalogue()
	family := map[string]Family{}
	for _, q := range doc.Qualities {
		family[q.Suffix] = q.Family
	}
	spelled := map[string]string{}
	for _, q := range doc.Qualities {
		spelled[q.Suffix] = q.Suffix
	}
	for _, a := range doc.Aliases {
		spelled[a.Alias] = a.Suffix
	}
	checked, suggested := 0, 0
	for spelling, suffix := range spelled {
		for _, typo := range typos(spelling) {
			sym := "C" + typo
			if _, ok := Parse(sym); ok {
				continue
			}
			checked++
			s, ok := Suggest(sym)
			if !ok {
				continue
			}
			suggested++
			c, _ := Parse(s)
			if c.Root != "C" || family[c.Quality] != family[suffix] {
				t.Errorf("Suggest(%q) = %q (%s), a slip of %q (%s)", sym, s, family[c.Quality], "C"+spelling, family[suffix])
			}
		}
	}
	t.Logf("%d slips, %d suggestions", checked, suggested)
	if suggested == 0 {
		t.Fatal("no slip got a suggestion")
	}
}

func TestMap(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		exact    bool
	}{
		{"Am7", "Am7", true}, {"A-7", "Am7", true}, {"Amin7", "Am7", true}, {"CΔ7", "Cmaj7", true}, {"C^7", "Cmaj7", true},
		{"CM7", "Cmaj7", true}, {"Bø", "Bm7b5", true}, {"Bh7", "Bm7b5", true}, {"Bo7", "Bdim7", true}, {"C°", "Cdim", true},
		{"C+", "Caug", true}, {"G7sus", "G7sus4", true}, {"G7(b9)", "G7b9", true}, {"F#m7b5/C", "F#m7b5/C", true},
		{"E♭-7", "Ebm7", true}, {"N.C.", "N.C.", true}, {"n", "N.C.", true}, {"NC.", "N.C.", true}, {"C69", "C6/9", true},
		{"G7alt", "G7alt", true}, {"D7#11", "D7#11", true}, {"C/E", "C/E", true}, {"Eb-^7", "Ebm(maj7)", true}, {"A11", "A11", true},
		{"Cb", "Cb", true}, {"E#m", "E#m", true}, {"Fb7/Cb", "Fb7/Cb", true},
		// The qualities real books write, each the catalogue's own now (the formats review's list).
		{"C^7#11", "Cmaj7#11", true}, {"F#7#9#5", "F#7#9#5", true}, {"E13b9", "E13b9", true}, {"C-b6", "Cmb6", true},
		{"C13#11", "C13#11", true}, {"D7b9#5", "D7b9#5", true}, {"A7b9sus", "A7sus4b9", true}, {"D^7#5/Ab", "Dmaj7#5/Ab", true},
		{"C-^9", "Cm(maj9)", true}, {"C-69", "Cm6/9", true}, {"C7b9b5", "C7b9b5", true}, {"C9#5", "C9#5", true},
		{"C^9#11", "Cmaj9#11", true}, {"C7(#9#5)", "C7#9#5", true}, {"C7b9#11", "C7b9#11", true}, {"C9b5", "C9b5", true},
		{"C7#9b5", "C7#9b5", true}, {"C-#5", "Cm#5", true}, {"C7#9#11", "C7#9#11", true}, {"Co^7", "Cdim(maj7)", true},
		{"C13#9", "C13#9", true}, {"G7b9#9", "G7b9#9", true}, {"Eh9", "Em9b5", true}, {"C7b13sus", "C7sus4b13", true},
		{"C7susadd3", "C7sus4add3", true}, {"C69#11", "C6/9#11", true}, {"G7(b9,#11)", "G7b9#11", true}, {"C7 (b9)", "C7b9", true},
		// Changed to fit, and said so.
		{"H7", "B7", false}, {"Hm7/F#", "Bm7/F#", false}, {"am7", "Am7", false}, {"C/h", "C/B", false}, {"C/9", "C", false},
		{"G13(#5)", "G9#5", false}, {"C7sus2", "C9sus4", false}, {"Cmaj7b9", "Cmaj7", false}, {"CM", "C", false},
	} {
		m, ok := Map(tt.in)
		if !ok || m.Symbol != tt.want || m.Exact != tt.exact {
			t.Errorf("Map(%q) = %+v, %v; want %q exact=%v", tt.in, m, ok, tt.want, tt.exact)
		}
	}
	for _, in := range []string{"", "x", "Xm7", "up", "dn", "u+", "/D", "(E)"} {
		if m, ok := Map(in); ok {
			t.Errorf("Map(%q) = %+v, want not a chord", in, m)
		}
	}
}

// Every quality is held by the catalogue with its intervals, so a mapping the review found replacing a
// chord tone (13b9 → 13, -^9 → m9, ^7#5 → maj7, -#5 → m, o^7 → m(maj7), 13#9 → 13, 7#9b5 → 7#9) now
// keeps every tone.
func TestMappingKeepsChordTones(t *testing.T) {
	for in, intervals := range map[string][]int{
		"C13b9": {0, 4, 7, 10, 13, 21}, "C-^9": {0, 3, 7, 11, 14}, "C^7#5": {0, 4, 8, 11}, "C-#5": {0, 3, 8},
		"Co^7": {0, 3, 6, 11}, "C13#9": {0, 4, 7, 10, 15, 21}, "C7#9b5": {0, 4, 6, 10, 15},
	} {
		m, ok := Map(in)
		c, _ := Parse(m.Symbol)
		if !ok || !m.Exact || !reflect.DeepEqual(c.Intervals(), intervals) {
			t.Errorf("Map(%q) = %+v, intervals %v; want %v exactly", in, m, c.Intervals(), intervals)
		}
	}
}

func TestCatalogueIsACopy(t *testing.T) {
	a := Catalogue()
	a.Roots[0].Name = "X"
	a.Qualities[0].Intervals[0] = 99
	a.Aliases[0].Alias = "X"
	a.NoChords[0] = "X"
	b := Catalogue()
	if b.Roots[0].Name != "C" || b.Qualities[0].Intervals[0] != 0 || b.Aliases[0].Alias == "X" || b.NoChords[0] != NoChord {
		t.Fatal("Catalogue shares memory between calls")
	}
	c, _ := Parse("C7")
	c.Intervals()[0] = 99
	if c.Intervals()[0] != 0 {
		t.Fatal("Intervals shares memory with the table")
	}
}

func TestCanonicalAllocatesNothing(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { Canonical("F#m7b5/C#") }); n != 0 {
		t.Errorf("Canonical allocates %v times for a symbol in the catalogue's spelling", n)
	}
}

// FuzzParse: Parse never panics; what it accepts is written back in the catalogue's spelling, which
// parses to the same chord and which Canonical calls canonical; Canonical agrees with it; a suggestion
// for a refused symbol is a chord; and Map reads every accepted symbol to the same chord, exactly.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"C", "F#m7b5/C#", "N.C.", "Bbmaj9", "Cb", "C/", "E#", "Am7/", "Cø", "Cø7", "B♭Δ/D",
		"C6/9/E", "C69", "Cm(M7)", "cb7", "C/H", "nc", "C maj7", "F♯m7♭5", "C♭♭", "\xff", "C/9", "C7(b9,#11)", "C-^9", "Hm7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, ok := Parse(s)
		canonical, valid := Canonical(s)
		if valid != ok {
			t.Fatalf("Canonical(%q) says valid %v, Parse %v", s, valid, ok)
		}
		if m, mok := Map(s); mok {
			if again, ok := Parse(m.Symbol); !ok || again.String() != m.Symbol {
				t.Fatalf("Map(%q) = %q, not in the catalogue's spelling", s, m.Symbol)
			}
		}
		if !ok {
			if sug, ok := Suggest(s); ok {
				if _, parses := Parse(sug); !parses || sug == s {
					t.Fatalf("Suggest(%q) = %q, not a chord", s, sug)
				}
			}
			return
		}
		out := c.String()
		if canonical != (out == s) {
			t.Fatalf("Canonical(%q) = %v, but it is written %q", s, canonical, out)
		}
		back, ok := Parse(out)
		if !ok || back != c {
			t.Fatalf("Parse(%q) = %+v, %v; want %+v", out, back, ok, c)
		}
		if canonical, _ := Canonical(out); !canonical {
			t.Fatalf("%q (from %q) is not in the catalogue's spelling", out, s)
		}
		if m, ok := Map(s); !ok || m.Symbol != out || !m.Exact {
			t.Fatalf("Map(%q) = %+v, %v; Parse says %q", s, m, ok, out)
		}
		if _, ok := Suggest(s); ok {
			t.Fatalf("Suggest(%q) suggests for an accepted chord", s)
		}
	})
}
