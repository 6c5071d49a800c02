package web

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func TestLimiterBurstThenRate(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1000, 0)}
	l := NewLimiter(50*time.Millisecond, 40).WithClock(clock.Now) // board writes: burst 40, 20/s

	for i := range 40 {
		if ok, _ := l.Allow("a"); !ok {
			t.Fatalf("event %d of the burst refused", i)
		}
	}
	ok, retry := l.Allow("a")
	if ok || retry != 50*time.Millisecond {
		t.Fatalf("41st: ok=%v retry=%v, want refused, 50ms", ok, retry)
	}
	if ok, _ := l.Allow("b"); !ok {
		t.Fatalf("another key shares the bucket")
	}
	clock.Advance(20 * time.Millisecond)
	if ok, retry := l.Allow("a"); ok || retry != 30*time.Millisecond {
		t.Fatalf("after 20ms: ok=%v retry=%v, want refused, 30ms", ok, retry)
	}
	clock.Advance(30 * time.Millisecond)
	if ok, _ := l.Allow("a"); !ok {
		t.Fatalf("after a full interval: refused")
	}
	if ok, _ := l.Allow("a"); ok {
		t.Fatalf("one interval allowed two events")
	}
}

func TestLimiterRefusalTakesNothing(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1000, 0)}
	l := NewLimiter(10*time.Second, 1).WithClock(clock.Now) // pairing-like: slow refill
	l.Allow("k")
	for range 5 {
		clock.Advance(time.Second)
		l.Allow("k") // refused; must not push the next allowed time further out
	}
	clock.Advance(5 * time.Second)
	if ok, retry := l.Allow("k"); !ok {
		t.Fatalf("refusals consumed tokens: retry=%v", retry)
	}
}

func TestLimiterPrunesIdleKeys(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1000, 0)}
	l := NewLimiter(time.Second, 2).WithClock(clock.Now) // a key refills completely in 2 s
	for i := range 100 {
		l.Allow(fmt.Sprint("key-", i))
	}
	if n := l.Len(); n != 100 {
		t.Fatalf("Len = %d, want 100", n)
	}
	clock.Advance(time.Second)
	l.Allow("fresh")
	clock.Advance(time.Second) // the 100 are now full again, "fresh" is not
	l.Allow("other")
	if n := l.Len(); n != 2 {
		t.Fatalf("after idle: Len = %d, want 2 (fresh, other)", n)
	}
	// A pruned key comes back with a full bucket: pruning changed nothing observable.
	for range 2 {
		if ok, _ := l.Allow("key-1"); !ok {
			t.Fatalf("pruned key did not start full")
		}
	}
}

func TestLimiterConcurrent(t *testing.T) {
	l := NewLimiter(time.Hour, 10)
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for range 50 {
		wg.Go(func() {
			if ok, _ := l.Allow("k"); ok {
				mu.Lock()
				allowed++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if allowed != 10 {
		t.Fatalf("allowed = %d, want 10", allowed)
	}
}
