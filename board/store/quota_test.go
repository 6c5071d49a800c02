package store

import (
	"errors"
	"strings"
	"testing"

	"tele/board"
)

// bigContent is content of about 50 KB serialized.
func bigContent(title string) board.Content {
	c := content(title)
	c.Description = strings.Repeat("<", 2000)
	c.Sections = nil
	for range 8 {
		s := board.Section{Label: strings.Repeat("&", 40)}
		for range 64 {
			s.Bars = append(s.Bars, board.PlainBar("C♯m7♭5/G♯", "F♯7♭9/A♯", "B♭maj7/D", "E♭m7♭5/A"))
		}
		c.Sections = append(c.Sections, s)
	}
	return c
}

// TestQuota: past the server-wide number of boards a creation is refused, an import all at once, and
// past the bytes a write is refused; a refusal changes nothing, and deleting boards makes room again.
// Security review 2026-12-03 L1: nothing bounded the boards or bytes a local process could make.
func TestQuota(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, Options{})
	if err := s.SetQuota(Quota{MaxBoards: 2, MaxBytes: DefaultMaxBytes}); err != nil {
		t.Fatal(err)
	}
	s.Create("a", content("a"), AuthorPi)
	_, err := s.CreateAll([]NewBoard{{ID: "b", Content: content("b")}, {ID: "c", Content: content("c")}}, AuthorPi)
	if qe, ok := errors.AsType[*QuotaError](err); !ok || !qe.Boards || qe.Limit != 2 {
		t.Fatalf("two boards past the quota: %v", err)
	}
	if _, err := s.Get("b"); !errors.Is(err, ErrNotFound) {
		t.Fatal("a refused call made a board")
	}
	s.Create("b", content("b"), AuthorPi)
	if _, _, err := s.Create("c", content("c"), AuthorPi); !errors.As(err, new(*QuotaError)) {
		t.Fatalf("a third board: %v", err)
	}
	s.Delete("b", 1)
	if _, _, err := s.Create("c", content("c"), AuthorPi); err != nil {
		t.Fatalf("after a deletion: %v", err)
	}

	// Bytes: room for about three more revisions of 50 KB.
	c := bigContent("big")
	if err := s.SetQuota(Quota{MaxBoards: 10, MaxBytes: s.Bytes() + 160_000}); err != nil {
		t.Fatal(err)
	}
	rev := int64(1)
	var refused error
	for i := 0; i < 10 && refused == nil; i++ {
		if _, refused = s.Put("a", rev, c, AuthorPi); refused == nil {
			rev++
		}
	}
	if qe, ok := errors.AsType[*QuotaError](refused); !ok || qe.Boards || rev < 3 {
		t.Fatalf("after %d writes: %v, want the bytes quota", rev-1, refused)
	}
	if b, _ := s.Get("a"); b.Revision != rev {
		t.Fatalf("a refused write changed the board: revision %d", b.Revision)
	}
	if s.Bytes() > s.maxBytes.Load() {
		t.Fatalf("%d bytes kept, quota %d", s.Bytes(), s.maxBytes.Load())
	}
	// The count agrees with the files after a restart.
	want := s.Bytes()
	s.Close()
	if got := openT(t, dir, Options{}).Bytes(); got != want {
		t.Fatalf("bytes after a restart %d, before %d", got, want)
	}
}

// TestHistoryPrunedByBytes: a board's history keeps at most KeepHistoryBytes of revision files (the
// newest revision always): large revisions are pruned sooner than KeepRevisions, at a start as at a
// commit. Security review 2026-12-03 L1: 1,000 revisions of 64 KiB kept 63 MB per board.
func TestHistoryPrunedByBytes(t *testing.T) {
	dir := t.TempDir()
	big := bigContent("x")
	n := int64(KeepHistoryBytes/40_000) + 20
	seedRevisions(t, dir, "big", n, func(rev int64) Board { return Board{Content: big, Author: AuthorPi} })
	s := openT(t, dir, Options{})
	check := func(what string) {
		t.Helper()
		e := s.entry("big")
		if e.hist.bytes > KeepHistoryBytes || s.Bytes() != e.hist.bytes {
			t.Fatalf("%s: the history keeps %d bytes (store %d), limit %d", what, e.hist.bytes, s.Bytes(), KeepHistoryBytes)
		}
		rd, _ := scanRevisionDir(e.dir)
		var sum int64
		for _, sz := range rd.sizes {
			sum += sz
		}
		if sum != e.hist.bytes || rd.oldest != e.hist.oldest || e.hist.oldest == 1 {
			t.Fatalf("%s: files %d..%d hold %d bytes; the store counts %d from %d", what, rd.oldest, rd.newest, sum, e.hist.bytes, e.hist.oldest)
		}
	}
	check("at the start")
	if _, err := s.Put("big", n, big, AuthorPi); err != nil {
		t.Fatal(err)
	}
	check("after a commit")
}
