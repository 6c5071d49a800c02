package web

import (
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// The tests that need time run in a testing/synctest bubble: time.Sleep moves the bubble's fake clock,
// which the Limiter reads through time.Now.

func TestLimiterBurstThenRate(t *testing.T) { synctest.Test(t, testLimiterBurstThenRate) }

func testLimiterBurstThenRate(t *testing.T) {
	l := NewLimiter(50*time.Millisecond, 40) // board writes: burst 40, 20/s

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
	time.Sleep(20 * time.Millisecond)
	if ok, retry := l.Allow("a"); ok || retry != 30*time.Millisecond {
		t.Fatalf("after 20ms: ok=%v retry=%v, want refused, 30ms", ok, retry)
	}
	time.Sleep(30 * time.Millisecond)
	if ok, _ := l.Allow("a"); !ok {
		t.Fatalf("after a full interval: refused")
	}
	if ok, _ := l.Allow("a"); ok {
		t.Fatalf("one interval allowed two events")
	}
}

func TestLimiterRefusalTakesNothing(t *testing.T) { synctest.Test(t, testLimiterRefusalTakesNothing) }

func testLimiterRefusalTakesNothing(t *testing.T) {
	l := NewLimiter(10*time.Second, 1) // pairing-like: slow refill
	l.Allow("k")
	for range 5 {
		time.Sleep(time.Second)
		l.Allow("k") // refused; must not push the next allowed time further out
	}
	time.Sleep(5 * time.Second)
	if ok, retry := l.Allow("k"); !ok {
		t.Fatalf("refusals consumed tokens: retry=%v", retry)
	}
}

func TestLimiterPrunesIdleKeys(t *testing.T) { synctest.Test(t, testLimiterPrunesIdleKeys) }

func testLimiterPrunesIdleKeys(t *testing.T) {
	l := NewLimiter(time.Second, 2) // a key refills completely in 2 s
	for i := range 100 {
		l.Allow(fmt.Sprint("key-", i))
	}
	if n := keysHeld(l); n != 100 {
		t.Fatalf("keys held = %d, want 100", n)
	}
	time.Sleep(time.Second)
	l.Allow("fresh")
	time.Sleep(time.Second) // the 100 are now full again, "fresh" is not
	l.Allow("other")
	if n := keysHeld(l); n != 2 {
		t.Fatalf("after idle: keys held = %d, want 2 (fresh, other)", n)
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

// keysHeld is how many keys hold a bucket.
func keysHeld(l *Limiter) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.keys)
}
