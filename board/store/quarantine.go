package store

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"tele/atomicfile"
	"tele/board"
	"tele/strict"
)

// One board that cannot be read never stops a start: Open moves what it cannot read (a board, one of
// its revisions, a damaged capability file) into the data directory's quarantine folder, never deletes
// it, and serves every other board. Each thing set aside is a folder of its own,
// quarantine/<id>-<what>-<time>-<random>, holding the moved files (board/ for a board's directory,
// capability for its capability file, <revision>.json for a revision) and a note
// (note.json) saying what it was and why. The move comes first and the note after it, so a crash in
// between leaves a folder without a note, which is listed as such; nothing is ever in two places.

// QuarantineDir is the name of the folder, in the data directory, that holds what was set aside.
const QuarantineDir = "quarantine"

// What a SetAside entry is.
const (
	SetAsideBoard      = "board"      // the whole board: its directory and capability file
	SetAsideRevision   = "revision"   // one revision file; the board serves its newest readable revision
	SetAsideCapability = "capability" // a damaged capability file; the board got a new one
)

// SetAside is one thing the store set aside in the quarantine folder.
type SetAside struct {
	Board    string    // the board's id
	What     string    // SetAsideBoard, SetAsideRevision or SetAsideCapability
	Revision int64     // the revision, for SetAsideRevision
	Reason   string    // why, in one line
	At       time.Time // when (zero when the note is missing)
	Path     string    // the folder that holds it now
}

// setAsideNote is the note.json of a quarantine folder.
type setAsideNote struct {
	Board    string `json:"board"`
	What     string `json:"what"`
	Revision int64  `json:"revision,omitempty"`
	Reason   string `json:"reason"`
	At       string `json:"at"`
}

const noteName = "note.json"

// move is one file or directory to set aside, and its name in the quarantine folder.
type move struct{ from, name string }

// setAside moves files or directories of board id into a new quarantine folder with a note saying
// why. One that does not exist is skipped.
func (s *Store) setAside(id, what string, rev int64, reason error, moves ...move) error {
	qdir := filepath.Join(s.dir, QuarantineDir)
	if err := os.Mkdir(qdir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("cannot create %s: %v", qdir, unwrapPath(err))
	}
	at := s.stamp()
	tag := what
	if what == SetAsideRevision {
		tag += strconv.FormatInt(rev, 10)
	}
	folder := filepath.Join(qdir, id+"-"+tag+"-"+at.Format("20060102T150405Z")+"-"+strings.ToLower(rand.Text()[:6]))
	if err := os.Mkdir(folder, 0o700); err != nil {
		return fmt.Errorf("cannot create %s: %v", folder, unwrapPath(err))
	}
	if err := atomicfile.SyncDir(qdir); err != nil {
		return fmt.Errorf("cannot sync %s: %v", qdir, err)
	}
	for _, m := range moves {
		p := m.from
		if err := os.Rename(p, filepath.Join(folder, m.name)); errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return fmt.Errorf("cannot move %s to %s: %v", p, folder, unwrapPath(err))
		}
		if err := atomicfile.SyncDir(filepath.Dir(p)); err != nil {
			return fmt.Errorf("cannot sync %s: %v", filepath.Dir(p), err)
		}
	}
	note := setAsideNote{Board: id, What: what, Revision: rev, Reason: oneLine(reason.Error()), At: at.Format(TimeLayout)}
	data, _ := json.Marshal(note) // strings and an integer
	if err := atomicfile.Create(filepath.Join(folder, noteName), append(data, '\n'), 0o600); err != nil {
		s.log.Warn("board: cannot write the note of something set aside", "path", folder, "err", err)
	}
	return nil
}

// oneLine keeps a reason on one line, without control characters: it is printed to a terminal.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)), " ")
}

// ReadSetAside lists what the store has set aside in data directory dir, oldest first, without taking
// the lock (for `tele board check`, which works while a server runs). A folder whose note is missing
// or damaged is listed with a reason saying so.
func ReadSetAside(dir string) ([]SetAside, error) {
	qdir := filepath.Join(dir, QuarantineDir)
	ents, err := os.ReadDir(qdir)
	if errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("data directory %s: %w", dir, unwrapPath(err))
		}
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", qdir, unwrapPath(err))
	}
	var out []SetAside
	for _, de := range ents {
		if !de.IsDir() {
			continue
		}
		folder := filepath.Join(qdir, de.Name())
		sa := SetAside{Path: folder, Board: "?"}
		data, err := os.ReadFile(filepath.Join(folder, noteName))
		var note setAsideNote
		if err == nil {
			err = strict.Decode(data, &note)
		}
		if err != nil {
			sa.Reason = "its note is missing or damaged (" + oneLine(unwrapPath(err).Error()) + ")"
			out = append(out, sa)
			continue
		}
		sa.What, sa.Revision, sa.Reason = note.What, note.Revision, oneLine(note.Reason)
		if board.ValidID(note.Board) {
			sa.Board = note.Board
		}
		if sa.What != SetAsideRevision && sa.What != SetAsideCapability {
			sa.What = SetAsideBoard
		}
		if t, err := time.Parse(time.RFC3339Nano, note.At); err == nil {
			sa.At = t.UTC()
		}
		out = append(out, sa)
	}
	slices.SortStableFunc(out, func(a, b SetAside) int { return a.At.Compare(b.At) })
	return out, nil
}

// SetAsideList returns what is set aside in the data directory's quarantine folder, as Open found it
// and as it set aside, oldest first. Read only.
func (s *Store) SetAsideList() []SetAside {
	return s.setAsideList
}

// reportSetAside reads the quarantine folder after load and says in one line what is in it.
func (s *Store) reportSetAside() {
	list, err := ReadSetAside(s.dir)
	if err != nil {
		s.log.Warn("board: cannot list what is set aside", "err", err)
	}
	s.setAsideList = list
	if len(list) == 0 {
		return
	}
	names := make([]string, len(list))
	for i, sa := range list {
		names[i] = sa.Board
		if sa.What == SetAsideRevision {
			names[i] += " revision " + strconv.FormatInt(sa.Revision, 10)
		} else if sa.What == SetAsideCapability {
			names[i] += " capability"
		}
	}
	s.log.Warn("board: some boards could not be read and are set aside; every other board serves (tele board check says why)",
		"count", len(list), "setAside", strings.Join(names, ", "), "folder", filepath.Join(s.dir, QuarantineDir))
}
