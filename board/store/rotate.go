package store

import (
	"errors"
	"fmt"
	"path/filepath"

	"tele/atomicfile"
)

// key is the board's current capability. Never log it.
func (e *entry) key() string {
	if k := e.capability.Load(); k != nil {
		return *k
	}
	return ""
}

func (e *entry) setKey(k string) { e.capability.Store(&k) }

// Rotate replaces the capability of board id with a new random one and returns it: the way to shut out
// whoever holds an edit link that leaked. The new key is durable first (a temporary file, fsync,
// rename, directory fsync), then takes effect; from then on Authorize refuses the old one. It holds the
// board's commit lock, so it never interleaves with a commit. Errors: ErrNotFound, ErrClosed, or an I/O
// error, after which the old key still works.
func (s *Store) Rotate(id string) (string, error) {
	s.closeMu.RLock()
	defer s.closeMu.RUnlock()
	if s.closed {
		return "", ErrClosed
	}
	e := s.entry(id)
	if e == nil {
		return "", ErrNotFound
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.deleted {
		return "", ErrNotFound
	}
	old := e.key()
	c := NewCapability()
	path := filepath.Join(s.capsDir, id)
	if err := atomicfile.Replace(path, []byte(c), 0o600); err != nil {
		if errors.As(err, new(*atomicfile.NotDurableError)) {
			// The new key is in place but not known to be durable: put the old one back, so that disk
			// and memory agree on the key the caller was told still works.
			if rbErr := atomicfile.Replace(path, []byte(old), 0o600); rbErr != nil {
				s.log.Error("board: a failed rotation could not be rolled back; the capability file may hold a key nobody was given (tele board link reads it)",
					"board", id, "err", rbErr)
			}
		}
		return "", fmt.Errorf("cannot replace the capability of board %q: %w", id, err)
	}
	e.setKey(c)
	s.claims.forget(id) // a link printed before the rotation must not hand out the new key
	return c, nil
}
