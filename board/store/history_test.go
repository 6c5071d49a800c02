package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"tele/board"
	"tele/board/datadirtest"
)

// listRevs is Store.Revisions with the rows newest first, as the HTTP listing gives them.
func listRevs(s *Store, id string, before int64, limit int) ([]Revision, int64, error) {
	rows, next, err := s.Revisions(id, before, limit)
	out := make([]Revision, len(rows))
	for i, r := range rows {
		out[len(rows)-1-i] = r
	}
	return out, next, err
}

// revs returns the revision numbers of rows.
func revs(rows []Revision) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r.Revision
	}
	return out
}

// seq is from, from-1, …, to (newest first), or from, from+1, … when to > from.
func seq(from, to int64) []int64 {
	var out []int64
	step := int64(-1)
	if to > from {
		step = 1
	}
	for r := from; ; r += step {
		out = append(out, r)
		if r == to {
			return out
		}
	}
}

func TestHistoryRecordsRevisionsAndAuthors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		s := openT(t, dir, Options{})
		// One second of the bubble's clock before each write: revision n is stamped t0 + n s.
		t0 := time.Now()
		time.Sleep(time.Second)
		s.EnsureExample("song") // 1 tele
		time.Sleep(time.Second)
		s.Put("song", 1, content("By the page"), AuthorBrowser) // 2 browser
		time.Sleep(time.Second)
		s.Put("song", 2, content("By Pi"), AuthorPi) // 3 pi
		time.Sleep(time.Second)
		r, err := s.Restore("song", 3, 2, AuthorBrowser) // 4 browser, restored from 2
		if err != nil {
			t.Fatal(err)
		}
		if r.Revision != 4 || r.Author != AuthorBrowser || r.RestoredFrom != 2 || r.Content.Title != "By the page" {
			t.Fatalf("Restore = %+v", r)
		}
		if cur, _ := s.Get("song"); !bytes.Equal(cur.JSON(), r.JSON()) {
			t.Fatal("Get is not the restored revision")
		}
		var doc map[string]any
		json.Unmarshal(r.JSON(), &doc)
		if doc["author"] != "browser" || doc["restoredFrom"] != float64(2) {
			t.Fatalf("restored board JSON %s", r.JSON())
		}

		want := []struct {
			author   Author
			title    string
			restored int64
		}{
			{AuthorBrowser, "By the page", 2},
			{AuthorPi, "By Pi", 0},
			{AuthorBrowser, "By the page", 0},
			{AuthorTele, board.Example().Title, 0},
		}
		check := func(t *testing.T, s *Store) {
			t.Helper()
			rows, next, err := listRevs(s, "song", 0, 50)
			if err != nil || next != 0 || !reflect.DeepEqual(revs(rows), seq(4, 1)) {
				t.Fatalf("Revisions = %v, %d, %v", revs(rows), next, err)
			}
			for i, w := range want {
				row := rows[i]
				at := t0.Add(time.Duration(4-i) * time.Second)
				if row.Author != w.author || row.Title != w.title || row.RestoredFrom != w.restored || !row.UpdatedAt.Equal(at) {
					t.Errorf("row %d = %+v, want %+v at %v", i, row, w, at)
				}
				var restored any
				if w.restored != 0 {
					restored = float64(w.restored)
				}
				var got map[string]any
				if err := json.Unmarshal(row.JSON(), &got); err != nil {
					t.Fatal(err)
				}
				wantJSON := map[string]any{"revision": float64(4 - i), "author": string(w.author), "title": w.title,
					"updatedAt": at.Format("2006-01-02T15:04:05.000Z"), "restoredFrom": restored}
				if !reflect.DeepEqual(got, wantJSON) {
					t.Errorf("row %d JSON %s, want %v", i, row.JSON(), wantJSON)
				}
				b, err := s.GetRevision("song", row.Revision)
				if err != nil || b.Revision != row.Revision || b.Author != w.author || b.Content.Title != w.title || b.RestoredFrom != w.restored {
					t.Errorf("GetRevision(%d) = %+v, %v", row.Revision, b, err)
				}
			}
		}
		check(t, s)
		// The history is the files: a reopened store (which reads it lazily) lists the same.
		s.Close()
		check(t, openT(t, dir, Options{}))
	})
}

