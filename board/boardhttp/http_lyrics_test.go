package boardhttp_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"tele/server/servertest"
)

// TestImportLyricsHTTP: POST /api/import tells a chords-over-lyrics sheet and a ChordPro lyric file by
// their text and makes a board of each, with the reader's guesses as notes (and their codes); the
// chord sheet is import only, and the ChordPro export writes the lyric sections.
func TestImportLyricsHTTP(t *testing.T) {
	e := servertest.New(t)
	type st = servertest.Request
	post := func(body map[string]string) importAnswer {
		t.Helper()
		b, _ := json.Marshal(body)
		w := e.Do(st{Method: "POST", Path: "/api/import", Body: string(b), Header: http.Header{"Content-Type": {"application/json"}}})
		var out importAnswer
		if w.Code != 201 || json.Unmarshal(w.Body.Bytes(), &out) != nil || len(out.Boards) != 1 {
			t.Fatalf("import %v: %d %s", body, w.Code, w.Body)
		}
		return out
	}
	out := post(map[string]string{"text": "Song\n\nChorus:\nG        C\nla la la la la\n", "id": "sheet"})
	c := out.Boards[0].Board.Content
	if c.Title != "Song" || c.Sections[0].Role != "chorus" || c.Sections[0].Lines[0].Chords[1].At != 9 {
		t.Fatalf("content %+v", c)
	}
	codes := map[string]bool{}
	for _, nc := range out.Boards[0].NoteCodes {
		codes[nc.Code] = true
	}
	if !codes["title_first_line"] || !codes["heading_role"] || !codes["chords_over_words"] {
		t.Errorf("note codes %+v", out.Boards[0].NoteCodes)
	}
	out = post(map[string]string{"text": "{title: Grace}\n{soc}\n[G]Amazing [C]grace\n{eoc}\n{chorus}\n", "id": "grace"})
	if c := out.Boards[0].Board.Content; len(c.Sections) != 2 || c.Sections[1].Recall != "chorus" {
		t.Fatalf("content %+v", c)
	}
	post(map[string]string{"format": "text", "text": "G\nwords\n", "id": "explicit"})

	w := e.Do(st{Method: "GET", Path: "/api/boards/grace/export?format=chordpro"})
	if w.Code != 200 || !strings.Contains(w.Body.String(), "{start_of_chorus}\n[G]Amazing [C]grace\n{end_of_chorus}\n\n{chorus}\n") {
		t.Fatalf("export: %d %s", w.Code, w.Body)
	}
	w = e.Do(st{Method: "GET", Path: "/api/boards/grace/export?format=text"})
	if servertest.Code(w.Body.Bytes()) != "bad_format" {
		t.Errorf("export as text: %d %s", w.Code, w.Body)
	}
	w = e.Do(st{Method: "POST", Path: "/api/import", Body: `{"format":"text","text":"no chords here\n"}`, Header: http.Header{"Content-Type": {"application/json"}}})
	if servertest.Code(w.Body.Bytes()) != "not_a_grid" {
		t.Errorf("import of words alone as text: %d %s", w.Code, w.Body)
	}
}
