package store

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tele/atomicfile"
	"tele/strict"
)

// A board's history rows (what GET …/revisions lists) are also kept in an index beside its revision
// files, so that the first listing after a start reads a few small files instead of every revision
// (1,000 files of up to 64 KiB, each validated in full). The index is a cache: every commit appends
// its row, without an fsync, to boards/<id>/rows-<n>.jsonl, which holds the rows of revisions
// n*rowsPerFile+1 … (n+1)*rowsPerFile, one JSON line each. A row missing from it (a crash before the
// append, a torn or damaged line, a file lost) is read from its revision file instead, so the index
// never decides what the history holds: the revision files do. Whole files are removed once the
// prune has removed every revision they cover.

// rowsPerFile is how many revisions one index file covers.
const rowsPerFile = 256

const (
	rowsPrefix = "rows-"
	rowsSuffix = ".jsonl"
)

// rowsFileOf returns the number of the index file that holds revision rev's row.
func rowsFileOf(rev int64) int64 { return (rev - 1) / rowsPerFile }

// rowsName is the name of index file n.
func rowsName(n int64) string { return rowsPrefix + strconv.FormatInt(n, 10) + rowsSuffix }

// parseRowsName returns the number of an index file's name, or false.
func parseRowsName(name string) (int64, bool) {
	digits, ok := strings.CutPrefix(name, rowsPrefix)
	if !ok {
		return 0, false
	}
	digits, ok = strings.CutSuffix(digits, rowsSuffix)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	return n, err == nil && n >= 0 && rowsName(n) == name
}

func isRowsName(name string) bool {
	_, ok := parseRowsName(name)
	return ok
}

// appendRow adds row r of a revision just committed to board directory dir's index (best effort: a
// row that is not there is read from its revision file). The caller holds e.hist.mu.
func (s *Store) appendRow(dir string, r Revision) {
	path := filepath.Join(dir, rowsName(rowsFileOf(r.Revision)))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err == nil {
		line := append(append(make([]byte, 0, len(r.JSON())+1), r.JSON()...), '\n')
		_, err = f.Write(line) // one write: a crash tears at most this line, which is then not read
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		s.log.Warn("board: cannot add to a board's history index; the history is read from its files", "path", path, "err", unwrapPath(err))
	}
}

// removeRowsFilesBefore removes the index files of board directory dir that cover only revisions older
// than oldest. The caller holds e.hist.mu (or is Open).
func (s *Store) removeRowsFilesBefore(dir string, oldest int64, files []int64) {
	for _, n := range files {
		if (n+1)*rowsPerFile < oldest {
			path := filepath.Join(dir, rowsName(n))
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				s.log.Warn("board: cannot remove an old history index file", "path", path, "err", unwrapPath(err))
			}
		}
	}
}

// rowIn is an index line as read back, checked strictly.
type rowIn struct {
	Revision     int64  `json:"revision"`
	Author       Author `json:"author"`
	UpdatedAt    string `json:"updatedAt"`
	Title        string `json:"title"`
	RestoredFrom *int64 `json:"restoredFrom"`
	Proposal     string `json:"proposal"`
}

// parseRow reads one index line; false when it is not a row this store wrote.
func parseRow(line []byte) (Revision, bool) {
	var in rowIn
	if err := strict.Decode(line, &in); err != nil || in.Revision < 1 || !in.Author.Valid() {
		return Revision{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, in.UpdatedAt)
	if err != nil {
		return Revision{}, false
	}
	r := Revision{Revision: in.Revision, Author: in.Author, UpdatedAt: t.UTC(), Title: in.Title, Proposal: in.Proposal}
	if in.RestoredFrom != nil {
		if *in.RestoredFrom < 1 || *in.RestoredFrom >= in.Revision {
			return Revision{}, false
		}
		r.RestoredFrom = *in.RestoredFrom
	}
	r.raw = encodeRevision(r)
	return r, true
}

// readRows returns the rows of revisions lo..hi of board e (found as id), oldest first, from the index
// and, for rows it lacks, from the revision files. It takes no lock: a revision pruned meanwhile is
// left as a zero row (Revision 0), which the caller drops, as it is older than the oldest kept.
func (s *Store) readRows(id string, e *entry, lo, hi int64) (rows []Revision, repair map[int64]bool, err error) {
	rows = make([]Revision, hi-lo+1)
	for n := rowsFileOf(lo); n <= rowsFileOf(hi); n++ {
		data, err := os.ReadFile(filepath.Join(e.dir, rowsName(n)))
		if err != nil {
			continue // no index file: every row is read from its revision
		}
		for line := range bytes.Lines(data) {
			if r, ok := parseRow(bytes.TrimSuffix(line, []byte("\n"))); ok && r.Revision >= lo && r.Revision <= hi {
				rows[r.Revision-lo] = r
			}
		}
	}
	repair = map[int64]bool{}
	for i := range rows {
		if rows[i].Revision != 0 {
			continue
		}
		rev := lo + int64(i)
		b, err := s.readKept(id, e, rev)
		if errors.Is(err, fs.ErrNotExist) && rev < s.oldestOf(e) {
			continue // pruned while we read
		}
		if err != nil {
			return nil, nil, err
		}
		rows[i] = b.row()
		repair[rowsFileOf(rev)] = true
	}
	return rows, repair, nil
}

// oldestOf is board e's oldest kept revision now.
func (s *Store) oldestOf(e *entry) int64 {
	e.hist.mu.Lock()
	defer e.hist.mu.Unlock()
	return e.hist.oldest
}

// loadRows makes e's rows cover its whole history: the rows older than those in memory are read
// (readRows) without holding e.hist.mu, so commits go on meanwhile, and then joined to them.
func (s *Store) loadRows(id string, e *entry) error {
	e.hist.mu.Lock()
	lo, hi := e.hist.oldest, e.hist.base-1
	e.hist.mu.Unlock()
	if hi < lo {
		return nil
	}
	older, repair, err := s.readRows(id, e, lo, hi)
	if err != nil {
		return err
	}
	e.hist.mu.Lock()
	defer e.hist.mu.Unlock()
	if e.hist.base <= e.hist.oldest {
		return nil // complete: another listing joined them first, or the prune passed them
	}
	if skip := e.hist.oldest - lo; skip > 0 {
		older = older[min(skip, int64(len(older))):]
	}
	for _, r := range older {
		if r.Revision == 0 {
			return fmt.Errorf("board %q: revision missing from its history", id)
		}
	}
	e.hist.rows = append(older, e.hist.rows...)
	e.hist.base = e.hist.oldest
	s.rewriteRows(id, e, repair)
	return nil
}

// rewriteRows writes index files n of board e again, whole, from its rows (complete now), so the next
// start finds in them what had to be read from revision files (a board of an earlier Tele has no
// index). The caller holds e.hist.mu, under which commits append to the index, so none is lost.
func (s *Store) rewriteRows(id string, e *entry, files map[int64]bool) {
	for n := range files {
		var buf []byte
		for _, r := range e.hist.rows {
			if rowsFileOf(r.Revision) == n {
				buf = append(append(buf, r.JSON()...), '\n')
			}
		}
		if buf == nil {
			continue // pruned meanwhile
		}
		if err := atomicfile.Replace(filepath.Join(e.dir, rowsName(n)), buf, 0o600); err != nil {
			s.log.Warn("board: cannot write a board's history index; the history is read from its files", "board", id, "err", err)
		}
	}
}
