package web

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Limiter holds one token bucket (golang.org/x/time/rate) per key: per board for writes, per binding for
// chat commands and pairing attempts. Keys are created on first use. A bucket left alone long enough to
// refill completely is indistinguishable from a new one, so it is dropped; pruning runs on access, at
// most once per refill period, so the Limiter needs no goroutine and its memory follows the keys in
// recent use. It is safe for concurrent use.
type Limiter struct {
	limit  rate.Limit
	burst  int
	idle   time.Duration // time for an empty bucket to refill completely
	mu     sync.Mutex
	keys   map[string]*bucket
	pruned time.Time
}

type bucket struct {
	lim  *rate.Limiter
	last time.Time // last Allow for this key
}

// NewLimiter returns a Limiter that allows each key a burst of burst events, refilled at one event per
// every.
func NewLimiter(every time.Duration, burst int) *Limiter {
	return &Limiter{
		limit: rate.Every(every),
		burst: burst,
		idle:  every * time.Duration(burst),
		keys:  make(map[string]*bucket),
	}
}

// Allow takes one event from key's bucket. When the bucket is empty it takes nothing and reports how
// long until an event will be allowed.
func (l *Limiter) Allow(key string) (ok bool, retryAfter time.Duration) {
	return l.AllowN(key, 1)
}

// AllowN takes n events from key's bucket at once (an import of a playlist makes n boards), or none,
// and then reports how long until n will be allowed; never, for n over the burst.
func (l *Limiter) AllowN(key string, n int) (ok bool, retryAfter time.Duration) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.pruned) >= l.idle {
		l.prune(now)
	}
	b := l.keys[key]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(l.limit, l.burst)}
		l.keys[key] = b
	}
	b.last = now
	if b.lim.AllowN(now, n) {
		return true, 0
	}
	if l.limit <= 0 || n > l.burst {
		return false, time.Duration(math.MaxInt64)
	}
	missing := float64(n) - b.lim.TokensAt(now)
	return false, time.Duration(math.Ceil(missing / float64(l.limit) * float64(time.Second)))
}

// prune drops the buckets that have refilled completely. l.mu is held.
func (l *Limiter) prune(now time.Time) {
	for k, b := range l.keys {
		if now.Sub(b.last) >= l.idle {
			delete(l.keys, k)
		}
	}
	l.pruned = now
}
