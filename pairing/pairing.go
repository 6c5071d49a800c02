// Package pairing holds one chat binding (docs/pairing.md): its random id and epoch, the one-time invitation a
// browser redeems, and the session cookies it mints.
//
// Every secret here (invitation, cookie value) is random, compared in constant time and never logged. A
// Binding has no goroutines; it reads the time with time.Now (tests run it in a synctest bubble).
package pairing

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

const (
	// CookieName is the name of the session cookie; its Path scopes it to one binding.
	CookieName = "tele_chat"
	// InvitationTTL is how long an invitation can be redeemed (once).
	InvitationTTL = 2 * time.Minute
	// SessionTTL is the life of a paired session (the cookie's Max-Age).
	SessionTTL = 8 * time.Hour
	// MaxSessions bounds the sessions one binding keeps; pairing beyond it forgets the oldest.
	MaxSessions = 8

	// Failed redemptions: a burst of FailureBurst, then one per FailureEvery.
	FailureBurst = 5
	FailureEvery = 10 * time.Second

	secretBytes = 32 // invitations and cookie values
	idBytes     = 16 // binding ids and epochs
)

var (
	// ErrInvitationInvalid is the one answer for every bad invitation: expired, reused, unknown,
	// malformed, for another binding, or for a revoked binding.
	ErrInvitationInvalid = errors.New("pairing: invitation invalid")
	// ErrUnauthorized: no cookie, a wrong or expired one.
	ErrUnauthorized = errors.New("pairing: unauthorized")
	// ErrRevoked: the binding was revoked; nothing of it works any more.
	ErrRevoked = errors.New("pairing: binding revoked")
)

// RateLimitError is returned by Redeem for a bad invitation while failed attempts are throttled.
type RateLimitError struct{ RetryAfter time.Duration }

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("pairing: too many failed attempts, retry after %s", e.RetryAfter)
}

// Session describes one paired browser session. It carries no secret.
type Session struct {
	ExpiresAt time.Time
}

type session struct {
	hash      [sha256.Size]byte // of the cookie value; the value itself is not kept
	expiresAt time.Time
}

type invitation struct {
	secret    []byte // decoded
	expiresAt time.Time
	ended     chan struct{} // closed once the invitation can no longer be redeemed
	expiry    *time.Timer   // closes ended at expiresAt
}

// endLocked closes the invitation's ended channel and stops its timer, once.
func (inv *invitation) endLocked() {
	if inv == nil {
		return
	}
	inv.expiry.Stop()
	select {
	case <-inv.ended:
	default:
		close(inv.ended)
	}
}

// Binding is one connection's binding (one `/tele <board>`): id, epoch, invitation and sessions.
type Binding struct {
	id    string
	epoch string

	mu       sync.Mutex
	invite   *invitation
	sessions []session
	failures *rate.Limiter
	revoked  bool
}

// NewBinding makes a binding with a fresh random id and epoch.
func NewBinding() (*Binding, error) {
	id, err := randomToken(idBytes)
	if err != nil {
		return nil, err
	}
	epoch, err := randomToken(idBytes)
	if err != nil {
		return nil, err
	}
	return &Binding{
		id:       id,
		epoch:    epoch,
		failures: rate.NewLimiter(rate.Every(FailureEvery), FailureBurst),
	}, nil
}

// ID is the binding id (22 base64url characters; never "pair").
func (b *Binding) ID() string { return b.id }

// Epoch is the binding's epoch, carried by every chat command.
func (b *Binding) Epoch() string { return b.epoch }

// cookiePath is the Path of this binding's session cookie.
func (b *Binding) cookiePath() string { return "/api/chat/" + b.id }

// MatchID reports, in constant time, whether id is this binding's id.
func (b *Binding) MatchID(id string) bool {
	return subtle.ConstantTimeCompare([]byte(id), []byte(b.id)) == 1
}

// NewInvitation mints a new one-time invitation valid for InvitationTTL; the earlier unredeemed
// invitation, if any, stops working. On a revoked binding it returns a fresh string that can never be
// redeemed. ended is closed once the invitation can no longer be redeemed: redeemed, replaced by a newer
// one, expired or the binding revoked. Whoever placed a copy of
// the invitation somewhere (a file the browser is opened on) removes it then.
func (b *Binding) NewInvitation() (secret string, ended <-chan struct{}) {
	raw := make([]byte, secretBytes)
	_, _ = rand.Read(raw) // never fails (crypto/rand, Go ≥ 1.24)
	inv := &invitation{secret: raw, ended: make(chan struct{})}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.revoked {
		close(inv.ended)
		return base64.RawURLEncoding.EncodeToString(raw), inv.ended
	}
	b.invite.endLocked()
	inv.expiresAt = time.Now().Add(InvitationTTL)
	inv.expiry = time.AfterFunc(InvitationTTL, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		inv.endLocked()
	})
	b.invite = inv
	return base64.RawURLEncoding.EncodeToString(raw), inv.ended
}

