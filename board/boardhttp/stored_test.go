package boardhttp_test

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tele/board"
	"tele/board/datadirtest"
	"tele/board/store"
	"tele/server"
	"tele/server/servertest"
)

// bloatContent is the security review's M1 content (2026-12-03): about 62.6 KB as sent, within every
// limit, but its chords are aliases ("C#mM7/G#") whose catalogue spelling ("C#m(maj7)/G#") is longer,
// so that the content as stored is 70,782 bytes, over MaxContentBytes.
func bloatContent(t *testing.T) (board.Content, string) {
	t.Helper()
	var secs []map[string]any
	k := 0
	for range 32 {
		var bars []map[string]any
		for range 16 {
			bar := map[string]any{"chords": []string{"C#mM7/G#", "C#mM7/G#", "C#mM7/G#", "C#mM7/G#"}, "beats": 12}
			if k < 200 {
				bar["repeatStart"], bar["repeatEnd"] = true, 2
			}
			k++
			bars = append(bars, bar)
		}
		secs = append(secs, map[string]any{"label": strings.Repeat("<", 40), "bars": bars})
	}
	doc, _ := json.Marshal(map[string]any{"title": strings.Repeat("<", 120), "description": strings.Repeat("<", 2000),
		"tempo": 100, "beatsPerBar": 4, "sections": secs})
	if len(doc) > board.MaxContentBytes {
		t.Fatalf("the content as sent is %d bytes: the reproduction must pass the limit as sent", len(doc))
	}
	var c board.Content
	if err := json.Unmarshal(doc, &c); err != nil {
		t.Fatal(err)
	}
	return c, string(doc)
}

func wantSizeRule(t *testing.T, what string, err error) {
	t.Helper()
	if ve, ok := errors.AsType[*board.ValidationError](err); !ok || ve.Path != "" || !strings.Contains(ve.Rule, "65,536 bytes") {
		t.Fatalf("%s: %v, want the size rule of the content as stored", what, err)
	}
}

// TestStoredContentIsValidated: the limits apply to the content as it is stored, after chord aliases are
// written in the catalogue's spelling, on every path that writes a board: creating (HTTP, the store),
// PUT, importing JSON, a model's put (the store's Put with author pi). Each is refused and changes
// nothing, and the data directory opens again. Security review 2026-12-03 M1: one create stored 70,782
// bytes and no later start could open the data directory.
func TestStoredContentIsValidated(t *testing.T) {
	c, doc := bloatContent(t)
	wantSizeRule(t, "Validate", c.Validate())

	e := servertest.New(t)
	cr := e.Create("s", "")
	before := e.Snapshot()
	json422 := func(what string, r servertest.Request, path string) {
		t.Helper()
		if r.Header == nil {
			r.Header = http.Header{"Content-Type": {"application/json"}}
		}
		w := e.Do(r)
		if w.Code != http.StatusUnprocessableEntity || servertest.Code(w.Body.Bytes()) != "invalid_content" ||
			!strings.Contains(w.Body.String(), `"path":"`+path+`"`) || !strings.Contains(w.Body.String(), "65,536 bytes") {
			t.Fatalf("%s: %d %s, want 422 invalid_content at %q", what, w.Code, w.Body, path)
		}
	}
	json422("create", servertest.Request{Method: "POST", Path: "/api/boards", Body: `{"id":"bloat","content":` + doc + `}`}, "content")
	json422("PUT", servertest.Request{Method: "PUT", Path: "/api/boards/s", Body: doc, Header: servertest.PutHeader(cr.Capability, `"1"`)}, "")
	imp, _ := json.Marshal(map[string]string{"format": "json", "text": doc, "id": "bloat"})
	json422("import", servertest.Request{Method: "POST", Path: "/api/import", Body: string(imp)}, "content")

	_, _, err := e.Store.Create("bloat", c, store.AuthorBrowser)
	wantSizeRule(t, "Store.Create", err)
	_, err = e.Store.Put("s", 1, c, store.AuthorPi)
	wantSizeRule(t, "Store.Put (a model's put)", err)
	datadirtest.Same(t, "refused writes", before, e.Snapshot())

	// Within the limit as stored, the same chords pass and come back in the catalogue's spelling.
	c.Sections = c.Sections[:24]
	c.Description = ""
	b, err := e.Store.Put("s", 1, c, store.AuthorPi)
	if err != nil {
		t.Fatalf("the content cut to fit: %v", err)
	}
	if got := b.Content.Sections[0].Bars[0].Chords[0]; got != "C#m(maj7)/G#" {
		t.Fatalf("stored chord %q", got)
	}
	if n := len(mustJSON(t, b.Content)); n > board.MaxContentBytes {
		t.Fatalf("stored %d bytes", n)
	}
	t.Log("stored " + strconv.Itoa(len(mustJSON(t, b.Content))) + " bytes")
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestStartSetsAsideAnUnreadableBoard: a data directory holding what the bug of M1 stored (a board file
// whose content is 70,782 bytes) opens; every other board serves, and the board list says what is set
// aside, without the reason (it names files). Security review 2026-12-03 M1: every start refused the
// whole directory.
func TestStartSetsAsideAnUnreadableBoard(t *testing.T) {
	dir := t.TempDir()
	s, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Create("ok", board.Example(), store.AuthorBrowser)
	s.Create("bloat2", board.Example(), store.AuthorBrowser)
	s.Close()
	_, doc := bloatContent(t)
	doc = strings.ReplaceAll(doc, "C#mM7/G#", "C#m(maj7)/G#") // as the store wrote it
	file := `{"id":"bloat2","revision":1,"content":` + doc + `,"updatedAt":"2026-12-03T10:00:00.000Z","author":"browser","restoredFrom":null}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "boards", "bloat2", "1.json"), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}

	store, err := store.Open(dir, store.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatalf("a start with one unreadable board: %v", err)
	}
	defer store.Close()
	e := servertest.New(t, func(c *server.Config) { c.Store = store })
	w := e.Do(servertest.Request{Method: "GET", Path: "/api/boards"})
	var list struct {
		Boards   []struct{ ID string }
		SetAside []struct {
			Board, What string
			Revision    *int64
		}
	}
	if err := json.Unmarshal(w.Body.Bytes(), &list); err != nil || w.Code != 200 {
		t.Fatalf("list: %d %s", w.Code, w.Body)
	}
	if len(list.Boards) != 1 || list.Boards[0].ID != "ok" || len(list.SetAside) != 1 || list.SetAside[0].Board != "bloat2" ||
		list.SetAside[0].What != "board" || list.SetAside[0].Revision != nil {
		t.Fatalf("list: %s", w.Body)
	}
	if strings.Contains(w.Body.String(), dir) {
		t.Fatalf("the list names files: %s", w.Body)
	}
	if w := e.Do(servertest.Request{Method: "GET", Path: "/api/boards/ok"}); w.Code != 200 {
		t.Fatalf("the good board: %d", w.Code)
	}
}
