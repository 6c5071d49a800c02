package board

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"tele/strict"

	"tele/utf16count"
)

func TestCatalogueContents(t *testing.T) {
	doc := Catalogue()
	if doc.Version != CatalogueVersion || doc.NoChord != "N.C." {
		t.Fatalf("version %d, noChord %q", doc.Version, doc.NoChord)
	}
	var names []string
	for _, r := range doc.Roots {
		names = append(names, r.Name)
	}
	if got := strings.Join(names, " "); got != "C C# Db D D# Eb E F F# Gb G G# Ab A A# Bb B" {
		t.Fatalf("roots %s", got)
	}
	pc := map[string]int{"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}
	for _, r := range doc.Roots {
		want := pc[r.Name[:1]]
		if len(r.Name) == 2 {
			if r.Name[1] == '#' {
				want++
			} else {
				want--
			}
		}
		if r.PitchClass != (want+12)%12 {
			t.Errorf("root %s has pitch class %d", r.Name, r.PitchClass)
		}
	}
	required := strings.Fields("m 7 maj7 m7 6 m6 9 m9 maj9 add9 sus2 sus4 7sus4 dim dim7 m7b5 aug 7b9 7#9 13 " +
		"m(maj7) 6/9 9sus4 11 m11 13sus4 7#11 9#11 7b13 7b5 7#5 7alt add2 5 maj13 m13 7b9b13")
	required = append(required, "")
	seen := map[string]bool{}
	for _, q := range doc.Qualities {
		if seen[q.Suffix] {
			t.Errorf("quality %q twice", q.Suffix)
		}
		seen[q.Suffix] = true
		if q.Name == "" || len(q.Intervals) < 2 || q.Intervals[0] != 0 {
			t.Errorf("quality %q: name %q, intervals %v", q.Suffix, q.Name, q.Intervals)
		}
		for i := 1; i < len(q.Intervals); i++ {
			if q.Intervals[i] <= q.Intervals[i-1] || q.Intervals[i] > 24 {
				t.Errorf("quality %q: intervals %v not rising within two octaves", q.Suffix, q.Intervals)
			}
		}
		if ambiguousSpelling(q.Suffix) {
			t.Errorf("quality %q would make symbols ambiguous", q.Suffix)
		}
	}
	for _, s := range required {
		if !seen[s] {
			t.Errorf("quality %q missing", s)
		}
	}
	// Spot checks of voicings.
	want := map[string][]int{"": {0, 4, 7}, "m": {0, 3, 7}, "7": {0, 4, 7, 10}, "maj7": {0, 4, 7, 11}, "m7b5": {0, 3, 6, 10}, "dim7": {0, 3, 6, 9}, "aug": {0, 4, 8}, "sus4": {0, 5, 7},
		"m(maj7)": {0, 3, 7, 11}, "6/9": {0, 4, 7, 9, 14}, "7#11": {0, 4, 7, 10, 18}, "7b13": {0, 4, 7, 10, 20}, "add2": {0, 2, 4, 7}, "5": {0, 7},
		"maj13": {0, 4, 7, 11, 14, 21}, "m13": {0, 3, 7, 10, 14, 21}, "7b9b13": {0, 4, 7, 10, 13, 20}, "9sus4": {0, 5, 7, 10, 14}, "13sus4": {0, 5, 7, 10, 14, 21}}
	for _, q := range doc.Qualities {
		if w, ok := want[q.Suffix]; ok && !reflect.DeepEqual(q.Intervals, w) {
			t.Errorf("%q = %v, want %v", q.Suffix, q.Intervals, w)
		}
	}
}

func TestRootPitchAgreesWithTable(t *testing.T) {
	inTable := map[string]int{}
	for _, r := range roots {
		inTable[r.Name] = r.PitchClass
	}
	for _, a := range "ABCDEFGHabc#" {
		for _, b := range []string{"", "#", "b", "x", "##", "m"} {
			name := string(a) + b
			pc, ok := rootPitch(name)
			want, wantOK := inTable[name]
			if ok != wantOK || pc != want {
				t.Errorf("rootPitch(%q) = %d, %v; the table says %d, %v", name, pc, ok, want, wantOK)
			}
		}
	}
}

func TestQualityIndexAgreesWithTable(t *testing.T) {
	for i, q := range qualities {
		if got := qualityIndex(q.Suffix); got != i {
			t.Errorf("qualityIndex(%q) = %d, want %d", q.Suffix, got, i)
		}
		for _, extra := range []string{"x", " ", "M"} {
			if got := qualityIndex(q.Suffix + extra); got >= 0 && qualities[got].Suffix != q.Suffix+extra {
				t.Errorf("qualityIndex(%q) = %d", q.Suffix+extra, got)
			}
		}
	}
	for _, s := range []string{"M7", "min", "Maj7", "maj", "+", "°", "ø", "b", "#"} {
		if got := qualityIndex(s); got != -1 {
			t.Errorf("qualityIndex(%q) = %d, want -1", s, got)
		}
	}
}

func TestCatalogueIsACopy(t *testing.T) {
	a := Catalogue()
	a.Roots[0].Name = "X"
	a.Qualities[0].Intervals[0] = 99
	b := Catalogue()
	if b.Roots[0].Name != "C" || b.Qualities[0].Intervals[0] != 0 {
		t.Fatal("Catalogue shares memory between calls")
	}
	j := CatalogueJSON()
	j[0] = 'x'
	if CatalogueJSON()[0] != '{' {
		t.Fatal("CatalogueJSON shares memory between calls")
	}
}

func TestCatalogueJSON(t *testing.T) {
	data := CatalogueJSON()
	var doc CatalogueDoc
	if err := strict.Decode(data, &doc); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(doc, Catalogue()) {
		t.Fatal("CatalogueJSON does not decode to Catalogue()")
	}
	for _, s := range []string{`"version":2`, `{"alias":"ø","suffix":"m7b5"}`, `"accidentals":[{"alias":"♭","suffix":"b"},{"alias":"♯","suffix":"#"}]`, `"roots":[{"name":"C","pitchClass":0}`, `{"suffix":"","name":"major","intervals":[0,4,7]}`, `"noChord":"N.C."`} {
		if !bytes.Contains(data, []byte(s)) {
			t.Errorf("catalogue JSON lacks %s", s)
		}
	}
}

func TestParseChord(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Chord
	}{
		{"C", Chord{Root: "C"}},
		{"Am7", Chord{Root: "A", Quality: "m7"}},
		{"F#m7b5", Chord{Root: "F#", Quality: "m7b5"}},
		{"Bbmaj7", Chord{Root: "Bb", Quality: "maj7"}},
		{"Em/D", Chord{Root: "E", Quality: "m", Bass: "D"}},
		{"C#m7b5/G", Chord{Root: "C#", Quality: "m7b5", Bass: "G"}},
		{"G7#9", Chord{Root: "G", Quality: "7#9"}},
		{"Db7b9/Ab", Chord{Root: "Db", Quality: "7b9", Bass: "Ab"}},
		{"E13", Chord{Root: "E", Quality: "13"}},
		{"N.C.", Chord{NoChord: true}},
	} {
		got, ok := ParseChord(tt.in)
		if !ok || got != tt.want {
			t.Errorf("ParseChord(%q) = %+v, %v; want %+v", tt.in, got, ok, tt.want)
		}
		if got.String() != tt.in {
			t.Errorf("String() = %q, want %q", got.String(), tt.in)
		}
	}
	for _, in := range []string{"", "H", "c", "Cb", "E#", "B#", "Fb", "Cmaj", "C maj7", " C", "C ", "C/", "/C", "C/E/G",
		"C/c", "Cmaj7/", "N.C", "NC", "n.c.", "N.C./C", "Am7b", "C##", "Cbb", "Cmaj7#11", "Cø7", "C\x00", "C/9", "C6/9/", "C♭", "E♯", "C♭♭"} {
		if c, ok := ParseChord(in); ok {
			t.Errorf("ParseChord(%q) = %+v, want refusal", in, c)
		}
	}
	// Every root with every quality, with and without every bass.
	doc := Catalogue()
	for _, r := range doc.Roots {
		for _, q := range doc.Qualities {
			c, ok := ParseChord(r.Name + q.Suffix)
			if !ok || c.Root != r.Name || c.Quality != q.Suffix {
				t.Errorf("ParseChord(%q) = %+v, %v", r.Name+q.Suffix, c, ok)
			}
			for _, b := range doc.Roots {
				if c, ok := ParseChord(r.Name + q.Suffix + "/" + b.Name); !ok || c.Bass != b.Name {
					t.Errorf("ParseChord(%q) = %+v, %v", r.Name+q.Suffix+"/"+b.Name, c, ok)
				}
			}
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

func TestAliasTable(t *testing.T) {
	doc := Catalogue()
	seen := map[string]bool{}
	suffixes := map[string]bool{}
	for _, q := range doc.Qualities {
		suffixes[q.Suffix] = true
	}
	for _, a := range doc.Aliases {
		switch {
		case seen[a.Alias]:
			t.Errorf("alias %q twice", a.Alias)
		case suffixes[a.Alias]:
			t.Errorf("alias %q is a catalogue suffix too", a.Alias)
		case !suffixes[a.Suffix]:
			t.Errorf("alias %q stands for %q, not a catalogue suffix", a.Alias, a.Suffix)
		case a.Alias == "" || ambiguousSpelling(a.Alias):
			t.Errorf("alias %q would make symbols ambiguous", a.Alias)
		}
		seen[a.Alias] = true
		if got, ok := qualityOf(a.Alias); !ok || got != a.Suffix {
			t.Errorf("qualityOf(%q) = %q, %v; want %q", a.Alias, got, ok, a.Suffix)
		}
	}
	// The spellings the issue names, each to its suffix.
	for alias, suffix := range map[string]string{
		"ø": "m7b5", "m7-5": "m7b5", "Δ": "maj7", "M7": "maj7", "ma7": "maj7", "Maj7": "maj7", "-": "m", "min": "m",
		"°": "dim", "°7": "dim7", "+": "aug", "mMaj7": "m(maj7)", "mM7": "m(maj7)", "m(M7)": "m(maj7)", "69": "6/9",
		"sus": "sus4", "7sus": "7sus4", "mmaj7": "m(maj7)",
	} {
		if got := aliasSuffix[alias]; got != suffix {
			t.Errorf("alias %q stands for %q, want %q", alias, got, suffix)
		}
	}
	for _, a := range doc.Accidentals {
		if a.Alias != "♭" && a.Alias != "♯" || a.Suffix != "b" && a.Suffix != "#" {
			t.Errorf("accidental %+v", a)
		}
	}
}

// spellings is testdata/chord-spellings.json, the table Go and the page are both tested against.
type spellings struct {
	Accepted [][2]string `json:"accepted"`
	Refused  [][2]string `json:"refused"`
}

func readSpellings(t *testing.T) spellings {
	t.Helper()
	data, err := os.ReadFile("testdata/chord-spellings.json")
	if err != nil {
		t.Fatal(err)
	}
	var sp spellings
	if err := json.Unmarshal(data, &sp); err != nil {
		t.Fatal(err)
	}
	if len(sp.Accepted) < 50 || len(sp.Refused) < 20 {
		t.Fatalf("the table has %d accepted and %d refused spellings", len(sp.Accepted), len(sp.Refused))
	}
	return sp
}

func TestChordSpellings(t *testing.T) {
	sp := readSpellings(t)
	for _, tt := range sp.Accepted {
		typed, want := tt[0], tt[1]
		c, ok := ParseChord(typed)
		if !ok || c.String() != want {
			t.Errorf("ParseChord(%q) = %q, %v; want %q", typed, c.String(), ok, want)
			continue
		}
		if canonical, ok := canonicalChord(typed); !ok || canonical != (typed == want) {
			t.Errorf("canonicalChord(%q) = %v, %v", typed, canonical, ok)
		}
		if back, ok := ParseChord(want); !ok || back != c {
			t.Errorf("ParseChord(%q) = %+v, %v; want %+v", want, back, ok, c)
		}
		if s, ok := suggestChord(typed); ok {
			t.Errorf("suggestChord(%q) = %q for an accepted chord", typed, s)
		}
	}
	for _, tt := range sp.Refused {
		typed, want := tt[0], tt[1]
		if c, ok := ParseChord(typed); ok {
			t.Errorf("ParseChord(%q) = %q, want refusal", typed, c)
			continue
		}
		got, ok := suggestChord(typed)
		if ok != (want != "") || got != want {
			t.Errorf("suggestChord(%q) = %q, %v; want %q", typed, got, ok, want)
		}
		err := chordError("sections[0].bars[0][0]", typed)
		if err.Symbol != typed || err.Suggestion != want || !strings.HasPrefix(err.Rule, "Not a chord Tele knows: `"+typed+"`. ") {
			t.Errorf("chordError(%q) = %+v", typed, err)
		}
		if want != "" && !strings.HasSuffix(err.Rule, "Did you mean `"+want+"`?") {
			t.Errorf("chordError(%q).Rule = %q", typed, err.Rule)
		}
	}
}

// Validation accepts every spelling, and the store keeps the catalogue's.
func TestStoreKeepsTheCataloguesSpelling(t *testing.T) {
	s, err := Open(t.TempDir(), Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sp := readSpellings(t)
	c := Content{Title: "Spellings", Tempo: 120, BeatsPerBar: 4}
	var want []string
	for i := 0; i < len(sp.Accepted); i += 4 {
		var bar, wantBar []string
		for _, tt := range sp.Accepted[i:min(i+4, len(sp.Accepted))] {
			bar, wantBar = append(bar, tt[0]), append(wantBar, tt[1])
		}
		c.Sections = append(c.Sections, Section{Bars: []Bar{PlainBar(bar...)}})
		want = append(want, strings.Join(wantBar, " "))
	}
	got := func(b Board) []string {
		var out []string
		for _, sec := range b.Content.Sections {
			out = append(out, strings.Join(sec.Bars[0].Chords, " "))
		}
		return out
	}
	b, _, err := s.Create("spell", c, AuthorBrowser)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got(b), want) {
		t.Fatalf("Create stored %q, want %q", got(b), want)
	}
	if b, err = s.Put("spell", 1, c, AuthorBrowser); err != nil || !reflect.DeepEqual(got(b), want) {
		t.Fatalf("Put stored %q (%v), want %q", got(b), err, want)
	}
	if c.Sections[0].Bars[0].Chords[0] != sp.Accepted[0][0] {
		t.Fatal("the store changed the caller's content")
	}
	s.Close()
	s2, err := Open(s.dir, Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if b, err := s2.Get("spell"); err != nil || !reflect.DeepEqual(got(b), want) {
		t.Fatalf("after reopening: %q (%v)", got(b), err)
	}
}

func TestExample(t *testing.T) {
	c := Example()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(c.Sections) != 2 {
		t.Fatalf("%d sections, want 2", len(c.Sections))
	}
	// A common progression: I–vi–IV–V then ii–V–I in the board's key.
	if got := strings.Join(flat(c.Sections[0].Bars[:4]), " "); got != "C Am F G" {
		t.Errorf("verse starts %s", got)
	}
	if got := strings.Join(flat(c.Sections[1].Bars[:3]), " "); got != "Dm7 G7 Cmaj7" {
		t.Errorf("chorus starts %s", got)
	}
	d := c.Description
	if strings.Contains(d, "\n") {
		t.Error("the description is more than one paragraph")
	}
	for _, w := range []string{"bar", "Play", "/tele", "Pi"} {
		if !strings.Contains(d, w) {
			t.Errorf("the description does not mention %q", w)
		}
	}
	if n := utf16count.Of(d); n > MaxDescUnits {
		t.Errorf("description is %d units", n)
	}
	// Round trip through JSON.
	data, _ := json.Marshal(c)
	back, err := ParseContent(data)
	if err != nil || !reflect.DeepEqual(back, c) {
		t.Fatalf("round trip: %v", err)
	}
	// Example returns a fresh value each time.
	c.Sections[0].Bars[0].Chords[0] = "D"
	if Example().Sections[0].Bars[0].Chords[0] != "C" {
		t.Fatal("Example shares memory between calls")
	}
}

func flat(bars []Bar) []string {
	var out []string
	for _, b := range bars {
		out = append(out, b.Chords...)
	}
	return out
}

// testdata/catalogue.json is the catalogue as GET /api/catalogue serves it, for the page's unit tests
// (assets/jstest), which check the page against the same spellings table. Regenerate it with
// TELE_UPDATE_GOLDEN=1 go test ./board -run TestCatalogueGolden.
func TestCatalogueGolden(t *testing.T) {
	const path = "testdata/catalogue.json"
	if os.Getenv("TELE_UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(path, append(CatalogueJSON(), '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytes.TrimSpace(data), CatalogueJSON()) {
		t.Fatalf("%s is not the catalogue; regenerate it with TELE_UPDATE_GOLDEN=1 go test ./board -run TestCatalogueGolden", path)
	}
}
