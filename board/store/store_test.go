package store

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"tele/board"
	"tele/board/datadirtest"
	"tele/strict"
)

func TestCreateGetPut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		var commits []Board
		s := openT(t, dir, Options{OnCommit: func(b Board) { commits = append(commits, b) }})
		// The bubble's clock, moved off a whole millisecond: the stamp is UTC, truncated to milliseconds.
		time.Sleep(891_234_567 * time.Nanosecond)
		t0 := time.Now()

		b, capability, err := s.Create("song", content("Song"), AuthorBrowser)
		if err != nil {
			t.Fatal(err)
		}
		if b.ID != "song" || b.Revision != 1 || b.Content.Title != "Song" || !b.UpdatedAt.Equal(t0.Truncate(time.Millisecond)) || b.UpdatedAt.Location() != time.UTC {
			t.Fatalf("created %+v", b)
		}
		if raw, err := base64.RawURLEncoding.Strict().DecodeString(capability); err != nil || len(raw) != 32 {
			t.Fatalf("capability %q is not 32 bytes of base64url", capability)
		}
		capPath := filepath.Join(dir, "caps", "song")
		if got := string(readFile(t, capPath)); got != capability {
			t.Fatalf("capability file holds %q", got)
		}
		if m := mode(t, capPath); m != 0o600 {
			t.Fatalf("capability file mode %o, want 0600", m)
		}
		if m := mode(t, filepath.Join(dir, "boards", "song")); m != 0o700 {
			t.Fatalf("board directory mode %o, want 0700", m)
		}
		if m := mode(t, revFile(dir, "song", 1)); m != 0o600 {
			t.Fatalf("revision file mode %o, want 0600", m)
		}
		if got := readFile(t, revFile(dir, "song", 1)); !bytes.Equal(got, append(b.JSON(), '\n')) {
			t.Fatalf("revision file %s, JSON %s", got, b.JSON())
		}
		if strings.Contains(string(b.JSON()), capability) {
			t.Fatal("the board's JSON carries the capability")
		}

		got, err := s.Get("song")
		if err != nil || got.Revision != 1 || !bytes.Equal(got.JSON(), b.JSON()) {
			t.Fatalf("Get = %+v, %v", got, err)
		}
		if c, _ := s.Capability("song"); c != capability {
			t.Fatal("Capability differs")
		}

		prev := b
		for rev := int64(1); rev < 5; rev++ {
			nb, err := s.Put("song", rev, content(fmt.Sprintf("Song %d", rev+1)), AuthorBrowser)
			if err != nil {
				t.Fatal(err)
			}
			if nb.Revision != rev+1 || nb.Content.Title != fmt.Sprintf("Song %d", rev+1) {
				t.Fatalf("Put = %+v", nb)
			}
			if got := readFile(t, revFile(dir, "song", nb.Revision)); !bytes.Equal(got, append(nb.JSON(), '\n')) {
				t.Fatalf("after Put the revision file holds %s", got)
			}
			if got := readFile(t, revFile(dir, "song", rev)); !bytes.Equal(got, append(prev.JSON(), '\n')) {
				t.Fatalf("after Put the previous revision's file holds %s", got)
			}
			prev = nb
		}
		if len(commits) != 5 {
			t.Fatalf("OnCommit ran %d times", len(commits))
		}
		for i, c := range commits {
			if c.Revision != int64(i+1) {
				t.Fatalf("commit %d has revision %d", i, c.Revision)
			}
		}
		if tf := tempFiles(t, dir); len(tf) != 0 {
			t.Fatalf("temporary files left: %v", tf)
		}
	})
}

