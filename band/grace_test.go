package band

import (
	"encoding/json"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// leading reads whether a page leads from the leader's state (GET /api/share).
func leading(t *testing.T, b *Band, leader string) bool {
	t.Helper()
	data, err := b.StateJSON(leader)
	var st struct{ Leading bool }
	if err != nil || json.Unmarshal(data, &st) != nil {
		t.Fatalf("state: %v %s", err, data)
	}
	return st.Leading
}

// TestLeaderGrace: a leading page that opens the next song of a set ends its stream a moment before the
// next page opens its own. Until LeaderGrace has passed with no stream open, a page still leads (the
// phones do not say the leader's page closed, and a claim is refused); after it, none does and a claim
// takes the lead. A stream opened within the grace keeps the lead with no gap.
func TestLeaderGrace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := New("127.0.0.2:4318")
		_, leader := b.Start()
		if _, err := b.SetState(leader, State{Board: "welcome"}); err != nil {
			t.Fatal(err)
		}
		open := func() string {
			sub, _, topic, err := b.leadStream(leader)
			if err != nil {
				t.Fatal(err)
			}
			sub.Close() // the page navigates away: its stream ends
			b.leaderLeft(topic)
			return topic
		}

		open()
		time.Sleep(LeaderGrace - time.Millisecond)
		if !leading(t, b, leader) {
			t.Fatal("a page stopped leading before the grace ended")
		}
		if _, _, err := b.Claim(); !errors.Is(err, ErrLeading) {
			t.Fatalf("a claim within the grace: %v", err)
		}
		open() // the next song's page opens its stream, and leaves again
		time.Sleep(LeaderGrace - time.Millisecond)
		if !leading(t, b, leader) {
			t.Fatal("the grace did not start again with the next page")
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if leading(t, b, leader) {
			t.Fatal("a page still leads once the grace ended with no stream open")
		}
		if _, newLeader, err := b.Claim(); err != nil || newLeader == leader {
			t.Fatalf("a claim after the grace: %v", err)
		}
	})
}
