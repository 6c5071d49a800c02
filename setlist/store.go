package setlist

import (
	"crypto/rand"
	"crypto/subtle"
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
	"time"

	"tele/atomicfile"
	"tele/board"
	"tele/board/store"
	"tele/strict"
)

// Errors of the store. Use errors.Is (they may be wrapped with detail).
var (
	ErrNotFound      = errors.New("set: no such set")
	ErrExists        = errors.New("set: a set with this id already exists (ignoring case)")
	ErrBadCapability = errors.New("set: the capability does not match the set")
	ErrClosed        = errors.New("set: the store is closed")
)

// ConflictError is a write against a revision that is no longer current.
type ConflictError struct {
	Current int64
}

func (e *ConflictError) Error() string {
	return "set: revision conflict: the set is at revision " + strconv.FormatInt(e.Current, 10)
}

// Set is one revision of a set. Boards is shared with the store: read only.
type Set struct {
	ID        string
	Revision  int64
	Title     string
	Boards    []string  // board ids, in playing order
	UpdatedAt time.Time // UTC, millisecond precision
}

// setJSON is the API's shape of a Set.
type setJSON struct {
	ID        string   `json:"id"`
	Revision  int64    `json:"revision"`
	Title     string   `json:"title"`
	Boards    []string `json:"boards"`
	UpdatedAt string   `json:"updatedAt"`
}

// fileJSON is a set's file: the set and its capability.
type fileJSON struct {
	ID         string   `json:"id"`
	Revision   int64    `json:"revision"`
	Title      string   `json:"title"`
	Boards     []string `json:"boards"`
	UpdatedAt  string   `json:"updatedAt"`
	Capability string   `json:"capability"`
}

const timeLayout = "2006-01-02T15:04:05.000Z07:00"

func (s Set) api() setJSON {
	b := s.Boards
	if b == nil {
		b = []string{}
	}
	return setJSON{s.ID, s.Revision, s.Title, b, s.UpdatedAt.UTC().Format(timeLayout)}
}

// JSON returns {"id","revision","title","boards","updatedAt"}: what the API answers, never the
// capability.
func (s Set) JSON() []byte {
	data, err := json.Marshal(s.api())
	if err != nil { // cannot happen: strings and an integer
		panic("set: cannot encode a set: " + err.Error())
	}
	return data
}

// Store keeps the sets of one data directory. Its methods are safe for concurrent use.
type Store struct {
	dir string // <data>/sets
	log *slog.Logger

	// closeMu is held shared by every write and exclusively by Close, which so waits for them.
	closeMu sync.RWMutex
	closed  bool

	mu   sync.Mutex // serialises writes (a person edits a set now and then) and guards sets
	sets map[string]*entry
}

type entry struct {
	set        Set
	capability string
}

func fold(id string) string { return strings.ToLower(id) }

// Open loads the sets kept in the directory of owner, which must stay open for as long as this store
// is used: its lock is what keeps other processes away. sets/ is created (0700) when missing and made
// private when found otherwise; temporary files of an interrupted write are removed; a file that does
// not parse or breaks a rule is an error naming it. A nil log means slog.Default().
func Open(owner *store.Store, log *slog.Logger) (*Store, error) {
	if log == nil {
		log = slog.Default()
	}
	s := &Store{dir: filepath.Join(owner.Dir(), "sets"), log: log, sets: map[string]*entry{}}
	if err := os.Mkdir(s.dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("cannot create %s: %v", s.dir, unwrapPath(err))
	}
	fi, err := os.Lstat(s.dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", s.dir, unwrapPath(err))
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", s.dir)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(s.dir, 0o700); err != nil {
			return nil, fmt.Errorf("cannot make %s private (mode 0700): %v", s.dir, unwrapPath(err))
		}
	}
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", s.dir, unwrapPath(err))
	}
	for _, de := range ents {
		name := de.Name()
		path := filepath.Join(s.dir, name)
		id, isJSON := strings.CutSuffix(name, ".json")
		switch {
		case atomicfile.IsTemp(name):
			if err := os.Remove(path); err != nil {
				log.Warn("set: cannot remove a leftover temporary file", "path", path, "err", unwrapPath(err))
			}
		case isJSON && board.ValidID(id) && de.Type().IsRegular():
			e, err := readFile(path, id)
			if err != nil {
				return nil, err
			}
			if other, ok := s.sets[fold(id)]; ok {
				return nil, fmt.Errorf("sets %q and %q in %s differ only in case: rename or remove one", other.set.ID, id, s.dir)
			}
			s.sets[fold(id)] = e
		default:
			log.Warn("set: ignoring an unexpected entry", "path", path)
		}
	}
	return s, nil
}

