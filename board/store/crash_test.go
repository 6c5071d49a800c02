package store

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"tele/board"
	"tele/board/store/storetest"
)

// The crash test runs the store in a child process (this test binary, re-executed with crashChildEnv
// set to the data directory), kills it with SIGKILL at random moments, and after each kill reopens the
// directory and checks every board.
//
// SIGKILL ends the process at any instruction, including in the middle of write(2) or between rename(2)
// and the directory fsync, but the kernel's page cache survives it; so this proves atomicity against a
// crash of the process (no torn or half-renamed file, no lost acknowledged write), not durability
// against power loss, which needs the fsyncs the commit does and cannot be tested from user space.
const crashChildEnv = "TELE_BOARD_CRASH_CHILD"

var crashBoards = []string{"alpha", "beta", "gamma"}

// crashShortLived is the board the crash child creates, gives a new key and deletes, over and over, so
// that kills also land inside a key rotation, a deletion and a creation. Before each of these the
// child says what it starts ("creating", "rotating", "deleting"), after it what is acknowledged
// ("created <key>", "rotated <key>", "deleted").
const crashShortLived = "delta"

// crashContent is the content of board id at revision rev: a pure function, so the parent can check
// the exact content of whatever revision it finds. Sizes vary with rev, so a torn or mixed file cannot
// pass for a valid one.
func crashContent(id string, rev int64) board.Content {
	c := board.Content{
		Title:       fmt.Sprintf("%s at revision %d", id, rev),
		Description: strings.Repeat("crash-safe ", int(rev*7%180)),
		Key:         []string{"C", "Am", "F#m", "Bb"}[rev%4],
		Tempo:       30 + int(rev%271),
		BeatsPerBar: 1 + int(rev%12),
	}
	nsec := 1 + int(rev%5)
	for s := range nsec {
		sec := board.Section{Label: fmt.Sprintf("part %d/%d", s+1, rev)}
		for b := range 1 + int((rev+int64(s))%40) {
			sec.Bars = append(sec.Bars, board.PlainBar([]string{"Am7", "D7", "Gmaj7", "C#m7b5/G", "N.C."}[:1+(b+int(rev))%4]...))
		}
		c.Sections = append(c.Sections, sec)
	}
	return c
}

// TestMain runs the crash child when asked to; otherwise the tests.
func TestMain(m *testing.M) {
	if dir := os.Getenv(crashChildEnv); dir != "" {
		crashChild(dir)
		return
	}
	if dir := os.Getenv(crashImportChildEnv); dir != "" {
		crashImportChild(dir)
		return
	}
	os.Exit(m.Run())
}

// crashRevision is what the crash child commits as revision rev of board id: every seventh revision
// restores the one two before it; the others are written alternately by Pi and the browser. A pure
// function, so the parent can check every kept revision exactly.
func crashRevision(id string, rev int64) Board {
	if rev%7 == 0 {
		b := crashRevision(id, rev-2)
		b.Revision, b.Author, b.RestoredFrom = rev, AuthorBrowser, rev-2
		return b
	}
	author := AuthorPi
	if rev%2 == 0 {
		author = AuthorBrowser
	}
	return Board{ID: id, Revision: rev, Content: crashContent(id, rev), Author: author}
}

// childFail ends a crash child that cannot go on; the parent takes exit code 3 for the child's failure,
// not a kill.
func childFail(err error) {
	fmt.Fprintln(os.Stderr, "crash child:", err)
	os.Exit(3)
}

// openChildStore opens a crash child's store.
func openChildStore(dir string) *Store {
	s, err := Open(dir, Options{Logger: quiet})
	if err != nil {
		childFail(err)
	}
	return s
}