func TestBoardJSON(t *testing.T) {
	s := openT(t, t.TempDir(), Options{})
	b, _, err := s.Create("j", board.Example(), AuthorBrowser)
	if err != nil {
		t.Fatal(err)
	}
	raw := b.JSON()
	if bytes.HasSuffix(raw, []byte("\n")) {
		t.Fatal("JSON ends with a newline")
	}
	var m map[string]json.RawMessage
	if err := strict.Decode(raw, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if strings.Join(keys, ",") != "author,content,id,restoredFrom,revision,updatedAt" {
		t.Fatalf("keys %v", keys)
	}
	var at string
	json.Unmarshal(m["updatedAt"], &at)
	if pt, err := time.Parse(time.RFC3339, at); err != nil || !strings.HasSuffix(at, "Z") || !pt.Equal(b.UpdatedAt) {
		t.Fatalf("updatedAt %q: %v", at, err)
	}
	if c, err := board.ParseContent(m["content"]); err != nil || !reflect.DeepEqual(c, b.Content) {
		t.Fatalf("content: %v", err)
	}
	viaMarshal, _ := json.Marshal(b)
	if !bytes.Equal(viaMarshal, raw) {
		t.Fatal("json.Marshal(board) differs from JSON()")
	}
	// A Board built by hand encodes too.
	if string(m["author"]) != `"browser"` || string(m["restoredFrom"]) != "null" {
		t.Fatalf("author %s, restoredFrom %s", m["author"], m["restoredFrom"])
	}
	if !bytes.Equal(Board{ID: b.ID, Revision: b.Revision, Content: b.Content, UpdatedAt: b.UpdatedAt, Author: AuthorBrowser}.JSON(), raw) {
		t.Fatal("encoding differs")
	}
}

func TestCreateErrors(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, Options{})
	if _, _, err := s.Create("x", content("X"), AuthorBrowser); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Create("x", content("Y"), AuthorBrowser); !errors.Is(err, ErrExists) {
		t.Fatalf("duplicate Create = %v", err)
	}
	if b, _ := s.Get("x"); b.Content.Title != "X" {
		t.Fatal("a refused Create changed the board")
	}
	for _, id := range []string{"-x", "a/b", "../x", ".x", strings.Repeat("a", 65)} {
		if _, _, err := s.Create(id, content("Z"), AuthorBrowser); !errors.Is(err, ErrInvalidID) {
			t.Errorf("Create(%q) = %v", id, err)
		}
	}
	bad := content("")
	if _, _, err := s.Create("y", bad, AuthorBrowser); err == nil {
		t.Fatal("invalid content accepted")
	} else if ve, ok := errors.AsType[*board.ValidationError](err); !ok || ve.Path != "title" {
		t.Fatalf("Create with a blank title = %v", err)
	}
	if _, err := s.Get("y"); !errors.Is(err, ErrNotFound) {
		t.Fatal("a refused Create made a board")
	}
	for _, sub := range []string{"boards", "caps"} {
		ents, _ := os.ReadDir(filepath.Join(dir, sub))
		if len(ents) != 1 {
			t.Errorf("%s holds %d files, want 1", sub, len(ents))
		}
	}
}

func TestCreateRandomID(t *testing.T) {
	s := openT(t, t.TempDir(), Options{})
	seen := map[string]bool{}
	for range 20 {
		b, _, err := s.Create("", board.Example(), AuthorBrowser)
		if err != nil {
			t.Fatal(err)
		}
		if !board.ValidID(b.ID) || seen[b.ID] {
			t.Fatalf("generated id %q", b.ID)
		}
		seen[b.ID] = true
	}
	list := s.List()
	if len(list) != 20 || !slices.IsSortedFunc(list, func(a, b Summary) int { return strings.Compare(a.ID, b.ID) }) {
		t.Fatalf("List = %v", list)
	}
}

func TestList(t *testing.T) {
	s := openT(t, t.TempDir(), Options{})
	for _, id := range []string{"b", "C", "a", "a-1"} {
		s.Create(id, content("T "+id), AuthorBrowser)
	}
	s.Put("a", 1, content("A2"), AuthorBrowser)
	list := s.List()
	var ids []string
	for _, l := range list {
		ids = append(ids, l.ID)
	}
	if strings.Join(ids, " ") != "C a a-1 b" {
		t.Fatalf("ids %v", ids)
	}
	if list[1].Title != "A2" || list[1].Revision != 2 || list[1].UpdatedAt.IsZero() {
		t.Fatalf("summary %+v", list[1])
	}
}

func TestAuthorize(t *testing.T) {
	s := openT(t, t.TempDir(), Options{})
	_, capability, _ := s.Create("a", board.Example(), AuthorBrowser)
	_, other, _ := s.Create("b", board.Example(), AuthorBrowser)
	if err := s.Authorize("a", capability); err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"", other, capability[:42], capability + "x", strings.ToUpper(capability)} {
		if err := s.Authorize("a", c); !errors.Is(err, ErrBadCapability) {
			t.Errorf("Authorize(%q) = %v", c, err)
		}
	}
	if err := s.Authorize("nope", capability); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown board: %v", err)
	}
	if _, err := s.Capability("nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Capability of an unknown board: %v", err)
	}
}

