package projection

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"tele/utf16count"
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

// ---- entries ----

// applyEntry reads the entry value at s[i] and projects it. ok is false only when the JSON structure
// is broken (the end of the entry cannot be known); a malformed entry is skipped and counted.
func (p *Projector) applyEntry(s string, i int, set *idSet, track bool) (end int, ok bool) {
	if s[i] != '{' {
		e, ok := skipValue(s, i)
		if !ok {
			return 0, false
		}
		p.skipped++
		return e, true
	}
	var typ, id string
	var haveType, haveID, haveMsg, msgBad, bad bool
	o := newObjIter(s, i)
	for {
		k, v, more := o.next()
		if !more {
			break
		}
		switch k {
		case "type":
			if !o.stringOnce(v, &typ, &haveType) {
				bad = true
			}
		case "id":
			if !o.stringOnce(v, &id, &haveID) {
				bad = true
			}
		case "message":
			// Only a message entry's message matters (and is read): for other types it is ignored.
			if haveMsg || msgBad || s[v] != '{' || (haveType && typ != "message") {
				msgBad = msgBad || haveMsg || s[v] != '{'
				haveMsg = false
				o.skip(v)
				break
			}
			e, ok := p.parseMessage(s, v)
			if !ok {
				return 0, false
			}
			o.i = e
			haveMsg = true
		default:
			o.skip(v)
		}
		if o.bad {
			return 0, false
		}
	}
	if o.bad {
		return 0, false
	}
	end = o.end
	if bad || !haveType || !haveID || !validEntryID(id) || !set.add(id) {
		p.skipped++
		return end, true
	}
	if track {
		p.added = append(p.added, id)
	}
	switch typ {
	case "message":
		if msgBad || !haveMsg || !p.projectMessage(&p.live, s, id) {
			p.skipped++
		}
	case "compaction":
		sl := p.live.push()
		sl.it.Role, sl.it.Code = RoleNotice, CodeContextCompacted
		sl.base, sl.lazy = id, lazyID
	}
	return end, true
}

// validEntryID: 1..128 bytes of printable ASCII except '.', which item ids use as the separator.
func validEntryID(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c <= ' ' || c > '~' || c == '.' {
			return false
		}
	}
	return true
}

// msgInfo is what parseMessage keeps of a message object: raw values, decoded lazily.
type msgInfo struct {
	bad        bool
	haveRole   bool
	role       string
	content    string // raw value
	blocksDone bool   // p.blocks holds the parsed content array
	callID     string
	haveCallID bool
	isError    int8 // 0 absent, 1 false, 2 true
	stopReason string
	haveStop   bool
}

// parseMessage reads the message object at s[i] into p.msg. When the role comes before the content
// (Pi's order) and is user or assistant, the content blocks are parsed on the way; any other content
// (tool results, bash output) is skipped unread.
func (p *Projector) parseMessage(s string, i int) (end int, ok bool) {
	m := &p.msg
	*m = msgInfo{}
	o := newObjIter(s, i)
	for {
		k, v, more := o.next()
		if !more {
			break
		}
		switch k {
		case "role":
			if !o.stringOnce(v, &m.role, &m.haveRole) {
				m.bad = true
			}
		case "content":
			if m.content != "" {
				m.bad = true
				o.skip(v)
				break
			}
			if m.haveRole && (m.role == RoleUser || m.role == RoleAssistant) && s[v] == '[' {
				e, ok := p.parseBlocks(s, v)
				if !ok {
					return 0, false
				}
				o.i = e
				m.blocksDone = true
			} else {
				o.skip(v)
			}
			if !o.bad {
				m.content = s[v:o.i]
			}
		case "toolCallId":
			if !o.stringOnce(v, &m.callID, &m.haveCallID) {
				m.bad = true
			}
		case "isError":
			o.skip(v)
			switch raw := s[v:o.i]; {
			case o.bad:
			case m.isError == 0 && raw == "false":
				m.isError = 1
			case m.isError == 0 && raw == "true":
				m.isError = 2
			default:
				m.bad = true
			}
		case "stopReason":
			if !o.stringOnce(v, &m.stopReason, &m.haveStop) {
				m.bad = true
			}
		default:
			o.skip(v)
		}
		if o.bad {
			return 0, false
		}
	}
	if o.bad {
		return 0, false
	}
	return o.end, true
}

// block is one content block: its kind and the raw values kept.
type block struct {
	kind uint8
	text string // raw string (text blocks)
	id   string // decoded (toolCall blocks)
	name string // raw string (toolCall blocks)
}

