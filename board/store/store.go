package store

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tele/board"
)

// Errors of the store. Use errors.Is (they may be wrapped with detail).
var (
	ErrNotFound      = errors.New("board: no such board")
	ErrExists        = errors.New("board: a board with this id already exists")
	ErrBadCapability = errors.New("board: the capability does not match the board")
	ErrInvalidID     = errors.New("board: invalid board id: want 1–64 letters, digits, _ or -, starting with a letter or digit")
	ErrClosed        = errors.New("board: the store is closed")
)

// ConflictError is a write against a revision that is no longer current.
type ConflictError struct {
	Current int64 // the board's current revision
}

func (e *ConflictError) Error() string {
	return "board: revision conflict: the board is at revision " + strconv.FormatInt(e.Current, 10)
}

// Board is one revision of a board. Its Content is shared with the store: read only.
type Board struct {
	ID           string
	Revision     int64
	Content      board.Content
	UpdatedAt    time.Time // UTC, millisecond precision
	Author       Author    // who wrote this revision
	RestoredFrom int64     // the revision a restore brought back; 0 when this revision is not a restore
	Proposal     string    // the proposal (proposal.go) this revision accepted; "" when none

	raw []byte // the JSON encoding, made once per commit
}

// JSON returns the board's encoding, {"id","revision","content","updatedAt","author","restoredFrom"}
// with updatedAt in RFC 3339 UTC and restoredFrom null unless the revision is a restore, without a
// trailing newline. It is also the revision's file, with a newline. For boards from the store it is
// made once per commit and shared: do not modify it.
func (b Board) JSON() []byte {
	if b.raw != nil {
		return b.raw
	}
	return encodeBoard(b)
}

// MarshalJSON makes json.Marshal of a Board produce JSON().
func (b Board) MarshalJSON() ([]byte, error) { return b.JSON(), nil }

// boardFile is the JSON shape of a Board.
type boardFile struct {
	ID           string        `json:"id"`
	Revision     int64         `json:"revision"`
	Content      board.Content `json:"content"`
	UpdatedAt    string        `json:"updatedAt"`
	Author       Author        `json:"author"`
	RestoredFrom *int64        `json:"restoredFrom"`
	Proposal     string        `json:"proposal,omitempty"`
}

// boardFileIn is boardFile as read back, checked strictly. A board file of the previous version of
// Tele (boards/<id>.json) has neither author nor restoredFrom.
type boardFileIn struct {
	ID           string          `json:"id"`
	Revision     int64           `json:"revision"`
	Content      json.RawMessage `json:"content"`
	UpdatedAt    string          `json:"updatedAt"`
	Author       *string         `json:"author"`
	RestoredFrom *int64          `json:"restoredFrom"`
	Proposal     *string         `json:"proposal"`
}

// TimeLayout is how a board file and the API write a time: UTC, milliseconds.
const TimeLayout = "2006-01-02T15:04:05.000Z07:00"

func encodeBoard(b Board) []byte {
	data, err := json.Marshal(boardFile{b.ID, b.Revision, b.Content, b.UpdatedAt.UTC().Format(TimeLayout), b.Author, nullable(b.RestoredFrom), b.Proposal})
	if err != nil { // cannot happen: Content holds only strings, ints and slices of them
		panic("board: cannot encode a board: " + err.Error())
	}
	return data
}

// Summary is a row of List.
type Summary struct {
	ID        string
	Title     string
	Revision  int64
	UpdatedAt time.Time
}

// Options configure a Store.
type Options struct {
	// OnProposals runs, under the board's commit lock, after its list of open proposals changed durably
	// (proposal.go), with the list now, newest first. It must not block.
	OnProposals func(board string, open []Proposal)
	// OnCommit runs after a commit is durable, inside the board's commit lock, so events for one board
	// are published in revision order. It must not block (the sse hub never blocks). It also runs for
	// revision 1, when a board is created.
	OnCommit func(Board)
	// Logger receives the store's notes (stray files removed, capability files recreated). Nil means
	// slog.Default(). Capabilities are never logged.
	Logger *slog.Logger
}

