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
	"strings"
	"time"
	"unicode/utf8"

	"tele/atomicfile"
	"tele/board"
	"tele/strict"
)

// A proposal is a change the model offers instead of writing it (review mode, docs/api.md): a whole
// content against the revision it was made from. It lives in its board's directory until the musician
// accepts it (a new revision through the normal commit, naming the proposal) or rejects it (nothing
// written), or until the board has moved ProposalMaxAge revisions past its base (dropped with a note):
//
//	<dir>/boards/<id>/proposals/<proposal>.json  {"id","board","baseRevision","content","author","note","createdAt"}
//
// Each file is written once with atomicfile.Create (a crash leaves the whole file or none) and removed
// when the proposal closes; the board's deletion takes them with its directory. They are read at the
// board's first proposal call, under the commit lock, which also orders every change to them.

// Limits of proposals.
const (
	MaxOpenProposals  = 20
	ProposalMaxAge    = 50 // revisions past its base after which a proposal is dropped
	MaxNoteRunes      = 200
	proposalsDir      = "proposals"
	proposalIDLetters = 10
)

// Errors of proposals. Use errors.Is.
var (
	ErrProposalNotFound = errors.New("board: no such proposal")
	ErrTooManyProposals = errors.New("board: the board already has 20 open proposals; accept or reject one first")
	ErrBadNote          = errors.New("board: a proposal's note is one line of at most 200 characters")
	ErrProposalStale    = errors.New("board: the proposal's base revision is no longer kept or is too old")
	ErrBadBaseRevision  = errors.New("board: a proposal's base revision must be a kept revision of the board")
	errProposalDamaged  = errors.New("proposal file damaged")
)

// Proposal is one open proposal. Its Content is shared with the store: read only.
type Proposal struct {
	ID           string
	Board        string
	BaseRevision int64
	Content      board.Content
	Author       Author
	Note         string
	CreatedAt    time.Time // UTC, millisecond precision

	base *board.Content // the base revision's content when the store had it at hand (shared, read only)
}

type proposalFile struct {
	ID           string        `json:"id"`
	Board        string        `json:"board"`
	BaseRevision int64         `json:"baseRevision"`
	Content      board.Content `json:"content"`
	Author       Author        `json:"author"`
	Note         string        `json:"note"`
	CreatedAt    string        `json:"createdAt"`
}

type proposalFileIn struct {
	ID           string          `json:"id"`
	Board        string          `json:"board"`
	BaseRevision int64           `json:"baseRevision"`
	Content      json.RawMessage `json:"content"`
	Author       Author          `json:"author"`
	Note         string          `json:"note"`
	CreatedAt    string          `json:"createdAt"`
}

// JSON returns the proposal's encoding, as its file holds it and GET …/proposals/:id answers.
func (p Proposal) JSON() []byte {
	data, err := json.Marshal(proposalFile{p.ID, p.Board, p.BaseRevision, p.Content, p.Author, p.Note, p.CreatedAt.UTC().Format(TimeLayout)})
	if err != nil { // cannot happen: strings and integers
		panic("board: cannot encode a proposal: " + err.Error())
	}
	return data
}

// proposalSet is a board's open proposals, oldest first. It is guarded by the entry's commit lock.
type proposalSet struct {
	open []Proposal
}

func newProposalID() string { return strings.ToLower(rand.Text()[:proposalIDLetters]) }

// validProposalID reports whether id is a name newProposalID makes.
func validProposalID(id string) bool {
	if len(id) != proposalIDLetters {
		return false
	}
	for _, c := range []byte(id) {
		if (c < 'a' || c > 'z') && (c < '2' || c > '7') {
			return false
		}
	}
	return true
}

func proposalName(id string) string { return id + ".json" }

// checkNote refuses a note that is not one short line.
func checkNote(note string) error {
	if !utf8.ValidString(note) || utf8.RuneCountInString(note) > MaxNoteRunes || strings.ContainsAny(note, "\r\n\u2028\u2029") {
		return ErrBadNote
	}
	return nil
}

