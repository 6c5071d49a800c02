package boardhttp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"tele/board/datadirtest"
	"tele/server/servertest"
)

// A chord written another way is stored in the catalogue's spelling; a refused one is a 422 naming the
// symbol and, when there is one, the chord it may have meant (so the page can say it in its language).
func TestPutBoardChordSpellings(t *testing.T) {
	e := servertest.New(t)
	song := e.Create("song", servertest.ValidContent)
	put := func(rev, chords string) (int, map[string]any) {
		body := strings.Replace(servertest.ValidContent, `["Dm7","G7"]`, chords, 1)
		w := e.Do(st{Method: "PUT", Path: "/api/boards/song", Body: body, Header: servertest.PutHeader(song.Capability, rev)})
		var out map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			t.Fatalf("%s: %v", w.Body, err)
		}
		return w.Code, out
	}

	code, out := put(`"1"`, `["Dø","G7♭9","CΔ","Am(M7)"]`)
	if code != 200 {
		t.Fatalf("status %d: %v", code, out)
	}
	stored, err := e.Store.Get("song")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(stored.Content.Sections[0].Bars[2].Chords, " "); got != "Dm7b5 G7b9 Cmaj7 Am(maj7)" {
		t.Errorf("stored %q, want the catalogue's spelling", got)
	}
	if got := out["content"].(map[string]any)["sections"].([]any)[0].(map[string]any)["bars"].([]any)[2]; strings.Join(strs(got), " ") != "Dm7b5 G7b9 Cmaj7 Am(maj7)" {
		t.Errorf("answered %v", got)
	}

	for _, tt := range []struct{ chords, symbol, suggestion string }{
		{`["Dm7","Cdim7b"]`, "Cdim7b", "Cdim7"},
		{`["Dm7","C7sus2"]`, "C7sus2", ""},
	} {
		before := e.Snapshot()
		code, out := put(`"2"`, tt.chords)
		datadirtest.Same(t, tt.symbol, before, e.Snapshot())
		er, _ := out["error"].(map[string]any)
		if code != 422 || er["code"] != "invalid_content" || er["path"] != "sections[0].bars[2][1]" || er["symbol"] != tt.symbol {
			t.Errorf("%s: %d %v", tt.symbol, code, out)
		}
		if s, ok := er["suggestion"]; tt.suggestion == "" && ok || tt.suggestion != "" && s != tt.suggestion {
			t.Errorf("%s: suggestion %v, want %q", tt.symbol, s, tt.suggestion)
		}
		if rule, _ := er["rule"].(string); !strings.HasPrefix(rule, "Not a chord Tele knows: `"+tt.symbol+"`.") {
			t.Errorf("%s: rule %q", tt.symbol, rule)
		}
	}
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
