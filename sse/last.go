package sse

// PublishLast queues ev as the last event of every subscription of topic, for a topic that ends (a
// board deleted): each stream writes what it had queued, then ev, then returns. The subscriptions leave
// the topic at once, so a later Subscribe to the same topic starts a new sequence, and nothing published
// after ev reaches them. Like Publish it never blocks, and a slow client is cut instead.
func (h *Hub) PublishLast(topic string, ev Event) {
	checkName(ev.Name)
	f := frameOf(ev)
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.topics[topic] {
		s.enqueueFrame(f, h.opts.MaxQueuedBytes, true)
		delete(h.topics[topic], s)
	}
	delete(h.topics, topic)
}

// finished reports whether the subscription's last event (PublishLast) has been taken from the queue:
// once the stream has written what it took, it is done.
func (s *Subscription) finished() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last && len(s.queue) == 0
}
