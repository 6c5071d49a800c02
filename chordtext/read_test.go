package chordtext

import (
	"context"
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"tele/board"
	"tele/chordpro"
	"tele/costtest"
)

func TestReadSheet(t *testing.T) {
	data, err := os.ReadFile("testdata/sheet.txt")
	if err != nil {
		t.Fatal(err)
	}
	if f := board.SniffFormat(data); f != "text" {
		t.Fatalf("SniffFormat = %q", f)
	}
	c, notes, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	want := []board.Section{
		{Label: "Intro", Role: "intro", Lines: []board.Line{{Text: "          ", Chords: []board.LineChord{{At: 0, Chord: "Am"}, {At: 4, Chord: "C"}, {At: 7, Chord: "D"}, {At: 10, Chord: "F"}}}}},
		{Label: "Verse 1", Role: "verse", Lines: []board.Line{
			{Text: "There is a house in New Orleans   ", Chords: []board.LineChord{{At: 5, Chord: "Am"}, {At: 14, Chord: "C"}, {At: 23, Chord: "D"}, {At: 34, Chord: "F"}}},
			{Text: "They call the Rising Sun", Chords: []board.LineChord{{At: 4, Chord: "Am"}, {At: 13, Chord: "C"}, {At: 21, Chord: "E"}}},
		}},
		{Label: "Chorus", Role: "chorus", Lines: []board.Line{
			{Text: "And it's been the ruin of many a poor boy", Chords: []board.LineChord{{At: 0, Chord: "Am"}, {At: 10, Chord: "C"}, {At: 16, Chord: "D"}, {At: 24, Chord: "F"}}},
			{Text: "And God I know I'm one   (x2)", Chords: []board.LineChord{{At: 3, Chord: "Am"}, {At: 11, Chord: "E7"}, {At: 19, Chord: "Am"}}},
		}},
	}
	if c.Title != "House of the Rising Sun" || !reflect.DeepEqual(c.Sections, want) {
		t.Fatalf("%q\n%+v\nwant\n%+v", c.Title, c.Sections, want)
	}
	all := strings.Join(notes, "\n")
	for _, n := range []string{"was read as the title", `"[Verse 1]" starts a section with the role verse`, `"Chorus:" starts a section with the role chorus`,
		"put over the character of the words in its column", "no words under it"} {
		if !strings.Contains(all, n) {
			t.Errorf("notes %q lack %q", notes, n)
		}
	}
	// What was read exports to ChordPro and reads back the same.
	back, _, err := chordpro.Read(chordpro.Write(c))
	if err != nil || !reflect.DeepEqual(back, c) {
		t.Fatalf("ChordPro round trip: %v\n%s", err, chordpro.Write(c))
	}
}