func TestRevisionsPagination(t *testing.T) {
	s := openT(t, t.TempDir(), Options{})
	s.Create("p", content("r1"), AuthorBrowser)
	for rev := int64(1); rev < 23; rev++ {
		if _, err := s.Put("p", rev, content(fmt.Sprintf("r%d", rev+1)), AuthorPi); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range []struct {
		before   int64
		limit    int
		want     []int64
		wantNext int64
	}{
		{0, 5, seq(23, 19), 19},
		{19, 5, seq(18, 14), 14},
		{14, 100, seq(13, 1), 0},
		{0, 23, seq(23, 1), 0},
		{0, 22, seq(23, 2), 2},
		{2, 50, []int64{1}, 0},
		{1, 50, []int64{}, 0},
		{24, 1, []int64{23}, 23},
		{1000, 2, []int64{23, 22}, 22},
	} {
		rows, next, err := listRevs(s, "p", tt.before, tt.limit)
		if err != nil || !reflect.DeepEqual(revs(rows), tt.want) || next != tt.wantNext {
			t.Errorf("Revisions(before %d, limit %d) = %v next %d, %v; want %v next %d", tt.before, tt.limit, revs(rows), next, err, tt.want, tt.wantNext)
		}
	}
	// Following next from the top visits every revision once.
	var all []int64
	for before := int64(0); ; {
		rows, next, _ := listRevs(s, "p", before, 7)
		all = append(all, revs(rows)...)
		if next == 0 {
			break
		}
		before = next
	}
	if !reflect.DeepEqual(all, seq(23, 1)) {
		t.Fatalf("paging visited %v", all)
	}
	if _, _, err := listRevs(s, "nope", 0, 5); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown board: %v", err)
	}
}

// TestPruneKeepsTheNewest writes past KeepRevisions: the newest KeepRevisions stay, contiguous, on disk
// and in the listing; older ones are gone from both and are ErrRevisionNotFound.
func TestPruneKeepsTheNewest(t *testing.T) {
	dir := t.TempDir()
	// The first KeepRevisions-1 revisions as files (a thousand fsyncs would only slow the test down),
	// then commits past the limit.
	const total = KeepRevisions + 25
	seedRevisions(t, dir, "long", KeepRevisions-1, func(rev int64) Board {
		return Board{Content: content(fmt.Sprintf("r%d", rev)), Author: AuthorBrowser}
	})
	s := openT(t, dir, Options{})
	if _, _, err := listRevs(s, "long", 0, 1); err != nil { // load the rows, so that commits keep them
		t.Fatal(err)
	}
	for rev := int64(KeepRevisions - 1); rev < total; rev++ {
		if _, err := s.Put("long", rev, content(fmt.Sprintf("r%d", rev+1)), AuthorPi); err != nil {
			t.Fatal(err)
		}
	}
	oldest := int64(total - KeepRevisions + 1)
	check := func(t *testing.T, s *Store) {
		t.Helper()
		rd, err := scanRevisionDir(filepath.Join(dir, "boards", "long"))
		if err != nil || rd.oldest != oldest || rd.newest != total || len(rd.stale)+len(rd.temps)+len(rd.other) != 0 {
			t.Fatalf("on disk: %+v, %v", rd, err)
		}
		var listed []int64
		for before := int64(0); ; {
			rows, next, err := listRevs(s, "long", before, 100)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				if r.Title != fmt.Sprintf("r%d", r.Revision) {
					t.Fatalf("row %+v", r)
				}
			}
			listed = append(listed, revs(rows)...)
			if next == 0 {
				break
			}
			before = next
		}
		if !reflect.DeepEqual(listed, seq(total, oldest)) {
			t.Fatalf("listed %d revisions from %d to %d", len(listed), listed[0], listed[len(listed)-1])
		}
		for _, rev := range []int64{1, oldest - 1} {
			if _, err := s.GetRevision("long", rev); !errors.Is(err, ErrRevisionNotFound) {
				t.Fatalf("GetRevision(%d) of a pruned revision = %v", rev, err)
			}
		}
		if b, err := s.GetRevision("long", oldest); err != nil || b.Content.Title != fmt.Sprintf("r%d", oldest) {
			t.Fatalf("GetRevision(oldest) = %+v, %v", b, err)
		}
	}
	check(t, s)
	s.Close()
	check(t, openT(t, dir, Options{}))
}

