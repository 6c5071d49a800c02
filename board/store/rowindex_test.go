package store

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// allRows lists board id's whole history through the store, oldest first, page by page.
func allRows(t *testing.T, s *Store, id string) []Revision {
	t.Helper()
	var out []Revision
	for before := int64(0); ; {
		rows, next, err := s.Revisions(id, before, MaxRevisionsPage)
		if err != nil {
			t.Fatalf("Revisions(%s, %d): %v", id, before, err)
		}
		out = append(append([]Revision(nil), rows...), out...)
		if next == 0 {
			return out
		}
		before = next
	}
}

func sameRows(t *testing.T, what string, got, want []Revision) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", what, len(got), len(want))
	}
	for i := range got {
		if !bytes.Equal(got[i].JSON(), want[i].JSON()) {
			t.Fatalf("%s: row %d is %s, want %s", what, i, got[i].JSON(), want[i].JSON())
		}
	}
}

// TestHistoryIndex: after a start, the history of a board is listed from its index, without reading
// the revision files (they are made unreadable here, and the listing is the same); a row the index
// lacks (a torn line, a lost index file) is read from its revision file, and the index file written
// again; the prune removes an index
// file once every revision it covers is gone. Security review 2026-12-03 I1: the first listing of a
// board with 1,000 revisions read and validated every one of them (7.3 s).
func TestHistoryIndex(t *testing.T) {
	if os.Getuid() == 0 || runtime.GOOS == "windows" {
		t.Skip("the test makes files unreadable by their mode: root reads them anyway, and Windows has no such mode")
	}
	dir := t.TempDir()
	s := openT(t, dir, Options{})
	s.Create("song", content("take 1"), AuthorBrowser)
	const n = rowsPerFile + 40 // two index files
	for rev := int64(1); rev < n; rev++ {
		if rev%9 == 0 {
			if _, err := s.Restore("song", rev, rev-1, AuthorPi); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := s.Put("song", rev, content("take "+string(rune('a'+rev%26))), AuthorPi); err != nil {
			t.Fatal(err)
		}
	}
	want := allRows(t, s, "song")
	s.Close()
	for _, f := range []string{rowsName(0), rowsName(1)} {
		if _, err := os.Stat(filepath.Join(dir, "boards", "song", f)); err != nil {
			t.Fatalf("index file: %v", err)
		}
	}

	// Every revision file but the newest unreadable: the listing comes from the index alone.
	for rev := int64(1); rev < n; rev++ {
		os.Chmod(revFile(dir, "song", rev), 0)
	}
	s2 := openT(t, dir, Options{})
	sameRows(t, "from the index", allRows(t, s2, "song"), want)
	s2.Close()
	for rev := int64(1); rev < n; rev++ {
		os.Chmod(revFile(dir, "song", rev), 0o600)
	}

	// A torn last line and a lost index file: those rows come from the revision files.
	idx0 := filepath.Join(dir, "boards", "song", rowsName(0))
	data := readFile(t, idx0)
	os.WriteFile(idx0, data[:len(data)-20], 0o600)
	os.Remove(filepath.Join(dir, "boards", "song", rowsName(1)))
	s3 := openT(t, dir, Options{})
	sameRows(t, "with rows missing from the index", allRows(t, s3, "song"), want)

	// The next commit adds its row to the index again, and a restart lists it.
	if _, err := s3.Put("song", n, content("one more"), AuthorBrowser); err != nil {
		t.Fatal(err)
	}
	want = allRows(t, s3, "song")
	s3.Close()
	// The listing wrote the torn index file again (a board of an earlier Tele gets its index so): the
	// next start lists revisions 1..256 without their files.
	for rev := int64(1); rev <= rowsPerFile; rev++ {
		os.Chmod(revFile(dir, "song", rev), 0)
	}
	s4 := openT(t, dir, Options{})
	sameRows(t, "after one more commit", allRows(t, s4, "song"), want)
}

// TestHistoryIndexPrune: once the prune has removed every revision an index file covers, the file is
// removed too; a start removes one an interrupted prune left behind.
func TestHistoryIndexPrune(t *testing.T) {
	dir := t.TempDir()
	seedRevisions(t, dir, "long", KeepRevisions+2*rowsPerFile-2, func(rev int64) Board { return Board{Content: content("x"), Author: AuthorPi} })
	stale := filepath.Join(dir, "boards", "long", rowsName(0))
	os.WriteFile(stale, []byte("{}\n"), 0o600) // covers 1..256, all older than the oldest kept
	s := openT(t, dir, Options{})
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("the stale index file is still there: %v", err)
	}
	cur, _ := s.Get("long")
	for rev := cur.Revision; rev < cur.Revision+3; rev++ { // the prune passes revision 512
		if _, err := s.Put("long", rev, content("y"), AuthorPi); err != nil {
			t.Fatal(err)
		}
	}
	if got := allRows(t, s, "long"); len(got) != KeepRevisions {
		t.Fatalf("%d rows, want %d", len(got), KeepRevisions)
	}
	if _, err := os.Stat(filepath.Join(dir, "boards", "long", rowsName(1))); !os.IsNotExist(err) {
		t.Fatalf("index file 1 (revisions 257..512) is still there after they were pruned: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "boards", "long", rowsName(rowsFileOf(cur.Revision+3)))); err != nil {
		t.Fatalf("the newest index file: %v", err)
	}
}
