//go:build unix

package store

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// TestHistoryReadsHoldNoLock: while the history is read from the files (a first listing of a board
// without an index, and a revision read), the board's commits go on. One revision file is replaced by a
// FIFO, so that the read blocks until the test writes the file's bytes into it: a Put made meanwhile
// must commit. Security review 2026-12-03 I1: the first listing held the lock commits take, for 7.3 s.
func TestHistoryReadsHoldNoLock(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, Options{})
	s.Create("song", content("take 1"), AuthorBrowser)
	for rev := int64(1); rev < 8; rev++ {
		if _, err := s.Put("song", rev, content("take"), AuthorPi); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	matches, _ := filepath.Glob(filepath.Join(dir, "boards", "song", rowsPrefix+"*"))
	for _, m := range matches {
		os.Remove(m) // as a board of an earlier Tele: the listing reads the files
	}
	s = openT(t, dir, Options{})
	for _, read := range []struct {
		name string
		do   func() error
	}{
		{"first listing", func() error { _, _, err := s.Revisions("song", 0, 50); return err }},
		{"revision read", func() error { _, err := s.GetRevision("song", 5); return err }},
	} {
		path := revFile(dir, "song", 5)
		data := readFile(t, path)
		fifo := path + ".fifo"
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(fifo, path); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- read.do() }()
		// The FIFO opens for writing (without blocking) only once the reader has it open: from then on the
		// reader is inside its read, waiting for the bytes.
		var w *os.File
		for w == nil {
			f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
			switch {
			case err == nil:
				w = f
			case errors.Is(err, syscall.ENXIO):
				runtime.Gosched()
			default:
				t.Fatal(err)
			}
		}
		cur, _ := s.Get("song")
		put := make(chan error, 1)
		go func() { _, err := s.Put("song", cur.Revision, content("meanwhile"), AuthorBrowser); put <- err }()
		select {
		case err := <-put:
			if err != nil {
				t.Fatalf("%s: the Put meanwhile: %v", read.name, err)
			}
		case <-time.After(20 * time.Second):
			w.Write(data) // let the reader, and so the Put, finish before the test ends
			w.Close()
			<-done
			<-put
			t.Fatalf("%s: a Put waited 20 s for a history read", read.name)
		}
		if _, err := w.Write(data); err != nil { // unblocks the reader
			t.Fatal(err)
		}
		w.Close()
		if err := <-done; err != nil {
			t.Fatalf("%s: %v", read.name, err)
		}
		os.Remove(path)
		os.WriteFile(path, data, 0o600)
	}
}