// proposalsOf returns board e's open proposals, reading them the first time and dropping the ones
// too old for the current revision. The caller holds e.mu.
func (s *Store) proposalsOf(id string, e *entry) *proposalSet {
	var accepted map[string]bool
	if e.props == nil {
		e.props = s.readProposals(id, e)
		if len(e.props.open) > 0 {
			accepted = s.acceptedProposals(id, e)
		}
	}
	cur := e.cur.Load()
	changed := false
	e.props.open = slices.DeleteFunc(e.props.open, func(p Proposal) bool {
		switch {
		case accepted[p.ID]:
			// Accepted, and its file's removal did not last (Accept does not wait for it).
			s.removeProposalFile(e, p.ID, true)
		case cur.Revision-p.BaseRevision >= ProposalMaxAge:
			s.log.Info("board: dropped a proposal: the board moved too far past its base",
				"board", id, "proposal", p.ID, "baseRevision", p.BaseRevision, "revision", cur.Revision)
			s.removeProposalFile(e, p.ID, true)
		default:
			return false
		}
		changed = true
		return true
	})
	if changed {
		s.proposalsChanged(id, e)
	}
	return e.props
}

// readProposals reads board e's proposal files. What cannot be read is said in a log line and left
// alone; leftover temporary files are removed.
func (s *Store) readProposals(id string, e *entry) *proposalSet {
	dir := filepath.Join(e.dir, proposalsDir)
	ents, err := os.ReadDir(dir)
	set := &proposalSet{}
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			s.log.Warn("board: cannot read a board's proposals", "path", dir, "err", unwrapPath(err))
		}
		return set
	}
	for _, de := range ents {
		name := de.Name()
		if atomicfile.IsTemp(name) {
			s.removeStray(filepath.Join(dir, name))
			continue
		}
		p, err := readProposalFile(filepath.Join(dir, name), id)
		if err != nil {
			s.log.Warn("board: ignoring an unreadable proposal", "path", filepath.Join(dir, name), "err", err)
			continue
		}
		set.open = append(set.open, p)
	}
	slices.SortFunc(set.open, func(a, b Proposal) int {
		return cmpTimeID(a.CreatedAt, a.ID, b.CreatedAt, b.ID)
	})
	return set
}

func cmpTimeID(at time.Time, aid string, bt time.Time, bid string) int {
	if c := at.Compare(bt); c != 0 {
		return c
	}
	return strings.Compare(aid, bid)
}

func readProposalFile(path, id string) (Proposal, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Proposal{}, unwrapPath(err)
	}
	var in proposalFileIn
	if err := strict.Decode(data, &in); err != nil {
		return Proposal{}, fmt.Errorf("%w: %v", errProposalDamaged, err)
	}
	if !validProposalID(in.ID) || filepath.Base(path) != proposalName(in.ID) || in.Board != id ||
		in.BaseRevision < 1 || !in.Author.Valid() || checkNote(in.Note) != nil {
		return Proposal{}, fmt.Errorf("%w: its fields do not match its name and board", errProposalDamaged)
	}
	t, err := time.Parse(time.RFC3339Nano, in.CreatedAt)
	if err != nil {
		return Proposal{}, fmt.Errorf("%w: createdAt %q", errProposalDamaged, in.CreatedAt)
	}
	c, err := board.ParseStored(in.Content)
	if err != nil {
		return Proposal{}, fmt.Errorf("%w: %v", errProposalDamaged, err)
	}
	return Proposal{ID: in.ID, Board: id, BaseRevision: in.BaseRevision, Content: c, Author: in.Author, Note: in.Note, CreatedAt: t.UTC()}, nil
}

// removeProposalFile removes a proposal's file, durably when sync is set.
func (s *Store) removeProposalFile(e *entry, pid string, sync bool) error {
	dir := filepath.Join(e.dir, proposalsDir)
	if err := os.Remove(filepath.Join(dir, proposalName(pid))); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return unwrapPath(err)
	}
	if !sync {
		return nil
	}
	return atomicfile.SyncDir(dir)
}

