package host

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"tele/board"
)

// TestToolLines: the model's tool reads and writes lines of words. The catalogue says what a line is,
// a put with lines stores them (aliases in the catalogue's spelling) and get answers schemaVersion 3,
// and a chord inside an emoji comes back refused at its path with its rule.
func TestToolLines(t *testing.T) {
	fb := startHost(t, hostOpts{})
	fb.ready("songs")
	catalogue(t, fb, func(doc board.CatalogueDoc) bool { return strings.Contains(doc.SchemaChanges["3"], `"lines"`) })
	rev, content := getBoard(t, fb)
	content.Sections[0].Lines = []board.Line{{Text: "Amazing grace 😀", Chords: []board.LineChord{{At: 0, Chord: "G"}, {At: 8, Chord: "C^7"}, {At: 16, Chord: "D"}}}}
	cb, _ := json.Marshal(content)
	good := fb.call("tool", fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s}`, rev, cb))
	var res struct {
		Revision int
		Content  board.Content
	}
	want := []board.LineChord{{At: 0, Chord: "G"}, {At: 8, Chord: "Cmaj7"}, {At: 16, Chord: "D"}}
	if err := json.Unmarshal(good.m["ok"], &res); err != nil || !reflect.DeepEqual(res.Content.Sections[0].Lines[0].Chords, want) {
		t.Fatalf("put with lines: %s", good.line)
	}
	got := fb.call("tool", `{"action":"get"}`)
	var b struct{ SchemaVersion int }
	if err := json.Unmarshal(got.m["ok"], &b); err != nil || b.SchemaVersion != 3 {
		t.Fatalf("get: %s", got.line)
	}
	content = res.Content
	content.Sections[0].Lines[0].Chords[2].At = 15 // between the emoji's halves
	cb, _ = json.Marshal(content)
	bad := fb.call("tool", fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s}`, res.Revision, cb))
	var inv struct {
		Err struct{ Code, Path, Rule string }
	}
	json.Unmarshal([]byte(bad.line), &inv)
	if inv.Err.Code != "invalid_content" || inv.Err.Path != "content.sections[0].lines[0].chords[2].at" || !strings.Contains(inv.Err.Rule, "inside a character") {
		t.Fatalf("refused put: %s", bad.line)
	}
}
