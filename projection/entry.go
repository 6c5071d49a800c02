package projection

import ()

// Reading one branch entry: its type and id, its message, the message's content blocks. The scanner
// (projection_scan.go) walks the raw bytes; only what is projected is decoded.

// applyEntry reads the entry value at s[i] and projects it. ok is false only when the JSON structure
// is broken (the end of the entry cannot be known); a malformed entry is skipped and counted.
//
// Its cognitive complexity is over the lint gate of 30, and accepted: a hand scanner of Pi's branch: one
// branch per token or block kind, fuzzed.
//
//gocognit:ignore
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
//
// Its cognitive complexity is over the lint gate of 30, and accepted: a hand scanner of Pi's branch: one
// branch per token or block kind, fuzzed.
//
//gocognit:ignore
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
//
// Its cognitive complexity is over the lint gate of 30, and accepted: a hand scanner of Pi's branch: one
// branch per token or block kind, fuzzed.
//
//gocognit:ignore
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