// acceptedProposals returns the proposals the newest ProposalMaxAge revisions of board e accepted: a
// proposal older than that is dropped anyway. An unreadable history counts as none accepted (said in
// a log line).
func (s *Store) acceptedProposals(id string, e *entry) map[string]bool {
	rows, _, err := s.revisionsOf(id, e, 0, ProposalMaxAge)
	if err != nil {
		s.log.Warn("board: cannot read a board's history to close its accepted proposals", "board", id, "err", err)
	}
	out := map[string]bool{}
	if cur := e.cur.Load(); cur.Proposal != "" {
		out[cur.Proposal] = true
	}
	for _, r := range rows {
		if r.Proposal != "" {
			out[r.Proposal] = true
		}
	}
	return out
}

// lockedBoard runs f under board id's commit lock once the store is open and the board exists.
func (s *Store) lockedBoard(id string, f func(e *entry) error) error {
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return ErrClosed
	}
	e := s.entry(id)
	if e == nil {
		return ErrNotFound
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.deleted {
		return ErrNotFound
	}
	return f(e)
}

// Propose stores content c as a proposal by author against revision base of board id, which must be
// a kept revision no older than ProposalMaxAge, with a one-line note. Nothing is committed. Errors:
// *ValidationError, ErrBadNote, ErrBadBaseRevision, ErrTooManyProposals, ErrNotFound, ErrClosed, or an
// I/O error (then nothing is stored).
func (s *Store) Propose(id string, base int64, c board.Content, author Author, note string) (Proposal, error) {
	if !author.Valid() {
		return Proposal{}, fmt.Errorf("board: invalid author %q", author)
	}
	if err := checkNote(note); err != nil {
		return Proposal{}, err
	}
	c, err := board.Storable(c)
	if err != nil {
		return Proposal{}, err
	}
	var p Proposal
	err = s.lockedBoard(id, func(e *entry) error {
		cur := e.cur.Load()
		if base < s.oldestOf(e) || base > cur.Revision || cur.Revision-base >= ProposalMaxAge {
			return fmt.Errorf("%w: board %q is at revision %d", ErrBadBaseRevision, id, cur.Revision)
		}
		set := s.proposalsOf(id, e)
		if len(set.open) >= MaxOpenProposals {
			return ErrTooManyProposals
		}
		p = Proposal{ID: newProposalID(), Board: id, BaseRevision: base, Content: c, Author: author, Note: note, CreatedAt: s.stamp()}
		if base == cur.Revision {
			p.base = &cur.Content // so that Accept need not read the base from disk
		}
		dir := filepath.Join(e.dir, proposalsDir)
		if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("cannot store a proposal for board %q: %v", id, unwrapPath(err))
		} else if err == nil {
			if err := atomicfile.SyncDir(e.dir); err != nil {
				return fmt.Errorf("cannot store a proposal for board %q: %v", id, err)
			}
		}
		path := filepath.Join(dir, proposalName(p.ID))
		if err := atomicfile.Create(path, append(p.JSON(), '\n'), 0o600); err != nil {
			if errors.As(err, new(*atomicfile.NotDurableError)) {
				_ = s.removeProposalFile(e, p.ID, true)
			}
			return fmt.Errorf("cannot store a proposal for board %q: %w", id, err)
		}
		set.open = append(set.open, p)
		s.proposalsChanged(id, e)
		return nil
	})
	return p, err
}

// Proposals returns board id's open proposals, newest first. Errors: ErrNotFound, ErrClosed.
func (s *Store) Proposals(id string) ([]Proposal, error) {
	var out []Proposal
	err := s.lockedBoard(id, func(e *entry) error {
		out = newestFirst(s.proposalsOf(id, e).open)
		return nil
	})
	return out, err
}

