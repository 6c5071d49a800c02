package chordpro

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"tele/board"
	"tele/chord"
)

// Every symbol of the catalogue (each quality on each root, with and without a bass, and N.C.) survives
// board → ChordPro → board unchanged and without a note.
func TestEveryChordRoundTrips(t *testing.T) {
	cat := chord.Catalogue()
	syms := []string{chord.NoChord}
	for i, q := range cat.Qualities {
		for j, r := range cat.Roots {
			sym := r.Name + q.Suffix
			if (i+j)%3 == 0 {
				sym += "/" + cat.Roots[(i*5+j)%len(cat.Roots)].Name
			}
			syms = append(syms, sym)
		}
	}
	for start := 0; start < len(syms); {
		c := board.Content{Title: "Every chord", Tempo: 120, BeatsPerBar: 4}
		for len(c.Sections) < board.MaxSections && start < len(syms) {
			var sec board.Section
			for len(sec.Bars) < board.MaxBarsPerSection && start < len(syms) {
				n := min(len(syms)-start, board.MaxChordsPerBar)
				sec.Bars = append(sec.Bars, board.PlainBar(syms[start:start+n]...))
				start += n
			}
			c.Sections = append(c.Sections, sec)
		}
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		out := Write(c)
		back, notes, err := Read(out)
		if err != nil || !reflect.DeepEqual(back, c) || len(notes) > 0 {
			t.Fatalf("%v, notes %q\nread  %+v\nwant %+v", err, notes, back, c)
		}
	}
}

// The code review's table (chord/testdata/chord-spellings.json, "everywhere"): a grid reads H7, C^7,
// Ch7, NC. and N as the editor stores or suggests them, and says so where it respelled one.
func TestSameAnswerAsTheEditor(t *testing.T) {
	data, err := os.ReadFile("../chord/testdata/chord-spellings.json")
	if err != nil {
		t.Fatal(err)
	}
	var sp struct {
		Everywhere [][2]string `json:"everywhere"`
	}
	if err := json.Unmarshal(data, &sp); err != nil || len(sp.Everywhere) == 0 {
		t.Fatal(err)
	}
	for _, tt := range sp.Everywhere {
		typed, want := tt[0], tt[1]
		c, notes, err := Read([]byte("{start_of_grid}\n| C . . . | " + typed + " . . . |\n{end_of_grid}\n"))
		if err != nil || c.Sections[0].Bars[1].Chords[0] != want {
			t.Errorf("%q: %v, %+v; want %q", typed, err, c, want)
			continue
		}
		_, accepted := chord.Parse(typed)
		if noted := strings.Contains(strings.Join(notes, "\n"), typed+" became "+want); noted == accepted {
			t.Errorf("%q: notes %q (the editor accepts it: %v)", typed, notes, accepted)
		}
	}
}
