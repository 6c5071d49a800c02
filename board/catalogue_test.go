package board

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"tele/chord/chordtest"
	"tele/strict"

	"tele/utf16count"
)

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
	for _, s := range []string{`"version":3`, `{"alias":"ø","suffix":"m7b5"}`, `"accidentals":[{"alias":"♭","suffix":"b"},{"alias":"♯","suffix":"#"}]`, `"roots":[{"name":"C","pitchClass":0,"key":true}`, `{"suffix":"","name":"major","family":"major","intervals":[0,4,7]}`, `"noChords":["N.C.","NC","N.C","NC.","N"]`, `"schemaVersions":[1,2,3,4]`, `"noChord":"N.C."`} {
		if !bytes.Contains(data, []byte(s)) {
			t.Errorf("catalogue JSON lacks %s", s)
		}
	}
}

// readSpellings is chord/testdata/chord-spellings.json, the table the chord package, the importers and
// the page are tested against too.
func readSpellings(t *testing.T) chordtest.Spellings {
	return chordtest.ReadSpellings(t, "../chord/testdata/chord-spellings.json")
}

// Content validation (the editor's PUT and the model's tool both go through it) refuses each refused
// spelling with the chord package's suggestion, in a musician's words.
func TestChordErrors(t *testing.T) {
	for _, tt := range readSpellings(t).Refused {
		typed, want := tt[0], tt[1]
		c := Content{Title: "t", Tempo: 120, BeatsPerBar: 4, Sections: []Section{{Bars: []Bar{PlainBar(typed)}}}}
		var err *ValidationError
		if !errors.As(c.Validate(), &err) || err.Symbol != typed || err.Suggestion != want || !strings.HasPrefix(err.Rule, "Not a chord Tele knows: `"+typed+"`. ") {
			t.Errorf("Validate with %q: %+v", typed, err)
			continue
		}
		if want != "" && !strings.HasSuffix(err.Rule, "Did you mean `"+want+"`?") {
			t.Errorf("Validate with %q: rule %q", typed, err.Rule)
		}
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
