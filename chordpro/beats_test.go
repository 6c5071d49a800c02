package chordpro

import (
	"reflect"
	"strings"
	"testing"

	"tele/board"
)

// TestGridBeats: a grid's cells give each chord its beats and {time} the bar's (issue 23 defect 3: `|
// C . . G7 |` became C and G7 on two beats each; issue 24: the shape overrode the cells and {time}, and
// `| C . . . . . . G |` was evened to halves).
func TestGridBeats(t *testing.T) {
	for _, tc := range []struct {
		name, time, shape, grid string
		beatsPerBar             int
		bars                    []board.Bar
		note                    string
	}{
		{"3+1", "4/4", "", "| C . . G7 | F . . . |", 4,
			[]board.Bar{{Chords: []string{"C", "G7"}, Durations: []int{3, 1}}, board.PlainBar("F")}, ""},
		{"1+3 and 2+1+1", "4/4", "", "| C G7 . . | F . G C |", 4,
			[]board.Bar{{Chords: []string{"C", "G7"}, Durations: []int{1, 3}}, {Chords: []string{"F", "G", "C"}, Durations: []int{2, 1, 1}}}, ""},
		{"even halves stay plain", "4/4", "", "| C . G7 . |", 4, []board.Bar{board.PlainBar("C", "G7")}, ""},
		{"slashes go on with the chord", "3/4", "", "| Am / E7 | Am / / |", 3,
			[]board.Bar{{Chords: []string{"Am", "E7"}, Durations: []int{2, 1}}, board.PlainBar("Am")}, ""},
		{"the shape only lays out the cells", "4/4", "4x8", "| C . . . | G . . . |", 4,
			[]board.Bar{board.PlainBar("C"), board.PlainBar("G")}, ""},
		{"eighth cells: a chord between beats goes to the nearest", "4/4", "", "| C . . . . . . G | C . . . . . . . |", 4,
			[]board.Bar{{Chords: []string{"C", "G"}, Durations: []int{3, 1}}, board.PlainBar("C")}, "nearest beat"},
		{"eighth cells on beats", "4/4", "", "| C . . . . . G . | F . . . . . . . |", 4,
			[]board.Bar{{Chords: []string{"C", "G"}, Durations: []int{3, 1}}, board.PlainBar("F")}, ""},
		{"a lone cell is a whole bar", "4/4", "", "| Eb7 | D7 . . . |", 4,
			[]board.Bar{board.PlainBar("Eb7"), board.PlainBar("D7")}, ""},
		{"chords sharing a cell share the bar", "4/4", "", "| C~F~G . . . |", 4, []board.Bar{board.PlainBar("C", "F", "G")}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			attr := ""
			if tc.shape != "" {
				attr = ` shape="` + tc.shape + `"`
			}
			src := "{title: T}\n{time: " + tc.time + "}\n{start_of_grid" + attr + "}\n" + tc.grid + "\n{end_of_grid}\n"
			c, notes, err := Read([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if c.BeatsPerBar != tc.beatsPerBar || !reflect.DeepEqual(c.Sections[0].Bars, tc.bars) {
				t.Fatalf("read %d beats, %+v\nwant %d, %+v", c.BeatsPerBar, c.Sections[0].Bars, tc.beatsPerBar, tc.bars)
			}
			if got := strings.Join(notes, "; "); tc.note == "" && got != "" || !strings.Contains(got, tc.note) {
				t.Fatalf("notes %q, want %q", got, tc.note)
			}
			// What was read is written back and read again to the same board.
			back, _, err := Read(Write(c))
			if err != nil || !reflect.DeepEqual(back, c) {
				t.Fatalf("round trip: %v\n%s\n%+v", err, Write(c), back)
			}
		})
	}
}

// TestWriteDurations: each chord is written on the beat it starts; chords sharing a bar evenly off the
// beats share a cell.
func TestWriteDurations(t *testing.T) {
	c := board.Content{Title: "T", Tempo: 100, BeatsPerBar: 4, Sections: []board.Section{{Bars: []board.Bar{
		{Chords: []string{"C", "G7"}, Durations: []int{3, 1}},
		{Chords: []string{"Dm", "G", "C"}, Durations: []int{1, 1, 2}},
		board.PlainBar("Am", "D7", "G"),
		{Chords: []string{"Am", "E7"}, Durations: []int{2, 1}, Beats: 3},
	}}}}
	got := string(Write(c))
	for _, want := range []string{"C . . G7", "Dm G C .", "Am~D7~G . . .", "Am . E7"} {
		if !strings.Contains(got, want) {
			t.Errorf("written\n%s\nlacks %q", got, want)
		}
	}
	back, notes, err := Read([]byte(got))
	if err != nil || !reflect.DeepEqual(back.Sections, c.Sections) || len(notes) > 0 {
		t.Fatalf("read back %+v, %q, %v", back.Sections, notes, err)
	}
}

// TestTimeChanges: a {time} after the first is the meter of the grids after it (issue 24: the last
// {time} of a file was the whole board's).
func TestTimeChanges(t *testing.T) {
	src := "{title: T}\n{time: 4/4}\n{start_of_grid}\n| C . . G7 | F . . . |\n{end_of_grid}\n" +
		"{time: 3/4}\n{start_of_grid}\n| Am . E7 | Am . . |\n{end_of_grid}\n"
	c, notes, err := Read([]byte(src))
	if err != nil || len(notes) > 0 {
		t.Fatalf("Read: %q, %v", notes, err)
	}
	want := []board.Section{
		{Bars: []board.Bar{{Chords: []string{"C", "G7"}, Durations: []int{3, 1}}, board.PlainBar("F")}},
		{Bars: []board.Bar{{Chords: []string{"Am", "E7"}, Durations: []int{2, 1}, Beats: 3}, {Chords: []string{"Am"}, Beats: 3}}},
	}
	if c.BeatsPerBar != 4 || !reflect.DeepEqual(c.Sections, want) {
		t.Fatalf("read %d beats, %+v\nwant 4, %+v", c.BeatsPerBar, c.Sections, want)
	}
	back, _, err := Read(Write(c))
	if err != nil || !reflect.DeepEqual(back, c) {
		t.Fatalf("round trip: %v\n%s", err, Write(c))
	}
}
