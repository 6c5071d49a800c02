package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tele/board"
	"tele/board/store"
	"tele/chordpro"
)

// TestCLIImportLyrics: `tele board import` reads a chords-over-lyrics sheet and a ChordPro lyric file,
// prints the guesses as notes, and `tele board export --format chordpro` writes the lyric sections,
// which read back to the same board.
func TestCLIImportLyrics(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	env := cleanEnv(t)
	sheet := filepath.Join(t.TempDir(), "sheet.txt")
	os.WriteFile(sheet, []byte("Rising\n\n[Verse]\n     Am       C\nThere is a house\n"), 0o600)
	r := runTele(t, env, "board", "import", sheet, "--data", data)
	if r.code != 0 || !linkRe.MatchString(strings.SplitN(r.stdout, "\n", 2)[0]+"\n") || !strings.Contains(r.stdout+r.stderr, "put over the character of the words") {
		t.Fatalf("import: %d %q %q", r.code, r.stdout, r.stderr)
	}
	b, err := store.ReadBoard(data, "rising")
	want := []board.Line{{Text: "There is a house", Chords: []board.LineChord{{At: 5, Chord: "Am"}, {At: 14, Chord: "C"}}}}
	if err != nil || len(b.Content.Sections) != 1 || b.Content.Sections[0].Role != "verse" || !reflect.DeepEqual(b.Content.Sections[0].Lines, want) {
		t.Fatalf("stored %+v, %v", b.Content, err)
	}
	r = runTele(t, env, "board", "export", "rising", "--format", "chordpro", "--data", data)
	if r.code != 0 || !strings.Contains(r.stdout, "{start_of_verse: label=\"Verse\"}\nThere[Am] is a hou[C]se\n{end_of_verse}") {
		t.Fatalf("export: %d %q %q", r.code, r.stdout, r.stderr)
	}
	back, _, err := chordpro.Read([]byte(r.stdout))
	if err != nil || !reflect.DeepEqual(back, b.Content) {
		t.Fatalf("read back %+v, %v", back, err)
	}

	cho := filepath.Join(t.TempDir(), "grace.cho")
	os.WriteFile(cho, []byte("{title: Grace}\n{soc}\n[G]Amazing [C]grace\n{eoc}\n{chorus}\n"), 0o600)
	r = runTele(t, env, "board", "import", cho, "--data", data)
	if r.code != 0 {
		t.Fatalf("import: %d %q %q", r.code, r.stdout, r.stderr)
	}
	b, err = store.ReadBoard(data, "grace")
	if err != nil || len(b.Content.Sections) != 2 || b.Content.Sections[1].Recall != "chorus" {
		t.Fatalf("stored %+v, %v", b.Content, err)
	}
}
