package store

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
)

// Commits under contention: writers of one board race, writers of several boards run together.
// Commits whose system calls fail are in faults_linux_test.go.

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