// crashChild opens the store, creates missing boards, then commits revisions round-robin forever (a Put
// or a Restore, as crashRevision says), writing "ack <id> <rev>" to stdout after each acknowledged
// (durable) write. The parent kills it.
func crashChild(dir string) {
	s := openChildStore(dir)
	if err := s.SetOwner(os.Getpid(), 4317); err != nil {
		childFail(err)
	}
	out := os.Stdout // unbuffered: every line is one write(2), so the parent sees each ack that was made
	fmt.Fprintln(out, "ready")
	for {
		for _, id := range crashBoards {
			b, err := s.Get(id)
			if err != nil {
				if _, _, err := s.Create(id, crashContent(id, 1), crashRevision(id, 1).Author); err != nil {
					childFail(err)
				}
				fmt.Fprintf(out, "ack %s 1\n", id)
				continue
			}
			next := crashRevision(id, b.Revision+1)
			if next.RestoredFrom != 0 {
				_, err = s.Restore(id, b.Revision, next.RestoredFrom, next.Author)
			} else {
				_, err = s.Put(id, b.Revision, next.Content, next.Author)
			}
			if err != nil {
				childFail(err)
			}
			fmt.Fprintf(out, "ack %s %d\n", id, b.Revision+1)
		}
		crashShortLivedStep(s, out)
	}
}

// crashShortLivedStep moves crashShortLived one step: create it when it is gone, else give it a new key,
// and delete it every third step.
func crashShortLivedStep(s *Store, out io.Writer) {
	id := crashShortLived
	b, err := s.Get(id)
	if err != nil {
		fmt.Fprintf(out, "creating %s\n", id)
		_, key, err := s.Create(id, crashContent(id, 1), AuthorPi)
		if err != nil {
			childFail(err)
		}
		fmt.Fprintf(out, "created %s %s\n", id, key)
		return
	}
	if rand.IntN(3) == 0 {
		fmt.Fprintf(out, "deleting %s\n", id)
		if err := s.Delete(id, b.Revision); err != nil {
			childFail(err)
		}
		fmt.Fprintf(out, "deleted %s\n", id)
		return
	}
	fmt.Fprintf(out, "rotating %s\n", id)
	key, err := s.Rotate(id)
	if err != nil {
		childFail(err)
	}
	fmt.Fprintf(out, "rotated %s %s\n", id, key)
}

// shortLived is what the parent knows of crashShortLived: whether it exists and its key, as last
// acknowledged, and the step the child had started and not acknowledged when it was killed.
type shortLived struct {
	exists  bool
	key     string
	started string // "creating", "rotating", "deleting" or ""
}

// line applies one line of the child's about crashShortLived; false if the line is not about it.
func (sl *shortLived) line(l string) (bool, error) {
	f := strings.Fields(l)
	if len(f) < 2 || f[1] != crashShortLived {
		return false, nil
	}
	switch {
	case len(f) == 2 && (f[0] == "creating" || f[0] == "rotating" || f[0] == "deleting"):
		if sl.started != "" || (f[0] == "creating") == sl.exists {
			return true, fmt.Errorf("child started %q with %+v", l, *sl)
		}
		sl.started = f[0]
	case len(f) == 3 && (f[0] == "created" || f[0] == "rotated"):
		if sl.started != map[string]string{"created": "creating", "rotated": "rotating"}[f[0]] {
			return true, fmt.Errorf("child acknowledged %q with %+v", l, *sl)
		}
		*sl = shortLived{exists: true, key: f[2]}
	case len(f) == 2 && f[0] == "deleted":
		if sl.started != "deleting" {
			return true, fmt.Errorf("child acknowledged %q with %+v", l, *sl)
		}
		*sl = shortLived{}
	default:
		return true, fmt.Errorf("child wrote %q", l)
	}
	return true, nil
}

