package web

import (
	"math"
	"testing"
	"testing/synctest"
	"time"
)

func TestLimiterAllowN(t *testing.T) { synctest.Test(t, testLimiterAllowN) }

// AllowN takes all n events or none; n over the burst is never allowed.
func testLimiterAllowN(t *testing.T) {
	l := NewLimiter(3*time.Second, 20) // board creation
	if ok, _ := l.AllowN("", 15); !ok {
		t.Fatal("15 of a burst of 20 refused")
	}
	ok, retry := l.AllowN("", 6)
	if ok || retry != 3*time.Second {
		t.Fatalf("6 more: ok=%v retry=%v, want refused, 3s", ok, retry)
	}
	if ok, _ := l.AllowN("", 5); !ok {
		t.Fatal("the refusal took tokens: 5 more refused")
	}
	if ok, retry := l.AllowN("", 21); ok || retry != time.Duration(math.MaxInt64) {
		t.Fatalf("21 at once: ok=%v retry=%v, want never", ok, retry)
	}
	time.Sleep(6 * time.Second)
	if ok, _ := l.AllowN("", 2); !ok {
		t.Fatal("two after two intervals refused")
	}
}
