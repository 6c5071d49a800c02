package sse

import (
	"errors"
	"testing"
)

// TestMaxStreams: the hub refuses a subscription past MaxStreams over all topics, and past MaxPerTopic on
// one; every way a subscription ends gives its slot back.
func TestMaxStreams(t *testing.T) {
	h := NewHub(Options{MaxPerTopic: 2, MaxStreams: 3})
	defer h.Close()
	a1, _ := h.Subscribe("a")
	if _, err := h.Subscribe("a"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Subscribe("a"); !errors.Is(err, ErrTooManyStreams) {
		t.Fatalf("third on a topic of 2: %v", err)
	}
	if _, err := h.Subscribe("b"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Subscribe("c"); !errors.Is(err, ErrTooManyStreams) {
		t.Fatalf("fourth in a hub of 3: %v", err)
	}
	a1.Close()
	if _, err := h.Subscribe("c"); err != nil {
		t.Fatalf("after a Close: %v", err)
	}
	h.CloseTopic("a")
	if _, err := h.Subscribe("d"); err != nil {
		t.Fatalf("after CloseTopic: %v", err)
	}
}
