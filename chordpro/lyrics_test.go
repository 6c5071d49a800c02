package chordpro

import (
	"reflect"
	"strings"
	"testing"

	"tele/board"
)

// lyricBoard is a board of every kind of section: lines alone, a grid with its words, a recall, a tab,
// words with the characters ChordPro gives meaning to, CJK and emoji.
func lyricBoard() board.Content {
	return board.Content{
		Title: "Song", Description: "first\nsecond", Artist: "The Band", Composer: "Someone", Style: "Folk Rock",
		Key: "D", Tempo: 96, BeatsPerBar: 4,
		Sections: []board.Section{
			{Label: "Intro", Role: "intro", Bars: []board.Bar{board.PlainBar("D"), board.PlainBar("G")}},
			{Label: "Verse 1", Role: "verse", Lines: []board.Line{
				{Text: "Here [are] {braces} # and \\ too", Chords: []board.LineChord{{At: 0, Chord: "D"}, {At: 5, Chord: "Bm7"}}},
				{Text: ""},
				{Text: "", Chords: []board.LineChord{{At: 0, Chord: "A7sus4"}}},
				{Text: "  spaces kept  ", Chords: []board.LineChord{{At: 15, Chord: "G"}}},
				{Text: "中文歌词 😀 end", Chords: []board.LineChord{{At: 1, Chord: "C#m7b5"}, {At: 5, Chord: "F#"}, {At: 7, Chord: "N.C."}}},
				{Text: "{not a directive}"},
				{Text: "# not a comment"},
				{Text: "<b>words</b> like <span x=\"1\">markup</span>, a < b", Chords: []board.LineChord{{At: 0, Chord: "E"}}},
			}},
			{Label: "Chorus", Role: "chorus", Bars: []board.Bar{board.PlainBar("G", "A")}, Lines: []board.Line{{Text: "la la", Chords: []board.LineChord{{At: 0, Chord: "G"}, {At: 3, Chord: "A"}}}}},
			{Label: "Again", Recall: "chorus"},
			{Recall: "chorus"},
			{Label: "", Lines: []board.Line{{Text: "no role, no label"}}},
			{Label: "Tab", Lines: []board.Line{{Text: "e|--3--|"}, {Text: "B|--0--|"}}},
			{Label: "Tab", Lines: []board.Line{{Text: "{a tab line like a directive}"}}},
			{Label: "Outro", Role: "outro", Lines: []board.Line{{Text: "end", Chords: []board.LineChord{{At: 3, Chord: "D"}}}}},
		},
	}
}

// TestLyricsRoundTrip: every kind of section Tele writes reads back to the same board, with no note.
func TestLyricsRoundTrip(t *testing.T) {
	c := lyricBoard()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	out := Write(c)
	back, notes, err := Read(out)
	if err != nil || len(notes) > 0 || !reflect.DeepEqual(back, c) {
		t.Fatalf("%v, notes %q\n%s\nread %+v\nwant %+v", err, notes, out, back, c)
	}
	for _, want := range []string{"{start_of_grid: label=\"Chorus\"", "{start_of_chorus: grid=\"above\"}\n[G]la [A]la\n", "{chorus: Again}\n", "\n{chorus}\n",
		"{start_of_tab: label=\"Tab\"}\ne|--3--|\n", "{start_of_verse: label=\"Verse 1\"}\n[D]Here [Bm7]\\[are\\] \\{braces\\} \\# and \\\\ too\n\n[A7sus4]\n",
		"{artist: The Band}\n{composer: Someone}\n{meta: style Folk Rock}\n", "{start_of_outro: label=\"Outro\"}\nend[D]\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("written file lacks %q:\n%s", want, out)
		}
	}
}

