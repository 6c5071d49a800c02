package sse

import (
	"errors"
	"net/http"
	"time"
)

// heartbeat is the comment written after Heartbeat without any other write. Clients ignore comments;
// proxies see traffic.
var heartbeat = []byte(": hb\n\n")

// Stream writes the stream headers, `first`, then every event published to sub with a Seq newer than
// first.Seq (and than the last one written), and a heartbeat comment whenever Heartbeat passes without a
// write. It returns when the request's context ends, the subscription is closed or cut, the hub closes, or
// a write fails. It closes sub before returning, which releases its slot.
//
// The caller subscribes first, then takes its snapshot, then calls Stream with the snapshot as first:
// events published in between and not newer than the snapshot are skipped.
func (h *Hub) Stream(w http.ResponseWriter, r *http.Request, sub *Subscription, first Event) {
	defer sub.Close()
	rc := http.NewResponseController(w)
	st := &streamer{sub: sub, w: w, rc: rc, timeout: h.opts.WriteTimeout}

	sub.mu.Lock()
	// Interrupt a write in progress when the subscription ends from outside (slow client, revocation):
	// a past deadline makes the blocked Write return at once. Only set while a write is in progress, so
	// it never touches the connection after Stream has returned.
	sub.kick = func() { _ = rc.SetWriteDeadline(time.Unix(1, 0)) }
	sub.mu.Unlock()
	defer func() {
		sub.mu.Lock()
		sub.kick = nil
		// A slow client's connection is poisoned with a past deadline, so net/http cannot block on it while
		// ending the response: the kick only sets one when the cut interrupts a write, and a cut between
		// writes would leave the last write's deadline (up to WriteTimeout away). A stream ended by Close,
		// CloseTopic or hub shutdown may have been kicked just as its last write finished; clearing the
		// deadline lets net/http end the response cleanly instead of cutting its final chunk.
		cut := sub.err == errSlowClient
		sub.mu.Unlock()
		if cut {
			_ = rc.SetWriteDeadline(time.Unix(1, 0))
		} else {
			_ = rc.SetWriteDeadline(time.Time{})
		}
	}()

	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if st.write(Encode(first)) != nil {
		return
	}
	last := first.Seq

	// The heartbeat timer restarts after every write: a busy stream already shows traffic, so it gets no
	// comments, and a quiet one gets its first a full interval after its last event.
	var quiet <-chan time.Time
	if h.opts.Heartbeat > 0 {
		timer := time.NewTimer(h.opts.Heartbeat)
		defer timer.Stop()
		quiet = timer.C
		st.wrote = func() { timer.Reset(h.opts.Heartbeat) }
	}
	ctx := r.Context()
	for {
		select {
		case <-ctx.Done():
			return
		case <-sub.done:
			return
		case <-quiet:
			if st.write(heartbeat) != nil {
				return
			}
		case <-sub.wake:
			for _, f := range sub.take() {
				if f.seq != 0 && f.seq <= last {
					sub.wrote(len(f.wire)) // published before the snapshot was taken: already in it
					continue
				}
				if st.write(f.wire) != nil {
					return
				}
				sub.wrote(len(f.wire))
				if f.seq != 0 {
					last = f.seq
				}
			}
			if sub.finished() {
				return
			}
		}
	}
}

// streamer writes frames to one response, each with its own deadline, and flushes them.
type streamer struct {
	sub     *Subscription
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	wrote   func() // after each successful write; nil without heartbeats
}

func (st *streamer) write(p []byte) error {
	s := st.sub
	s.mu.Lock()
	if s.err != nil {
		err := s.err
		s.mu.Unlock()
		return err
	}
	// Setting the deadline under the lock orders it with end's kick: a kick cannot be overwritten.
	if err := st.rc.SetWriteDeadline(time.Now().Add(st.timeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		s.mu.Unlock()
		return err
	}
	s.writing = true
	s.mu.Unlock()

	_, err := st.w.Write(p)
	if err == nil {
		err = st.rc.Flush()
	}

	s.mu.Lock()
	s.writing = false
	s.mu.Unlock()
	if err == nil && st.wrote != nil {
		st.wrote()
	}
	return err
}
