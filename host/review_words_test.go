package host

import (
	"strings"
	"testing"

	"tele/board"
)

func contentOf(sections ...board.Section) board.Content {
	return board.Content{Title: "T", Tempo: 120, BeatsPerBar: 4, Sections: sections}
}

func section(label string, chords ...string) board.Section {
	s := board.Section{Label: label}
	for _, c := range chords {
		s.Bars = append(s.Bars, board.PlainBar(strings.Fields(c)...))
	}
	return s
}

// The words the model hears: what the accepting revision took of a proposal, what it left, and the bars
// the board now holds in a third way.
func TestOutcomeWords(t *testing.T) {
	base := contentOf(section("A", "C", "Am", "F", "G", "C", "Am"), section("A", "Dm", "G"))
	prop := contentOf(section("A", "Cmaj7", "A7", "F", "G", "E7", "Am"), section("A", "Dm", "G7"))
	prop.Tempo = 96
	cases := []struct {
		name     string
		accepted board.Content
		want     []string
	}{
		{"all", prop, []string{"accepted all of it"}},
		{"bars and a field", func() board.Content {
			c := base
			c.Tempo = 96
			c.Sections = []board.Section{section("A", "Cmaj7", "A7", "F", "G", "C", "Am"), base.Sections[1]}
			return c
		}(), []string{`accepted the tempo, bars 1–2 of "A" (section 1)`, `rejected bar 5 of "A" (section 1), bar 2 of "A" (section 2)`}},
		{"nothing new", base, []string{`rejected the tempo, bars 1–2, 5 of "A" (section 1), bar 2 of "A" (section 2)`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := takenParts(base, prop, tc.accepted); strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
				t.Fatalf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
	// A section the proposal adds is taken whole or not at all.
	grown := contentOf(base.Sections[0], base.Sections[1], section("Coda", "C"))
	if got := takenParts(base, grown, base); strings.Join(got, "; ") != `rejected section "Coda"` {
		t.Fatalf("an added section left: %q", got)
	}
	// The musician wrote bar 2 otherwise; bar 1 as proposed and bar 5 as it was are no news.
	now := contentOf(section("A", "Cmaj7", "F7", "F", "G", "C", "Am"), base.Sections[1])
	if got := changedParts(base, prop, now); len(got) != 1 || got[0] != `the musician changed bar 2 of "A" (section 1) to F7` {
		t.Fatalf("changed: %q", got)
	}
	for bars, want := range map[string]string{"0": "bar 1", "0 1 2": "bars 1–3", "0 2 3 7": "bars 1, 3–4, 8"} {
		var in []int
		for _, f := range strings.Fields(bars) {
			in = append(in, int(f[0]-'0'))
		}
		if got := barList(in); got != want {
			t.Errorf("barList(%v) = %q, want %q", in, got, want)
		}
	}
}
