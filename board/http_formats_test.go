package board_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"tele/board"
	"tele/chordpro"
	"tele/server/servertest"
)

// Export over HTTP gives the board as ChordPro (or JSON) to anyone local; import makes a new board from
// a ChordPro text by the rules of creating one, with the notes of what was changed; refusals carry
// their codes and change nothing.
func TestExportImport(t *testing.T) {
	e := servertest.New(t)
	form := strings.Replace(servertest.ValidContent, `["Dm7","G7"]`, `{"chords":["Dm7","G7"],"repeatStart":true,"repeatEnd":3}`, 1)
	e.Create("song", form)
	stored, _ := e.Store.Get("song")

	w := e.Do(st{Method: "GET", Path: "/api/boards/song/export?format=chordpro"})
	if w.Code != 200 || w.Body.String() != string(chordpro.Write(stored.Content)) ||
		w.Header().Get("Content-Type") != "text/plain; charset=utf-8" ||
		w.Header().Get("Content-Disposition") != `attachment; filename="song.cho"` {
		t.Fatalf("export: %d %v\n%s", w.Code, w.Header(), w.Body)
	}
	chart := w.Body.String()
	w = e.Do(st{Method: "GET", Path: "/api/boards/song/export?format=json"})
	if c, err := board.ParseContent(w.Body.Bytes()); w.Code != 200 || err != nil || !reflect.DeepEqual(c, stored.Content) {
		t.Fatalf("export json: %d %v", w.Code, err)
	}
	for path, code := range map[string]string{
		"/api/boards/song/export?format=pdf": "bad_format",
		"/api/boards/nope/export":            "not_found",
	} {
		if w := e.Do(st{Method: "GET", Path: path}); servertest.Code(w.Body.Bytes()) != code {
			t.Errorf("GET %s: %d %s, want %s", path, w.Code, w.Body, code)
		}
	}

	body, _ := json.Marshal(map[string]string{"format": "chordpro", "text": chart, "id": "copy"})
	w = e.Do(st{Method: "POST", Path: "/api/import", Body: string(body), Header: http.Header{"Content-Type": {"application/json"}}})
	var out struct {
		Board      board.Board `json:"board"`
		Capability string      `json:"capability"`
		Notes      []string    `json:"notes"`
	}
	if w.Code != 201 || json.Unmarshal(w.Body.Bytes(), &out) != nil || out.Capability == "" || len(out.Notes) != 0 ||
		w.Header().Get("Location") != "/api/boards/copy" {
		t.Fatalf("import: %d %s", w.Code, w.Body)
	}
	copied, err := e.Store.Get("copy")
	if err != nil || !reflect.DeepEqual(copied.Content, stored.Content) {
		t.Fatalf("imported %+v, %v", copied.Content, err)
	}

	before := e.Snapshot()
	for _, tt := range []struct{ body, code string }{
		{`{"format":"chordpro","text":"{title: X}\n[C]words\n"}`, "not_a_grid"},
		{`{"format":"chordpro","text":"{start_of_grid}\n| C . . . :|\n{end_of_grid}\n"}`, "unreadable_chart"},
		{`{"format":"abc","text":"X:1"}`, "bad_format"},
		{`{"format":"json","text":"{}"}`, "invalid_content"},
		{`{"format":"chordpro","text":"{start_of_grid}\n| C |\n{end_of_grid}\n","id":"copy"}`, "board_exists"},
	} {
		w := e.Do(st{Method: "POST", Path: "/api/import", Body: tt.body, Header: http.Header{"Content-Type": {"application/json"}}})
		if servertest.Code(w.Body.Bytes()) != tt.code {
			t.Errorf("import %s: %d %s, want %s", tt.body, w.Code, w.Body, tt.code)
		}
	}
	w = e.Do(st{Method: "POST", Path: "/api/import", Body: string(body), Header: http.Header{"Content-Type": {"application/json"}, "Sec-Fetch-Site": {"cross-site"}}})
	if w.Code != 403 {
		t.Errorf("cross-site import: %d %s", w.Code, w.Body)
	}
	servertest.SameFiles(t, "refused imports", before, e.Snapshot())
}
