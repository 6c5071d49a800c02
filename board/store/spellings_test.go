package store

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"tele/board"
	"tele/chord/chordtest"
)

// readSpellings is chord/testdata/chord-spellings.json, the table the chord package, the importers and
// the page are tested against too: what a board stores of each spelling.
func readSpellings(t *testing.T) chordtest.Spellings {
	return chordtest.ReadSpellings(t, "../../chord/testdata/chord-spellings.json")
}

// The code review's table: what the editor and the tool store, or suggest, for H7, C^7, Ch7, NC. and N
// is what the importers read (chordpro and ireal test the same rows).
func TestSameAnswerEverywhere(t *testing.T) {
	s, err := Open(t.TempDir(), Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, tt := range readSpellings(t).Everywhere {
		typed, want := tt[0], tt[1]
		c := board.Content{Title: "t", Tempo: 120, BeatsPerBar: 4, Sections: []board.Section{{Bars: []board.Bar{board.PlainBar(typed)}}}}
		got := ""
		if b, _, err := s.Create("b"+strconv.Itoa(i), c, AuthorPi); err == nil {
			got = b.Content.Sections[0].Bars[0].Chords[0]
		} else if ve := (*board.ValidationError)(nil); errors.As(err, &ve) {
			got = ve.Suggestion
		}
		if got != want {
			t.Errorf("%q: the editor says %q, want %q", typed, got, want)
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
	c := board.Content{Title: "Spellings", Tempo: 120, BeatsPerBar: 4}
	var want []string
	for i := 0; i < len(sp.Accepted); i += 4 {
		var bar, wantBar []string
		for _, tt := range sp.Accepted[i:min(i+4, len(sp.Accepted))] {
			bar, wantBar = append(bar, tt[0]), append(wantBar, tt[1])
		}
		if len(c.Sections) == 0 || len(c.Sections[len(c.Sections)-1].Bars) == 8 {
			c.Sections = append(c.Sections, board.Section{})
		}
		last := &c.Sections[len(c.Sections)-1]
		last.Bars = append(last.Bars, board.PlainBar(bar...))
		want = append(want, strings.Join(wantBar, " "))
	}
	got := func(b Board) []string {
		var out []string
		for _, sec := range b.Content.Sections {
			for _, bar := range sec.Bars {
				out = append(out, strings.Join(bar.Chords, " "))
			}
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