func TestPutRefusals(t *testing.T) {
	dir := t.TempDir()
	var commits int
	s := openT(t, dir, Options{OnCommit: func(Board) { commits++ }})
	b, _, _ := s.Create("a", content("One"), AuthorBrowser)
	s.Put("a", 1, content("Two"), AuthorBrowser)
	before := datadirtest.Snapshot(t, dir)
	fi0, _ := os.Stat(revFile(dir, "a", 2))
	commits = 0

	if _, err := s.Put("nope", 1, content("x"), AuthorBrowser); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown board: %v", err)
	}
	for _, rev := range []int64{0, 1, 3, -1} {
		_, err := s.Put("a", rev, content("Stale"), AuthorBrowser)
		ce, ok := errors.AsType[*ConflictError](err)
		if !ok || ce.Current != 2 {
			t.Errorf("Put at revision %d = %v, want a conflict at 2", rev, err)
		}
	}
	bad := content("x")
	bad.Tempo = 500
	if _, err := s.Put("a", 2, bad, AuthorBrowser); err == nil {
		t.Error("invalid content accepted")
	} else if ve, ok := errors.AsType[*board.ValidationError](err); !ok || ve.Path != "tempo" {
		t.Errorf("invalid content: %v", err)
	}
	if _, err := s.Put("a", 2, content("x"), Author("claimed")); err == nil {
		t.Error("an invalid author accepted")
	}
	datadirtest.Same(t, "a refused Put", before, datadirtest.Snapshot(t, dir))
	if fi, _ := os.Stat(revFile(dir, "a", 2)); !os.SameFile(fi, fi0) {
		t.Fatal("a refused Put replaced the file")
	}
	if got, _ := s.Get("a"); got.Revision != 2 || got.Content.Title != "Two" {
		t.Fatalf("a refused Put changed memory: %+v", got)
	}
	if commits != 0 {
		t.Fatal("a refused Put published")
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Fatalf("temporary files left: %v", tf)
	}
	_ = b
}

func TestPutKeepsItsOwnCopy(t *testing.T) {
	s := openT(t, t.TempDir(), Options{})
	s.Create("a", board.Example(), AuthorBrowser)
	c := content("Mine")
	b, err := s.Put("a", 1, c, AuthorBrowser)
	if err != nil {
		t.Fatal(err)
	}
	c.Sections[0].Bars[0].Chords[0] = "D"
	c.Sections[0].Label = "changed"
	got, _ := s.Get("a")
	if got.Content.Sections[0].Bars[0].Chords[0] != "C" || got.Content.Sections[0].Label != "Verse" || b.Content.Sections[0].Bars[0].Chords[0] != "C" {
		t.Fatal("the store shares the caller's content")
	}
}

func TestEnsureExample(t *testing.T) {
	s := openT(t, t.TempDir(), Options{})
	b, created, err := s.EnsureExample("welcome")
	if err != nil || !created || b.Revision != 1 || !reflect.DeepEqual(b.Content, board.Example()) {
		t.Fatalf("EnsureExample = %+v, %v, %v", b, created, err)
	}
	s.Put("welcome", 1, content("Mine now"), AuthorBrowser)
	b, created, err = s.EnsureExample("welcome")
	if err != nil || created || b.Revision != 2 || b.Content.Title != "Mine now" {
		t.Fatalf("second EnsureExample = %+v, %v, %v", b, created, err)
	}
	if _, _, err := s.EnsureExample("no/slash"); !errors.Is(err, ErrInvalidID) {
		t.Fatalf("bad id: %v", err)
	}
	// Racing callers: one creates, every one gets the board.
	var wg sync.WaitGroup
	var mu sync.Mutex
	made := 0
	for range 8 {
		wg.Go(func() {
			b, created, err := s.EnsureExample("race")
			if err != nil || b.ID != "race" {
				t.Errorf("EnsureExample = %v", err)
			}
			if created {
				mu.Lock()
				made++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if made != 1 {
		t.Fatalf("%d callers created the board", made)
	}
}