// Store owns a data directory (see the package documentation). Its methods are safe for concurrent use.
type Store struct {
	dir       string
	boardsDir string
	capsDir   string
	opts      Options
	log       *slog.Logger
	lock      *dirLock

	// closeMu is held shared by every write for its whole length and exclusively by Close, which so
	// waits for in-flight writes. closed is guarded by it.
	closeMu sync.RWMutex
	closed  bool

	setAsideList []SetAside // what the quarantine folder held after Open; read only

	// The quota (quota.go) and what counts against it: bytes of revision files in all.
	maxBoards, maxBytes, bytes atomic.Int64

	createMu sync.Mutex // serialises creations (rare): the id check and both files
	mu       sync.RWMutex
	boards   map[string]*entry

	claims claimBook // unused claim codes (claim.go), in memory only
}

// entry is one board in memory.
type entry struct {
	mu         sync.Mutex // the commit lock
	cur        atomic.Pointer[Board]
	capability atomic.Pointer[string] // replaced by Rotate; read with key
	dir        string                 // boards/<id>: one file per kept revision
	hist       history
	deleted    bool         // guarded by mu: Delete removed the board; writes find it gone
	props      *proposalSet // guarded by mu: the open proposals, read from disk at first use (proposal.go)
}

// Open opens the data directory dir, creating it (mode 0700) when it does not exist, takes its lock, and
// loads every board. An existing path that is not a writable directory is an error and nothing is
// created. When another store owns dir the error is a *LockedError. What cannot be read (a board file
// that does not parse or breaks the schema, a damaged capability file, a board whose id differs only in
// case from another's) is set aside in the quarantine folder (quarantine.go), said in one log line, and
// every other board serves; leftover temporary files from an interrupted commit are removed.
func Open(dir string, opts Options) (*Store, error) {
	if dir == "" {
		return nil, errors.New("board: no data directory given")
	}
	dir = filepath.Clean(dir)
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	lock, err := takeDir(dir)
	if err != nil {
		return nil, err
	}
	s := &Store{
		dir:       dir,
		boardsDir: filepath.Join(dir, "boards"),
		capsDir:   filepath.Join(dir, "caps"),
		opts:      opts,
		log:       log,
		lock:      lock,
		boards:    make(map[string]*entry),
	}
	s.maxBoards.Store(DefaultMaxBoards)
	s.maxBytes.Store(DefaultMaxBytes)
	if err := s.SetOwner(os.Getpid(), 0); err != nil {
		s.lock.release()
		return nil, err
	}
	if err := s.load(); err != nil {
		s.lock.release()
		return nil, err
	}
	s.reportSetAside()
	return s, nil
}

// unwrapPath drops the *fs.PathError wrapper, whose path the caller's message already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// SetOwner records pid and port in the lock file, for the *LockedError another Open will report.
func (s *Store) SetOwner(pid, port int) error {
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return ErrClosed
	}
	if err := s.lock.setOwner(pid, port); err != nil {
		return fmt.Errorf("cannot write the lock file of %s: %v", s.dir, unwrapPath(err))
	}
	return nil
}

// Close waits for in-flight writes to finish, then releases the directory. Later writes fail with
// ErrClosed; reads keep answering from memory.
func (s *Store) Close() error {
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.lock.release()
}

// readCapabilityFile reads a capability and checks its form.
func readCapabilityFile(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	c := string(bytes.TrimSpace(data))
	if !ValidCapability(c) {
		return "", fmt.Errorf("capability file %s is damaged: want 32 bytes in base64url", path)
	}
	return c, nil
}

// NewCapability makes a write capability: 32 random bytes in base64url. Sets have theirs of this form too
// (package setlist), so one rule makes and checks both.
func NewCapability() string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// ValidCapability tells whether c has the form NewCapability makes.
func ValidCapability(c string) bool {
	b, err := base64.RawURLEncoding.Strict().DecodeString(c)
	return err == nil && len(b) == 32
}

// newID returns a short random board id: 10 of [a-z2-7], about 50 bits.
func newID() string {
	return strings.ToLower(rand.Text()[:10])
}

