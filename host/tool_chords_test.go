package host

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"tele/board"
)

// The model's tool sees the catalogue's rules: the catalogue action lists the aliases, a put with an
// alias stores the catalogue's spelling, and a refused symbol comes back with a suggestion.
func TestToolChordSpellings(t *testing.T) {
	fb := startHost(t, hostOpts{})
	fb.ready("songs")
	cat := fb.call("tool", `{"action":"catalogue"}`)
	var doc board.CatalogueDoc
	if err := json.Unmarshal(cat.m["ok"], &doc); err != nil || doc.Version != board.CatalogueVersion || len(doc.Aliases) == 0 {
		t.Fatalf("catalogue %s", cat.line)
	}
	rev, content := getBoard(t, fb)

	content.Sections[0].Bars[0] = board.PlainBar("Cø7")
	cb, _ := json.Marshal(content)
	bad := fb.call("tool", fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s}`, rev, cb))
	var inv struct {
		Err struct{ Code, Message, Path, Rule, Suggestion string }
	}
	json.Unmarshal([]byte(bad.line), &inv)
	if inv.Err.Code != "invalid_content" || inv.Err.Path != "content.sections[0].bars[0][0]" || inv.Err.Suggestion != "Cm7b5" ||
		!strings.Contains(inv.Err.Message, "Not a chord Tele knows: `Cø7`. Did you mean `Cm7b5`?") {
		t.Fatalf("refused put: %s", bad.line)
	}

	content.Sections[0].Bars[0] = board.PlainBar("Cø", "F9sus")
	cb, _ = json.Marshal(content)
	good := fb.call("tool", fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s}`, rev, cb))
	var res struct{ Content board.Content }
	if err := json.Unmarshal(good.m["ok"], &res); err != nil || strings.Join(res.Content.Sections[0].Bars[0].Chords, " ") != "Cm7b5 F9sus4" {
		t.Fatalf("put with aliases: %s", good.line)
	}
}
