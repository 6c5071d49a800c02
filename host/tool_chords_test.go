package host

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"tele/board"
	"tele/chord"
)

// The model's tool sees the catalogue's rules: the catalogue action lists the aliases, a put with an
// alias stores the catalogue's spelling, and a refused symbol comes back with a suggestion. The symbols
// are the code review's table (chord/testdata/chord-spellings.json, "everywhere"): the tool gives the
// editor's and the importers' answer.
func TestToolChordSpellings(t *testing.T) {
	fb := startHost(t, hostOpts{})
	fb.ready("songs")
	catalogue(t, fb, func(doc board.CatalogueDoc) bool { return doc.Version == chord.Version && len(doc.Aliases) > 0 })
	rev, content := getBoard(t, fb)

	content.Sections[0].Bars[0] = board.PlainBar("H7")
	cb, _ := json.Marshal(content)
	bad := fb.call("tool", fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s}`, rev, cb))
	var inv struct {
		Err struct{ Code, Message, Path, Rule, Suggestion string }
	}
	json.Unmarshal([]byte(bad.line), &inv)
	if inv.Err.Code != "invalid_content" || inv.Err.Path != "content.sections[0].bars[0][0]" || inv.Err.Suggestion != "B7" ||
		!strings.Contains(inv.Err.Message, "Not a chord Tele knows: `H7`. Did you mean `B7`?") {
		t.Fatalf("refused put: %s", bad.line)
	}

	content.Sections[0].Bars[0] = board.PlainBar("Ch7", "C^7", "NC.", "N")
	cb, _ = json.Marshal(content)
	good := fb.call("tool", fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s}`, rev, cb))
	var res struct{ Content board.Content }
	if err := json.Unmarshal(good.m["ok"], &res); err != nil || strings.Join(res.Content.Sections[0].Bars[0].Chords, " ") != "Cm7b5 Cmaj7 N.C. N.C." {
		t.Fatalf("put with aliases: %s", good.line)
	}
}