func newestFirst(open []Proposal) []Proposal {
	out := make([]Proposal, len(open))
	for i, p := range open {
		out[len(open)-1-i] = p
	}
	return out
}

// proposalsChanged hands board e's open proposals, newest first, to Options.OnProposals. The caller
// holds e.mu, so lists reach it in the order they changed.
func (s *Store) proposalsChanged(id string, e *entry) {
	if s.opts.OnProposals != nil {
		s.opts.OnProposals(id, newestFirst(e.props.open))
	}
}

// GetProposal returns open proposal pid of board id. Errors: ErrProposalNotFound, ErrNotFound, ErrClosed.
func (s *Store) GetProposal(id, pid string) (Proposal, error) {
	var p Proposal
	err := s.lockedBoard(id, func(e *entry) error {
		i := s.proposalIndex(id, e, pid)
		if i < 0 {
			return ErrProposalNotFound
		}
		p = e.props.open[i]
		return nil
	})
	return p, err
}

func (s *Store) proposalIndex(id string, e *entry, pid string) int {
	return slices.IndexFunc(s.proposalsOf(id, e).open, func(p Proposal) bool { return p.ID == pid })
}

// Reject closes proposal pid of board id without writing anything. Errors: ErrProposalNotFound,
// ErrNotFound, ErrClosed, or an I/O error (then the proposal stays open).
func (s *Store) Reject(id, pid string) error {
	return s.lockedBoard(id, func(e *entry) error {
		i := s.proposalIndex(id, e, pid)
		if i < 0 {
			return ErrProposalNotFound
		}
		if err := s.removeProposalFile(e, pid, true); err != nil {
			return fmt.Errorf("cannot reject proposal %q of board %q: %w", pid, id, err)
		}
		e.props.open = slices.Delete(e.props.open, i, i+1)
		s.proposalsChanged(id, e)
		return nil
	})
}

// Accept commits what sel takes of proposal pid as the next revision of board id, which must be at
// expectedRevision: a revision by the proposal's author naming the proposal, through the same commit as
// Put. The proposal closes with it (a crash between the two is seen at the next read: the current
// revisions name it). Errors as Put, plus ErrProposalNotFound, ErrProposalStale, *SelectionError and
// *ProposalConflictError; a failed Accept changes nothing.
func (s *Store) Accept(id, pid string, expectedRevision int64, sel board.Selection) (Board, error) {
	return s.writeAt(id, expectedRevision, func(e *entry, cur *Board) (Board, error) {
		i := s.proposalIndex(id, e, pid)
		if i < 0 {
			return Board{}, ErrProposalNotFound
		}
		p := e.props.open[i]
		var base board.Content
		switch {
		case p.BaseRevision == cur.Revision:
			base = cur.Content
		case p.base != nil:
			base = *p.base
		default:
			b, err := s.revisionOf(id, e, p.BaseRevision)
			if errors.Is(err, ErrRevisionNotFound) {
				return Board{}, ErrProposalStale
			} else if err != nil {
				return Board{}, err
			}
			base = b.Content
		}
		merged, err := board.MergeProposal(base, cur.Content, p.Content, sel)
		if err != nil {
			return Board{}, err
		}
		c, err := board.Storable(merged)
		if err != nil {
			return Board{}, err
		}
		b, err := s.commit(e, Board{ID: id, Revision: cur.Revision + 1, Content: c, UpdatedAt: s.stamp(), Author: p.Author, Proposal: pid})
		if err != nil {
			return committed(id, b, err)
		}
		// Not synced: the revision names the proposal, so a removal that a crash undoes is done again at
		// the next read (acceptedProposals), and accept costs the same fsyncs as a Put.
		if err := s.removeProposalFile(e, pid, false); err != nil {
			s.log.Warn("board: cannot remove an accepted proposal's file; the next read removes it", "board", id, "proposal", pid, "err", err)
		}
		e.props.open = slices.Delete(e.props.open, i, i+1)
		s.proposalsChanged(id, e)
		return b, nil
	})
}
