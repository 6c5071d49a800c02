package chat

import (
	"testing"
	"time"
)

func TestManualClock(t *testing.T) {
	c := NewManualClock(t0)
	var got []string
	c.AfterFunc(2*time.Second, func() { got = append(got, "b@"+c.Now().Sub(t0).String()) })
	c.AfterFunc(time.Second, func() { got = append(got, "a@"+c.Now().Sub(t0).String()) })
	stopped := c.AfterFunc(time.Second, func() { got = append(got, "stopped") })
	c.AfterFunc(2*time.Second, func() {
		got = append(got, "c")
		c.AfterFunc(0, func() { got = append(got, "d (scheduled by c)") })
	})
	if !stopped.Stop() || stopped.Stop() {
		t.Fatal("Stop")
	}
	c.Advance(1500 * time.Millisecond)
	if len(got) != 1 || got[0] != "a@1s" || !c.Now().Equal(t0.Add(1500*time.Millisecond)) {
		t.Fatalf("%v %v", got, c.Now())
	}
	c.Advance(time.Second)
	want := []string{"a@1s", "b@2s", "c", "d (scheduled by c)"}
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%v", got)
		}
	}
	if c.Pending() != 0 || !c.Now().Equal(t0.Add(2500*time.Millisecond)) {
		t.Fatal(c.Pending(), c.Now())
	}
}

func TestSystemClock(t *testing.T) {
	c := SystemClock()
	done := make(chan struct{})
	c.AfterFunc(time.Millisecond, func() { close(done) })
	<-done
	if c.Now().IsZero() {
		t.Fatal("zero time")
	}
	if c.AfterFunc(time.Hour, func() {}).Stop() != true {
		t.Fatal("Stop")
	}
}
