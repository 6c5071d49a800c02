package store

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"tele/board/store/storetest"
)

// The import crash test kills a child that makes playlists with CreateAll, over and over, at random
// moments (as TestCrashSafety does single writes), so that kills land in every step of a creation of
// many boards (createall.go): files written, capabilities placed, revisions linked.
const crashImportChildEnv = "TELE_BOARD_CRASH_IMPORT_CHILD"

// crashImportSize is the number of boards of each playlist the child imports.
const crashImportSize = 6

// crashImportChild imports playlists of crashImportSize boards forever, each board's content
// crashContent(id, 1), saying "importing <id>…" before each and "imported <key>…" after it.
func crashImportChild(dir string) {
	s := openChildStore(dir)
	out := os.Stdout // unbuffered: every line is one write(2)
	fmt.Fprintln(out, "ready")
	for k := 0; ; k++ {
		items := make([]NewBoard, crashImportSize)
		ids := make([]string, len(items))
		for j := range items {
			ids[j] = fmt.Sprintf("imp-%d-%d-%d", os.Getpid(), k, j)
			items[j] = NewBoard{ID: ids[j], Content: crashContent(ids[j], 1)}
		}
		fmt.Fprintln(out, "importing "+strings.Join(ids, " "))
		made, err := s.CreateAll(items, AuthorTele)
		if err != nil {
			childFail(err)
		}
		keys := make([]string, len(made))
		for j, m := range made {
			keys[j] = m.Capability
		}
		fmt.Fprintln(out, "imported "+strings.Join(keys, " "))
	}
}

// TestCrashCreateAll: after a kill at any moment of an import, the store opens; every import
// acknowledged is there whole, with its keys; of the import under way the boards that are there are
// whole, each with a key, and are the first of the playlist (the revisions are linked in order); and
// Open leaves no temporary file and no key without its board.
func TestCrashCreateAll(t *testing.T) {
	kills := storetest.Kills(t, 100)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	keys := map[string]string{}  // every board known to exist, with its key
	var partial, none, whole int // what the kills inside an import left of it
	for run := range kills {
		var started []string // the ids of the import said and not yet acknowledged
		ack := func(l string) {
			f := strings.Fields(l)
			switch {
			case len(f) == 1+crashImportSize && f[0] == "importing" && started == nil:
				started = f[1:]
			case len(f) == 1+crashImportSize && f[0] == "imported" && started != nil:
				for j, id := range started {
					keys[id] = f[1+j]
				}
				started = nil
			default:
				t.Fatalf("run %d: child wrote %q", run, l)
			}
		}
		stderr := storetest.KillChild(t, run, crashImportChildEnv, dir, rng, 4, 20*time.Millisecond, ack)
		if strings.Contains(stderr, "crash child:") {
			t.Fatalf("run %d: child failed: %s", run, stderr)
		}
		s, err := Open(dir, Options{Logger: quiet})
		if err != nil {
			t.Fatalf("run %d: reopen after SIGKILL: %v", run, err)
		}
		present := underWay(t, run, s, started, keys)
		switch {
		case started == nil:
		case present == 0:
			none++
		case present == len(started):
			whole++
		default:
			partial++
		}
		checkImported(t, run, dir, s, keys)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d kills, %d boards made; kills inside an import left none of it %d times, part of it %d, all of it %d",
		kills, len(keys), none, partial, whole)
	if none+partial+whole < kills/10 {
		t.Errorf("only %d of %d kills landed inside an import: the test did not exercise CreateAll", none+partial+whole, kills)
	}
}

// underWay checks the boards of the import the kill interrupted, started: those there are whole, each
// with a key, and are the first of the playlist. It adds them to keys and returns how many there are.
func underWay(t *testing.T, run int, s *Store, started []string, keys map[string]string) int {
	t.Helper()
	present := 0
	for j, id := range started {
		if _, err := s.Get(id); err != nil {
			continue
		}
		if present != j {
			t.Fatalf("run %d: board %d of the import under way is there, board %d is not", run, j, present)
		}
		present++
		key, err := s.Capability(id)
		if err != nil || len(key) != len(NewCapability()) {
			t.Fatalf("run %d: %s has key %q, %v", run, id, key, err)
		}
		keys[id] = key
	}
	return present
}

// checkImported checks the reopened store against keys, every board known to exist: each is there,
// whole, with its key; there is no other board, no key without a board, no temporary file.
func checkImported(t *testing.T, run int, dir string, s *Store, keys map[string]string) {
	t.Helper()
	var listed []string
	for _, sum := range s.List() {
		listed = append(listed, sum.ID)
	}
	var caps []string
	entries, err := os.ReadDir(filepath.Join(dir, "caps"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		caps = append(caps, e.Name())
	}
	slices.Sort(listed)
	slices.Sort(caps)
	if !slices.Equal(listed, caps) || len(listed) != len(keys) {
		t.Fatalf("run %d: %d boards listed, %d keys on disk, %d boards known", run, len(listed), len(caps), len(keys))
	}
	for id, key := range keys {
		b, err := s.Get(id)
		if err != nil {
			t.Fatalf("run %d: acknowledged board %s is gone: %v", run, id, err)
		}
		if b.Revision != 1 || b.Author != AuthorTele || !reflect.DeepEqual(b.Content, crashContent(id, 1)) {
			t.Fatalf("run %d: %s is not what was imported: %s", run, id, b.JSON())
		}
		if got, _ := s.Capability(id); got != key {
			t.Fatalf("run %d: %s has key %q, imported with %q", run, id, got, key)
		}
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Fatalf("run %d: Open left temporary files: %v", run, tf)
	}
}

// TestCreateAllTakesBackLinkedBoards: a link that fails after the first boards of an import are linked
// (every key already placed and synced) takes back everything the call wrote: the linked boards, every
// key, every temporary file; nothing is published, and the store keeps working.
func TestCreateAllTakesBackLinkedBoards(t *testing.T) {
	dir := t.TempDir()
	var published int
	s := openT(t, dir, Options{Logger: quiet, OnCommit: func(Board) { published++ }})
	// A revision file the store does not know, where the second board's will go: its link fails.
	if err := os.MkdirAll(filepath.Join(dir, "boards", "two"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(revFile(dir, "two", 1), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	items := []NewBoard{{ID: "one", Content: content("One")}, {ID: "two", Content: content("Two")}, {ID: "three", Content: content("Three")}}
	if _, err := s.CreateAll(items, AuthorTele); err == nil {
		t.Fatal("CreateAll succeeded over a revision file in its way")
	}
	for _, it := range items {
		if _, err := s.Get(it.ID); err == nil {
			t.Fatalf("%s was made", it.ID)
		}
	}
	if caps, _ := os.ReadDir(filepath.Join(dir, "caps")); len(caps) != 0 {
		t.Fatalf("keys left: %v", caps)
	}
	var left []string
	boards, _ := os.ReadDir(filepath.Join(dir, "boards"))
	for _, b := range boards {
		left = append(left, b.Name())
	}
	if !slices.Equal(left, []string{"two"}) { // only what was there before
		t.Fatalf("boards/ holds %v", left)
	}
	if tf := tempFiles(t, dir); len(tf) != 0 || published != 0 || s.Bytes() != 0 {
		t.Fatalf("temporary files %v, %d published, %d bytes counted", tf, published, s.Bytes())
	}
	if _, err := s.CreateAll([]NewBoard{items[0], items[2]}, AuthorTele); err != nil {
		t.Fatalf("CreateAll after the failure: %v", err)
	}
	if published != 2 {
		t.Fatalf("%d published", published)
	}
}
