package ireal

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tele/board"
)

// wantSong is one song of a testdata/*.json file: the board Tele should read with the notes on what was
// not taken over as written, or (for a song Tele cannot read) the error it should give.
type wantSong struct {
	Title string          `json:"title"`
	Error string          `json:"error"`
	Notes []string        `json:"notes"`
	Board json.RawMessage `json:"board"`
}

// TestReadLinks reads real-world-style iReal Pro links (testdata/*.txt, written as iReal Pro shares them:
// percent-encoded, irealb:// music scrambled) and compares every song with the board written by hand beside
// it (*.json), with its notes, or with the error for a song Tele refuses.
func TestReadLinks(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txt")
	if len(files) < 12 {
		t.Fatalf("%d links, want a dozen", len(files))
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".txt")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var want []wantSong
			wantJSON, err := os.ReadFile(strings.TrimSuffix(file, ".txt") + ".json")
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(wantJSON, &want); err != nil {
				t.Fatalf("%s.json: %v", name, err)
			}
			songs, err := Parse(data)
			if err != nil || len(songs) != len(want) {
				t.Fatalf("Parse: %d songs, want %d: %v", len(songs), len(want), err)
			}
			for i, s := range songs {
				w := want[i]
				if w.Error != "" {
					if s.Err == nil || s.Err.Error() != w.Error || s.Title != w.Title {
						t.Errorf("song %d: %q, error %v; want %q, error %q", i, s.Title, s.Err, w.Title, w.Error)
					}
					continue
				}
				if s.Err != nil {
					t.Errorf("song %d: %v", i, s.Err)
					continue
				}
				c, err := board.ParseContent(w.Board)
				if err != nil {
					t.Fatalf("%s.json song %d: %v", name, i, err)
				}
				if !reflect.DeepEqual(s.Content, c) {
					t.Errorf("song %d: read\n%+v\nwant\n%+v\nnotes %q", i, s.Content, c, s.Notes)
				}
				if !sameNotes(s.Notes, w.Notes) {
					t.Errorf("song %d: notes %q, want %q", i, s.Notes, w.Notes)
				}
			}
		})
	}
}

func sameNotes(got, want []string) bool {
	return len(got) == len(want) && (len(got) == 0 || reflect.DeepEqual(got, want))
}