// readFile reads and checks one set file, strictly.
func readFile(path, id string) (*entry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read set file %s: %w", path, unwrapPath(err))
	}
	var f fileJSON
	if err := strict.Decode(data, &f); err != nil {
		return nil, fmt.Errorf("set file %s is damaged: %v", path, err)
	}
	t, err := time.Parse(timeLayout, f.UpdatedAt)
	switch {
	case err != nil:
		return nil, fmt.Errorf("set file %s is damaged: updatedAt %q is not a time", path, f.UpdatedAt)
	case f.ID != id:
		return nil, fmt.Errorf("set file %s holds set %q", path, f.ID)
	case f.Revision < 1:
		return nil, fmt.Errorf("set file %s is damaged: revision %d", path, f.Revision)
	case !store.ValidCapability(f.Capability):
		return nil, fmt.Errorf("set file %s is damaged: its capability is not 32 bytes in base64url", path)
	}
	if err := Validate(f.Title, f.Boards); err != nil {
		return nil, fmt.Errorf("set file %s breaks a rule: %v", path, err)
	}
	return &entry{set: Set{ID: id, Revision: f.Revision, Title: f.Title, Boards: f.Boards, UpdatedAt: t.UTC()}, capability: f.Capability}, nil
}

// newID returns a short random set id: 10 of [a-z2-7].
func newID() string { return strings.ToLower(rand.Text()[:10]) }

func (s *Store) path(id string) string { return filepath.Join(s.dir, id+".json") }

