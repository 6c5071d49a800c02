package board

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"tele/strict"
)

// quiet is a logger for tests that expect warnings.
var quiet = slog.New(slog.DiscardHandler)

func openT(t *testing.T, dir string, opts Options) *Store {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = quiet
	}
	s, err := Open(dir, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func content(title string) Content {
	c := Example()
	c.Title = title
	return c
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// tempFiles lists leftover temporary files under dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && isTemp(d.Name()) {
			out = append(out, path)
		}
		return nil
	})
	return out
}

// revFile is the path of revision rev of board id in data directory dir.
func revFile(dir, id string, rev int64) string {
	return filepath.Join(dir, "boards", id, fmt.Sprintf("%d.json", rev))
}

// dirState is every file under dir but the lock file, with its mode and bytes, by relative path: what
// a refused or failed write must leave as it was.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == ".lock" {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			files[rel+"/"] = info.Mode().String()
			return nil
		}
		files[rel] = info.Mode().String() + "\x00" + string(readFile(t, p))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func sameState(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	if !maps.Equal(before, after) {
		var diff []string
		for k := range before {
			if after[k] != before[k] {
				diff = append(diff, k)
			}
		}
		for k := range after {
			if _, ok := before[k]; !ok {
				diff = append(diff, k+" (new)")
			}
		}
		slices.Sort(diff)
		t.Fatalf("%s changed the data directory: %v", what, diff)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestOpenCreatesPrivateDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "data")
	s := openT(t, dir, Options{})
	for _, d := range []string{dir, filepath.Join(dir, "boards"), filepath.Join(dir, "caps")} {
		if m := mode(t, d); m != 0o700 {
			t.Errorf("%s has mode %o, want 0700", d, m)
		}
	}
	if got := string(readFile(t, filepath.Join(dir, ".lock"))); got != fmt.Sprintf("%d 0\n", os.Getpid()) {
		t.Errorf("lock file says %q", got)
	}
	if m := mode(t, filepath.Join(dir, ".lock")); m != 0o600 {
		t.Errorf("lock file mode %o", m)
	}
	if len(s.List()) != 0 {
		t.Fatal("a new store has boards")
	}
}