func TestRestore(t *testing.T) {
	dir := t.TempDir()
	var published []Board
	s := openT(t, dir, Options{OnCommit: func(b Board) { published = append(published, b) }})
	s.Create("r", content("one"), AuthorBrowser)
	s.Put("r", 1, content("two"), AuthorPi)
	before := datadirtest.Snapshot(t, dir)
	published = nil
	for _, tt := range []struct {
		name     string
		expected int64
		from     int64
		author   Author
		want     error
	}{
		{"stale", 1, 1, AuthorBrowser, &ConflictError{Current: 2}},
		{"ahead", 3, 1, AuthorBrowser, &ConflictError{Current: 2}},
		{"never-written", 2, 3, AuthorBrowser, ErrRevisionNotFound},
		{"zero", 2, 0, AuthorBrowser, ErrRevisionNotFound},
		{"negative", 2, -1, AuthorBrowser, ErrRevisionNotFound},
		{"bad-author", 2, 1, Author(""), nil},
	} {
		_, err := s.Restore("r", tt.expected, tt.from, tt.author)
		switch want := tt.want.(type) {
		case *ConflictError:
			if ce, ok := errors.AsType[*ConflictError](err); !ok || *ce != *want {
				t.Errorf("%s: %v", tt.name, err)
			}
		case nil:
			if err == nil {
				t.Errorf("%s: accepted", tt.name)
			}
		default:
			if !errors.Is(err, want) {
				t.Errorf("%s: %v, want %v", tt.name, err, want)
			}
		}
	}
	if _, err := s.Restore("nope", 1, 1, AuthorBrowser); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown board: %v", err)
	}
	datadirtest.Same(t, "a refused Restore", before, datadirtest.Snapshot(t, dir))
	if len(published) != 0 {
		t.Fatal("a refused Restore published")
	}

	// Restoring the current revision is a new revision with the same content.
	b, err := s.Restore("r", 2, 2, AuthorBrowser)
	if err != nil || b.Revision != 3 || b.Content.Title != "two" || b.RestoredFrom != 2 {
		t.Fatalf("Restore(current) = %+v, %v", b, err)
	}
	b, err = s.Restore("r", 3, 1, AuthorPi)
	if err != nil || b.Revision != 4 || b.Content.Title != "one" || b.RestoredFrom != 1 || b.Author != AuthorPi {
		t.Fatalf("Restore(1) = %+v, %v", b, err)
	}
	if len(published) != 2 || published[1].Revision != 4 || !bytes.Equal(published[1].JSON(), b.JSON()) {
		t.Fatalf("published %v", published)
	}
	if got := readFile(t, revFile(dir, "r", 4)); !bytes.Equal(got, append(b.JSON(), '\n')) {
		t.Fatalf("revision file %s", got)
	}
	// A restored revision's content is the store's own: changing the old revision's Board cannot reach it.
	old, _ := s.GetRevision("r", 1)
	old.Content.Sections[0].Label = "changed"
	if cur, _ := s.Get("r"); cur.Content.Sections[0].Label == "changed" {
		t.Fatal("the restored content is shared with a reader")
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Fatalf("temporary files left: %v", tf)
	}
}

