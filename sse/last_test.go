package sse

import "testing"

// TestPublishLastEndsTheTopicAfterItsEvent: the streams of a topic that ends (a deleted board) get what
// was queued, then the last event, and then end; other topics go on, and a new stream of the same topic
// starts afresh without anything published before it.
func TestPublishLastEndsTheTopicAfterItsEvent(t *testing.T) {
	f := newFixture(t, Options{})
	a1, _ := f.open(t, "/a")
	a2, _ := f.open(t, "/a")
	b, _ := f.open(t, "/b")
	for _, r := range []*sseReader{a1, a2, b} {
		r.next(t)
	}
	f.hub.Publish("a", Event{Name: "board", Seq: 2, Data: []byte(`{"revision":2}`)})
	f.hub.PublishLast("a", Event{Name: "deleted", Data: []byte(`{"id":"a"}`)})
	f.hub.Publish("a", Event{Name: "board", Seq: 3, Data: []byte(`{"after":"the end"}`)})
	for _, r := range []*sseReader{a1, a2} {
		if m := r.next(t); m.Event != "board" || m.Data != `{"revision":2}` {
			t.Fatalf("first after the snapshot: %+v", m)
		}
		if m := r.next(t); m.Event != "deleted" || m.Data != `{"id":"a"}` {
			t.Fatalf("last event: %+v", m)
		}
		r.waitEnd(t)
	}
	if n := f.hub.Count("a"); n != 0 {
		t.Fatalf("%d subscriptions left on the ended topic", n)
	}
	f.hub.Publish("b", Event{Name: "board", Seq: 1, Data: []byte(`{"still":"here"}`)})
	if m := b.next(t); m.Data != `{"still":"here"}` {
		t.Fatalf("topic b got %+v", m)
	}
	a3, _ := f.open(t, "/a")
	if m := a3.next(t); m.Event != "snap" {
		t.Fatalf("a new stream of the topic starts with %+v", m)
	}
	f.hub.Publish("a", Event{Name: "board", Seq: 1, Data: []byte(`{"new":"board"}`)})
	if m := a3.next(t); m.Data != `{"new":"board"}` {
		t.Fatalf("the new stream got %+v", m)
	}
}