// ReadCapability returns the capability of board id in data directory dir without taking the lock (for
// `tele board link`): it only reads, and works while a server owns the directory. A board that does not
// exist is ErrNotFound; a missing data directory is an fs.ErrNotExist error naming it.
func ReadCapability(dir, id string) (string, error) {
	if !board.ValidID(id) {
		return "", fmt.Errorf("%w %q", ErrInvalidID, id)
	}
	if _, err := os.Stat(dir); err != nil {
		return "", fmt.Errorf("data directory %s: %w", dir, unwrapPath(err))
	}
	if err := boardExists(dir, id); err != nil {
		return "", err
	}
	caps := filepath.Join(dir, "caps")
	names, err := exactNames(caps, id)
	if err != nil {
		return "", fmt.Errorf("cannot read the capability of board %q: %v", id, unwrapPath(err))
	}
	c, err := readCapabilityFile(filepath.Join(caps, id))
	if !names[id] || errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("board %q in %s has no capability file yet: start tele serve once to make one", id, dir)
	}
	if err != nil {
		return "", fmt.Errorf("cannot read the capability of board %q: %v", id, unwrapPath(err))
	}
	return c, nil
}

// Taken reports whether a new board could not take id: a board has it, or one equal to it ignoring case.
func (s *Store) Taken(id string) bool {
	return s.entry(id) != nil || s.caseTwin(id) != ""
}

// caseTwin returns the id of a board whose id equals id ignoring case but is not id, or "". The caller
// holds createMu or is Open.
func (s *Store) caseTwin(id string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for other := range s.boards {
		if other != id && strings.EqualFold(other, id) {
			return other
		}
	}
	return ""
}

func (s *Store) entry(id string) *entry {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.boards[id]
}

// Get returns the current revision of board id, or ErrNotFound.
func (s *Store) Get(id string) (Board, error) {
	e := s.entry(id)
	if e == nil {
		return Board{}, ErrNotFound
	}
	return *e.cur.Load(), nil
}

