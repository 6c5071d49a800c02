package ireal

import (
	"reflect"
	"strings"
	"testing"

	"tele/board"
)

// TestCellBeats: iReal Pro's cells give each chord its beats (issue 24: `G/D Ab13, G7 p` was evened out,
// with a note before that); evenly spaced chords share the bar as before, and every bar is written back
// one cell a beat, read back the same.
func TestCellBeats(t *testing.T) {
	for _, tc := range []struct {
		name, music string
		bars        []board.Bar
		code        string
	}{
		{"Reconsider Baby's 1+1+2", "T44[G/D Ab13, G7 p|C p p G7 |C p G7 p Z", []board.Bar{
			{Chords: []string{"G/D", "Ab13", "G7"}, Durations: []int{1, 1, 2}},
			{Chords: []string{"C", "G7"}, Durations: []int{3, 1}},
			board.PlainBar("C", "G7"),
		}, ""},
		{"evenly spaced chords share the bar", "T44[C G7 |C, G7, F, G |C Z", []board.Bar{
			board.PlainBar("C", "G7"), board.PlainBar("C", "G7", "F", "G"), board.PlainBar("C"),
		}, ""},
		{"a waltz bar of 2+1", "T34[A- p E7 |A- Z", []board.Bar{
			{Chords: []string{"Am", "E7"}, Durations: []int{2, 1}}, board.PlainBar("Am"),
		}, ""},
		{"between beats: the nearest", "T44[C p p p p G7 |C Z", []board.Bar{
			{Chords: []string{"C", "G7"}, Durations: []int{3, 1}}, board.PlainBar("C"),
		}, "rhythm_nearest"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			songs, err := Parse([]byte(link("irealbook", "Chart=Tele=Swing=C=n="+tc.music)))
			if err != nil || len(songs) != 1 || songs[0].Err != nil {
				t.Fatalf("Parse: %+v, %v", songs, err)
			}
			s := songs[0]
			if got := s.Content.Sections[0].Bars; !reflect.DeepEqual(got, tc.bars) {
				t.Fatalf("bars %+v\nwant %+v\nnotes %q", got, tc.bars, s.Notes)
			}
			var codes []string
			for _, c := range s.Codes {
				codes = append(codes, c.Code)
			}
			if got := strings.Join(codes, " "); got != tc.code {
				t.Fatalf("codes %q, want %q (notes %q)", got, tc.code, s.Notes)
			}
			back, err := Parse(Write(s.Content))
			if err != nil || len(back) != 1 || back[0].Err != nil || !reflect.DeepEqual(back[0].Content.Sections[0].Bars, tc.bars) || len(back[0].Notes) > 0 {
				t.Fatalf("written %s\nread back %+v, %v", Write(s.Content), back, err)
			}
		})
	}
}
