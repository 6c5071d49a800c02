package setlist_test

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tele/board/store"
	"tele/board/store/storetest"
	"tele/setlist"
)

// The crash test runs the set store in a child process (this test binary, re-executed with
// crashChildEnv naming the data directory), kills it with SIGKILL at random moments, and after each
// kill reopens the directory: every acknowledged write is there, or the one in flight after it, exactly
// as written; no temporary file is left. As board's crash test, it proves atomicity against a crash of
// the process, not durability against power loss (the fsyncs are there for that).
const crashChildEnv = "TELE_SET_CRASH_CHILD"

var crashSets = []string{"friday", "saturday"}

// crashSet is set id at revision rev: a pure function, of varying size, so the parent can check the
// exact set it finds and a torn file cannot pass for a whole one.
func crashSet(id string, rev int64) (string, []string) {
	boards := make([]string, int(rev%37))
	for i := range boards {
		boards[i] = []string{"a", "b", "c"}[(i+int(rev))%3]
	}
	return fmt.Sprintf("%s %d %s", id, rev, strings.Repeat("~", int(rev%90))), boards
}

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashChildEnv); dir != "" {
		crashChild(dir)
		return
	}
	os.Exit(m.Run())
}

var quiet = slog.New(slog.DiscardHandler)

// crashChild opens the data directory as tele serve does (the board store takes the lock, the sets
// live under it), then writes forever: a Put of each set in turn, and a creation or a deletion of set
// "brief", writing "ack …" after each acknowledged write.
func crashChild(dir string) {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "crash child:", err)
		os.Exit(3)
	}
	boards, err := store.Open(dir, store.Options{Logger: quiet})
	if err != nil {
		fail(err)
	}
	s, err := setlist.Open(boards, quiet)
	if err != nil {
		fail(err)
	}
	out := os.Stdout // unbuffered: one write(2) a line
	fmt.Fprintln(out, "ready")
	for {
		for _, id := range crashSets {
			cur, err := s.Get(id)
			if err != nil {
				title, bs := crashSet(id, 1)
				if _, _, err := s.Create(id, title, bs); err != nil {
					fail(err)
				}
				fmt.Fprintf(out, "ack %s 1\n", id)
				continue
			}
			title, bs := crashSet(id, cur.Revision+1)
			if _, err := s.Put(id, cur.Revision, title, bs); err != nil {
				fail(err)
			}
			fmt.Fprintf(out, "ack %s %d\n", id, cur.Revision+1)
		}
		if b, err := s.Get("brief"); err == nil {
			if err := s.Delete("brief", b.Revision); err != nil {
				fail(err)
			}
			fmt.Fprintln(out, "ack brief 0")
		} else {
			if _, _, err := s.Create("brief", "Brief", []string{"a"}); err != nil {
				fail(err)
			}
			fmt.Fprintln(out, "ack brief 1")
		}
	}
}

func TestCrashSafety(t *testing.T) {
	kills := storetest.Kills(t, 100)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	acked := map[string]int64{} // the last acknowledged revision; for brief 1 (there) or 0 (deleted)
	inFlight := 0
	for run := range kills {
		ack := func(l string) {
			var id string
			var rev int64
			if _, err := fmt.Sscanf(l, "ack %s %d", &id, &rev); err != nil {
				t.Fatalf("run %d: child wrote %q", run, l)
			}
			acked[id] = rev
		}
		storetest.KillChild(t, run, crashChildEnv, dir, rng, 4, 2*time.Millisecond, ack)

		boards, err := store.Open(dir, store.Options{Logger: quiet})
		if err != nil {
			t.Fatalf("run %d: reopen: %v", run, err)
		}
		s, err := setlist.Open(boards, quiet)
		if err != nil {
			t.Fatalf("run %d: reopen the sets: %v", run, err)
		}
		for _, id := range crashSets {
			got, err := s.Get(id)
			if err != nil {
				if acked[id] > 0 {
					t.Fatalf("run %d: set %s (acknowledged revision %d) is gone", run, id, acked[id])
				}
				continue
			}
			switch got.Revision {
			case acked[id]:
			case acked[id] + 1:
				inFlight++
				acked[id] = got.Revision
			default:
				t.Fatalf("run %d: set %s at revision %d, acknowledged %d", run, id, got.Revision, acked[id])
			}
			title, bs := crashSet(id, got.Revision)
			if got.Title != title || !slices.Equal(got.Boards, bs) {
				t.Fatalf("run %d: set %s revision %d is not what was written: %+v", run, id, got.Revision, got)
			}
		}
		// brief: its last acknowledged state, or the next one when the kill fell after the write.
		_, err = s.Get("brief")
		there := err == nil
		if _, seen := acked["brief"]; seen && there != (acked["brief"] == 1) {
			inFlight++
		}
		acked["brief"] = map[bool]int64{true: 1, false: 0}[there]
		ents, _ := os.ReadDir(filepath.Join(dir, "sets"))
		for _, de := range ents {
			if strings.Contains(de.Name(), ".tmp-") {
				t.Fatalf("run %d: Open left %s", run, de.Name())
			}
		}
		s.Close()
		if err := boards.Close(); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d kills; %d found a write done but not acknowledged; acknowledged %v", kills, inFlight, acked)
}