// List returns a summary of every board, sorted by id.
func (s *Store) List() []Summary {
	s.mu.RLock()
	out := make([]Summary, 0, len(s.boards))
	for _, e := range s.boards {
		b := e.cur.Load()
		out = append(out, Summary{ID: b.ID, Title: b.Content.Title, Revision: b.Revision, UpdatedAt: b.UpdatedAt})
	}
	s.mu.RUnlock()
	slices.SortFunc(out, func(a, b Summary) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// Capability returns the write capability of board id, or ErrNotFound. Never log it.
func (s *Store) Capability(id string) (string, error) {
	e := s.entry(id)
	if e == nil {
		return "", ErrNotFound
	}
	return e.key(), nil
}

// Instance is one board under its id: a board deleted and then made again under the same id is
// another instance. Instances compare with ==; the zero Instance is no board.
type Instance struct{ e *entry }

// Instance returns board id's instance now, or ErrNotFound. A rotated capability or a new revision
// keeps the instance.
func (s *Store) Instance(id string) (Instance, error) {
	e := s.entry(id)
	if e == nil {
		return Instance{}, ErrNotFound
	}
	return Instance{e}, nil
}

// Authorize checks capability against board id's, in constant time: nil, ErrNotFound or
// ErrBadCapability.
func (s *Store) Authorize(id, capability string) error {
	e := s.entry(id)
	if e == nil {
		return ErrNotFound
	}
	if subtle.ConstantTimeCompare([]byte(e.key()), []byte(capability)) != 1 {
		return ErrBadCapability
	}
	return nil
}

// Create makes board id (a random id when id is "") at revision 1 with content c, written by author,
// and returns it with its capability. The content is validated (*ValidationError) and its chords stored
// in the catalogue's spelling; an existing id, or one equal to it ignoring case, is ErrExists.
func (s *Store) Create(id string, c board.Content, author Author) (Board, string, error) {
	made, err := s.CreateAll([]NewBoard{{ID: id, Content: c}}, author)
	if err != nil {
		return Board{}, "", err
	}
	return made[0].Board, made[0].Capability, nil
}

// NewBoard is one board for CreateAll to make: ID "" asks for a random one.
type NewBoard struct {
	ID      string
	Content board.Content
}

// Made is a board CreateAll made, with its capability.
type Made struct {
	Board      Board
	Capability string
}

// CreateAll makes every board of items, written by author, or none: everything is checked first (every
// id, every content, the quota), under the lock every creation takes, so a concurrent creation cannot
// take an id in between; a failure while writing takes back the boards already written. Errors as
// Create's, wrapped with the id they are about (ErrExists also for two items whose ids are equal
// ignoring case), and *QuotaError.
func (s *Store) CreateAll(items []NewBoard, author Author) ([]Made, error) {
	if !author.Valid() {
		return nil, fmt.Errorf("board: invalid author %q", author)
	}
	contents := make([]board.Content, len(items))
	for i, it := range items {
		if it.ID != "" && !board.ValidID(it.ID) {
			return nil, fmt.Errorf("%w %q", ErrInvalidID, it.ID)
		}
		c, err := board.Storable(it.Content)
		if err != nil {
			return nil, err
		}
		contents[i] = c
	}
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return nil, ErrClosed
	}
	s.createMu.Lock()
	defer s.createMu.Unlock()
	ids := make([]string, len(items))
	taken := make(map[string]bool, len(items)) // the ids of this call, in lower case
	for i, it := range items {
		id := it.ID
		if id == "" {
			for id = newID(); s.entry(id) != nil || s.caseTwin(id) != "" || taken[id]; id = newID() {
			}
		} else if s.entry(id) != nil || s.caseTwin(id) != "" || taken[strings.ToLower(id)] {
			// Unique ignoring case: on macOS and Windows "Song" and "song" name the same files.
			return nil, fmt.Errorf("%w: %q", ErrExists, id)
		}
		taken[strings.ToLower(id)] = true
		ids[i] = id
	}
	if err := s.checkQuota(len(items), contents); err != nil {
		return nil, err
	}
	made, entries, err := s.makeBoards(ids, contents, author)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	for i, e := range entries {
		s.boards[ids[i]] = e
	}
	s.mu.Unlock()
	return made, nil
}

// EnsureExample returns board id, creating it from the teaching example, written by Tele, when it does
// not exist.
func (s *Store) EnsureExample(id string) (Board, bool, error) {
	if !board.ValidID(id) {
		return Board{}, false, fmt.Errorf("%w %q", ErrInvalidID, id)
	}
	if b, err := s.Get(id); err == nil {
		return b, false, nil
	}
	b, _, err := s.Create(id, board.Example(), AuthorTele)
	if errors.Is(err, ErrExists) {
		b, err = s.Get(id)
		return b, false, err
	}
	if err != nil {
		return Board{}, false, err
	}
	return b, true, nil
}

// Put replaces the content of board id, which must be at expectedRevision, with a revision written by
// author, and returns the new revision once it is durable; chords are stored in the catalogue's
// spelling. Errors: *ValidationError, ErrNotFound, *ConflictError (with the current revision),
// ErrClosed, or an I/O error. A failed Put changes nothing.
func (s *Store) Put(id string, expectedRevision int64, c board.Content, author Author) (Board, error) {
	if !author.Valid() {
		return Board{}, fmt.Errorf("board: invalid author %q", author)
	}
	c, err := board.Storable(c)
	if err != nil {
		return Board{}, err
	}
	return s.writeAt(id, expectedRevision, func(e *entry, cur *Board) (Board, error) {
		b, err := s.commit(e, Board{ID: id, Revision: cur.Revision + 1, Content: c, UpdatedAt: s.stamp(), Author: author})
		return committed(id, b, err)
	})
}

// writeAt runs write, which commits board id's next revision, under the board's commit lock, once the
// store is open, the board exists and its current revision is expectedRevision (else ErrClosed,
// ErrNotFound or *ConflictError). Put and Restore share it, so their checks cannot drift apart.
func (s *Store) writeAt(id string, expectedRevision int64, write func(e *entry, cur *Board) (Board, error)) (Board, error) {
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return Board{}, ErrClosed
	}
	e := s.entry(id)
	if e == nil {
		return Board{}, ErrNotFound
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.deleted {
		return Board{}, ErrNotFound
	}
	cur := e.cur.Load()
	if cur.Revision != expectedRevision {
		return Board{}, &ConflictError{Current: cur.Revision}
	}
	return write(e, cur)
}

// committed wraps a commit's I/O error with the board it was for.
func committed(id string, b Board, err error) (Board, error) {
	if err != nil {
		return Board{}, fmt.Errorf("cannot write board %q: %w", id, err)
	}
	return b, nil
}

// stamp is the commit time as stored: UTC, millisecond precision.
func (s *Store) stamp() time.Time {
	return time.Now().UTC().Truncate(time.Millisecond)
}

func boardFileBytes(raw []byte) []byte {
	return append(append(make([]byte, 0, len(raw)+1), raw...), '\n')
}
