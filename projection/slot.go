package projection

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"tele/utf16count"
)

// From a message to item slots: runs of text, tool calls and their results, notices; and making a
// slot final (decoded, cut to the limits, encoded once).

// projectMessage projects p.msg (the message of entry base) into r. It reports false, having pushed
// nothing, when the message is malformed. Roles other than user, assistant and toolResult are ignored.
//
// Its cognitive complexity is over the lint gate of 30, and accepted: a hand scanner of Pi's branch: one
// branch per token or block kind, fuzzed.
//
//gocognit:ignore
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