// seedRevisions writes revisions 1..n of board id as files, as the store would have committed them
// (without the fsyncs), with the content and author of revision(rev), and a capability.
func seedRevisions(t testing.TB, dir, id string, n int64, revision func(rev int64) Board) {
	t.Helper()
	bdir := filepath.Join(dir, "boards", id)
	if err := os.MkdirAll(bdir, 0o700); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "caps"), 0o700)
	if err := os.WriteFile(filepath.Join(dir, "caps", id), []byte(NewCapability()), 0o600); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for rev := int64(1); rev <= n; rev++ {
		b := revision(rev)
		b.ID, b.Revision, b.UpdatedAt = id, rev, at.Add(time.Duration(rev)*time.Second)
		if err := os.WriteFile(filepath.Join(bdir, revisionName(rev)), boardFileBytes(b.JSON()), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// writeLegacy writes board id as the previous version of Tele kept it: boards/<id>.json with the board
// document without author or restoredFrom, and caps/<id>.
func writeLegacy(t *testing.T, dir, id string, rev int64, c board.Content, at time.Time, capability string) []byte {
	t.Helper()
	data, err := json.Marshal(map[string]any{"id": id, "revision": rev, "content": c, "updatedAt": at.UTC().Format(TimeLayout)})
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "boards"), 0o700)
	os.MkdirAll(filepath.Join(dir, "caps"), 0o700)
	if err := os.WriteFile(filepath.Join(dir, "boards", id+".json"), append(data, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "caps", id), []byte(capability), 0o600); err != nil {
		t.Fatal(err)
	}
	return data
}

// TestOpenMigratesThePreviousLayout: a data directory of the previous version opens with nothing lost:
// each board keeps its revision, content, time and capability, and its current revision is the one
// entry of its history, by Tele. ReadHistory and ReadCapability read it before and after.
func TestOpenMigratesThePreviousLayout(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 11, 30, 8, 9, 10, 123_000_000, time.UTC)
	capA, capB := NewCapability(), NewCapability()
	writeLegacy(t, dir, "alpha", 7, content("Alpha"), at, capA)
	writeLegacy(t, dir, "beta", 1, board.Example(), at.Add(time.Hour), capB)

	// Before the first Open, the lock-free readers see the old layout.
	if rows, err := ReadHistory(dir, "alpha", 10); err != nil || len(rows) != 1 || rows[0].Revision != 7 || rows[0].Author != AuthorTele || rows[0].Title != "Alpha" {
		t.Fatalf("ReadHistory(old layout) = %+v, %v", rows, err)
	}
	if c, err := ReadCapability(dir, "alpha"); err != nil || c != capA {
		t.Fatalf("ReadCapability(old layout) = %v", err)
	}

	check := func(t *testing.T, s *Store) {
		t.Helper()
		for _, w := range []struct {
			id         string
			rev        int64
			title      string
			at         time.Time
			capability string
		}{{"alpha", 7, "Alpha", at, capA}, {"beta", 1, board.Example().Title, at.Add(time.Hour), capB}} {
			b, err := s.Get(w.id)
			if err != nil || b.Revision != w.rev || b.Content.Title != w.title || !b.UpdatedAt.Equal(w.at) || b.Author != AuthorTele || b.RestoredFrom != 0 {
				t.Fatalf("Get(%s) = %+v, %v", w.id, b, err)
			}
			if err := s.Authorize(w.id, w.capability); err != nil {
				t.Fatalf("%s: the capability changed: %v", w.id, err)
			}
			rows, next, err := listRevs(s, w.id, 0, 50)
			if err != nil || next != 0 || len(rows) != 1 || rows[0].Revision != w.rev || rows[0].Author != AuthorTele {
				t.Fatalf("Revisions(%s) = %+v, %d, %v", w.id, rows, next, err)
			}
			if _, err := os.Stat(filepath.Join(dir, "boards", w.id+".json")); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("the old file of %s is still there", w.id)
			}
			if got := readFile(t, revFile(dir, w.id, w.rev)); !bytes.Equal(got, append(b.JSON(), '\n')) {
				t.Fatalf("revision file of %s: %s", w.id, got)
			}
		}
	}
	s, err := Open(dir, Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	check(t, s)
	// Writing goes on from the migrated revision.
	if b, err := s.Put("alpha", 7, content("Alpha 8"), AuthorPi); err != nil || b.Revision != 8 {
		t.Fatalf("Put = %+v, %v", b, err)
	}
	if rows, _, _ := listRevs(s, "alpha", 0, 50); !reflect.DeepEqual(revs(rows), []int64{8, 7}) {
		t.Fatalf("history after a Put: %v", revs(rows))
	}
	s.Close()
	s2 := openT(t, dir, Options{})
	if rows, _, _ := listRevs(s2, "alpha", 0, 50); !reflect.DeepEqual(revs(rows), []int64{8, 7}) || rows[1].Author != AuthorTele || rows[0].Author != AuthorPi {
		t.Fatalf("history after reopening: %+v", rows)
	}
}

