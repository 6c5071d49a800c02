package boardhttp_test

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tele/board"
	"tele/board/datadirtest"
	"tele/board/store"
	"tele/server/servertest"
)

// TestIDsUniqueIgnoringCase: a new board whose id equals an existing one's ignoring case is
// 409 board_exists on every path that makes one (create, copy, import), and nothing changes on disk: on
// macOS and Windows "WELCOME" and "welcome" name the same files, so the create could have overwritten
// or removed the other board's capability file. Security review 2026-12-03, case-insensitive file
// systems.
func TestIDsUniqueIgnoringCase(t *testing.T) {
	e := servertest.New(t)
	e.Create("welcome", "")
	before := e.Snapshot()
	hdr := http.Header{"Content-Type": {"application/json"}}
	imp, _ := json.Marshal(map[string]string{"format": "json", "text": servertest.ValidContent, "id": "Welcome"})
	for _, r := range []servertest.Request{
		{Method: "POST", Path: "/api/boards", Body: `{"id":"WELCOME"}`, Header: hdr},
		{Method: "POST", Path: "/api/boards/welcome/copy", Body: `{"id":"welcomE"}`, Header: hdr},
		{Method: "POST", Path: "/api/import", Body: string(imp), Header: hdr},
	} {
		w := e.Do(r)
		if w.Code != http.StatusConflict || servertest.Code(w.Body.Bytes()) != "board_exists" {
			t.Errorf("%s %s %s: %d %s, want 409 board_exists", r.Method, r.Path, r.Body, w.Code, w.Body)
		}
	}
	if _, _, err := e.Store.Create("WeLcOmE", board.Example(), store.AuthorPi); !errors.Is(err, store.ErrExists) {
		t.Errorf("Store.Create: %v, want ErrExists", err)
	}
	datadirtest.Same(t, "refused creations", before, e.Snapshot())
}

// TestOpenSetsAsideCaseTwins: a data directory made on a case-sensitive file system may hold ids that
// differ only in case. Open keeps the one whose id sorts first by bytes and sets the others aside, so
// that what it serves can be copied to macOS or Windows.
func TestOpenSetsAsideCaseTwins(t *testing.T) {
	dir := t.TempDir()
	s, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Create("Song", board.Example(), store.AuthorPi)
	s.Create("other", board.Example(), store.AuthorPi)
	s.Close()
	// What an earlier Tele let through: another board "song" (made by hand: today's store refuses it).
	os.MkdirAll(filepath.Join(dir, "boards", "song"), 0o700)
	data, _ := os.ReadFile(filepath.Join(dir, "boards", "Song", "1.json"))
	os.WriteFile(filepath.Join(dir, "boards", "song", "1.json"), []byte(strings.Replace(string(data), `"id":"Song"`, `"id":"song"`, 1)), 0o600)
	capData, _ := os.ReadFile(filepath.Join(dir, "caps", "Song"))
	os.WriteFile(filepath.Join(dir, "caps", "song"), capData, 0o600)

	s, err = store.Open(dir, store.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Get("Song"); err != nil {
		t.Fatalf("the first of the twins: %v", err)
	}
	if _, err := s.Get("song"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the second of the twins is served: %v", err)
	}
	if _, err := s.Get("other"); err != nil {
		t.Fatalf("another board: %v", err)
	}
	l := s.SetAsideList()
	if len(l) != 1 || l[0].Board != "song" || l[0].What != store.SetAsideBoard {
		t.Fatalf("set aside: %+v", l)
	}
	if _, err := os.Stat(filepath.Join(l[0].Path, "board", "1.json")); err != nil {
		t.Fatalf("the twin's files: %v", err)
	}
}

// TestLockFreeReadersUseTheExactID: the readers that take no lock (ReadCapability for tele board link
// and delete, ReadBoard, ReadHistory) find a board only under exactly its id. On macOS and Windows a
// lookup of boards/Foo opens boards/foo, so ReadCapability("Foo") answered foo's key; they now check the
// name in a listing of the directory. On a case-sensitive file system (Linux) this test passed before
// too: there it guards the exact-name check itself; where the temporary directory ignores case it
// reproduces the defect.
func TestLockFreeReadersUseTheExactID(t *testing.T) {
	dir := t.TempDir()
	s, err := store.Open(dir, store.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	_, capability, err := s.Create("foo", board.Example(), store.AuthorPi)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := os.Stat(filepath.Join(dir, "caps", "FOO")); err == nil {
		t.Log("the temporary directory ignores case: FOO finds foo's files")
	}
	if got, err := store.ReadCapability(dir, "foo"); err != nil || got != capability {
		t.Fatalf("ReadCapability(foo): %v", err)
	}
	for _, id := range []string{"Foo", "FOO", "fOo"} {
		if c, err := store.ReadCapability(dir, id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("ReadCapability(%s) = %t, %v; want ErrNotFound", id, c == capability, err)
		}
		if _, err := store.ReadBoard(dir, id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("ReadBoard(%s): %v, want ErrNotFound", id, err)
		}
		if _, err := store.ReadHistory(dir, id, 10); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("ReadHistory(%s): %v, want ErrNotFound", id, err)
		}
	}
}