// check compares the reopened store with what was acknowledged: the board exists with its acknowledged
// key, or is gone, unless a step was under way, which may have happened or not (a creation or a
// rotation then leaves a key the child never said: any well-formed one). It then knows the truth.
func (sl *shortLived) check(s *Store) error {
	id := crashShortLived
	b, err := s.Get(id)
	exists := err == nil
	key, _ := s.Capability(id)
	ok := false
	switch sl.started {
	case "":
		ok = exists == sl.exists && (!exists || key == sl.key)
	case "creating":
		ok = !exists || len(key) == len(NewCapability())
	case "rotating":
		ok = exists && (key == sl.key || len(key) == len(NewCapability()))
	case "deleting":
		ok = !exists || key == sl.key
	}
	if !ok {
		return fmt.Errorf("%s: exists %v with key %q after %+v", id, exists, key, *sl)
	}
	if exists && (b.Revision != 1 || !reflect.DeepEqual(b.Content, crashContent(id, 1))) {
		return fmt.Errorf("%s: revision %d is not what was created", id, b.Revision)
	}
	*sl = shortLived{exists: exists, key: key}
	return nil
}

// crashHistory checks board id's history on disk after a kill: the kept revisions are contiguous, the
// newest is cur, at least the newest KeepRevisions are there (one more when the kill fell between a
// commit and its prune), and every file parses, validates and is exactly the revision crashRevision
// says. Files are immutable, so one verified before is only checked to be the same file (inode, size,
// time) and parsed again only if it is not.
func crashHistory(t *testing.T, run int, dir, id string, cur Board, verified map[string]os.FileInfo) {
	t.Helper()
	bdir := filepath.Join(dir, "boards", id)
	rd, err := scanRevisionDir(bdir)
	if err != nil {
		t.Fatalf("run %d: %s: %v", run, id, err)
	}
	if len(rd.stale)+len(rd.temps)+len(rd.other) != 0 {
		t.Fatalf("run %d: %s: stray files after Open: %+v", run, id, rd)
	}
	if rd.newest != cur.Revision {
		t.Fatalf("run %d: %s: the newest revision file is %d, the current board %d", run, id, rd.newest, cur.Revision)
	}
	kept := rd.newest - rd.oldest + 1
	if kept < min(rd.newest, KeepRevisions) || kept > KeepRevisions {
		t.Fatalf("run %d: %s: %d revisions kept (%d..%d)", run, id, kept, rd.oldest, rd.newest)
	}
	for rev := rd.oldest; rev <= rd.newest; rev++ {
		path := filepath.Join(bdir, revisionName(rev))
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if old, ok := verified[path]; ok && os.SameFile(old, fi) && old.Size() == fi.Size() && old.ModTime().Equal(fi.ModTime()) {
			continue
		}
		b, err := readRevisionFile(bdir, id, rev)
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		want := crashRevision(id, rev)
		if !reflect.DeepEqual(b.Content, want.Content) || b.Author != want.Author || b.RestoredFrom != want.RestoredFrom {
			t.Fatalf("run %d: %s revision %d is not what was committed: %s", run, id, rev, b.JSON())
		}
		if rev == cur.Revision && !bytes.Equal(b.JSON(), cur.JSON()) {
			t.Fatalf("run %d: %s: the newest revision file differs from the current board", run, id)
		}
		verified[path] = fi
	}
}