// TestOpenFinishesAnInterruptedMigration: a crash after the migrated revision was committed but before
// the old file was removed leaves both; the next Open removes the old file and keeps one revision. An
// old file beside a history that does not end with it is kept as the next revision.
func TestOpenFinishesAnInterruptedMigration(t *testing.T) {
	dir := t.TempDir()
	at := time.Date(2026, 11, 30, 8, 9, 10, 0, time.UTC)
	capability := NewCapability()
	old := writeLegacy(t, dir, "m", 3, content("Three"), at, capability)
	os.MkdirAll(filepath.Join(dir, "boards", "m"), 0o700)
	migrated := Board{ID: "m", Revision: 3, Content: content("Three"), UpdatedAt: at, Author: AuthorTele}
	os.WriteFile(revFile(dir, "m", 3), append(migrated.JSON(), '\n'), 0o600)

	s := openT(t, dir, Options{})
	if rows, _, err := listRevs(s, "m", 0, 50); err != nil || !reflect.DeepEqual(revs(rows), []int64{3}) {
		t.Fatalf("Revisions = %v, %v", revs(rows), err)
	}
	if _, err := os.Stat(filepath.Join(dir, "boards", "m.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("the old file is still there")
	}
	s.Put("m", 3, content("Four"), AuthorBrowser)
	s.Close()

	// An older Tele wrote the board again in its layout: its content becomes revision 5, by Tele.
	os.WriteFile(filepath.Join(dir, "boards", "m.json"), append(old, '\n'), 0o600)
	s2 := openT(t, dir, Options{})
	rows, _, _ := listRevs(s2, "m", 0, 50)
	if !reflect.DeepEqual(revs(rows), []int64{5, 4, 3}) || rows[0].Author != AuthorTele || rows[0].Title != "Three" {
		t.Fatalf("history %+v", rows)
	}
}

// TestOpenRepairsInterruptedWrites: leftovers of a crash in a board's directory are cleaned up at Open:
// temporary files, revisions older than a gap (an interrupted prune), an empty directory (a creation
// that never committed its first revision).
func TestOpenRepairsInterruptedWrites(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir, Options{Logger: quiet})
	s.Create("g", content("r1"), AuthorBrowser)
	for rev := int64(1); rev < 6; rev++ {
		s.Put("g", rev, content(fmt.Sprintf("r%d", rev+1)), AuthorBrowser)
	}
	s.Close()
	os.Remove(revFile(dir, "g", 2)) // a prune removed 1 and 2, and 1's removal was lost
	os.WriteFile(filepath.Join(dir, "boards", "g", ".7.json.tmp-1"), []byte(`{"id":`), 0o600)
	os.MkdirAll(filepath.Join(dir, "boards", "empty"), 0o700)
	os.WriteFile(filepath.Join(dir, "caps", "empty"), []byte(NewCapability()), 0o600)
	os.WriteFile(filepath.Join(dir, "boards", "g", "notes.txt"), []byte("x"), 0o600)

	s2 := openT(t, dir, Options{})
	rd, _ := scanRevisionDir(filepath.Join(dir, "boards", "g"))
	if rd.oldest != 3 || rd.newest != 6 || len(rd.stale) != 0 || len(rd.temps) != 0 || !reflect.DeepEqual(rd.other, []string{"notes.txt"}) {
		t.Fatalf("after Open: %+v", rd)
	}
	if rows, next, _ := listRevs(s2, "g", 0, 50); !reflect.DeepEqual(revs(rows), seq(6, 3)) || next != 0 {
		t.Fatalf("Revisions = %v", revs(rows))
	}
	for _, p := range []string{filepath.Join(dir, "boards", "empty"), filepath.Join(dir, "caps", "empty")} {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s is still there", p)
		}
	}
	if _, err := s2.Get("empty"); !errors.Is(err, ErrNotFound) {
		t.Fatal("an empty directory became a board")
	}
}

