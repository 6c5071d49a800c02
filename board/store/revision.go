package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tele/atomicfile"
)

// This file is a board's history on disk: every committed revision is its own immutable file,
// boards/<id>/<revision>.json, holding the board document of that revision. The newest file is the
// current board. See the package documentation for the commit and the invariants.

// KeepRevisions is how many of a board's newest revisions the store keeps at least; older ones are
// pruned as new ones are committed. The current revision is never pruned.
const KeepRevisions = 1000

// ErrRevisionNotFound is a revision a board never had, or one pruned from its history.
var ErrRevisionNotFound = errors.New("board: no such revision")

// Author is who wrote a revision. It is set by the path the write came through, never claimed by a
// client.
type Author string

const (
	AuthorBrowser Author = "browser" // any write over HTTP: create, PUT, restore
	AuthorPi      Author = "pi"      // the tele_board tool's put
	AuthorTele    Author = "tele"    // Tele itself: the teaching example, a board found without history
)

// Valid reports whether a is one of the authors above.
func (a Author) Valid() bool {
	return a == AuthorBrowser || a == AuthorPi || a == AuthorTele
}

// Revision is one row of a board's history: what GET /api/boards/:board/revisions lists.
type Revision struct {
	Revision     int64
	Author       Author
	UpdatedAt    time.Time
	Title        string
	RestoredFrom int64  // 0 when the revision is not a restore
	Proposal     string // the proposal this revision accepted; "" when none

	raw []byte // the JSON encoding, made once
}

// JSON returns the row's encoding, {"revision","author","updatedAt","title","restoredFrom"} with
// restoredFrom null when the revision is not a restore. Shared: do not modify.
func (r Revision) JSON() []byte {
	if r.raw != nil {
		return r.raw
	}
	return encodeRevision(r)
}

type revisionJSON struct {
	Revision     int64  `json:"revision"`
	Author       Author `json:"author"`
	UpdatedAt    string `json:"updatedAt"`
	Title        string `json:"title"`
	RestoredFrom *int64 `json:"restoredFrom"`
	Proposal     string `json:"proposal,omitempty"`
}

func encodeRevision(r Revision) []byte {
	data, err := json.Marshal(revisionJSON{r.Revision, r.Author, r.UpdatedAt.UTC().Format(TimeLayout), r.Title, nullable(r.RestoredFrom), r.Proposal})
	if err != nil { // cannot happen: strings and integers
		panic("board: cannot encode a revision: " + err.Error())
	}
	return data
}

// nullable is nil for 0, so that "restoredFrom" encodes as null when a revision is not a restore.
func nullable(rev int64) *int64 {
	if rev == 0 {
		return nil
	}
	return &rev
}

// row returns the history row of board b.
func (b Board) row() Revision {
	r := Revision{Revision: b.Revision, Author: b.Author, UpdatedAt: b.UpdatedAt, Title: b.Content.Title, RestoredFrom: b.RestoredFrom, Proposal: b.Proposal}
	r.raw = encodeRevision(r)
	return r
}

// revisionName is the file name of revision rev: its decimal number, one spelling per revision.
func revisionName(rev int64) string {
	return strconv.FormatInt(rev, 10) + ".json"
}

// parseRevisionName returns the revision a file name stands for, or false when the name is not one
// revisionName makes.
func parseRevisionName(name string) (int64, bool) {
	digits, ok := strings.CutSuffix(name, ".json")
	if !ok || digits == "" || digits[0] < '1' || digits[0] > '9' {
		return 0, false
	}
	rev, err := strconv.ParseInt(digits, 10, 64)
	return rev, err == nil && revisionName(rev) == name
}

// readRevisionFile reads and checks revision rev of board id, strictly: the document of that revision
// with its author.
func readRevisionFile(dir, id string, rev int64) (Board, error) {
	path := filepath.Join(dir, revisionName(rev))
	b, err := readBoardFile(path, id, false)
	if err != nil {
		return Board{}, err
	}
	if b.Revision != rev {
		return Board{}, fmt.Errorf("board file %s holds revision %d, not %d", path, b.Revision, rev)
	}
	return b, nil
}

// revisionDir lists the revisions kept in a board's directory, oldest first: the longest run of
// consecutive revisions that ends at the newest. Revisions older than a gap are what an interrupted
// prune left (a prune removes the oldest first), returned as stale. Temporary files and anything
// else are returned in other, by name.
type revisionDir struct {
	oldest, newest int64 // 0, 0 when the directory holds no revision
	stale          []int64
	rows           []int64         // the history index's files, by number (rowindex.go)
	sizes          map[int64]int64 // the size of each revision file
	temps, other   []string
}

func scanRevisionDir(dir string) (revisionDir, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return revisionDir{}, err
	}
	var rd revisionDir
	revs := make(map[int64]bool, len(ents))
	for _, de := range ents {
		name := de.Name()
		rev, ok := parseRevisionName(name)
		switch {
		case atomicfile.IsTemp(name):
			rd.temps = append(rd.temps, name)
		case ok && de.Type().IsRegular():
			revs[rev] = true
			rd.newest = max(rd.newest, rev)
			if fi, err := de.Info(); err == nil {
				if rd.sizes == nil {
					rd.sizes = make(map[int64]int64, len(ents))
				}
				rd.sizes[rev] = fi.Size()
			}
		case de.IsDir() && name == proposalsDir:
			// Open proposals (proposal.go), read when the board's proposals are first used.
		case de.Type().IsRegular() && isRowsName(name):
			n, _ := parseRowsName(name)
			rd.rows = append(rd.rows, n)
		default:
			rd.other = append(rd.other, name)
		}
	}
	if rd.newest == 0 {
		return rd, nil
	}
	rd.oldest = rd.newest
	for rd.oldest > 1 && revs[rd.oldest-1] {
		rd.oldest--
	}
	for rev := range revs {
		if rev < rd.oldest {
			rd.stale = append(rd.stale, rev)
		}
	}
	return rd, nil
}
