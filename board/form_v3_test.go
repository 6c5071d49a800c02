package board

import (
	"encoding/json"
	"testing"

	"tele/board/formtable"
)

// TestFormSchemaVersion: a chart of the form table is version 3 exactly when its form needs what version
// 3 added (a version-2 server refuses it), and version 2 otherwise; the version-2 charts of the table
// keep their version, so every earlier board is read as it is.
func TestFormSchemaVersion(t *testing.T) {
	v3 := map[string]bool{}
	for _, fc := range formtable.Playable(t) {
		var secs []Section
		if err := json.Unmarshal(fc.Sections, &secs); err != nil {
			t.Fatalf("%s: %v", fc.Name, err)
		}
		c := Content{Sections: secs}
		v3[fc.Name] = c.SchemaVersion() == 3
	}
	for name, want := range map[string]bool{
		"AABA with first and second endings":                                                            false,
		"D.C. al Fine with Fine in the last ending":                                                     false,
		"a vamp in the coda is repeated in full":                                                        false,
		"an ending left implicit: the last pass goes on after the end repeat":                           true,
		"ending 1 runs across a section mark to its end repeat":                                         true,
		"Fine in ending 1: after the D.C. the band ends in ending 1":                                    true,
		"a vamp after the last ending's first bar: the bracket closes before the vamp, played the same": false,
		"a vamp repeated inside a repeat: each pass plays it in full":                                   true,
		"D.C. al 3rd ending at the end of ending 2":                                                     true,
		"the coda inside the last ending, where the chart closes the bracket before it":                 true,
	} {
		got, ok := v3[name]
		if !ok {
			t.Errorf("no playable chart %q in the form table", name)
			continue
		}
		if got != want {
			t.Errorf("%s: version 3 = %v, want %v", name, got, want)
		}
	}
}

// TestLeaveOutToCoda: a To Coda beside another sign that the chart's jump cannot use is left out by the
// importers' repair (LeaveOutSign) as a To Coda mark is, and the bar keeps its other sign.
func TestLeaveOutToCoda(t *testing.T) {
	c := Content{Title: "T", Tempo: 120, BeatsPerBar: 4, Sections: []Section{{Bars: []Bar{
		PlainBar("C"), {Chords: []string{"D"}, Mark: MarkFine, ToCoda: true}, {Chords: []string{"E"}, Mark: MarkDCAlFine},
	}}}}
	err := c.Validate()
	left, ok := c.LeaveOutSign(err)
	if !ok || left.Mark != MarkToCoda || left.Number != 2 || left.Err.Member != "toCoda" {
		t.Fatalf("LeaveOutSign(%v) = %+v, %v", err, left, ok)
	}
	if b := c.Sections[0].Bars[1]; b.ToCoda || b.Mark != MarkFine {
		t.Fatalf("bar 2 = %+v", b)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.SchemaVersion() != 2 {
		t.Fatalf("SchemaVersion = %d, want 2 once toCoda is gone", c.SchemaVersion())
	}
}

// TestTwoJumpsSchemaVersion: a chart of the form table is version 4 exactly when it has two jumps, so
// every chart with one jump keeps its version.
func TestTwoJumpsSchemaVersion(t *testing.T) {
	n := 0
	for _, fc := range formtable.Playable(t) {
		var secs []Section
		if err := json.Unmarshal(fc.Sections, &secs); err != nil {
			t.Fatalf("%s: %v", fc.Name, err)
		}
		jumps := 0
		for _, s := range secs {
			for _, b := range s.Bars {
				if b.Mark.jump() {
					jumps++
				}
			}
		}
		if got := (Content{Sections: secs}).SchemaVersion(); (got == 4) != (jumps == 2) {
			t.Errorf("%s: %d jumps, version %d", fc.Name, jumps, got)
		}
		if jumps == 2 {
			n++
		}
	}
	if n < 5 {
		t.Errorf("the form table plays %d charts with two jumps, want the five real books' shapes", n)
	}
}
