package chordtext

import (
	"errors"
	"os"
	"reflect"
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
		{"CJK", "  Am\n中文歌词\n", board.Line{Text: "中文歌词", Chords: []board.LineChord{{At: 2, Chord: "Am"}}}},
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
		if _, _, err := Read([]byte(in)); !errors.Is(err, ErrNoChords) {
			t.Errorf("Read(%q) = %v", in, err)
		}
	}
	if _, _, err := Read([]byte("\xff")); err == nil {
		t.Error("binary read")
	}
}

// FuzzRead: Read never panics, what it accepts is valid, and it survives ChordPro export and import.
func FuzzRead(f *testing.F) {
	data, _ := os.ReadFile("testdata/sheet.txt")
	f.Add(data)
	f.Add([]byte("G  😀 C\n中文 words\n[Chorus]\nAm\nx\n"))
	f.Add([]byte("T\n\nC#m7b5/G#    N.C.  (x2)\n  la la la\nPre-Chorus:\n"))
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
