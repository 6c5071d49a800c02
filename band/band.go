// Package band is the band view (docs/band.md): a leader page on loopback shares what it plays, and
// every phone on the local network that opened the join link follows it, read-only, over a second
// listener. Band holds the share session (the join key, the leader token, the followers' cookies and
// the state the leader set); loopback.go is its loopback routes, follow.go the share listener's.
package band

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"time"

	"tele/board/boardhttp"
	"tele/board/store"
	"tele/sse"
)

// Limits of a share session.
const (
	// MaxFollowers bounds the devices joined to one session (each holds a cookie) and the live follow
	// streams: a band and its crew, not an audience.
	MaxFollowers = 128
	// JoinBurst and JoinEvery throttle failed joins from one address: a key is 32 random bytes, so this
	// only keeps a device on the network from hammering the listener.
	JoinBurst = 5
	JoinEvery = 10 * time.Second
	// maxLeadStreams are the streams of leading pages kept beside the followers' (a page reloading
	// opens its next before the server sees its last end).
	maxLeadStreams = 4
	// LeaderGrace is how long a page still counts as leading after its stream ended. The leading page
	// opening the next song of a set is a navigation: its stream ends a moment before the next page
	// opens its own, and the phones should not say in between that the leader's page closed.
	LeaderGrace = 3 * time.Second
)

// Errors of a share session.
var (
	ErrNotSharing   = errors.New("band: not sharing")
	ErrNotLeader    = errors.New("band: the leader token does not match")
	ErrBadKey       = errors.New("band: the join key does not match")
	ErrNotFollower  = errors.New("band: no such follower")
	ErrTooManyJoins = errors.New("band: too many devices joined")
	// ErrLeading refuses a claim while a page leads: it holds the leader's stream.
	ErrLeading = errors.New("band: a page leads the band")
)

// Transport is what the leader plays: whether it plays, at which tempo, since when on the server's
// clock (ms since the Unix epoch) and from which bar (counted from 0 over the whole board).
type Transport struct {
	Playing   bool  `json:"playing"`
	Tempo     int   `json:"tempo"`
	StartedAt int64 `json:"startedAt"`
	CountIn   bool  `json:"countIn"`
	Loop      bool  `json:"loop"`
	From      *int  `json:"from,omitempty"`
}

// State is what the leader shares: the board shown, the set it belongs to, the transport.
type State struct {
	Board     string     `json:"board"`
	Set       string     `json:"set,omitempty"`
	Transport *Transport `json:"transport,omitempty"`
}

// Band is one server's share: at most one session at a time. Its methods are safe for concurrent use.
type Band struct {
	addr string   // the share listener's <ip>:<port>
	hub  *sse.Hub // the followers' streams: one topic per session generation

	mu   sync.Mutex
	sess *session // nil while not sharing
	gen  int64    // grows with every session and every new key
	seq  int64    // the Seq of the last event published
}

type session struct {
	key       string
	leader    string
	lead      string // the leader's topic: a page leads while it holds a stream of it
	topic     string
	followers map[string]struct{} // cookie tokens of this key
	state     State
	leftAt    time.Time   // when the last leading page's stream ended; zero while one is open
	gone      *time.Timer // tells the followers no page leads, LeaderGrace after leftAt
}

// stopGrace forgets that a leading page left (another opened its stream, the lead moved or sharing
// stopped).
func (s *session) stopGrace() {
	if s.gone != nil {
		s.gone.Stop()
		s.gone = nil
	}
	s.leftAt = time.Time{}
}

// New returns the share of a server whose share listener is addr (<ip>:<port>).
func New(addr string) *Band {
	return &Band{addr: addr, hub: sse.NewHub(sse.Options{MaxPerTopic: MaxFollowers, MaxStreams: MaxFollowers + maxLeadStreams})}
}

// Addr returns the share listener's address.
func (b *Band) Addr() string { return b.addr }

// Hub returns the followers' hub, for the server to close at shutdown.
func (b *Band) Hub() *sse.Hub { return b.hub }

// JoinURL is the link a follower opens: the key rides in the fragment, which browsers never send.
func (b *Band) joinURL(key string) string { return "http://" + b.addr + "/join#key=" + key }

func token() string {
	var r [32]byte
	_, _ = rand.Read(r[:]) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(r[:])
}