func TestOpenRefusesBadPaths(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "file")
	os.WriteFile(file, []byte("x"), 0o600)
	for _, tt := range []struct{ name, dir, want string }{
		{"a-file", file, "is not a directory"},
		{"under-a-file", filepath.Join(file, "sub"), "not a directory"},
		{"empty", "", "no data directory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Open(tt.dir, Options{Logger: quiet})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Open(%q) = %v, want an error containing %q", tt.dir, err, tt.want)
			}
			if tt.dir != "" && !strings.Contains(err.Error(), tt.dir[:len(file)]) {
				t.Errorf("the error %q does not name the directory", err)
			}
		})
	}
	ents, _ := os.ReadDir(root)
	if len(ents) != 1 {
		t.Fatalf("Open created something: %v", ents)
	}
	if string(readFile(t, file)) != "x" {
		t.Fatal("the file was changed")
	}
}

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
	b, _, err := s.Create("j", Example(), AuthorBrowser)
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
	if c, err := ParseContent(m["content"]); err != nil || !reflect.DeepEqual(c, b.Content) {
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
	} else if ve, ok := errors.AsType[*ValidationError](err); !ok || ve.Path != "title" {
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
		b, _, err := s.Create("", Example(), AuthorBrowser)
		if err != nil {
			t.Fatal(err)
		}
		if !ValidID(b.ID) || seen[b.ID] {
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
	_, capability, _ := s.Create("a", Example(), AuthorBrowser)
	_, other, _ := s.Create("b", Example(), AuthorBrowser)
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
	before := dirState(t, dir)
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
	} else if ve, ok := errors.AsType[*ValidationError](err); !ok || ve.Path != "tempo" {
		t.Errorf("invalid content: %v", err)
	}
	if _, err := s.Put("a", 2, content("x"), Author("claimed")); err == nil {
		t.Error("an invalid author accepted")
	}
	sameState(t, "a refused Put", before, dirState(t, dir))
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
	s.Create("a", Example(), AuthorBrowser)
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

// TestCommitFailures injects a failure at each step of a commit: nothing changes on disk or in memory,
// nothing is published, and no temporary file is left. A revision is committed with write, sync, link
// and syncdir; a capability file (the first half of a creation) with write, sync, rename and syncdir.
func TestCommitFailures(t *testing.T) {
	for _, step := range []string{"write", "sync", "rename", "link", "syncdir"} {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			var commits int
			s := openT(t, dir, Options{OnCommit: func(Board) { commits++ }})
			s.Create("a", content("One"), AuthorBrowser)
			boom := errors.New("injected " + step)
			// failAt makes the nth occurrence of step fail, and reports whether it did.
			failAt := func(n int) *bool {
				seen, failed := 0, false
				s.hook = func(name string) error {
					if name == step {
						if seen++; seen == n {
							failed = true
							return boom
						}
					}
					return nil
				}
				return &failed
			}
			before := dirState(t, dir)
			commits = 0
			failed := failAt(1)
			_, err := s.Put("a", 1, content("Two"), AuthorBrowser)
			s.hook = nil
			if *failed != (step != "rename") || (*failed && !errors.Is(err, boom)) || (!*failed && err != nil) {
				t.Fatalf("Put = %v (injected: %v)", err, *failed)
			}
			if *failed {
				sameState(t, "a failed Put", before, dirState(t, dir))
				if got, _ := s.Get("a"); got.Revision != 1 || got.Content.Title != "One" {
					t.Fatalf("memory changed: %+v", got)
				}
				if commits != 0 {
					t.Fatal("a failed Put published")
				}
				if rows, _, _ := listRevs(s, "a", 0, 10); len(rows) != 1 {
					t.Fatalf("history after a failed Put: %v", rows)
				}
				// The store keeps working.
				if b, err := s.Put("a", 1, content("Two"), AuthorBrowser); err != nil || b.Revision != 2 {
					t.Fatalf("Put after the failure = %+v, %v", b, err)
				}
			}
			// A creation fails at its capability (first occurrence) or at its first revision (second, or
			// the first link) and leaves nothing behind.
			for n, id := range []string{"b", "c"} {
				before := dirState(t, dir)
				failed := failAt(n + 1)
				_, _, err := s.Create(id, content("B"), AuthorBrowser)
				s.hook = nil
				if !*failed {
					if err != nil {
						t.Fatalf("Create %s = %v", id, err)
					}
					continue
				}
				if !errors.Is(err, boom) {
					t.Fatalf("Create %s = %v", id, err)
				}
				sameState(t, "a failed Create", before, dirState(t, dir))
				if _, err := s.Get(id); !errors.Is(err, ErrNotFound) {
					t.Fatal("a failed Create made a board")
				}
			}
			if tf := tempFiles(t, dir); len(tf) != 0 {
				t.Fatalf("temporary files left: %v", tf)
			}
		})
	}
}

func TestReopen(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	s.Create("a", content("A"), AuthorBrowser)
	_, capB, _ := s.Create("b", content("B"), AuthorBrowser)
	b2, _ := s.Put("b", 1, content("B2"), AuthorBrowser)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, ".lock")); len(got) != 0 {
		t.Fatalf("the lock file still names an owner after Close: %q", got)
	}
	if _, err := s.Put("b", 2, content("B3"), AuthorBrowser); !errors.Is(err, ErrClosed) {
		t.Fatalf("Put after Close = %v", err)
	}
	if _, _, err := s.Create("c", content("C"), AuthorBrowser); !errors.Is(err, ErrClosed) {
		t.Fatalf("Create after Close = %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close = %v", err)
	}

	s2 := openT(t, dir, Options{})
	got, err := s2.Get("b")
	if err != nil || got.Revision != 2 || !bytes.Equal(got.JSON(), b2.JSON()) || !reflect.DeepEqual(got.Content, b2.Content) || !got.UpdatedAt.Equal(b2.UpdatedAt) {
		t.Fatalf("after reopen: %+v, %v", got, err)
	}
	if err := s2.Authorize("b", capB); err != nil {
		t.Fatal("the capability changed across a reopen")
	}
	if len(s2.List()) != 2 {
		t.Fatal("boards lost")
	}
	if _, err := s2.Put("b", 2, content("B3"), AuthorBrowser); err != nil {
		t.Fatal(err)
	}
}

