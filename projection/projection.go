package projection

import (
	"errors"
	"strings"
)

// Projector turns Pi's current branch (the raw `getBranch()` entries of the link's `branch` notes) and
// the message being streamed into the display items of docs/projection.md.
//
// What is projected, by entry:
//
//   - message/user: one `user` item, the text of a string content or of its text blocks joined with
//     "\n" (images skipped); id = entry id. A message without text gives no item.
//   - message/assistant: in block order, one `assistant` item per run of text blocks (joined with
//     "\n\n"; thinking and other blocks never shown and do not split a run) and one `tool` item per
//     toolCall block (name and status only, `calling` until its result); then a `model-failed` notice
//     for stopReason "error" or a `reply-aborted` notice for "aborted" (never errorMessage). Ids: the
//     entry id for the first text run, <entry>.x<k> for a later run starting at block k, <entry>.t<k>
//     for the tool call at block k, <entry>.n for the notice.
//   - message/toolResult: no item; it turns the newest `calling` tool item with its toolCallId
//     `completed`, or `failed` when isError is true. Its content is skipped unread.
//   - compaction: a `context-compacted` notice, id = entry id (never the summary, nor the system-prompt
//     checkpoint Pi 1.x keeps in it). The entries before it stay: getBranch() still holds them.
//   - everything else is ignored unread: bashExecution, custom, system (Pi 1.x: the system prompt and
//     tool declarations) and unknown message roles, custom, custom_message, branch_summary, label,
//     session_info, usage and context_edit (Pi 1.x; an edit changes only what the model sees next),
//     model and thinking level changes, unknown entry types, and in messages every field not named
//     above (arguments, results, details, usage, thinkingLevel...).
//
// Strictness: an entry that is not an object, has no string `type` or no valid `id` (1..128 bytes of
// printable ASCII other than '.'), repeats an id already in the branch, or whose projected fields have
// the wrong types (a message without a role or content of the right shape, a block without a string
// type, a text block without string text, a toolCall without string id and name, a non-string
// stopReason or toolCallId, a non-boolean isError, a repeated field) is skipped whole (and counted,
// for the tests to tell a skipped entry from an ignored one). Unknown entry types, roles and block types
// are ignored, not counted.
//
// Incremental: items are kept only for the last MaxViewItems (older ones can never be shown again, as
// the branch only grows until the next reset), plus the count of items since the reset. Appending
// entries costs time proportional to the new entries; a toolResult looks for its tool item among the
// kept items only. Text, names and ids are decoded and copied only for items still kept at the end of
// a call, and each kept item is encoded to JSON once, when it is made or changes: the gateway's
// documents join those encodings. A Projector is not safe for concurrent use.
type Projector struct {
	live          ring   // persisted items; journaled during ApplyBranch, rolled back on failure
	stream, spare *ring  // the streamed message's items; spare is the next stream
	skipped       int    // malformed entries skipped since the projector was made
	seen, fresh   *idSet // entry ids of the branch; fresh is the set a reset builds
	added         []string
	version       uint64

	// scratch, valid within one call only (released before it returns)
	msg     msgInfo
	blocks  []block
	texts   []string // raw text strings of multi-block runs (lazyTexts)
	scratch []byte

	// the window of version winVersion: the newest winLive persisted and winStream streamed items
	winOK              bool
	winVersion         uint64
	winLive, winStream int
	winBytes           int // of the window's JSON array
	winTrunc           bool
}

// NewProjector returns an empty projector.
func NewProjector() *Projector {
	return &Projector{
		stream: new(ring),
		spare:  new(ring),
		seen:   newIDSet(),
		fresh:  newIDSet(),
	}
}

// ApplyBranch applies one `branch` note: entries is its raw JSON array. reset=true replaces everything
// with the whole current branch (root to leaf); reset=false appends the entries added since the last
// note. Malformed entries are skipped. An error (entries not a JSON array, broken structure)
// changes nothing. entries is only read during the call and not kept.
func (p *Projector) ApplyBranch(reset bool, entries []byte) error {
	s := view(entries)
	i := skipWS(s, 0)
	if i >= len(s) || s[i] != '[' {
		return errors.New("chat: branch entries are not a JSON array")
	}
	savedSkipped := p.skipped
	p.live.begin()
	defer p.live.end()
	set := p.seen
	if reset {
		p.live.reset()
		set = p.fresh
		set.clear()
	}
	defer p.release()

	ok := true
	a := newArrIter(s, i)
	for {
		v, more := a.next()
		if !more {
			break
		}
		e, good := p.applyEntry(s, v, set, !reset)
		if !good {
			ok = false
			break
		}
		a.i = e
	}
	if ok && (a.bad || skipWS(s, a.end) != len(s)) {
		ok = false
	}
	if !ok {
		p.live.rollback()
		p.skipped = savedSkipped
		if !reset {
			for _, id := range p.added {
				p.seen.remove(id)
			}
		}
		return errors.New("chat: branch entries are not well-formed JSON")
	}
	if reset {
		p.seen, p.fresh = p.fresh, p.seen
		p.fresh.clear()
	}
	for k := 0; k < p.live.len(); k++ {
		p.materialize(p.live.at(k))
	}
	if reset || p.live.changed() {
		p.version++
	}
	return nil
}

