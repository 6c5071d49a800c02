package chordpro

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tele/board"
	"tele/board/formtable"
	"tele/costtest"
)

// TestReadCharts reads real-world-style grid charts (testdata/*.cho) and compares each board with the
// one written by hand beside it (*.json), and the notes with the changes each file should report.
func TestReadCharts(t *testing.T) {
	wantNotes := map[string][]string{
		"mapped":             {"Cmaj7b9 became Cmaj7", "D7#9b13 became D7#9", "H7 became B7"},
		"songbook-mixed":     nil,
		"spec-example":       {"%% (repeat two bars) was written out", `margin text "A"`, "the sign coda was left out"},
		"rising-sun":         nil,
		"autumn-leaves":      nil,
		"blues-ds":           nil,
		"three-endings":      nil,
		"ireal-style-chords": nil,
	}
	files, _ := filepath.Glob("testdata/*.cho")
	if len(files) < 12 {
		t.Fatalf("%d charts, want a dozen", len(files))
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".cho")
		t.Run(name, func(t *testing.T) {
			data, _ := os.ReadFile(file)
			c, notes, err := Read(data)
			if err != nil {
				t.Fatal(err)
			}
			wantJSON, err := os.ReadFile(strings.TrimSuffix(file, ".cho") + ".json")
			if err != nil {
				t.Fatal(err)
			}
			want, err := board.ParseContent(wantJSON)
			if err != nil {
				t.Fatalf("%s.json: %v", name, err)
			}
			if !reflect.DeepEqual(c, want) {
				t.Fatalf("read\n%+v\nwant\n%+v\nnotes %q", c, want, notes)
			}
			if w, ok := wantNotes[name]; ok {
				if w == nil && len(notes) > 0 {
					t.Fatalf("notes %q, want none", notes)
				}
				for _, s := range w {
					if !strings.Contains(strings.Join(notes, "\n"), s) {
						t.Fatalf("notes %q lack %q", notes, s)
					}
				}
			}
			// And back: writing what was read and reading it again gives the same board.
			again, notes2, err := Read(Write(c))
			if err != nil || !reflect.DeepEqual(again, c) || len(notes2) > 0 {
				t.Fatalf("round trip: %v, notes %q\n%s", err, notes2, Write(c))
			}
		})
	}
}

// TestRoundTripFormTable: every playable chart of the form table, and the example, survives board →
// ChordPro → board unchanged.
func TestRoundTripFormTable(t *testing.T) {
	contents := []board.Content{board.Example()}
	for _, fc := range formtable.Playable(t) {
		c, err := board.ParseContent([]byte(`{"title":"` + fc.Name + `","description":"line one\nline two","key":"Bbm","tempo":90,"beatsPerBar":4,"sections":` + string(fc.Sections) + `}`))
		if err != nil {
			t.Fatal(err)
		}
		contents = append(contents, c)
	}
	for _, c := range contents {
		out := Write(c)
		back, notes, err := Read(out)
		if err != nil || !reflect.DeepEqual(back, c) || len(notes) > 0 {
			t.Fatalf("%s: %v, notes %q\n%s\nread  %+v\nwant %+v", c.Title, err, notes, out, back, c)
		}
	}
}

func TestReadRefusals(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"nothing", "{title: X}\n{key: C}\n# a comment\n", "no ChordPro grid"},
		{"unclosed", "{start_of_grid}\n| C . . . |\n", "no {end_of_grid}"},
		{"no line of chords", "{start_of_grid}\n| C . . . | Xmaj . . . |\n{end_of_grid}\n", `no grid line holds bars Tele can read: the grid line "| C . . . | Xmaj . . . |" was left out: "Xmaj" is not a chord`},
		{"unplayable", "{start_of_grid}\n| C . . . :|\n{end_of_grid}\n", "end repeat has no start"},
		{"binary", "\xff\xfe", "not UTF-8"},
	} {
		_, _, err := Read([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Read = %v, want …%s…", tt.name, err, tt.want)
		}
	}
}

// FuzzRead: Read never panics, and what it accepts is valid content that survives a write and a read.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.cho")
	for _, file := range files {
		data, _ := os.ReadFile(file)
		f.Add(data)
	}
	// The form of content schema version 3: an ending the D.C. leads to, ending 1 across two grids.
	f.Add([]byte("{start_of_grid}\n|: C . . . |1 D . . . :|2 E . . . | F . . . D.C. |3 G . . . |.\n{end_of_grid}\n"))
	f.Add([]byte("{start_of_grid}\n|: C . . . |1 D . . . |\n{end_of_grid}\n{start_of_grid}\n| E . . . :|2 F . . . |.\n{end_of_grid}\n"))
	// A repeat open across grids, its ending 1 starting the next; a grid under a {time} of its most common bar.
	f.Add([]byte("{start_of_grid}\n|: C . . . |\n{end_of_grid}\n{start_of_grid}\n|1 D . . . :|\n|2 E . . . |.\n{end_of_grid}\n"))
	f.Add([]byte("{time: 4/4}\n{start_of_grid}\n| C . . . |\n{end_of_grid}\n{time: 3/4}\n{start_of_grid}\n| F . . | G . . | C . . . |.\n{end_of_grid}\n"))
	// A comment between sections, kept as a line; markup in words, and words that look like it.
	f.Add([]byte("{sov}\na\n{eov}\n{c: Repeat <b>x2</b> [D]}\n[C]<i>it</i>al \\<b> a<3\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var c board.Content
		var err error
		// Reading costs work linear in the file: at most 512 bytes allocated a byte of it (the files of
		// TestLinear allocate at most about 205; a quadratic path would pass any bound on long inputs).
		costtest.Bound(t, len(data), 64<<10, 512, func() { c, _, err = Read(data) })
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("Read accepted invalid content: %v", err)
		}
		again, _, err := Read(Write(c))
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Fatalf("round trip: %v\n%s", err, Write(c))
		}
	})
}

// TestWriteKeepsText: titles, descriptions and labels with the characters ChordPro gives meaning to
// come back as they were.
func TestWriteKeepsText(t *testing.T) {
	c := board.Example()
	c.Title = " {Title} with \\ and } "
	c.Description = "line one\n\tline two}\n"
	c.Sections[0].Label = "A \"quoted\" label\n"
	c.Sections[1].Role = "chorus"
	back, notes, err := Read(Write(c))
	if err != nil || !reflect.DeepEqual(back, c) || len(notes) > 0 {
		t.Fatalf("%v, %q\n%s", err, notes, Write(c))
	}
}

// TestTimeSignature: {time} is the board's beats over 4 (a board keeps no note value); a file's other
// note value reads as that many beats, and the reader says so.
func TestTimeSignature(t *testing.T) {
	c := board.Example()
	c.BeatsPerBar = 3
	if out := string(Write(c)); !strings.Contains(out, "{time: 3/4}\n") {
		t.Fatalf("written:\n%s", out)
	}
	c, notes, err := Read([]byte("{title: Jig}\n{time: 6/8}\n{start_of_grid}\n| D . . . . . | G . . A . . |\n{end_of_grid}\n"))
	if err != nil || c.BeatsPerBar != 6 || len(notes) != 1 || !strings.Contains(notes[0], "6/8 was read as 6 beats per bar") {
		t.Fatalf("read %d beats, notes %q, %v", c.BeatsPerBar, notes, err)
	}
}