func TestLock(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, Options{})

	// A second Open in the same process takes its own descriptor, so flock refuses it.
	_, err := Open(dir, Options{Logger: quiet})
	le, ok := errors.AsType[*LockedError](err)
	if !ok {
		t.Fatalf("second Open = %v, want *LockedError", err)
	}
	if le.Dir != filepath.Clean(dir) || le.PID != os.Getpid() || le.Port != 0 {
		t.Fatalf("LockedError %+v", le)
	}
	if msg := le.Error(); !strings.Contains(msg, dir) || !strings.Contains(msg, fmt.Sprint(os.Getpid())) || strings.Contains(msg, "port") {
		t.Fatalf("message %q", msg)
	}

	if err := s.SetOwner(4242, 4317); err != nil {
		t.Fatal(err)
	}
	_, err = Open(dir, Options{Logger: quiet})
	le, ok = errors.AsType[*LockedError](err)
	if !ok || le.PID != 4242 || le.Port != 4317 {
		t.Fatalf("second Open = %#v", err)
	}
	if msg := le.Error(); !strings.Contains(msg, dir) || !strings.Contains(msg, "pid 4242") || !strings.Contains(msg, "port 4317") {
		t.Fatalf("message %q", msg)
	}
	if err := s.SetOwner(77, 1); err != nil { // a shorter line must not leave the old tail
		t.Fatal(err)
	}
	if got := string(readFile(t, filepath.Join(dir, ".lock"))); got != "77 1\n" {
		t.Fatalf("lock file %q", got)
	}
	// An owner that wrote nothing usable is reported without pid or port.
	os.WriteFile(filepath.Join(dir, ".lock"), []byte("garbage"), 0o600)
	_, err = Open(dir, Options{Logger: quiet})
	if le, ok := errors.AsType[*LockedError](err); !ok || le.PID != 0 || le.Port != 0 || strings.Contains(le.Error(), "pid") {
		t.Fatalf("second Open = %#v", err)
	}
	// A refused Open changed nothing.
	if ents, _ := os.ReadDir(filepath.Join(dir, "boards")); len(ents) != 0 {
		t.Fatal("boards appeared")
	}

	s.Close()
	s2 := openT(t, dir, Options{})
	if err := s2.SetOwner(os.Getpid(), 5000); err != nil {
		t.Fatal(err)
	}
	if err := s.SetOwner(1, 1); !errors.Is(err, ErrClosed) {
		t.Fatalf("SetOwner on a closed store = %v", err)
	}
}

func TestReadCapability(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, Options{})
	_, capability, _ := s.Create("song", Example(), AuthorBrowser)

	// While the store holds the lock.
	got, err := ReadCapability(dir, "song")
	if err != nil || got != capability {
		t.Fatalf("ReadCapability = %q, %v", got, err)
	}
	if _, err := ReadCapability(dir, "nope"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("unknown board: %v", err)
	}
	if _, err := ReadCapability(dir, "../caps/song"); !errors.Is(err, ErrInvalidID) {
		t.Fatalf("bad id: %v", err)
	}
	missing := filepath.Join(dir, "missing")
	if _, err := ReadCapability(missing, "song"); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Fatalf("missing directory: %v", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("ReadCapability created the directory")
	}
	// An orphan capability (a creation that never wrote its board) is no board.
	os.WriteFile(filepath.Join(dir, "caps", "orphan"), []byte(newCapability()), 0o600)
	if _, err := ReadCapability(dir, "orphan"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("orphan: %v", err)
	}
	// A damaged file is reported, not returned.
	os.WriteFile(filepath.Join(dir, "caps", "song"), []byte("short"), 0o600)
	if c, err := ReadCapability(dir, "song"); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("damaged: %q, %v", c, err)
	}
}

