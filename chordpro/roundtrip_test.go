package chordpro

import (
	"reflect"
	"testing"

	"tele/board"
)

// TestRoundTripShapes: the shapes of the real-book charts whose ChordPro export did not read back as the
// same board (e2e TestChordProRoundTripCorpus), each as a small board.
func TestRoundTripShapes(t *testing.T) {
	for _, tt := range []struct{ name, sections string }{
		// I'll See You In My Dreams: the repeat opens in one section, its ending 1 is the next section
		// and ending 2 the one after; ending 1 is written |1 at the start of its grid.
		{"ending 1 starts a section", `[{"label":"A","bars":[{"chords":["C"],"repeatStart":true},["F"]]},
			{"label":"B","bars":[{"chords":["G"],"ending":1},{"chords":["G7"],"repeatEnd":2}]},
			{"label":"C","bars":[{"chords":["C"],"ending":2}]}]`},
		// It's Only a Paper Moon, Jitterbug Waltz: the repeat opens in one section and ends with its
		// endings inside the next.
		{"endings in the section after the repeat's start", `[{"label":"A","bars":[{"chords":["C"],"repeatStart":true},["F"]]},
			{"label":"","bars":[["C7"],{"chords":["G"],"ending":1,"repeatEnd":2},{"chords":["C"],"ending":2}]}]`},
		// Joshua: most bars of a 4/4 section have 3 beats.
		{"most bars in another meter", `[{"label":"A","bars":[["Dm"]]},
			{"label":"B","bars":[{"chords":["F"],"beats":3},{"chords":["Eb"],"beats":3},{"chords":["Db"],"beats":3},["Cm"]]}]`},
		// Minor Swing: a 4/4 section of 4-beat bars and more 2-beat bars, with a repeat and endings.
		{"most bars short, with endings", `[{"label":"A","bars":[{"chords":["Am"],"repeatStart":true},["Dm"],
			{"chords":["E7"],"beats":2},{"chords":["Am"],"beats":2},{"chords":["E7"],"beats":2,"ending":1,"repeatEnd":2},{"chords":["Am"],"beats":2,"ending":2}]}]`},
		// Jeepers Creepers: a section of mostly 6-beat bars in 4/4, then a section all 6 beats.
		{"a longer meter, then all of it", `[{"label":"B","bars":[["Fm7","Bb7"],{"chords":["Eb"],"beats":6},{"chords":["Gm7","C7"],"beats":6}]},
			{"label":"C","bars":[{"chords":["Cm7","F7"],"beats":6},{"chords":["Bb"],"beats":6}]}]`},
		// Powerhouse: in 2/4, a section of mostly 4-beat bars of four chords, then a 2-beat bar.
		{"4-beat bars in 2/4", `[{"label":"D","bars":[{"chords":["Cm","Cm/E","Cm/Eb","Cm/F#"],"beats":4},{"chords":["Cm/F","Cm/D"],"beats":4,"durations":[3,1]},["Eb","Fm"]]}]`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			beats := "4"
			if tt.name == "4-beat bars in 2/4" {
				beats = "2"
			}
			c, err := board.ParseContent([]byte(`{"title":"Shape","tempo":120,"beatsPerBar":` + beats + `,"sections":` + tt.sections + `}`))
			if err != nil {
				t.Fatal(err)
			}
			back, notes, err := Read(Write(c))
			if err != nil || !reflect.DeepEqual(back, c) || len(notes) > 0 {
				t.Fatalf("%v, notes %q\n%s\nread %+v\nwant %+v", err, notes, Write(c), back, c)
			}
		})
	}
}

// TestGridMeter: a grid is written under the meter of its most common bar, the meter in force first
// among meters as common.
func TestGridMeter(t *testing.T) {
	bars := func(beats ...int) board.Section {
		var s board.Section
		for _, b := range beats {
			s.Bars = append(s.Bars, board.Bar{Chords: []string{"C"}, Beats: b})
		}
		return s
	}
	for _, tt := range []struct {
		name       string
		s          board.Section
		time, want int
	}{
		{"the board's", bars(0, 0, 3), 4, 4},
		{"all in another", bars(3, 3), 4, 3},
		{"most in another", bars(3, 3, 0), 4, 3},
		{"as common: the meter in force", bars(3, 0), 4, 4},
		{"as common: the meter in force after a change", bars(3, 0), 3, 3},
		{"as common, neither in force: the smaller", bars(6, 5), 4, 5},
	} {
		if got := gridMeter(tt.s, 4, tt.time); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, got, tt.want)
		}
	}
}