// TestReadHistory reads the history without the lock, while a store owns the directory.
func TestReadHistory(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, Options{})
	s.EnsureExample("h")
	s.Put("h", 1, content("two"), AuthorPi)
	s.Restore("h", 2, 1, AuthorBrowser)

	rows, err := ReadHistory(dir, "h", 10)
	if err != nil || !reflect.DeepEqual(revs(rows), []int64{3, 2, 1}) {
		t.Fatalf("ReadHistory = %v, %v", revs(rows), err)
	}
	listed, _, _ := listRevs(s, "h", 0, 10)
	for i := range rows {
		if !bytes.Equal(rows[i].JSON(), listed[i].JSON()) {
			t.Fatalf("row %d: %s, the store lists %s", i, rows[i].JSON(), listed[i].JSON())
		}
	}
	if rows, _ := ReadHistory(dir, "h", 2); !reflect.DeepEqual(revs(rows), []int64{3, 2}) {
		t.Fatalf("limit 2: %v", revs(rows))
	}
	if _, err := ReadHistory(dir, "nope", 10); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("unknown board: %v", err)
	}
	if _, err := ReadHistory(dir, "../x", 10); !errors.Is(err, ErrInvalidID) {
		t.Fatalf("bad id: %v", err)
	}
	missing := filepath.Join(dir, "missing")
	if _, err := ReadHistory(missing, "h", 10); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Fatalf("missing directory: %v", err)
	}
	os.WriteFile(revFile(dir, "h", 2), []byte("{"), 0o600)
	if _, err := ReadHistory(dir, "h", 10); err == nil || !strings.Contains(err.Error(), revFile(dir, "h", 2)) {
		t.Fatalf("damaged revision: %v", err)
	}
}

// Writers killed between a commit and its prune, run after run, leave more than KeepRevisions; the next
// Open trims the history back to the newest KeepRevisions, so it stays bounded.
func TestOpenTrimsAnOverlongHistory(t *testing.T) {
	dir := t.TempDir()
	seedRevisions(t, dir, "long", KeepRevisions+3, func(rev int64) Board { return crashRevision("long", rev) })
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	bdir := filepath.Join(dir, "boards", "long")
	for rev := int64(1); rev <= 3; rev++ {
		if _, err := os.Stat(filepath.Join(bdir, revisionName(rev))); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("revision %d beyond the newest %d was kept: %v", rev, KeepRevisions, err)
		}
	}
	if _, err := os.Stat(filepath.Join(bdir, revisionName(4))); err != nil {
		t.Errorf("the oldest of the newest %d revisions is gone: %v", KeepRevisions, err)
	}
	if b, err := s.Get("long"); err != nil || b.Revision != KeepRevisions+3 {
		t.Fatalf("current board: %v %v", b.Revision, err)
	}
}