func TestOpenCleansUp(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir, Options{Logger: quiet})
	s.Create("a", content("A"), AuthorBrowser)
	s.Close()
	boards, caps := filepath.Join(dir, "boards"), filepath.Join(dir, "caps")
	strays := []string{
		filepath.Join(boards, ".a.json.tmp-123"),
		filepath.Join(boards, ".b.json.tmp-9"),
		filepath.Join(caps, ".a.tmp-77"),
		filepath.Join(caps, "orphan"), // a creation interrupted before its board file
	}
	for _, p := range strays {
		os.WriteFile(p, []byte(`{"torn":`), 0o600)
	}
	os.WriteFile(filepath.Join(boards, "README"), []byte("x"), 0o600)
	os.WriteFile(filepath.Join(caps, "notes.txt"), []byte("x"), 0o600)
	os.Mkdir(filepath.Join(boards, "sub.json"), 0o700)
	var logs bytes.Buffer
	s2 := openT(t, dir, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	for _, p := range strays {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s was not removed", p)
		}
	}
	for _, p := range []string{filepath.Join(boards, "README"), filepath.Join(caps, "notes.txt")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("an unexpected file was removed: %s", p)
		}
	}
	if ids := s2.List(); len(ids) != 1 || ids[0].ID != "a" {
		t.Fatalf("boards %v", ids)
	}
	if !strings.Contains(logs.String(), ".a.json.tmp-123") || !strings.Contains(logs.String(), "README") {
		t.Errorf("log: %s", logs.String())
	}
}

func TestOpenRefusesDamagedBoards(t *testing.T) {
	valid := func() []byte {
		b := Board{ID: "x", Revision: 3, Content: Example(), UpdatedAt: time.Now(), Author: AuthorPi}
		return b.JSON()
	}
	for _, tt := range []struct {
		name, data, want string
	}{
		{"torn", string(valid()[:100]), "damaged"},
		{"empty", "", "damaged"},
		{"wrong-id", strings.Replace(string(valid()), `"id":"x"`, `"id":"y"`, 1), `holds board "y"`},
		{"wrong-revision", strings.Replace(string(valid()), `"revision":3`, `"revision":2`, 1), "holds revision 2"},
		{"bad-content", strings.Replace(string(valid()), `"tempo":96`, `"tempo":9`, 1), "tempo"},
		{"bad-time", strings.Replace(string(valid()), `"updatedAt":"`, `"updatedAt":"yesterday`, 1), "updatedAt"},
		{"unknown-field", strings.Replace(string(valid()), `"id":"x"`, `"id":"x","extra":1`, 1), "unknown field"},
		{"trailing", string(valid()) + "{}", "unexpected data"},
		{"no-content", `{"id":"x","revision":3,"updatedAt":"2025-01-01T00:00:00Z","author":"pi"}`, "no content"},
		{"no-author", strings.Replace(string(valid()), `"author":"pi"`, `"author":null`, 1), "author"},
		{"claimed-author", strings.Replace(string(valid()), `"author":"pi"`, `"author":"root"`, 1), "author"},
		{"restored-from-later", strings.Replace(string(valid()), `"restoredFrom":null`, `"restoredFrom":3`, 1), "restoredFrom"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "boards", "x"), 0o700)
			path := revFile(dir, "x", 3)
			os.WriteFile(path, []byte(tt.data), 0o600)
			_, err := Open(dir, Options{Logger: quiet})
			if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Open = %v, want an error naming %s and containing %q", err, path, tt.want)
			}
			// The failed Open released the lock.
			os.WriteFile(path, valid(), 0o600)
			s := openT(t, dir, Options{})
			if b, err := s.Get("x"); err != nil || b.Revision != 3 || b.Author != AuthorPi {
				t.Fatalf("Get = %+v, %v", b, err)
			}
		})
	}
}

func TestMissingCapabilityIsRemade(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir, Options{Logger: quiet})
	_, old, _ := s.Create("a", Example(), AuthorBrowser)
	s.Close()
	os.Remove(filepath.Join(dir, "caps", "a"))
	s2 := openT(t, dir, Options{})
	c, err := s2.Capability("a")
	if err != nil || c == old || len(c) != 43 {
		t.Fatalf("capability %q, %v", c, err)
	}
	if got, _ := ReadCapability(dir, "a"); got != c {
		t.Fatal("the new capability is not on disk")
	}
	if m := mode(t, filepath.Join(dir, "caps", "a")); m != 0o600 {
		t.Fatalf("mode %o", m)
	}
	// A damaged one is an error, not silently replaced.
	s2.Close()
	os.WriteFile(filepath.Join(dir, "caps", "a"), []byte("!!"), 0o600)
	if _, err := Open(dir, Options{Logger: quiet}); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("Open = %v", err)
	}
}

