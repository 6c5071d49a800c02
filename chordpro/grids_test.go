package chordpro

import (
	"cmp"
	"context"
	"reflect"
	"strings"
	"testing"

	"tele/board"
)

// TestGridsAsFilesWriteThem: what ChordPro's own files write in grids is read, never refused: strum
// lines and lines of words that are not chords are left out with a note, {transpose} moves the chords
// after it, and endings without repeat signs are the repeat they stand for. Each row names the file of
// the ChordPro project (e2e/crosscheck/corpus) it is cut from.
func TestGridsAsFilesWriteThem(t *testing.T) {
	for _, tt := range []struct {
		name, file string
		key        string
		bars       [][]string // the chords of each bar; nil is a % bar
		repeats    [][2]int   // [repeatStart bar, repeatEnd bar] (0-based), if any
		codes      []string
	}{
		{
			name:  "strum lines (wiki/images/ex_grid3.cho)",
			file:  "{title: S}\n{start_of_grid shape=\"0+2x4+4\"}\n| C ~A . . | C ~A . . |\n|s d~u d~u ~u d~u | d~u d~u ~u d~u |\n| D . . . | % . . . |\n|s d+~u+ ~u d+~u+ ~u | d+~u+ ~u d+~u+ ~ux |\n{end_of_grid}\n",
			bars:  [][]string{{"C", "A"}, {"C", "A"}, {"D"}, nil},
			codes: []string{"strum_left_out", "strum_left_out"},
		},
		{
			name:  "a line of words that are not chords (the strum words of ex_grid3 without |s)",
			file:  "{title: S}\n{start_of_grid}\n| C . . . | G . . . |\n| up dn . . | u . . . |\n{end_of_grid}\n",
			bars:  [][]string{{"C"}, {"G"}},
			codes: []string{"line_left_out"},
		},
		{
			name:  "{transpose -2} before a grid (t/cho/cho008.cho), the key moving with it",
			file:  "{title: T}\n{key: D}\n{transpose -2}\n{start_of_grid: 0+4x4+4}\n| D . . . | A7 . . . |\n| Bm/F# . . . | D . . . ||\n{end_of_grid}\n",
			key:   "C",
			bars:  [][]string{{"C"}, {"G7"}, {"Am/E"}, {"C"}},
			codes: []string{"transposed"},
		},
		{
			name:  "{transpose 2} inside a grid (t/cho/cho028n.cho): the key stays",
			file:  "{title: Test}\n{key: G}\n{start_of_grid 4x3+2}\n| G | Em | D | C | original\n{transpose 2}\n| G | Em | D | C | transposed +2\n{end_of_grid}\n",
			key:   "G",
			bars:  [][]string{{"G"}, {"Em"}, {"D"}, {"C"}, {"A"}, {"F#m"}, {"E"}, {"D"}},
			codes: []string{"margin_left_out", "transposed", "margin_left_out"},
		},
		{
			name:    "voltas without repeat signs (t/html5_volta.cho of the ChordPro project)",
			file:    "{title: V}\n{start_of_grid}\n| F . . | Bb . . |\n|1 C . . | G . . |\n|2 Am . . | F . . |\n{end_of_grid}\n",
			bars:    [][]string{{"F"}, {"Bb"}, {"C"}, {"G"}, {"Am"}, {"F"}},
			repeats: [][2]int{{0, 3}},
			codes:   []string{"volta_repeat"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			charts, err := ReadCharts(context.Background(), []byte(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			ch := charts[0]
			c := ch.Content
			var bars [][]string
			var repeats [][2]int
			for _, s := range c.Sections {
				for i, b := range s.Bars {
					if b.Simile {
						bars = append(bars, nil)
					} else {
						bars = append(bars, b.Chords)
					}
					if b.RepeatStart {
						repeats = append(repeats, [2]int{i, -1})
					}
					if b.RepeatEnd != 0 && len(repeats) > 0 {
						repeats[len(repeats)-1][1] = i
					}
				}
			}
			var codes []string
			for _, nc := range ch.NoteCodes() {
				codes = append(codes, nc.Code)
			}
			if !reflect.DeepEqual(bars, tt.bars) || c.Key != tt.key || !reflect.DeepEqual(repeats, tt.repeats) || !reflect.DeepEqual(codes, tt.codes) {
				t.Fatalf("read %q key %q repeats %v codes %v\nwant %q key %q repeats %v codes %v\nnotes %q", bars, c.Key, repeats, codes, tt.bars, tt.key, tt.repeats, tt.codes, ch.Notes)
			}
			if err := c.Validate(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestEveryNoteHasACode: ChordPro's notes come with codes of their own (docs/api.md), none left as text.
func TestEveryNoteHasACode(t *testing.T) {
	file := "{title: N}\n{key: H}\n{tempo: fast}\n{time: 6/8}\n{start_of_verse}\n{end_of_verse}\nwords\n{start_of_grid}\nA | Cmaj7b9 . . . | % C . . | %% . . . | . . . . | segno\n| C~D~E~F~G . . . |\n{end_of_grid}\n"
	charts, err := ReadCharts(context.Background(), []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	codes := charts[0].NoteCodes()
	if len(codes) < 8 {
		t.Fatalf("%d notes: %q", len(codes), charts[0].Notes)
	}
	for i, nc := range codes {
		if nc.Code == "text" || nc.Code == "" || strings.Contains(nc.Code, " ") {
			t.Errorf("note %q has code %q", charts[0].Notes[i], nc.Code)
		}
	}
	_ = board.NoteCode{}
}

// TestGridTwoJumps: a grid with a D.C. al Fine after the head and a D.S. al Fine after the solos keeps
// both and a Fine each (content schema version 4, Moanin'); a third jump is left out with its own note.
func TestGridTwoJumps(t *testing.T) {
	const two = "{title: T}\n{start_of_grid}\n| C . . . | D . . . | Fine\n|| E . . . | F . . . || D.C. al Fine\nSegno | G . . . | A . . . | Fine\n|| B . . . | C . . . || D.S. al Fine\n{end_of_grid}\n"
	for _, tt := range []struct {
		name, file string
		marks      string
		codes      []string
	}{
		{"two jumps", two, "- fine - dc-al-fine segno fine - ds-al-fine", nil},
		{"a third jump", strings.Replace(two, "{end_of_grid}", "|| D . . . || D.C.\n{end_of_grid}", 1), "", []string{"sign_third"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			charts, err := ReadCharts(context.Background(), []byte(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			c := charts[0].Content
			var marks []string
			for _, s := range c.Sections {
				for _, b := range s.Bars {
					marks = append(marks, cmp.Or(string(b.Mark), "-"))
				}
			}
			var codes []string
			for _, nc := range charts[0].NoteCodes() {
				codes = append(codes, nc.Code)
			}
			if tt.marks != "" && strings.Join(marks, " ") != tt.marks {
				t.Errorf("marks %s, want %s", strings.Join(marks, " "), tt.marks)
			}
			if len(codes) < len(tt.codes) || !reflect.DeepEqual(codes[:len(tt.codes)], tt.codes) || tt.codes == nil && codes != nil {
				t.Errorf("codes %q, want them to start with %q (notes %q)", codes, tt.codes, charts[0].Notes)
			}
			if err := c.Validate(); err != nil {
				t.Fatal(err)
			}
			if tt.codes == nil && c.SchemaVersion() != 4 {
				t.Errorf("SchemaVersion = %d, want 4", c.SchemaVersion())
			}
		})
	}
}
