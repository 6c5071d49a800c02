package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tele/board/datadirtest"
)

// TestDelete: a deletion at the current revision removes the board, its whole history and its
// capability from memory and disk; a stale revision, an unknown board and a closed store change
// nothing; the id can be taken again at once, by another instance, and a reopened store agrees.
func TestDelete(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, Options{})
	if _, _, err := s.Create("song", content("Song"), AuthorBrowser); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put("song", 1, content("Song 2"), AuthorBrowser); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Create("other", content("Other"), AuthorBrowser); err != nil {
		t.Fatal(err)
	}

	first, err := s.Instance("song")
	if err != nil || first == (Instance{}) {
		t.Fatalf("Instance: %v %v", first, err)
	}
	if _, err := s.Rotate("song"); err != nil {
		t.Fatal(err)
	}
	if again, _ := s.Instance("song"); again != first {
		t.Fatal("a rotated capability changed the board's instance")
	}
	if other, _ := s.Instance("other"); other == first {
		t.Fatal("two boards are one instance")
	}

	before := datadirtest.Snapshot(t, dir)
	var ce *ConflictError
	if err := s.Delete("song", 1); !errors.As(err, &ce) || ce.Current != 2 {
		t.Fatalf("Delete at a stale revision: %v, want a conflict at 2", err)
	}
	if err := s.Delete("nope", 1); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Delete of an unknown board: %v", err)
	}
	datadirtest.Same(t, "refused deletions", before, datadirtest.Snapshot(t, dir))

	if err := s.Delete("song", 2); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := s.Get("song"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get after Delete: %v", err)
	}
	if l := s.List(); len(l) != 1 || l[0].ID != "other" {
		t.Fatalf("List after Delete: %+v", l)
	}
	for _, p := range []string{filepath.Join(dir, "boards", "song"), filepath.Join(dir, "caps", "song")} {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s after Delete: %v", p, err)
		}
	}
	assertNoTombstones(t, dir)
	if _, err := s.Put("song", 2, content("Again"), AuthorBrowser); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Put after Delete: %v", err)
	}
	if _, err := s.Rotate("song"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Rotate after Delete: %v", err)
	}
	if _, err := ReadCapability(dir, "song"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("ReadCapability after Delete: %v", err)
	}
	if inst, err := s.Instance("song"); !errors.Is(err, ErrNotFound) || inst != (Instance{}) {
		t.Fatalf("Instance after Delete: %v %v", inst, err)
	}

	// The id is free again: a new board, at revision 1, with a new capability.
	b, _, err := s.Create("song", content("New song"), AuthorBrowser)
	if err != nil || b.Revision != 1 {
		t.Fatalf("Create after Delete: %+v %v", b, err)
	}
	if rows, _, err := s.Revisions("song", 0, 100); err != nil || len(rows) != 1 {
		t.Fatalf("the new board's history: %d rows, %v", len(rows), err)
	}
	if inst, err := s.Instance("song"); err != nil || inst == first {
		t.Fatalf("the new board under the deleted one's id: instance %v %v, want another", inst, err)
	}
	s.Close()
	if err := s.Delete("other", 1); !errors.Is(err, ErrClosed) {
		t.Fatalf("Delete after Close: %v", err)
	}

	r := openT(t, dir, Options{})
	if got, err := r.Get("song"); err != nil || got.Content.Title != "New song" || got.Revision != 1 {
		t.Fatalf("reopened: %+v %v", got, err)
	}
	if _, err := r.Get("other"); err != nil {
		t.Fatalf("reopened: the other board: %v", err)
	}
}

// TestOpenRemovesTombstone (a crash during a deletion): the board's directory was renamed to its
// tombstone, and the process died before the capability and the tombstone were removed. Open finishes
// the deletion: the board is not listed, and neither its files nor its capability remain.
func TestOpenRemovesTombstone(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, Options{})
	for _, id := range []string{"gone", "kept"} {
		if _, _, err := s.Create(id, content(id), AuthorBrowser); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Put("gone", 1, content("gone 2"), AuthorBrowser); err != nil {
		t.Fatal(err)
	}
	s.Close()
	// What Delete leaves when it stops right after its rename and the fsync of boards/.
	tomb := filepath.Join(dir, "boards", tombstonePrefix+"gone-abcdefgh")
	if err := os.Rename(filepath.Join(dir, "boards", "gone"), tomb); err != nil {
		t.Fatal(err)
	}
	// And a tombstone an earlier crash left half removed: an empty directory.
	if err := os.Mkdir(filepath.Join(dir, "boards", tombstonePrefix+"older-12345678"), 0o700); err != nil {
		t.Fatal(err)
	}

	r := openT(t, dir, Options{})
	if l := r.List(); len(l) != 1 || l[0].ID != "kept" {
		t.Fatalf("List after a crashed deletion: %+v", l)
	}
	if _, err := r.Get("gone"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get of the deleted board: %v", err)
	}
	assertNoTombstones(t, dir)
	if _, err := os.Stat(filepath.Join(dir, "caps", "gone")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the deleted board's capability file: %v", err)
	}
	if _, _, err := r.Create("gone", content("reborn"), AuthorBrowser); err != nil {
		t.Fatalf("the deleted id is free: %v", err)
	}
}

func assertNoTombstones(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, "boards"))
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range ents {
		if strings.HasPrefix(de.Name(), tombstonePrefix) {
			t.Errorf("a tombstone is left: %s", de.Name())
		}
	}
}