func TestCrashSafety(t *testing.T) {
	kills := storetest.Kills(t, 200)
	dir := t.TempDir()
	// alpha starts a few revisions short of KeepRevisions, so the kills also land in commits that prune.
	seedRevisions(t, dir, "alpha", KeepRevisions-4, func(rev int64) Board { return crashRevision("alpha", rev) })
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	acked := map[string]int64{"alpha": KeepRevisions - 4} // the last acknowledged revision of each board, over all runs
	verified := map[string]os.FileInfo{}                  // revision files checked in full, by path
	var inFlightSeen, midCommitKills int
	var sl shortLived
	shortLivedSteps := map[string]int{} // kills during each step of crashShortLived
	for run := range kills {
		// The child acknowledges a random number of commits before the kill, after a random extra moment
		// (a commit takes a few hundred microseconds, so most kills land inside one).
		ack := func(l string) {
			if ok, err := sl.line(l); ok || err != nil {
				if err != nil {
					t.Fatalf("run %d: %v", run, err)
				}
				return
			}
			var id string
			var rev int64
			if _, err := fmt.Sscanf(l, "ack %s %d", &id, &rev); err != nil {
				t.Fatalf("run %d: child wrote %q", run, l)
			}
			if rev != acked[id]+1 {
				t.Fatalf("run %d: child acknowledged %s revision %d after %d", run, id, rev, acked[id])
			}
			acked[id] = rev
		}
		stderr := storetest.KillChild(t, run, crashChildEnv, dir, rng, 5, 3*time.Millisecond, ack)

		if len(tempFiles(t, dir)) > 0 {
			midCommitKills++ // killed between creating a temporary file and renaming it
		}
		// The parent's check: the store opens (the lock died with the child), every board parses and
		// validates (Open refuses anything else), and each holds its last acknowledged revision or the
		// one that was in flight, with exactly that revision's content.
		s, err := Open(dir, Options{Logger: quiet})
		if err != nil {
			t.Fatalf("run %d: reopen after SIGKILL: %v", run, err)
		}
		for _, id := range crashBoards {
			b, err := s.Get(id)
			if err != nil {
				if acked[id] > 0 {
					t.Fatalf("run %d: board %s (acknowledged revision %d) is gone: %v", run, id, acked[id], err)
				}
				continue
			}
			switch b.Revision {
			case acked[id]:
			case acked[id] + 1:
				// Committed, killed before the ack reached the pipe: it is the new truth.
				inFlightSeen++
				acked[id] = b.Revision
			default:
				t.Fatalf("run %d: board %s holds revision %d; acknowledged %d", run, id, b.Revision, acked[id])
			}
			if want := crashRevision(id, b.Revision); !reflect.DeepEqual(b.Content, want.Content) || b.Author != want.Author || b.RestoredFrom != want.RestoredFrom {
				t.Fatalf("run %d: board %s revision %d is not what was committed", run, id, b.Revision)
			}
			crashHistory(t, run, dir, id, b, verified)
			// The store's own view agrees: its whole history, listed from the index (rowindex.go) that
			// every commit appends to and a kill may tear, is every kept revision as committed.
			rows, _, err := listRevs(s, id, 0, 3)
			if err != nil || len(rows) == 0 || !bytes.Equal(rows[0].JSON(), b.row().JSON()) {
				t.Fatalf("run %d: %s: the store lists %v, %v; current %s", run, id, rows, err, b.JSON())
			}
			all := allRows(t, s, id)
			if want := min(b.Revision, KeepRevisions); int64(len(all)) < want || all[len(all)-1].Revision != b.Revision {
				t.Fatalf("run %d: %s: %d rows listed, want at least %d ending at %d", run, id, len(all), want, b.Revision)
			}
			for i, r := range all {
				want := crashRevision(id, r.Revision)
				if r.Revision != all[0].Revision+int64(i) || r.Title != want.Content.Title || r.Author != want.Author || r.RestoredFrom != want.RestoredFrom {
					t.Fatalf("run %d: %s: listed row %s is not what was committed", run, id, r.JSON())
				}
			}
		}
		if sl.started != "" {
			shortLivedSteps[sl.started]++
		}
		if err := sl.check(s); err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if sl.exists {
			b, _ := s.Get(crashShortLived)
			crashHistory(t, run, dir, crashShortLived, b, verified)
		}
		if tf := tempFiles(t, dir); len(tf) != 0 {
			t.Fatalf("run %d: Open left temporary files: %v", run, tf)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(stderr, "crash child:") {
			t.Fatalf("run %d: child failed: %s", run, stderr)
		}
	}
	var total int64
	for _, r := range acked {
		total += r
	}
	t.Logf("%d kills: %d revisions committed in all; %d kills left a temporary file (mid-commit), %d a committed but unacknowledged revision; kills while %s was being created, given a new key, deleted: %d, %d, %d",
		kills, total, midCommitKills, inFlightSeen, crashShortLived, shortLivedSteps["creating"], shortLivedSteps["rotating"], shortLivedSteps["deleting"])
	if midCommitKills+inFlightSeen < kills/10 {
		t.Errorf("only %d of %d kills landed inside a commit: the test did not exercise the commit", midCommitKills+inFlightSeen, kills)
	}
}
