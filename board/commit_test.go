package board

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"tele/board/datadirtest"
)

// Commits under failure and contention: a failed step changes nothing, writers race, Close waits.

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
			before := datadirtest.Snapshot(t, dir)
			commits = 0
			failed := failAt(1)
			_, err := s.Put("a", 1, content("Two"), AuthorBrowser)
			s.hook = nil
			if *failed != (step != "rename") || (*failed && !errors.Is(err, boom)) || (!*failed && err != nil) {
				t.Fatalf("Put = %v (injected: %v)", err, *failed)
			}
			if *failed {
				datadirtest.Same(t, "a failed Put", before, datadirtest.Snapshot(t, dir))
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
				before := datadirtest.Snapshot(t, dir)
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
				datadirtest.Same(t, "a failed Create", before, datadirtest.Snapshot(t, dir))
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
