package e2e

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tele/chordpro"
	"tele/ireal"
)

// roundTripJudged are the real-book charts whose ChordPro export may read back otherwise, each with why
// (file<TAB>title → reason). None is left.
var roundTripJudged = map[string]string{}

// TestChordProRoundTripCorpus: every iReal Pro chart of the real-book corpus that imports is a fixed
// point of ChordPro: its board, written as ChordPro and read back, is the same board, with no note.
func TestChordProRoundTripCorpus(t *testing.T) {
	var files []string
	for _, glob := range []string{"*.txt", "*.url"} {
		found, _ := filepath.Glob(filepath.Join(corpusDir, glob))
		files = append(files, found...)
	}
	songs, fixed := 0, 0
	var bad []string
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := ireal.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, song := range parsed {
			if song.Err != nil {
				continue
			}
			songs++
			id := filepath.Base(file) + "\t" + song.Title
			back, notes, err := chordpro.Read(chordpro.Write(song.Content))
			if err == nil && reflect.DeepEqual(back, song.Content) && len(notes) == 0 {
				fixed++
				if _, ok := roundTripJudged[id]; ok {
					t.Errorf("%s reads back the same now: take it out of roundTripJudged", id)
				}
				continue
			}
			if why, ok := roundTripJudged[id]; ok {
				t.Logf("%s: judged: %s", id, why)
				continue
			}
			bad = append(bad, id+": "+errText(err)+strings.Join(notes, "; "))
		}
	}
	t.Logf("ChordPro round trip of the real-book corpus: %d of %d charts read back the same", fixed, songs)
	if songs < 1500 {
		t.Errorf("%d charts, want the corpus's 1,500", songs)
	}
	if len(bad) > 0 {
		t.Errorf("%d charts do not read back from ChordPro as the same board:\n%s", len(bad), strings.Join(bad, "\n"))
	}
}

func errText(err error) string {
	if err == nil {
		return "read otherwise "
	}
	return err.Error() + " "
}
