package ireal

import (
	"reflect"
	"strings"
	"testing"

	"tele/board"
)

// TestCredits: the composer and style a chart names are the board's, and a board's come back from its
// link; a board with neither gets iReal Pro's required fields and reads back with neither.
func TestCredits(t *testing.T) {
	songs, err := Parse([]byte("irealbook://Autumn%20Leaves=Kosma%20Joseph=Medium%20Swing=G-=n=T44[A-7%20|D7%20|G^7%20|C^7%20Z"))
	if err != nil || len(songs) != 1 || songs[0].Content.Composer != "Kosma Joseph" || songs[0].Content.Style != "Medium Swing" {
		t.Fatalf("%v %+v", err, songs)
	}
	for _, tc := range []struct{ composer, style string }{{"Kosma Joseph", "Medium Swing"}, {"", "Bossa Nova"}, {"Jobim", "Bossa Nova"}, {"", ""}} {
		c := board.Content{Title: "T", Key: "C", Tempo: 120, BeatsPerBar: 4, Composer: tc.composer, Style: tc.style,
			Sections: []board.Section{{Label: "A", Bars: []board.Bar{board.PlainBar("C"), board.PlainBar("G7")}}}}
		if lost := Lost(c); len(lost) > 0 {
			t.Fatalf("%+v: Lost %q", tc, lost)
		}
		if back := roundTrip(t, c); !reflect.DeepEqual(back, c) {
			t.Errorf("%+v: read back %q %q", tc, back.Composer, back.Style)
		}
	}
	c := board.Example()
	c.Composer = "Someone"
	if lost := strings.Join(Lost(c), "; "); !strings.Contains(lost, "no style") {
		t.Errorf("Lost = %q", lost)
	}
}

// TestWordsLeftOut: a board with lines of words writes its bars; its words and recalls are named lost.
func TestWordsLeftOut(t *testing.T) {
	c := board.Example()
	c.Sections = append([]board.Section{{Label: "Words", Role: "chorus", Lines: []board.Line{{Text: "la"}}}}, c.Sections...)
	c.Sections = append(c.Sections, board.Section{Recall: "chorus"})
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if lost := strings.Join(Lost(c), "; "); !strings.Contains(lost, "lines of words") {
		t.Errorf("Lost = %q", lost)
	}
	back := roundTrip(t, c)
	want := board.Example()
	if len(back.Sections) != len(want.Sections) {
		t.Fatalf("sections read back %+v", back.Sections)
	}
	for i := range want.Sections {
		if !reflect.DeepEqual(back.Sections[i].Bars, want.Sections[i].Bars) {
			t.Errorf("section %d read back %+v", i, back.Sections[i].Bars)
		}
	}
}
