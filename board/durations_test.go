package board

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// TestDurationsRules: the rules of a bar's durations as a client meets them, with the rule id and
// arguments a page says them by (the form table holds more, each with its played rhythm).
func TestDurationsRules(t *testing.T) {
	for _, tc := range []struct {
		name, bars, path, id string
		args                 map[string]any
	}{
		{"sum", `[{"chords":["C","G7"],"durations":[2,1]}]`, "sections[0].bars[0].durations", "durationsSum", map[string]any{"beats": 4, "sum": 3}},
		{"count", `[{"chords":["C"],"durations":[2,2]}]`, "sections[0].bars[0].durations", "durationsCount", map[string]any{"chords": 1, "got": 2}},
		{"empty", `[{"chords":["C"],"durations":[]}]`, "sections[0].bars[0].durations", "durationsCount", map[string]any{"chords": 1, "got": 0}},
		{"negative", `[{"chords":["C","D"],"durations":[5,-1]}]`, "sections[0].bars[0].durations[1]", "durationsWhole", nil},
		{"simile", `[["C"],{"chords":"%","durations":[4]}]`, "sections[0].bars[1].durations", "durationsSimile", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseContent([]byte(`{"title":"T","tempo":120,"beatsPerBar":4,"sections":[{"label":"","bars":` + tc.bars + `}]}`))
			ve, ok := errors.AsType[*ValidationError](err)
			if !ok {
				t.Fatalf("ParseContent = %v; want a ValidationError", err)
			}
			if ve.Path != tc.path || ve.RuleID != tc.id || !reflect.DeepEqual(ve.RuleArgs, tc.args) {
				t.Fatalf("got %s %s %v (%s)\nwant %s %s %v", ve.Path, ve.RuleID, ve.RuleArgs, ve.Rule, tc.path, tc.id, tc.args)
			}
		})
	}
	// A fraction is refused by the decoder, as every integer of the schema is.
	if _, err := ParseContent([]byte(`{"title":"T","tempo":120,"beatsPerBar":4,"sections":[{"label":"","bars":[{"chords":["C","D"],"durations":[2.5,1.5]}]}]}`)); err == nil {
		t.Fatal("durations [2.5, 1.5] accepted")
	}
}

// TestDurationsStored: a bar with durations is written as an object and read back equal, its copy is
// deep, the exact size count agrees with the encoder, and the content is of schema version 3.
func TestDurationsStored(t *testing.T) {
	c := Content{Title: "T", Tempo: 100, BeatsPerBar: 4, Sections: []Section{{Bars: []Bar{
		{Chords: []string{"C", "G7"}, Durations: []int{3, 1}},
		PlainBar("F"),
	}}}}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	enc, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"title":"T","description":"","tempo":100,"beatsPerBar":4,"sections":[{"label":"","bars":[{"chords":["C","G7"],"durations":[3,1]},["F"]]}]}`
	if string(enc) != want {
		t.Fatalf("encoded %s\nwant    %s", enc, want)
	}
	if n := exactEncodedLen(c); n != len(enc) {
		t.Fatalf("exactEncodedLen = %d, encoded %d", n, len(enc))
	}
	if encodedLenBound(c) < len(enc) {
		t.Fatal("encodedLenBound below the encoding")
	}
	back, err := ParseContent(enc)
	if err != nil || !reflect.DeepEqual(back, c) {
		t.Fatalf("read back %+v, %v", back, err)
	}
	// Durations sharing the bar evenly are stored as none: the same board, one way to write it.
	even := c.Clone()
	even.Sections[0].Bars[1] = Bar{Chords: []string{"F", "G"}, Durations: []int{2, 2}}
	if s, err := storable(even); err != nil || s.Sections[0].Bars[1].Durations != nil || even.Sections[0].Bars[1].Durations == nil {
		t.Fatalf("storable([2, 2]) = %+v, %v", s.Sections[0].Bars[1], err)
	}
	cp := c.Clone()
	cp.Sections[0].Bars[0].Durations[0] = 1
	if c.Sections[0].Bars[0].Durations[0] != 3 {
		t.Fatal("Clone shares durations")
	}
	for _, tc := range []struct {
		c    Content
		want int
	}{
		{Content{Sections: []Section{{Bars: []Bar{PlainBar("C")}}}}, 1},
		{Content{Sections: []Section{{Role: "verse", Bars: []Bar{PlainBar("C")}}}}, 2},
		{Content{Sections: []Section{{Bars: []Bar{{Chords: []string{"C"}, Beats: 3}}}}}, 2},
		{c, 3},
	} {
		if got := tc.c.SchemaVersion(); got != tc.want {
			t.Errorf("SchemaVersion of %+v = %d, want %d", tc.c.Sections, got, tc.want)
		}
	}
}

// TestRhythm: durations that fit the bar are its rhythm; anything else shares the bar evenly.
func TestRhythm(t *testing.T) {
	for _, tc := range []struct {
		chords    []string
		durations []int
		beats     int
		want      []float64
	}{
		{[]string{"C", "G7"}, []int{3, 1}, 4, []float64{3, 1}},
		{[]string{"C", "G7"}, nil, 4, []float64{2, 2}},
		{[]string{"C", "G7"}, []int{3, 1}, 3, []float64{1.5, 1.5}},
		{[]string{"C", "G7", "F"}, []int{3, 1}, 4, []float64{4.0 / 3, 4.0 / 3, 4.0 / 3}},
	} {
		if got := Rhythm(tc.chords, tc.durations, tc.beats); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Rhythm(%v, %v, %d) = %v, want %v", tc.chords, tc.durations, tc.beats, got, tc.want)
		}
	}
}