// TestLyricsRead: what real files hold, read as a musician means it.
func TestLyricsRead(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []board.Section
		notes    []string
	}{
		{"paragraphs outside any section", "{title: T}\n[C]one\ntwo\n\n[G]three\n", []board.Section{
			{Lines: []board.Line{{Text: "one", Chords: []board.LineChord{{At: 0, Chord: "C"}}}, {Text: "two"}}},
			{Lines: []board.Line{{Text: "three", Chords: []board.LineChord{{At: 0, Chord: "G"}}}}},
		}, nil},
		{"a comment labels the lines after it", "{title: T}\n{c: Intro}\nwords\n", []board.Section{{Label: "Intro", Lines: []board.Line{{Text: "words"}}}}, nil},
		{"short forms and labels", "{soc: Chorus 1}\na\n{eoc}\n{sob label=\"B\"}\nb\n{eob}\n{start_of_solo}\nc\n{end_of_solo}\n", []board.Section{
			{Label: "Chorus 1", Role: "chorus", Lines: []board.Line{{Text: "a"}}},
			{Label: "B", Role: "bridge", Lines: []board.Line{{Text: "b"}}},
			{Role: "solo", Lines: []board.Line{{Text: "c"}}},
		}, []string{"no {title}"}},
		{"a recall before any chorus", "{title: T}\n{chorus}\n{sov}\na\n{eov}\n", []board.Section{{Role: "verse", Lines: []board.Line{{Text: "a"}}}}, []string{"{chorus} before any chorus was left out"}},
		{"an unended section", "{title: T}\n{sov}\na\n", []board.Section{{Role: "verse", Lines: []board.Line{{Text: "a"}}}}, []string{"the verse section had no end"}},
		{"a nearest chord, a transpose", "{title: T}\n{transpose: 2}\n[Cmaj7b9]x [A7]y\n", []board.Section{{Lines: []board.Line{{Text: "x y", Chords: []board.LineChord{{At: 0, Chord: "Dmaj7"}, {At: 2, Chord: "B7"}}}}}}, []string{"became Dmaj7", "moved 2 semitones"}},
		{"a comment between sections is a line where it stands", "{title: T}\n{sov}\na\n{eov}\n{c: Repeat [D] x2}\n{soc}\nb\n{eoc}\n{ci: Fine}\n", []board.Section{
			{Role: "verse", Lines: []board.Line{{Text: "a"}}},
			{Lines: []board.Line{{Text: "Repeat [D] x2"}}},
			{Role: "chorus", Lines: []board.Line{{Text: "b"}}},
			{Lines: []board.Line{{Text: "Fine"}}},
		}, []string{`the comment "Repeat [D] x2" was kept as a line of words`, `the comment "Fine" was kept`}},
		{"a comment inside a section is left out", "{title: T}\n{sov}\na\n{c: softly}\n{eov}\n", []board.Section{{Role: "verse", Lines: []board.Line{{Text: "a"}}}},
			[]string{`the comment "softly" was left out`}},
		{"markup is left out of the words", "{title: T}\n[C]<b>Bold</b> and <span color=\"red\">red</span>, a<3 \\<i>\n", []board.Section{
			{Lines: []board.Line{{Text: "Bold and red, a<3 <i>", Chords: []board.LineChord{{At: 0, Chord: "C"}}}}},
		}, []string{"markup <b> was left out", "markup </b>", `markup <span color="red">`, "markup </span>"}},
		{"unknown directives are notes", "{title: T}\n{x_custom: 1}\n{start_of_abc}\nX:1\n{end_of_abc}\nla\n", []board.Section{{Lines: []board.Line{{Text: "la"}}}}, []string{"{x_custom} was left out", "start_of_abc section was left out"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, notes, err := Read([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Sections, tc.want) {
				t.Errorf("sections %+v\nwant %+v", c.Sections, tc.want)
			}
			all := strings.Join(notes, "\n")
			for _, n := range tc.notes {
				if !strings.Contains(all, n) {
					t.Errorf("notes %q lack %q", notes, n)
				}
			}
			if len(notes) != len(tc.notes) {
				t.Errorf("notes %q, want %d", notes, len(tc.notes))
			}
		})
	}
}
