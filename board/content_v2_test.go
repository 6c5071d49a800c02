package board

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestVersion1StaysByteForByte: a version-1 document is read by version 2 and written back with the same
// bytes (its compact form, as the store keeps it).
func TestVersion1StaysByteForByte(t *testing.T) {
	ex, _ := json.Marshal(Example())
	for _, in := range []string{specExample, string(ex)} {
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(in)); err != nil {
			t.Fatal(err)
		}
		c, err := ParseContent(compact.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		out, _ := json.Marshal(c)
		if !bytes.Equal(out, compact.Bytes()) {
			t.Fatalf("written back differently:\n%s\n%s", out, compact.Bytes())
		}
	}
}

// TestParseContentVersion2 reads every member of version 2 and writes it back as it came.
func TestParseContentVersion2(t *testing.T) {
	in := `{"title":"Form","description":"","tempo":120,"beatsPerBar":4,"sections":[` +
		`{"label":"A","role":"verse","bars":[{"chords":["C"],"repeatStart":true,"mark":"segno"},{"chords":"%","beats":2},` +
		`{"chords":["F","G7"],"repeatEnd":2,"ending":1},{"chords":["C"],"ending":2}]},` +
		`{"label":"B","role":"bridge","bars":[["Am"],{"chords":["D7"],"mark":"to-coda"},{"chords":["G7"],"mark":"ds-al-coda"}]},` +
		`{"label":"Coda","role":"outro","bars":[{"chords":["C"],"mark":"coda"}]}]}`
	c, err := ParseContent([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Sections[0]; s.Role != "verse" || !s.Bars[0].RepeatStart || s.Bars[0].Mark != MarkSegno || !s.Bars[1].Simile ||
		s.Bars[1].Beats != 2 || s.Bars[2].Ending != 1 || s.Bars[2].RepeatEnd != 2 {
		t.Fatalf("read %+v", s)
	}
	out, _ := json.Marshal(c)
	if string(out) != in {
		t.Fatalf("written back differently:\n%s\n%s", out, in)
	}
	if n := exactEncodedLen(c); n != len(out) || encodedLenBound(c) < n {
		t.Fatalf("exactEncodedLen %d, bound %d, json.Marshal %d", n, encodedLenBound(c), len(out))
	}
	// An object with chords alone is a plain bar, written as the array.
	c, err = ParseContent([]byte(`{"title":"T","tempo":120,"beatsPerBar":4,"sections":[{"bars":[{"chords":["C"]}]}]}`))
	if out, _ := json.Marshal(c.Sections[0].Bars); err != nil || string(out) != `[["C"]]` {
		t.Fatalf("%s, %v", out, err)
	}
}

func TestParseContentVersion2Invalid(t *testing.T) {
	for _, tt := range []struct{ name, bar, path, rule string }{
		{"beats-13", `{"chords":["C"],"beats":13}`, "sections[0].bars[0].beats", ruleBarBeats},
		{"beats-text", `{"chords":["C"],"beats":"3"}`, "sections[0].bars[0].beats", "integer"},
		{"repeat-9", `{"chords":["C"],"repeatStart":true,"repeatEnd":9}`, "sections[0].bars[0].repeatEnd", ruleRepeatEnd},
		{"repeat-1", `{"chords":["C"],"repeatStart":true,"repeatEnd":1}`, "sections[0].bars[0].repeatEnd", ruleRepeatEnd},
		{"ending-5", `{"chords":["C"],"ending":5}`, "sections[0].bars[0].ending", ruleEnding},
		{"mark", `{"chords":["C"],"mark":"coda-al-fine"}`, "sections[0].bars[0].mark", ruleMark},
		{"chords-text", `{"chords":"C"}`, "sections[0].bars[0].chords", ruleBarChords},
		{"chords-missing", `{"beats":3}`, "sections[0].bars[0].chords", "required"},
		{"chords-empty", `{"chords":[],"beats":3}`, "sections[0].bars[0].chords", ruleBarChords},
		{"chords-5", `{"chords":["C","C","C","C","C"],"beats":3}`, "sections[0].bars[0].chords", ruleBarChords},
		{"chord", `{"chords":["C","H7"],"beats":3}`, "sections[0].bars[0].chords[1]", "Not a chord Tele knows: `H7`"},
		{"chord-type", `{"chords":["C",7]}`, "sections[0].bars[0].chords[1]", "string"},
		{"chords-object", `{"chords":{}}`, "sections[0].bars[0].chords", "array"},
		{"unknown", `{"chords":["C"],"repeat":2}`, "sections[0].bars[0].repeat", "unknown"},
		{"duplicate", `{"chords":["C"],"beats":3,"beats":2}`, "sections[0].bars[0].beats", "duplicate"},
		{"number", `7`, "sections[0].bars[0]", "bar object"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseContent([]byte(`{"title":"T","tempo":120,"beatsPerBar":4,"sections":[{"bars":[` + tt.bar + `]}]}`))
			ve, ok := errors.AsType[*ValidationError](err)
			if !ok || ve.Path != tt.path || !strings.Contains(ve.Rule, tt.rule) {
				t.Fatalf("ParseContent = %v; want %s: …%s…", err, tt.path, tt.rule)
			}
		})
	}
	_, err := ParseContent([]byte(`{"title":"T","tempo":120,"beatsPerBar":4,"sections":[{"role":"coda","bars":[["C"]]}]}`))
	if ve, ok := errors.AsType[*ValidationError](err); !ok || ve.Path != "sections[0].role" || ve.Rule != ruleRole {
		t.Fatalf("bad role: %v", err)
	}
	c := Content{Title: "T", Tempo: 120, BeatsPerBar: 4, Sections: []Section{{Bars: []Bar{PlainBar("C"), {Chords: []string{"C"}, Simile: true}}}}}
	if ve, ok := errors.AsType[*ValidationError](c.Validate()); !ok || ve.Path != "sections[0].bars[1].chords" || ve.Rule != ruleSimileBoth {
		t.Fatalf("%% with chords: %v", c.Validate())
	}
}