const (
	blockOther uint8 = iota // thinking, image, unknown: never shown
	blockText
	blockToolCall
	blockBad
)

// parseBlocks reads the content array at s[i] into p.blocks.
func (p *Projector) parseBlocks(s string, i int) (end int, ok bool) {
	p.blocks = p.blocks[:0]
	a := newArrIter(s, i)
	for {
		v, more := a.next()
		if !more {
			break
		}
		if s[v] != '{' {
			a.skip(v)
			p.blocks = append(p.blocks, block{kind: blockBad})
			if a.bad {
				return 0, false
			}
			continue
		}
		var typ, text, id, name string
		var haveType, haveText, haveID, haveName, bad bool
		o := newObjIter(s, v)
		for {
			k, w, more := o.next()
			if !more {
				break
			}
			o.skip(w)
			if o.bad {
				return 0, false
			}
			raw := s[w:o.i]
			switch k {
			case "type":
				bad = bad || haveType || !isString(raw)
				typ, haveType = raw, true
			case "text":
				bad = bad || haveText
				text, haveText = raw, true
			case "id":
				bad = bad || haveID
				id, haveID = raw, true
			case "name":
				bad = bad || haveName
				name, haveName = raw, true
			}
		}
		if o.bad {
			return 0, false
		}
		a.i = o.end
		b := block{kind: blockBad}
		if !bad && haveType {
			switch t, _ := decodeString(typ); t {
			case "text":
				if isString(text) {
					b = block{kind: blockText, text: text}
				}
			case "toolCall":
				if isString(id) && isString(name) && len(name) > 2 {
					dec, _ := decodeString(id)
					b = block{kind: blockToolCall, id: dec, name: name}
				}
			default:
				b.kind = blockOther
			}
		}
		p.blocks = append(p.blocks, b)
	}
	if a.bad {
		return 0, false
	}
	return a.end, true
}

// projectMessage projects p.msg (the message of entry base) into r. It reports false, having pushed
// nothing, when the message is malformed. Roles other than user, assistant and toolResult are ignored.
func (p *Projector) projectMessage(r *ring, s, base string) bool {
	m := &p.msg
	if m.bad || !m.haveRole {
		return false
	}
	switch m.role {
	case RoleUser, RoleAssistant:
		if m.content == "" || (m.role == RoleAssistant && m.content[0] != '[') {
			return false
		}
		if m.content[0] == '"' {
			if m.content != `""` {
				sl := r.push()
				sl.it.Role, sl.base, sl.lazy, sl.src = RoleUser, base, lazyText, m.content
			}
			return true
		}
		if m.content[0] != '[' {
			return false
		}
		if !m.blocksDone {
			if _, ok := p.parseBlocks(m.content, 0); !ok {
				return false
			}
			m.blocksDone = true
		}
		for _, b := range p.blocks {
			if b.kind == blockBad {
				return false
			}
		}
		if m.role == RoleUser {
			p.pushRun(r, base, RoleUser, 0, len(p.blocks), 0)
			return true
		}
		run, runs := -1, 0
		for k, b := range p.blocks {
			switch b.kind {
			case blockText:
				if run < 0 {
					run = k
				}
			case blockToolCall:
				if run >= 0 && p.pushRun(r, base, RoleAssistant, run, k, runs) {
					runs++
				}
				run = -1
				sl := r.push()
				sl.it.Role, sl.it.Status = RoleTool, ToolCalling
				sl.base, sl.suffix, sl.num = base, 't', k
				sl.lazy, sl.src, sl.callID = lazyName, b.name, b.id
			}
		}
		if run >= 0 {
			p.pushRun(r, base, RoleAssistant, run, len(p.blocks), runs)
		}
		if m.haveStop && (m.stopReason == "error" || m.stopReason == "aborted") {
			sl := r.push()
			sl.it.Role, sl.it.Code = RoleNotice, CodeModelFailed
			if m.stopReason == "aborted" {
				sl.it.Code = CodeReplyAborted
			}
			sl.base, sl.suffix, sl.lazy = base, 'n', lazyID
		}
	case "toolResult":
		if !m.haveCallID {
			return false
		}
		p.resolveTool(m.callID, m.isError == 2)
	}
	return true
}