func TestReadPlacement(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     board.Line
	}{
		{"past the end", "G      C\nla\n", board.Line{Text: "la     ", Chords: []board.LineChord{{At: 0, Chord: "G"}, {At: 7, Chord: "C"}}}},
		{"emoji", " G\n😀x\n", board.Line{Text: "😀x", Chords: []board.LineChord{{At: 2, Chord: "G"}}}},
		{"CJK, two columns a character", "  Am\n中文歌词\n", board.Line{Text: "中文歌词", Chords: []board.LineChord{{At: 1, Chord: "Am"}}}},
		{"a part's name in brackets that reads as a chord", "[Chorus]\nG\nla\n", board.Line{Text: "la", Chords: []board.LineChord{{At: 0, Chord: "G"}}}},
		{"nearest and bar lines", "| Cmaj7b9 | G7 |\nwords here and there\n", board.Line{Text: "words here and there", Chords: []board.LineChord{{At: 2, Chord: "Cmaj7"}, {At: 12, Chord: "G7"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, err := Read([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Sections[0].Lines[0]; !reflect.DeepEqual(got, tc.want) || len(c.Sections[0].Lines) != 1 {
				t.Errorf("%+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestNotASheet(t *testing.T) {
	for _, in := range []string{"", "just words\nand more words\n", "[Verse]\nla la\n", "G C D\n\nwords\n"} {
		if f := board.SniffFormat([]byte(in)); f == "text" {
			t.Errorf("SniffFormat(%q) = text", in)
		}
	}
	for _, in := range []string{"", "just words\nand more words\n", "[Verse]\nla la\n", "Fooo Bar Baz\nwords\n", "B|--1--5--|\nG|--2-----|\nla\n"} {
		if _, _, err := Read([]byte(in)); !errors.Is(err, ErrNoChords) {
			t.Errorf("Read(%q) = %v", in, err)
		}
	}
	if _, _, err := Read([]byte("\xff")); err == nil {
		t.Error("binary read")
	}
}

// defectSheets are the sheets the lyric corpus found read wrong, each with the sections they must make
// and a note code they must give.
var defectSheets = []struct {
	name, in string
	want     []board.Section
	code     string
}{
	{"tablature is no chords", "E  A\nla la\nB|--1--5--|\nG|--2-4---|\nE-----------------\n", []board.Section{{Lines: []board.Line{
		{Text: "la la", Chords: []board.LineChord{{At: 0, Chord: "E"}, {At: 3, Chord: "A"}}}}}}, "tab_left_out"},
	{"chords over a staff fall on the words under it", "  F    G\ne|-----1---| do not use e\nA 0---4---|\n  la   la\n", []board.Section{{Lines: []board.Line{
		{Text: "  la   la", Chords: []board.LineChord{{At: 2, Chord: "F"}, {At: 7, Chord: "G"}}}}}}, "tab_left_out"},
	{"a chord spelled with a sign no word has", "  Cm7/add2\n  la la\n", []board.Section{{Lines: []board.Line{
		{Text: "  la la", Chords: []board.LineChord{{At: 2, Chord: "Cm7"}}}}}}, "chord_nearest"},
	{"a fingering chart is words", "G  C\nla la\nAb=xx111x\nC/B=020010\n", []board.Section{{Lines: []board.Line{
		{Text: "la la", Chords: []board.LineChord{{At: 0, Chord: "G"}, {At: 3, Chord: "C"}}}, {Text: "Ab=xx111x"}, {Text: "C/B=020010"}}}}, "chords_over_words"},
	{"words that begin like chords", "Emsus4    Am  C\nFooo      Bar Baz\n", []board.Section{{Lines: []board.Line{
		{Text: "Fooo      Bar Baz", Chords: []board.LineChord{{At: 0, Chord: "Esus4"}, {At: 10, Chord: "Am"}, {At: 14, Chord: "C"}}}}}}, "chords_over_words"},
	{"Amazing Grace", "Am      G\nAmazing Grace\nEm      B\nEmpty   Beautiful\n", []board.Section{{Lines: []board.Line{
		{Text: "Amazing Grace", Chords: []board.LineChord{{At: 0, Chord: "Am"}, {At: 8, Chord: "G"}}},
		{Text: "Empty   Beautiful", Chords: []board.LineChord{{At: 0, Chord: "Em"}, {At: 8, Chord: "B"}}}}}}, "chords_over_words"},
	{"dashed and bracketed headings", "-- Chorus --\nC  G\nla la\n(Verse)\nAm\nlo\n", []board.Section{
		{Label: "Chorus", Role: "chorus", Lines: []board.Line{{Text: "la la", Chords: []board.LineChord{{At: 0, Chord: "C"}, {At: 3, Chord: "G"}}}}},
		{Label: "Verse", Role: "verse", Lines: []board.Line{{Text: "lo", Chords: []board.LineChord{{At: 0, Chord: "Am"}}}}}}, "heading_role"},
	{"a tab to the next tab stop", "\tCm\nA tab   before\n", []board.Section{{Lines: []board.Line{
		{Text: "A tab   before", Chords: []board.LineChord{{At: 8, Chord: "Cm"}}}}}}, "tab_stops"},
	{"wide characters two columns", "Am        G\n我想你了我想你了\n", []board.Section{{Lines: []board.Line{
		{Text: "我想你了我想你了", Chords: []board.LineChord{{At: 0, Chord: "Am"}, {At: 5, Chord: "G"}}}}}}, "wide_columns"},
	{"[ch] markup", "[ch]G[/ch]    [ch]C[/ch]\nla la la la\n", []board.Section{{Lines: []board.Line{
		{Text: "la la la la", Chords: []board.LineChord{{At: 0, Chord: "G"}, {At: 5, Chord: "C"}}}}}}, "chord_markup"},
	{"a heading with its chords", "Intro: A  A#m7 Asus4/G#\n\nG\nla\n", []board.Section{
		{Label: "Intro", Role: "intro", Lines: []board.Line{{Text: "        ", Chords: []board.LineChord{{At: 0, Chord: "A"}, {At: 3, Chord: "A#m7"}, {At: 8, Chord: "Asus4/G#"}}}}},
		{Lines: []board.Line{{Text: "la", Chords: []board.LineChord{{At: 0, Chord: "G"}}}}}}, "heading_chords"},
	{"chords with no words", "Am  G  C  Em\nDm  Am  F  G\n", []board.Section{{Lines: []board.Line{
		{Text: "          ", Chords: []board.LineChord{{At: 0, Chord: "Am"}, {At: 4, Chord: "G"}, {At: 7, Chord: "C"}, {At: 10, Chord: "Em"}}},
		{Text: "           ", Chords: []board.LineChord{{At: 0, Chord: "Dm"}, {At: 4, Chord: "Am"}, {At: 8, Chord: "F"}, {At: 11, Chord: "G"}}}}}}, "chords_alone"},
}

// TestReadDefects: the sheets of defectSheets read as they must, and say the guess in a note.
func TestReadDefects(t *testing.T) {
	for _, tc := range defectSheets {
		t.Run(tc.name, func(t *testing.T) {
			charts, err := ReadCharts(context.Background(), []byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := charts[0].Content.Sections; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%+v\nwant %+v", got, tc.want)
			}
			var codes []string
			for _, nc := range charts[0].Codes {
				codes = append(codes, nc.Code)
			}
			if !slices.Contains(codes, tc.code) {
				t.Errorf("note codes %q lack %s (notes %q)", codes, tc.code, charts[0].Notes)
			}
		})
	}
}

// FuzzRead: Read never panics, what it accepts is valid, and it survives ChordPro export and import.
func FuzzRead(f *testing.F) {
	data, _ := os.ReadFile("testdata/sheet.txt")
	f.Add(data)
	f.Add([]byte("G  😀 C\n中文 words\n[Chorus]\nAm\nx\n"))
	f.Add([]byte("T\n\nC#m7b5/G#    N.C.  (x2)\n  la la la\nPre-Chorus:\n"))
	for _, tc := range defectSheets {
		f.Add([]byte(tc.in))
	}
	_, _, _ = Read(data) // the chord tables are made on first use, not by an input's reading
	f.Fuzz(func(t *testing.T, data []byte) {
		var c board.Content
		var err error
		// The cost bound of the other readers of outside input: linear in the text.
		costtest.Bound(t, len(data), 64<<10, 512, func() { board.SniffFormat(data); c, _, err = Read(data) })
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("invalid: %v", err)
		}
		back, _, err := chordpro.Read(chordpro.Write(c))
		if err != nil || !reflect.DeepEqual(back, c) {
			t.Fatalf("ChordPro round trip: %v\n%s", err, chordpro.Write(c))
		}
	})
}