// Redeem exchanges a valid invitation for a new session. The invitation is consumed in the same critical
// section that mints the session. It returns the session cookie (docs/pairing.md exactly) and the session's expiry.
//
// Every bad invitation gives ErrInvitationInvalid, or a *RateLimitError while failed attempts are
// throttled (FailureBurst, then one per FailureEvery). A valid invitation always redeems, throttled or
// not: the binding id is no secret, so any local process can cause failures, and a throttle that
// refused the right invitation would let it lock the user out. Guessing stays hopeless either way (an
// invitation is 32 random bytes); the throttle keeps the guesses few.
func (b *Binding) Redeem(bindingID, invite string) (*http.Cookie, time.Time, error) {
	// Decode outside the lock; a malformed invitation is still a failed attempt below.
	given, decodeErr := base64.RawURLEncoding.DecodeString(invite)
	if decodeErr != nil || len(given) != secretBytes {
		given = nil
	}
	value, err := randomToken(secretBytes)
	if err != nil {
		return nil, time.Time{}, err
	}

	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	ok := 1
	ok &= subtle.ConstantTimeCompare([]byte(bindingID), []byte(b.id))
	if b.invite != nil && given != nil {
		ok &= subtle.ConstantTimeCompare(given, b.invite.secret)
	} else {
		ok = 0
	}
	if b.revoked || b.invite == nil || !now.Before(b.invite.expiresAt) {
		ok = 0
	}
	if ok != 1 {
		if tokens := b.failures.TokensAt(now); tokens < 1 {
			wait := time.Duration((1 - tokens) / float64(b.failures.Limit()) * float64(time.Second))
			return nil, time.Time{}, &RateLimitError{RetryAfter: max(wait, time.Millisecond)}
		}
		b.failures.AllowN(now, 1)
		return nil, time.Time{}, ErrInvitationInvalid
	}

	b.invite.endLocked()
	b.invite = nil // once
	expires := now.Add(SessionTTL)
	b.pruneLocked(now)
	if len(b.sessions) >= MaxSessions {
		b.sessions = append(b.sessions[:0], b.sessions[1:]...) // oldest first
	}
	b.sessions = append(b.sessions, session{hash: sha256.Sum256([]byte(value)), expiresAt: expires})
	return &http.Cookie{
		Name:     CookieName,
		Value:    value,
		Path:     b.cookiePath(),
		MaxAge:   int(SessionTTL / time.Second),
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
		// No Secure: Tele serves plain HTTP on loopback only, so a Secure cookie would never be sent
		// back, and claiming transport security we do not have would be false.
	}, expires, nil
}

// Session admits a request carrying a live session cookie of this binding (compared in constant time,
// expired after SessionTTL) and returns the session's expiry, for closing its streams on time. Errors:
// ErrRevoked, ErrUnauthorized.
func (b *Binding) Session(r *http.Request) (Session, error) {
	var hashes [][sha256.Size]byte
	for _, c := range r.Cookies() {
		if c.Name == CookieName && len(hashes) < 4 {
			hashes = append(hashes, sha256.Sum256([]byte(c.Value)))
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.revoked {
		return Session{}, ErrRevoked
	}
	now := time.Now()
	var found time.Time
	for _, h := range hashes {
		for _, s := range b.sessions {
			if subtle.ConstantTimeCompare(h[:], s.hash[:]) == 1 && now.Before(s.expiresAt) {
				found = s.expiresAt
			}
		}
	}
	if found.IsZero() {
		return Session{}, ErrUnauthorized
	}
	return Session{ExpiresAt: found}, nil
}

// Revoke ends the binding: the invitation and every session are forgotten.
// It is idempotent.
func (b *Binding) Revoke() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.revoked {
		return
	}
	b.revoked = true
	b.invite.endLocked()
	b.invite = nil
	b.sessions = nil
}

// Revoked reports whether Revoke was called.
func (b *Binding) Revoked() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.revoked
}

func (b *Binding) pruneLocked(now time.Time) {
	kept := b.sessions[:0]
	for _, s := range b.sessions {
		if now.Before(s.expiresAt) {
			kept = append(kept, s)
		}
	}
	b.sessions = kept
}

func randomToken(n int) (string, error) {
	buf := make([]byte, n)
	if _, err := rand.Read(buf); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(buf), nil
}