// pushRun pushes one text item for the text blocks k0..k1-1 of p.blocks (other blocks in between are
// skipped), unless they are all empty. The nth run of an assistant message after the first gets the
// id <base>.x<k0>. It reports whether an item was pushed.
func (p *Projector) pushRun(r *ring, base, role string, k0, k1, nth int) bool {
	texts, single := 0, ""
	for _, b := range p.blocks[k0:k1] {
		if b.kind == blockText && b.text != `""` {
			texts++
			single = b.text
		}
	}
	if texts == 0 {
		return false
	}
	sl := r.push()
	sl.it.Role, sl.base = role, base
	if nth > 0 {
		sl.suffix, sl.num = 'x', k0
	}
	if texts == 1 {
		sl.lazy, sl.src = lazyText, single
		return true
	}
	sl.lazy, sl.k0 = lazyTexts, len(p.texts)
	for _, b := range p.blocks[k0:k1] {
		if b.kind == blockText && b.text != `""` {
			p.texts = append(p.texts, b.text)
		}
	}
	sl.k1 = len(p.texts)
	return true
}

// resolveTool settles the newest calling tool item of callID among the kept items.
func (p *Projector) resolveTool(callID string, failed bool) {
	for k := 0; k < p.live.len(); k++ {
		sl := p.live.at(k)
		if sl.it.Role == RoleTool && sl.it.Status == ToolCalling && sl.callID == callID {
			p.live.save(p.live.index(k))
			sl.it.Status = ToolCompleted
			if failed {
				sl.it.Status = ToolFailed
			}
			sl.callID = ""
			sl.enc = nil // encoded again by materialize; the journal's copy keeps the old bytes
			p.live.touched = true
			return
		}
	}
}

// ---- items ----

// slot is one kept item. While lazy, its id, text or name are still raw parts of the caller's input
// (base, src); materialize decodes and copies them, and encodes the item, before the call returns.
type slot struct {
	it     Item
	enc    []byte // the item's JSON; never modified in place (the journal and views share it)
	lazy   uint8
	suffix byte // id suffix: 0 (none), 't', 'x' or 'n'
	num    int  // id suffix number
	k0, k1 int  // range of p.texts (lazyTexts)
	base   string
	src    string
	callID string // pending tool call id
}

const (
	lazyNone  uint8 = iota
	lazyID          // only the id (notices)
	lazyText        // text = the raw JSON string src
	lazyTexts       // text = the raw JSON strings p.texts[k0:k1], joined
	lazyName        // name = the raw JSON string src
)

// materialize makes a new or changed slot final: it decodes and copies what is still lazy and encodes
// the item (enc nil) into bytes of its own.
func (p *Projector) materialize(sl *slot) {
	if sl.lazy != lazyNone {
		p.decode(sl)
	}
	if sl.enc == nil {
		p.scratch = appendItemJSON(p.scratch[:0], &sl.it)
		sl.enc = append(make([]byte, 0, len(p.scratch)), p.scratch...)
	}
}

// decode fills in the id, text or name of a lazy slot from the caller's input.
func (p *Projector) decode(sl *slot) {
	switch sl.suffix {
	case 0:
		sl.it.ID = strings.Clone(sl.base)
	case 'n':
		sl.it.ID = sl.base + ".n"
	default:
		sl.it.ID = sl.base + "." + string(sl.suffix) + strconv.Itoa(sl.num)
	}
	switch sl.lazy {
	case lazyText:
		sl.it.Text = keep(sl.src, MaxItemTextUnits)
	case lazyName:
		sl.it.Name = keep(sl.src, MaxItemNameUnits)
	case lazyTexts:
		sep := "\n\n"
		if sl.it.Role == RoleUser {
			sep = "\n"
		}
		var b strings.Builder
		for k, raw := range p.texts[sl.k0:sl.k1] {
			if k > 0 {
				b.WriteString(sep)
			}
			t, _ := decodeString(raw)
			b.WriteString(t)
			if b.Len() > 4*MaxItemTextUnits { // enough for the cut below
				break
			}
		}
		sl.it.Text = cleanText(b.String(), MaxItemTextUnits, true)
	}
	if sl.it.Status == ToolCalling {
		sl.callID = strings.Clone(sl.callID)
	} else {
		sl.callID = ""
	}
	sl.base, sl.src, sl.lazy = "", "", lazyNone
	sl.enc = nil
}

// keep decodes the raw JSON string and returns an owned, valid, cut copy of it.
func keep(raw string, max int) string {
	s, fresh := decodeString(raw)
	return cleanText(s, max, fresh)
}

