package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestHistoryReadRacingADeletion: a history read that found the board and then reads its files while
// the board is being deleted answers ErrNotFound (404 at the edge), not an I/O error (500). The race is
// provoked deterministically by each state a reader can meet after its lookup: the directory renamed
// away while the board is still in the store (a deletion under way), the deletion finished, and the id
// taken again by a new board.
func TestHistoryReadRacingADeletion(t *testing.T) {
	seed := func(t *testing.T) (*Store, string, *entry) {
		dir := t.TempDir()
		s := openT(t, dir, Options{})
		if _, _, err := s.Create("song", content("Song 1"), AuthorBrowser); err != nil {
			t.Fatal(err)
		}
		for rev := int64(1); rev < 3; rev++ {
			if _, err := s.Put("song", rev, content("Song"), AuthorBrowser); err != nil {
				t.Fatal(err)
			}
		}
		return s, dir, s.entry("song") // what Revisions and GetRevision looked up before the deletion
	}
	reads := func(t *testing.T, s *Store, e *entry) {
		t.Helper()
		if _, _, err := s.revisionsOf("song", e, 0, 10); !errors.Is(err, ErrNotFound) {
			t.Errorf("listing the history: %v, want ErrNotFound", err)
		}
		if _, err := s.revisionOf("song", e, 1); !errors.Is(err, ErrNotFound) {
			t.Errorf("reading revision 1: %v, want ErrNotFound", err)
		}
	}
	// A listing of rows the store holds in memory reads no file: while a deletion is under way (renamed,
	// not yet out of the store) it answers as if it came a moment earlier. A revision read is a file read.
	fileReads := func(t *testing.T, s *Store, e *entry) {
		t.Helper()
		if _, err := s.revisionOf("song", e, 1); !errors.Is(err, ErrNotFound) {
			t.Errorf("reading revision 1: %v, want ErrNotFound", err)
		}
	}

	t.Run("directory renamed away, board still in the store", func(t *testing.T) {
		s, dir, e := seed(t)
		// Delete's first step: the rename to the tombstone.
		if err := os.Rename(filepath.Join(dir, "boards", "song"), filepath.Join(dir, "boards", tombstonePrefix+"song-abcdefgh")); err != nil {
			t.Fatal(err)
		}
		fileReads(t, s, e)
		if _, err := s.GetRevision("song", 1); !errors.Is(err, ErrNotFound) {
			t.Errorf("GetRevision: %v, want ErrNotFound", err)
		}
	})
	t.Run("deleted", func(t *testing.T) {
		s, _, e := seed(t)
		if err := s.Delete("song", 3); err != nil {
			t.Fatal(err)
		}
		reads(t, s, e)
	})
	t.Run("deleted, and the id taken by a new board", func(t *testing.T) {
		s, _, e := seed(t)
		if err := s.Delete("song", 3); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Create("song", content("Another song"), AuthorBrowser); err != nil {
			t.Fatal(err)
		}
		reads(t, s, e)
	})
	t.Run("a revision file missing from a board that is there is still an error", func(t *testing.T) {
		s, dir, _ := seed(t)
		if err := os.Remove(revFile(dir, "song", 1)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.GetRevision("song", 1); err == nil || errors.Is(err, ErrNotFound) {
			t.Errorf("GetRevision of a lost file: %v, want an I/O error", err)
		}
	})
}