// SetStreaming shows the assistant message being streamed (the raw message of a `stream` note) after
// the persisted items, projected like a persisted assistant message with ids under "stream.live"; nil,
// empty or `null` removes it. The gateway removes it on turn_end and settled, when the persisted branch
// has the message. An error (not an assistant message object, malformed) changes nothing.
func (p *Projector) SetStreaming(message []byte) error {
	s := view(message)
	i := skipWS(s, 0)
	if i == len(s) || (strings.HasPrefix(s[i:], "null") && skipWS(s, i+4) == len(s)) {
		if p.stream.n > 0 {
			p.stream.reset()
			p.version++
		}
		return nil
	}
	defer p.release()
	if s[i] != '{' {
		return errors.New("chat: streamed message is not a JSON object")
	}
	e, ok := p.parseMessage(s, i)
	if !ok || skipWS(s, e) != len(s) {
		return errors.New("chat: streamed message is not well-formed JSON")
	}
	if !p.msg.haveRole || p.msg.role != RoleAssistant {
		return errors.New("chat: streamed message is not an assistant message")
	}
	next := p.spare
	next.reset()
	if !p.projectMessage(next, s, streamID) {
		return errors.New("chat: streamed message is malformed")
	}
	for k := 0; k < next.len(); k++ {
		p.materialize(next.at(k))
	}
	p.stream, p.spare = next, p.stream
	p.spare.reset()
	p.version++
	return nil
}

// streamID is the id base of the streamed message's items. It holds a '.', so it is never an entry id.
const streamID = "stream.live"

// Items returns the view: the last at most MaxViewItems items (persisted, then streamed) whose JSON
// array is at most MaxViewBytes, oldest first, and whether older items were cut. The slice
// is the caller's.
func (p *Projector) Items() (items []Item, truncated bool) {
	p.window()
	items = make([]Item, 0, p.winLive+p.winStream)
	for k := p.winLive - 1; k >= 0; k-- {
		items = append(items, p.live.at(k).it)
	}
	for k := p.winStream - 1; k >= 0; k-- {
		items = append(items, p.stream.at(k).it)
	}
	return items, p.winTrunc
}

// AppendItemEncodings appends the JSON object of each item of the view (Items, oldest first) to parts,
// and returns them with the size of the JSON array they make (brackets and commas included) and
// whether older items were cut. Each item is encoded once, when it is made or changes: the bytes are
// shared and never modified (a changed item gets new ones), so they stay valid after later calls.
// Joined with commas inside brackets they are the view's JSON array, without building it.
func (p *Projector) AppendItemEncodings(parts [][]byte) (_ [][]byte, size int, truncated bool) {
	p.window()
	for k := p.winLive - 1; k >= 0; k-- {
		parts = append(parts, p.live.at(k).enc)
	}
	for k := p.winStream - 1; k >= 0; k-- {
		parts = append(parts, p.stream.at(k).enc)
	}
	return parts, p.winBytes, p.winTrunc
}

// Version increases whenever the view may have changed.
func (p *Projector) Version() uint64 { return p.version }

// window computes the view of the current version, walking back from the newest item.
func (p *Projector) window() {
	if p.winOK && p.winVersion == p.version {
		return
	}
	used, n := 2, 0 // [ ]
	var counts [2]int
	for w, r := range [...]*ring{p.stream, &p.live} {
		for k := 0; k < r.len() && n < MaxViewItems; k++ {
			need := len(r.at(k).enc)
			if n > 0 {
				need++
			}
			if used+need > MaxViewBytes {
				goto done
			}
			used += need
			n++
			counts[w]++
		}
	}
done:
	p.winStream, p.winLive, p.winBytes = counts[0], counts[1], used
	p.winTrunc = n < p.live.n+p.stream.n
	p.winOK, p.winVersion = true, p.version
}

// release drops the scratch references to the caller's bytes.
func (p *Projector) release() {
	clear(p.blocks)
	clear(p.texts)
	clear(p.added)
	p.blocks, p.texts, p.added = p.blocks[:0], p.texts[:0], p.added[:0]
	p.msg = msgInfo{}
	// Do not hold on to the scratch of an unusually big note.
	if cap(p.blocks) > 1<<12 || cap(p.texts) > 1<<12 || cap(p.added) > 1<<16 || cap(p.scratch) > 1<<20 {
		p.blocks, p.texts, p.added, p.scratch = nil, nil, nil, nil
	}
}