func same(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// newTopicLocked ends every follower stream of the current generation, each with a last `ended`
// event (so a page knows not to reconnect), and starts a new generation.
func (b *Band) newTopicLocked() string {
	if b.sess != nil {
		b.seq++
		b.hub.PublishLast(b.sess.topic, sse.Event{Name: "ended", Seq: b.seq, Data: []byte("{}")})
	}
	b.gen++
	return "band/" + strconv.FormatInt(b.gen, 10)
}

// Start begins a session, replacing any earlier one (whose followers are dropped), and returns the join
// link and the leader token. Nothing is shown until the leader sets the state.
func (b *Band) Start() (joinURL, leader string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	topic := b.newTopicLocked()
	if b.sess != nil {
		b.sess.stopGrace()
	}
	b.sess = &session{key: token(), topic: topic, followers: map[string]struct{}{}}
	b.newLeaderLocked()
	return b.joinURL(b.sess.key), b.sess.leader
}

// newLeaderLocked gives the session a new leader token and a new leader's topic; the streams of the
// old one end, each with a last `ended` event (that page leads no more).
func (b *Band) newLeaderLocked() {
	s := b.sess
	if s.lead != "" {
		b.seq++
		b.hub.PublishLast(s.lead, sse.Event{Name: "ended", Seq: b.seq, Data: []byte("{}")})
	}
	s.stopGrace()
	b.gen++
	s.lead = "lead/" + strconv.FormatInt(b.gen, 10)
	s.leader = token()
}

// Claim takes the lead of a session no page leads (the leading page closed without stopping: its
// stream ended), keeping the join link and the followers. It returns the join link and a new leader
// token, ErrNotSharing, or ErrLeading while a page leads (holds the leader's stream, or held it less
// than LeaderGrace ago): that page hands the lead over, HandOver.
func (b *Band) Claim() (joinURL, leader string, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess == nil {
		return "", "", ErrNotSharing
	}
	if b.leadingLocked() {
		return "", "", ErrLeading
	}
	b.newLeaderLocked()
	return b.joinURL(b.sess.key), b.sess.leader, nil
}

// leaderLocked returns the session when leader is its token.
func (b *Band) leaderLocked(leader string) (*session, error) {
	if b.sess == nil {
		return nil, ErrNotSharing
	}
	if !same(b.sess.leader, leader) {
		return nil, ErrNotLeader
	}
	return b.sess, nil
}

// Authorize checks the leader token: nil, ErrNotSharing or ErrNotLeader.
func (b *Band) Authorize(leader string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, err := b.leaderLocked(leader)
	return err
}

// JoinURL returns the current join link, for the leader.
func (b *Band) JoinURL(leader string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, err := b.leaderLocked(leader)
	if err != nil {
		return "", err
	}
	return b.joinURL(s.key), nil
}

// Stop ends the session: every follower's stream ends and its cookie stops working at once.
func (b *Band) Stop(leader string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, err := b.leaderLocked(leader); err != nil {
		return err
	}
	b.newTopicLocked()
	b.seq++
	b.hub.PublishLast(b.sess.lead, sse.Event{Name: "ended", Seq: b.seq, Data: []byte("{}")})
	b.sess.stopGrace()
	b.sess = nil
	return nil
}

// NewKey replaces the join key: every follower's stream ends and its cookie stops working at once; the
// leader keeps leading. It returns the new join link.
func (b *Band) NewKey(leader string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, err := b.leaderLocked(leader)
	if err != nil {
		return "", err
	}
	s.topic = b.newTopicLocked()
	s.key = token()
	s.followers = map[string]struct{}{}
	return b.joinURL(s.key), nil
}

// HandOver makes a new leader token; the old one stops leading at once (another page takes the lead)
// and its page's stream ends.
func (b *Band) HandOver(leader string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, err := b.leaderLocked(leader)
	if err != nil {
		return "", err
	}
	b.newLeaderLocked()
	return s.leader, nil
}

// SetState replaces the shared state and sends it to every follower. The caller has checked that the
// board (and set) exist.
func (b *Band) SetState(leader string, st State) ([]byte, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, err := b.leaderLocked(leader)
	if err != nil {
		return nil, err
	}
	s.state = st
	return b.publishStateLocked(), nil
}

// Join redeems the join key: a new follower cookie token, ErrBadKey, ErrNotSharing (the same answer
// for the caller), or ErrTooManyJoins.
func (b *Band) Join(key string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess == nil || !same(b.sess.key, key) {
		return "", ErrBadKey
	}
	if len(b.sess.followers) >= MaxFollowers {
		return "", ErrTooManyJoins
	}
	t := token()
	b.sess.followers[t] = struct{}{}
	return t, nil
}

// follower returns the session's topic and state for a follower's cookie token, or ErrNotFollower.
func (b *Band) follower(cookie string) (topic string, st State, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess == nil || cookie == "" {
		return "", State{}, ErrNotFollower
	}
	if _, ok := b.sess.followers[cookie]; !ok {
		return "", State{}, ErrNotFollower
	}
	return b.sess.topic, b.sess.state, nil
}

// followerState returns what GET /api/band answers a follower.
func (b *Band) followerState(cookie string) ([]byte, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess == nil {
		return nil, ErrNotFollower
	}
	if _, ok := b.sess.followers[cookie]; !ok {
		return nil, ErrNotFollower
	}
	return b.stateJSONLocked(), nil
}

// StateJSON returns what GET /api/band answers for the leader.
func (b *Band) StateJSON(leader string) ([]byte, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, err := b.leaderLocked(leader); err != nil {
		return nil, err
	}
	return b.stateJSONLocked(), nil
}

// stateJSON is the session's state with the server's time, the number of live follow streams and
// whether a page leads (leadingLocked).
type stateJSON struct {
	State
	ServerTime int64 `json:"serverTime"`
	Followers  int   `json:"followers"`
	Leading    bool  `json:"leading"`
}

func (b *Band) stateJSONLocked() []byte {
	data, err := json.Marshal(stateJSON{b.sess.state, time.Now().UnixMilli(), b.hub.Count(b.sess.topic), b.leadingLocked()})
	if err != nil { // cannot happen: strings, booleans and integers
		panic("band: cannot encode the state: " + err.Error())
	}
	return data
}

// publishStateLocked sends the state to every follower and returns it.
func (b *Band) publishStateLocked() []byte {
	data := b.stateJSONLocked()
	b.seq++
	b.hub.Publish(b.sess.topic, sse.Event{Name: "state", Seq: b.seq, Data: data})
	return data
}

// followersChanged tells every follower of topic the new count, when topic is still the session's.
func (b *Band) followersChanged(topic string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess != nil && b.sess.topic == topic {
		b.publishStateLocked()
	}
}

// leadingLocked says whether a page leads: it holds the leader's stream, or its stream ended less than
// LeaderGrace ago (it may be opening the next song).
func (b *Band) leadingLocked() bool {
	s := b.sess
	return b.hub.Count(s.lead) > 0 || (!s.leftAt.IsZero() && time.Since(s.leftAt) < LeaderGrace)
}

// leaderLeft notes that a stream of the page leading through topic ended. When it was the last, the
// followers hear that no page leads LeaderGrace later, unless a leading page opens its stream again
// by then.
func (b *Band) leaderLeft(topic string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.sess
	if s == nil || s.lead != topic || b.hub.Count(topic) > 0 {
		return
	}
	s.stopGrace()
	s.leftAt = time.Now()
	s.gone = time.AfterFunc(LeaderGrace, func() { b.leaderGone(topic) })
}

// leaderGone tells every follower that no page leads, when that is still so.
func (b *Band) leaderGone(topic string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess != nil && b.sess.lead == topic && !b.leadingLocked() {
		b.sess.gone = nil
		b.publishStateLocked()
	}
}

// leadStream opens the leading page's stream: its first event is the state; the followers hear that a
// page leads. It ends with `ended` when the lead moves or sharing stops.
func (b *Band) leadStream(leader string) (*sse.Subscription, sse.Event, string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	s, err := b.leaderLocked(leader)
	if err != nil {
		return nil, sse.Event{}, "", err
	}
	sub, err := b.hub.Subscribe(s.lead)
	if err != nil {
		return nil, sse.Event{}, "", err
	}
	s.stopGrace()
	data := b.publishStateLocked()
	return sub, sse.Event{Name: "state", Seq: b.seq, Data: data}, s.lead, nil
}

// Commit is the board store's OnCommit hook: a commit of the board the followers see reaches them as a
// `board` event with the whole board. It never blocks.
func (b *Band) Commit(bd store.Board) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess == nil || b.sess.state.Board != bd.ID {
		return
	}
	b.seq++
	b.hub.Publish(b.sess.topic, sse.Event{Name: boardhttp.EventName, Seq: b.seq, Data: bd.JSON()})
}

// subscribe opens a follower's stream: the subscription and the first event, the state now. It fails
// when the cookie stopped working in between.
func (b *Band) subscribe(cookie string) (*sse.Subscription, sse.Event, string, error) {
	topic, _, err := b.follower(cookie)
	if err != nil {
		return nil, sse.Event{}, "", err
	}
	sub, err := b.hub.Subscribe(topic)
	if err != nil {
		return nil, sse.Event{}, "", err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess == nil || b.sess.topic != topic {
		sub.Close()
		return nil, sse.Event{}, "", ErrNotFollower
	}
	// The count now includes this stream: everyone, this one first, hears it.
	first := sse.Event{Name: "state", Seq: b.seq + 1, Data: b.stateJSONLocked()}
	b.publishStateLocked()
	return sub, first, topic, nil
}

// current returns the state a follower's cookie sees, or ErrNotFollower.
func (b *Band) current(cookie string) (State, error) {
	_, st, err := b.follower(cookie)
	return st, err
}

// Close ends every stream.
func (b *Band) Close() { b.hub.Close() }