// cleanText makes s valid UTF-8 (U+FFFD for bad bytes), cuts it to max units and returns a string that
// shares no memory with the caller's input (owned: s is already a private copy).
func cleanText(s string, max int, owned bool) string {
	if !utf8.ValidString(s) {
		s, owned = strings.ToValidUTF8(s, "\uFFFD"), true
	}
	if c := utf16count.Cut(s, max); len(c) < len(s) {
		return strings.Clone(c)
	}
	if owned {
		return s
	}
	return strings.Clone(s)
}

// ---- storage ----

// ring keeps the newest MaxViewItems items and counts all of them since the last reset. Between begin
// and end it journals the first change of each slot, so rollback can undo a failed call; a call that
// appends one entry saves one slot, not the ring.
type ring struct {
	slots   [MaxViewItems]slot
	n       int
	touched bool // a kept item changed (tool status) since begin

	journal bool
	epoch   uint32
	stamp   [MaxViewItems]uint32 // epoch of the call that saved the slot
	undo    []undoRec
	startN  int
}

type undoRec struct {
	k   int
	old slot
}

func (r *ring) begin() {
	r.journal, r.touched, r.startN = true, false, r.n
	if r.epoch++; r.epoch == 0 {
		r.stamp = [MaxViewItems]uint32{}
		r.epoch = 1
	}
}

// save records slot k's value before its first change in this call.
func (r *ring) save(k int) {
	if r.journal && r.stamp[k] != r.epoch {
		r.stamp[k] = r.epoch
		r.undo = append(r.undo, undoRec{k, r.slots[k]})
	}
}

func (r *ring) rollback() {
	for u := len(r.undo) - 1; u >= 0; u-- {
		r.slots[r.undo[u].k] = r.undo[u].old
	}
	r.n, r.touched = r.startN, false
}

func (r *ring) end() {
	clear(r.undo)
	r.undo, r.journal = r.undo[:0], false
	if cap(r.undo) > MaxViewItems {
		r.undo = nil
	}
}

// changed reports whether the call since begin appended or changed items.
func (r *ring) changed() bool { return r.n != r.startN || r.touched }

func (r *ring) reset() {
	for k := 0; k < r.len(); k++ {
		r.save(r.index(k))
		r.slots[r.index(k)] = slot{}
	}
	r.n = 0
}

func (r *ring) len() int { return min(r.n, MaxViewItems) }

// index returns the slot index of the kth newest item (0 = the newest).
func (r *ring) index(k int) int { return (r.n - 1 - k) % MaxViewItems }

func (r *ring) at(k int) *slot { return &r.slots[r.index(k)] }

func (r *ring) push() *slot {
	k := r.n % MaxViewItems
	r.save(k)
	r.slots[k] = slot{}
	r.n++
	return &r.slots[k]
}

// idSet is a set of entry ids. Ids of 8 bytes (Pi's) are map keys of one word; other ids of up to 16
// bytes are stored without allocating.
type idSet struct {
	eight map[uint64]struct{}
	short map[shortID]struct{}
	long  map[string]struct{}
}

type shortID struct {
	b [16]byte
	n uint8
}

func newIDSet() *idSet {
	return &idSet{eight: map[uint64]struct{}{}, short: map[shortID]struct{}{}, long: map[string]struct{}{}}
}

func (s *idSet) clear() {
	clear(s.eight)
	clear(s.short)
	clear(s.long)
}

func word8(id string) uint64 {
	_ = id[7]
	return uint64(id[0]) | uint64(id[1])<<8 | uint64(id[2])<<16 | uint64(id[3])<<24 |
		uint64(id[4])<<32 | uint64(id[5])<<40 | uint64(id[6])<<48 | uint64(id[7])<<56
}

// add adds id and reports whether it was new.
func (s *idSet) add(id string) bool {
	switch {
	case len(id) == 8:
		k := word8(id)
		if _, dup := s.eight[k]; dup {
			return false
		}
		s.eight[k] = struct{}{}
	case len(id) <= 16:
		var k shortID
		k.n = uint8(copy(k.b[:], id))
		if _, dup := s.short[k]; dup {
			return false
		}
		s.short[k] = struct{}{}
	default:
		if _, dup := s.long[id]; dup {
			return false
		}
		s.long[strings.Clone(id)] = struct{}{}
	}
	return true
}

func (s *idSet) remove(id string) {
	switch {
	case len(id) == 8:
		delete(s.eight, word8(id))
	case len(id) <= 16:
		var k shortID
		k.n = uint8(copy(k.b[:], id))
		delete(s.short, k)
	default:
		delete(s.long, id)
	}
}
