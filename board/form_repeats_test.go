package board

import (
	"reflect"
	"strings"
	"testing"
)

// barsOf writes sections of bars in a short chart notation, one token a bar: "|:" opens a repeat before
// the bar, ":|3" closes it after (played 3 times), "1." starts ending 1, "dc" and the other marks are the
// bar's sign, joined with "+" ("|:+1.+:|2"); "/" starts a new section.
func barsOf(chart string) [][]Bar {
	secs := [][]Bar{nil}
	for _, tok := range strings.Fields(chart) {
		if tok == "/" {
			secs = append(secs, nil)
			continue
		}
		b := Bar{Chords: []string{"C"}}
		for _, part := range strings.Split(tok, "+") {
			switch {
			case part == "|:":
				b.RepeatStart = true
			case strings.HasPrefix(part, ":|"):
				b.RepeatEnd = int(part[2] - '0')
			case strings.HasSuffix(part, "."):
				b.Ending = int(part[0] - '0')
			case part != "C":
				b.Mark = Mark(part)
			}
		}
		secs[len(secs)-1] = append(secs[len(secs)-1], b)
	}
	return secs
}

// TestReadRepeats: the repeat reader's states, bar by bar (form_repeats.go), each case the shape of a
// real chart: which repeats it finds, their bars and endings.
func TestReadRepeats(t *testing.T) {
	for _, tt := range []struct {
		name, chart string
		want        []repeatGroup
	}{
		{"a plain repeat", "|: C :|3 C", []repeatGroup{{start: 0, bodyEnd: 2, times: 3, outer: -1}}},
		{"two endings, the last to its section's end", "|: 1.+:|2 2. C / C",
			[]repeatGroup{{start: 0, bodyEnd: 0, endings: []span{{1, 1}, {2, 3}}, outer: -1}}},
		{"an ending left implicit (Back In Black)", "|: 1.+:|2 C",
			[]repeatGroup{{start: 0, bodyEnd: 0, endings: []span{{1, 1}, {2, 1}}, outer: -1}}},
		{"ending 1 across a section mark (One For My Baby)", "|: 1. / :|2 2.",
			[]repeatGroup{{start: 0, bodyEnd: 0, endings: []span{{1, 2}, {3, 3}}, outer: -1}}},
		{"an ending reached by a jump, right after ending 2 (Day In, Day Out)", "|: 1.+:|2 2. dc 3.",
			[]repeatGroup{{start: 0, bodyEnd: 0, endings: []span{{1, 1}, {2, 3}, {4, 4}}, outer: -1, byJump: true}}},
		{"an ending reached by a jump, after the bridge (Just One Of Those Things)", "|: 1.+:|2 2. / C dc 3.",
			[]repeatGroup{{start: 0, bodyEnd: 0, endings: []span{{1, 1}, {2, 2}, {5, 5}}, outer: -1, byJump: true}}},
		{"a vamp inside a repeat", "|: |: :|3 :|2",
			[]repeatGroup{{start: 0, bodyEnd: 3, times: 2, outer: -1}, {start: 1, bodyEnd: 2, times: 3, outer: 0}}},
		{"a vamp inside ending 1", "|: 1. |: :|4 :|2 2.",
			[]repeatGroup{{start: 0, bodyEnd: 0, endings: []span{{1, 4}, {5, 5}}, outer: -1}, {start: 2, bodyEnd: 3, times: 4, outer: 0}}},
		{"a repeat after a last ending closes it", "|: 1.+:|2 2. |: :|2",
			[]repeatGroup{{start: 0, bodyEnd: 0, endings: []span{{1, 1}, {2, 2}}, outer: -1}, {start: 3, bodyEnd: 4, times: 2, outer: -1}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, err := checkForm(barsOf(tt.chart))
			if err != nil {
				t.Fatal(err)
			}
			for i := range f.groups {
				f.groups[i].afterJump = 0 // the signs' part
			}
			if !reflect.DeepEqual(f.groups, tt.want) {
				t.Errorf("groups %+v\nwant   %+v", f.groups, tt.want)
			}
		})
	}
}

// TestReadRepeatsRefusals: the states in which a bar breaks a rule, each with its rule id.
func TestReadRepeatsRefusals(t *testing.T) {
	for _, tt := range []struct{ chart, rule string }{
		{"|: 1. 2.", "endingInsideEnding"},
		{"|: 1.+:|2 3.", "endingMustBe"},
		{"|: 1. / C", "ending1NeedsEnd"},
		{"|: |: :|2", "repeatOpen"},
		{"|: |: 1.+:|2 :|2", "repeatOpen"},
		{"C :|2", "endNoStart"},
		{"|: 1.+:|2 2. 3.", "endingByJump"},
		{"|: 1.+:|2 2.+dc 3.+:|4", "jumpEndingEnds"},
		{"|: C", "neverEnds"},
	} {
		_, err := checkForm(barsOf(tt.chart))
		ve, ok := err.(*ValidationError)
		if !ok || ve.RuleID != tt.rule {
			t.Errorf("%s: %v, want the rule %s", tt.chart, err, tt.rule)
		}
	}
}