// List returns every set, sorted by id.
func (s *Store) List() []Set {
	s.mu.Lock()
	out := make([]Set, 0, len(s.sets))
	for _, e := range s.sets {
		out = append(out, e.set)
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b Set) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// get returns the entry of exactly id, or nil. Call with mu held.
func (s *Store) get(id string) *entry {
	e := s.sets[fold(id)]
	if e == nil || e.set.ID != id {
		return nil
	}
	return e
}

// Get returns set id, or ErrNotFound.
func (s *Store) Get(id string) (Set, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.get(id); e != nil {
		return e.set, nil
	}
	return Set{}, ErrNotFound
}

// Authorize checks capability against set id's, in constant time: nil, ErrNotFound or
// ErrBadCapability.
func (s *Store) Authorize(id, capability string) error {
	s.mu.Lock()
	e := s.get(id)
	s.mu.Unlock()
	if e == nil {
		return ErrNotFound
	}
	if subtle.ConstantTimeCompare([]byte(e.capability), []byte(capability)) != 1 {
		return ErrBadCapability
	}
	return nil
}

// Create makes set id (a random id when id is "") at revision 1 and returns it with its capability.
// Errors: store.ErrInvalidID, *ValidationError, ErrExists (also for an id that differs only in case),
// ErrClosed, or an I/O error, after which nothing was made.
func (s *Store) Create(id, title string, boards []string) (Set, string, error) {
	if id != "" && !board.ValidID(id) {
		return Set{}, "", fmt.Errorf("%w %q", store.ErrInvalidID, id)
	}
	if err := Validate(title, boards); err != nil {
		return Set{}, "", err
	}
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return Set{}, "", ErrClosed
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if id == "" {
		for id = newID(); s.sets[fold(id)] != nil; id = newID() {
		}
	} else if s.sets[fold(id)] != nil {
		return Set{}, "", ErrExists
	}
	e := &entry{set: Set{ID: id, Revision: 1, Title: title, Boards: slices.Clone(boards), UpdatedAt: stamp()}, capability: store.NewCapability()}
	err := atomicfile.Create(s.path(id), e.file(), 0o600)
	if err != nil && errors.As(err, new(*atomicfile.NotDurableError)) {
		s.undo(id)
	}
	if err != nil {
		return Set{}, "", fmt.Errorf("cannot create set %q: %w", id, err)
	}
	s.sets[fold(id)] = e
	return e.set, e.capability, nil
}

// undo removes the file of a creation whose directory sync failed (best effort).
func (s *Store) undo(id string) {
	if err := os.Remove(s.path(id)); err != nil {
		s.log.Warn("set: cannot remove the file of a set not created", "path", s.path(id), "err", unwrapPath(err))
	}
}

// Put replaces the title and boards of set id, which must be at expectedRevision, and returns the new
// revision once it is durable. Errors: *ValidationError, ErrNotFound, *ConflictError, ErrClosed, or an
// I/O error, after which the set is as it was.
func (s *Store) Put(id string, expectedRevision int64, title string, boards []string) (Set, error) {
	if err := Validate(title, boards); err != nil {
		return Set{}, err
	}
	var out Set
	err := s.write(id, expectedRevision, func(e *entry) error {
		next := &entry{set: Set{ID: id, Revision: e.set.Revision + 1, Title: title, Boards: slices.Clone(boards), UpdatedAt: stamp()}, capability: e.capability}
		if err := atomicfile.Replace(s.path(id), next.file(), 0o600); err != nil {
			// A failed directory sync left the new bytes in place: keep memory with the disk, whose
			// state a crash may yet undo; either way the caller is told the write is not acknowledged.
			if errors.As(err, new(*atomicfile.NotDurableError)) {
				s.sets[fold(id)] = next
			}
			return fmt.Errorf("cannot write set %q: %w", id, err)
		}
		s.sets[fold(id)] = next
		out = next.set
		return nil
	})
	return out, err
}

// Delete removes set id, which must be at expectedRevision, durably. Errors: ErrNotFound,
// *ConflictError, ErrClosed, or an I/O error.
func (s *Store) Delete(id string, expectedRevision int64) error {
	return s.write(id, expectedRevision, func(*entry) error {
		if err := os.Remove(s.path(id)); err != nil {
			return fmt.Errorf("cannot delete set %q: %v", id, unwrapPath(err))
		}
		delete(s.sets, fold(id))
		if err := atomicfile.SyncDir(s.dir); err != nil {
			return fmt.Errorf("set %q is deleted but the deletion may not last a crash: %v", id, err)
		}
		return nil
	})
}

// write runs f under the store's lock once the store is open, set id exists and is at
// expectedRevision.
func (s *Store) write(id string, expectedRevision int64, f func(*entry) error) error {
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return ErrClosed
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.get(id)
	if e == nil {
		return ErrNotFound
	}
	if e.set.Revision != expectedRevision {
		return &ConflictError{Current: e.set.Revision}
	}
	return f(e)
}

// Close waits for writes in flight; later writes fail with ErrClosed, reads keep answering.
func (s *Store) Close() {
	s.closeMu.Lock()
	s.closed = true
	s.closeMu.Unlock()
}

func (e *entry) file() []byte {
	b := e.set.Boards
	if b == nil {
		b = []string{}
	}
	data, err := json.Marshal(fileJSON{e.set.ID, e.set.Revision, e.set.Title, b, e.set.UpdatedAt.Format(timeLayout), e.capability})
	if err != nil { // cannot happen: strings and an integer
		panic("set: cannot encode a set: " + err.Error())
	}
	return append(data, '\n')
}

func stamp() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// unwrapPath drops the *fs.PathError wrapper, whose path the caller's message already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
