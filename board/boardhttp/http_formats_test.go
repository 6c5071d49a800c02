package boardhttp_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"tele/board"
	"tele/board/boardhttp"
	"tele/board/datadirtest"
	"tele/board/store"
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
	w = e.Do(st{Method: "GET", Path: "/api/boards/song/export?format=ireal"})
	if w.Code != 200 || !strings.HasPrefix(w.Body.String(), "irealb://") || w.Header().Get("Content-Disposition") != `attachment; filename="song.txt"` {
		t.Fatalf("export ireal: %d %v\n%s", w.Code, w.Header(), w.Body)
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
	var out importAnswer
	if w.Code != 201 || json.Unmarshal(w.Body.Bytes(), &out) != nil || len(out.Boards) != 1 || out.Boards[0].Capability == "" ||
		len(out.Boards[0].Notes) != 0 || len(out.Failed) != 0 || w.Header().Get("Location") != "/api/boards/copy" {
		t.Fatalf("import: %d %s", w.Code, w.Body)
	}
	copied, err := e.Store.Get("copy")
	if err != nil || !reflect.DeepEqual(copied.Content, stored.Content) {
		t.Fatalf("imported %+v, %v", copied.Content, err)
	}

	before := e.Snapshot()
	for _, tt := range []struct{ body, code string }{
		{`{"format":"chordpro","text":"{title: X}\n{key: C}\n"}`, "not_a_grid"},
		{`{"format":"chordpro","text":"{start_of_grid}\n| C . . . :|\n{end_of_grid}\n"}`, "unreadable_chart"},
		{`{"format":"abc","text":"X:1"}`, "bad_format"},
		{`{"format":"ireal","text":"no link"}`, "unreadable_chart"},
		{`{"text":"irealbook://Broken=Tele=Swing"}`, "unreadable_chart"},
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
	datadirtest.Same(t, "refused imports", before, e.Snapshot())
}

// importAnswer is the answer of POST /api/import.
type importAnswer struct {
	Boards []struct {
		Board      store.Board      `json:"board"`
		Capability string           `json:"capability"`
		Notes      []string         `json:"notes"`
		NoteCodes  []board.NoteCode `json:"noteCodes"`
	} `json:"boards"`
	Failed []struct {
		Title, Code, Message string
		Notes                []string
	} `json:"failed"`
}

// An iReal Pro playlist imports over HTTP as one board per song, with each song's notes, and the songs
// that cannot become boards listed with their reason; the format is told by the text when the request
// does not name it. The songs' ids follow the id given; a taken id, or more songs than the creation
// budget allows at once, makes nothing.
func TestImportIRealPlaylist(t *testing.T) {
	e := servertest.New(t)
	playlist := `<a href="irealbook://` + url.PathEscape(`Blue Form=Tele=Swing=F=n=T44*A{F7 |Bb7 |F7 |F7 }===`+
		`Spell=Tele=Ballad=Bb=n=T44[Bb^7b9 |G-7 Z===Broken=Tele=Swing===My List`) + `">list</a>`
	body, _ := json.Marshal(map[string]string{"text": playlist, "id": "set"})
	before := e.Snapshot()
	e.Create("set-2", servertest.ValidContent)
	w := e.Do(st{Method: "POST", Path: "/api/import", Body: string(body), Header: http.Header{"Content-Type": {"application/json"}}})
	if servertest.Code(w.Body.Bytes()) != "board_exists" {
		t.Fatalf("import over a taken id: %d %s", w.Code, w.Body)
	}
	if _, err := e.Store.Get("set"); err == nil {
		t.Fatal("a refused import made a board")
	}
	_ = before
	body, _ = json.Marshal(map[string]string{"text": playlist, "id": "gig"})
	w = e.Do(st{Method: "POST", Path: "/api/import", Body: string(body), Header: http.Header{"Content-Type": {"application/json"}}})
	var out importAnswer
	if w.Code != 201 || json.Unmarshal(w.Body.Bytes(), &out) != nil || len(out.Boards) != 2 || len(out.Failed) != 1 {
		t.Fatalf("import: %d %s", w.Code, w.Body)
	}
	if out.Boards[0].Board.ID != "gig" || out.Boards[1].Board.ID != "gig-2" || out.Boards[1].Board.Content.Title != "Spell" ||
		!strings.Contains(strings.Join(out.Boards[1].Notes, "\n"), "Bb^7b9 became Bbmaj7") {
		t.Fatalf("boards %+v", out.Boards)
	}
	// Every note again as a code and its arguments, for the page to say in its language.
	if n := out.Boards[1]; len(n.NoteCodes) != len(n.Notes) || n.NoteCodes[0].Code != "chord_nearest" ||
		n.NoteCodes[0].Args["from"] != "Bb^7b9" || n.NoteCodes[0].Args["to"] != "Bbmaj7" {
		t.Fatalf("note codes %+v for %q", n.NoteCodes, n.Notes)
	}
	if f := out.Failed[0]; f.Title != "Broken" || f.Code != "unreadable_chart" || !strings.Contains(f.Message, "fields") {
		t.Fatalf("failed %+v", f)
	}
	for _, b := range out.Boards {
		stored, err := e.Store.Get(b.Board.ID)
		if err != nil || !reflect.DeepEqual(stored.Content, b.Board.Content) {
			t.Fatalf("stored %s: %v", b.Board.ID, err)
		}
	}

	// 21 songs are more than the budget's burst: nothing is made.
	var songs strings.Builder
	for i := range boardhttp.CreateBurst + 1 {
		fmt.Fprintf(&songs, "S%d=Tele=Swing=C=n=T44[C |G7 Z===", i)
	}
	before = e.Snapshot()
	body, _ = json.Marshal(map[string]string{"format": "ireal", "text": "irealbook://" + url.PathEscape(songs.String()+"Big")})
	w = e.Do(st{Method: "POST", Path: "/api/import", Body: string(body), Header: http.Header{"Content-Type": {"application/json"}}})
	if servertest.Code(w.Body.Bytes()) != "too_many_songs" {
		t.Fatalf("21 songs: %d %s", w.Code, w.Body)
	}
	datadirtest.Same(t, "a playlist over the budget", before, e.Snapshot())
}
