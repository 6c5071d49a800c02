package store

import (
	"errors"
	"sync"
	"time"
)

// A claim code stands in for a capability in the edit links Tele prints (`#claim=<code>`): the browser
// records the link it opens in its history, and a code used once is worth nothing there, where a
// capability would open the board for editing to whoever reads the history later. The page exchanges
// the code for the capability by POST (a no-store answer) and never puts the capability in a URL.
//
// Codes live in the memory of the process that serves the data directory (the Store): a link works in
// that server until it is used, replaced by a key rotation, or a day old, and a restart forgets every
// code not used yet (print a new link with tele board link). A CLI run while the server runs asks the
// server for a code over loopback.

// ClaimLife is how long an unused claim code works.
const ClaimLife = 24 * time.Hour

// maxClaimsPerBoard bounds the codes waiting for one board: a new one beyond drops the oldest.
const maxClaimsPerBoard = 16

// ErrClaimInvalid is any claim code that does not open the board: unknown, used, expired, for another
// board, or minted before the key was replaced. One error for all, so a wrong guess learns nothing.
var ErrClaimInvalid = errors.New("board: claim code is not valid")

type claim struct {
	board   string
	expires time.Time
}

// claimBook holds the Store's unused claim codes.
type claimBook struct {
	mu    sync.Mutex
	codes map[string]claim
}

// prune drops expired codes; called with mu held.
func (cb *claimBook) prune(now time.Time) {
	for code, c := range cb.codes {
		if !now.Before(c.expires) {
			delete(cb.codes, code)
		}
	}
}

// forget drops every code of board id (its key was replaced, or it was deleted).
func (cb *claimBook) forget(id string) {
	cb.mu.Lock()
	defer cb.mu.Unlock()
	for code, c := range cb.codes {
		if c.board == id {
			delete(cb.codes, code)
		}
	}
}

// NewClaim makes a claim code for board id, good once for ClaimLife. Errors: ErrNotFound.
func (s *Store) NewClaim(id string) (code string, expires time.Time, err error) {
	if s.entry(id) == nil {
		return "", time.Time{}, ErrNotFound
	}
	cb := &s.claims
	cb.mu.Lock()
	defer cb.mu.Unlock()
	now := time.Now()
	cb.prune(now)
	if cb.codes == nil {
		cb.codes = map[string]claim{}
	}
	var oldest string
	n := 0
	for c, cl := range cb.codes {
		if cl.board == id {
			n++
			if oldest == "" || cl.expires.Before(cb.codes[oldest].expires) {
				oldest = c
			}
		}
	}
	if n >= maxClaimsPerBoard {
		delete(cb.codes, oldest)
	}
	code = NewCapability() // 32 random bytes, base64url, like a key
	expires = now.Add(ClaimLife)
	cb.codes[code] = claim{board: id, expires: expires}
	return code, expires, nil
}

// RedeemClaim spends claim code for board id and returns the board's capability. A code works once:
// of concurrent redemptions exactly one wins. Errors: ErrClaimInvalid, ErrNotFound.
func (s *Store) RedeemClaim(id, code string) (string, error) {
	cb := &s.claims
	cb.mu.Lock()
	c, ok := cb.codes[code]
	if ok && c.board == id {
		delete(cb.codes, code)
	}
	cb.mu.Unlock()
	if !ok || c.board != id || !time.Now().Before(c.expires) {
		return "", ErrClaimInvalid
	}
	return s.Capability(id)
}