func TestEnsureExample(t *testing.T) {
	s := openT(t, t.TempDir(), Options{})
	b, created, err := s.EnsureExample("welcome")
	if err != nil || !created || b.Revision != 1 || !reflect.DeepEqual(b.Content, Example()) {
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

// TestRacingWriters: N writers holding the same revision; exactly one wins, the others get a conflict
// naming the winner's revision, and the file on disk is the winner's board.
func TestRacingWriters(t *testing.T) {
	const writers = 16
	dir := t.TempDir()
	var mu sync.Mutex
	var published []int64
	s := openT(t, dir, Options{OnCommit: func(b Board) {
		mu.Lock()
		published = append(published, b.Revision)
		mu.Unlock()
	}})
	s.Create("race", content("start"), AuthorBrowser)
	for round := int64(1); round <= 5; round++ {
		var wg sync.WaitGroup
		results := make([]error, writers)
		boards := make([]Board, writers)
		start := make(chan struct{})
		for i := range writers {
			wg.Go(func() {
				<-start
				boards[i], results[i] = s.Put("race", round, content(fmt.Sprintf("writer %d round %d", i, round)), AuthorBrowser)
			})
		}
		close(start)
		wg.Wait()
		winner := -1
		for i, err := range results {
			if err == nil {
				if winner >= 0 {
					t.Fatalf("round %d: writers %d and %d both won", round, winner, i)
				}
				winner = i
				continue
			}
			if ce, ok := errors.AsType[*ConflictError](err); !ok || ce.Current != round+1 {
				t.Fatalf("round %d: writer %d got %v", round, i, err)
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: nobody won", round)
		}
		onDisk := readFile(t, revFile(dir, "race", round+1))
		if !bytes.Equal(onDisk, append(boards[winner].JSON(), '\n')) {
			t.Fatalf("round %d: the file is not the winner's board", round)
		}
		if got, _ := s.Get("race"); got.Revision != round+1 || got.Content.Title != fmt.Sprintf("writer %d round %d", winner, round) {
			t.Fatalf("round %d: Get = %+v", round, got)
		}
	}
	if !slices.Equal(published, []int64{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("published %v", published)
	}
	if tf := tempFiles(t, dir); len(tf) != 0 {
		t.Fatalf("temporary files left: %v", tf)
	}
}

// TestConcurrentBoards: writers on different boards and readers run together under -race, and each
// board publishes its revisions in order.
func TestConcurrentBoards(t *testing.T) {
	var mu sync.Mutex
	last := map[string]int64{}
	s := openT(t, t.TempDir(), Options{OnCommit: func(b Board) {
		mu.Lock()
		defer mu.Unlock()
		if b.Revision != last[b.ID]+1 {
			t.Errorf("board %s published %d after %d", b.ID, b.Revision, last[b.ID])
		}
		last[b.ID] = b.Revision
	}})
	var wg sync.WaitGroup
	for i := range 4 {
		id := fmt.Sprintf("b%d", i)
		s.Create(id, content(id), AuthorBrowser)
		for range 2 {
			wg.Go(func() {
				for range 10 {
					b, _ := s.Get(id)
					_, err := s.Put(id, b.Revision, content(id+" again"), AuthorBrowser)
					if _, ok := errors.AsType[*ConflictError](err); err != nil && !ok {
						t.Error(err)
					}
				}
			})
		}
		wg.Go(func() {
			for range 50 {
				s.List()
				b, _ := s.Get(id)
				_ = b.JSON()
			}
		})
	}
	wg.Wait()
}

// TestCloseWaitsForCommits: Close returns only after an in-flight commit has finished, and the commit
// is acknowledged.
func TestCloseWaitsForCommits(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir, Options{Logger: quiet})
	s.Create("a", content("A"), AuthorBrowser)
	inSync, release := make(chan struct{}), make(chan struct{})
	s.hook = func(step string) error {
		if step == "sync" {
			close(inSync)
			<-release
		}
		return nil
	}
	putDone := make(chan error, 1)
	go func() {
		_, err := s.Put("a", 1, content("B"), AuthorBrowser)
		putDone <- err
	}()
	<-inSync
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	select {
	case <-closed:
		t.Fatal("Close returned during a commit")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if err := <-putDone; err != nil {
		t.Fatal(err)
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	s2 := openT(t, dir, Options{})
	if b, _ := s2.Get("a"); b.Revision != 2 {
		t.Fatalf("revision %d after reopen", b.Revision)
	}
}
