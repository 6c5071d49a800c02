package link

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sort"

	"github.com/go-json-experiment/json/jsontext"
)

// MaxFrame is the largest frame, in bytes without its newline. A longer line is a malformed frame.
const MaxFrame = 16 << 20

// Bounds on the envelope's own fields.
const (
	maxNameLen    = 64   // call and note names: ^[a-z][a-z0-9_]{0,63}$
	maxCodeLen    = 64   // err.code: same alphabet
	maxMessageLen = 4096 // err.message, in bytes
)

type kind uint8

const (
	kindCall kind = iota + 1
	kindReply
	kindNote
)

// frame is one well-formed frame.
type frame struct {
	kind kind
	id   int64  // call, reply
	name string // call, note
	args []byte // call: raw JSON object
	ok   []byte // reply: raw JSON value, nil for an err reply
	err  *Error // reply
	note []byte // note: the whole frame, its "note" member included
	size int    // bytes in the line
}

// malformedError describes a frame that was refused. It never carries the frame's content.
type malformedError struct {
	Reason string // what was wrong, in words that never quote the frame
	Size   int    // bytes in the line (without the newline); for a too-long frame, at least MaxFrame+1
	ID     int64  // the frame's id when it carried a valid one, else 0
	Reply  bool   // the frame had an "ok" or "err" member: it is never answered (its id is not a call id)
}

func (e *malformedError) Error() string {
	if e.ID > 0 {
		return fmt.Sprintf("malformed frame (id %d, %d bytes): %s", e.ID, e.Size, e.Reason)
	}
	return fmt.Sprintf("malformed frame (%d bytes): %s", e.Size, e.Reason)
}

// answerable reports whether the malformed frame gets an err reply: it carried a valid id and did not
// claim to be a reply (an answer to a reply would land on one of the peer's own calls).
func (e *malformedError) answerable() bool { return e.ID > 0 && !e.Reply }

func validName(s string, max int) bool {
	if len(s) == 0 || len(s) > max || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// parseFrame validates one line strictly: UTF-8, depth, JSON grammar, an object whose top-level members
// form exactly one of the three shapes, with bounded envelope fields. Payloads (args, ok, note fields) are
// checked only for being valid JSON; their meaning is the handler's to check.
//
// Its cognitive complexity is over the lint gate of 30, and accepted: one branch per frame member of the
// link protocol, fuzzed.
//
//gocognit:ignore
func parseFrame(line []byte) (frame, *malformedError) {
	bad := func(reason string) *malformedError { return &malformedError{Reason: reason, Size: len(line)} }
	if len(bytes.TrimLeft(line, " \t\r\n")) == 0 {
		return frame{}, bad("empty frame")
	}
	m, err := parseObject(line)
	if err != nil {
		return frame{}, bad(err.Error())
	}
	rawID, hasID := m["id"]
	_, hasOK := m["ok"]
	_, hasErr := m["err"]
	rawCall, hasCall := m["call"]
	rawNote, hasNote := m["note"]

	var id int64
	me := bad("")
	me.Reply = hasOK || hasErr
	if hasID {
		n, err := decodeInt(rawID)
		if err != nil || n <= 0 {
			me.Reason = "id must be a positive integer"
			return frame{}, me
		}
		id = n
		me.ID = id
	}
	fail := func(reason string) (frame, *malformedError) { me.Reason = reason; return frame{}, me }

	switch {
	case hasNote:
		if hasID || hasCall || hasOK || hasErr {
			return fail("a note carries no id, call, ok or err")
		}
		name, err := decodeString(rawNote, maxNameLen)
		if err != nil || !validName(name, maxNameLen) {
			return fail("note name must match [a-z][a-z0-9_]{0,63}")
		}
		return frame{kind: kindNote, name: name, note: line, size: len(line)}, nil
	case hasCall:
		if !hasID {
			return fail("a call needs an id")
		}
		if hasOK || hasErr {
			return fail("a call carries no ok or err")
		}
		args, ok := m["args"]
		if !ok {
			return fail("a call needs args")
		}
		if len(m) != 3 {
			return fail("unknown member in a call")
		}
		if args.Kind() != '{' {
			return fail("call args must be an object")
		}
		name, err := decodeString(rawCall, maxNameLen)
		if err != nil || !validName(name, maxNameLen) {
			return fail("call name must match [a-z][a-z0-9_]{0,63}")
		}
		return frame{kind: kindCall, id: id, name: name, args: args, size: len(line)}, nil
	case hasOK || hasErr:
		if !hasID {
			return fail("a reply needs an id")
		}
		if hasOK && hasErr {
			return fail("a reply carries ok or err, not both")
		}
		if len(m) != 2 {
			return fail("unknown member in a reply")
		}
		if hasOK {
			return frame{kind: kindReply, id: id, ok: m["ok"], size: len(line)}, nil
		}
		e, reason := parseErr(m["err"])
		if e == nil {
			return fail(reason)
		}
		return frame{kind: kindReply, id: id, err: e, size: len(line)}, nil
	default:
		return fail("unknown frame shape (no call, ok, err or note)")
	}
}

// parseErr reads an err object: code and message required and bounded; other members are kept raw.
func parseErr(raw jsontext.Value) (*Error, string) {
	if raw.Kind() != '{' {
		return nil, "err must be an object"
	}
	m, err := parseObject(raw)
	if err != nil {
		return nil, "err: " + err.Error()
	}
	code, err := decodeString(m["code"], maxCodeLen)
	if err != nil || !validName(code, maxCodeLen) {
		return nil, "err.code must match [a-z][a-z0-9_]{0,63}"
	}
	msg, err := decodeString(m["message"], maxMessageLen)
	if err != nil {
		return nil, "err.message must be a string of at most 4096 bytes"
	}
	e := &Error{Code: code, Message: msg}
	for k, v := range m {
		if k == "code" || k == "message" {
			continue
		}
		if e.Fields == nil {
			e.Fields = map[string]any{}
		}
		e.Fields[k] = rawJSON(v)
	}
	return e, ""
}

// lineReader reads newline-terminated lines of at most max bytes. A longer line is discarded up to its
// newline without ever being held in memory whole.
type lineReader struct {
	br  *bufio.Reader
	max int
}

func newLineReader(r io.Reader, max int) *lineReader {
	size := 64 << 10
	if max+1 < size {
		size = max + 1
	}
	if size < 16 {
		size = 16
	}
	return &lineReader{br: bufio.NewReaderSize(r, size), max: max}
}

// next returns the next line without its newline, in a buffer of its own. For a too-long line it returns
// tooLong and the number of bytes discarded. At the end of input it returns io.EOF (a last line without a
// newline is returned first); other read errors are returned as they are.
func (lr *lineReader) next() (line []byte, size int, tooLong bool, err error) {
	for {
		chunk, rerr := lr.br.ReadSlice('\n')
		n := len(chunk)
		terminated := n > 0 && chunk[n-1] == '\n'
		if terminated {
			chunk = chunk[:n-1]
		}
		size += len(chunk)
		if !tooLong {
			if size > lr.max {
				tooLong, line = true, nil
			} else {
				if line == nil {
					line = make([]byte, 0, len(chunk))
				} else if cap(line)-len(line) < len(chunk) {
					// Double (append grows large slices by only 1.25×, which costs five times the
					// frame in allocations for a 16 MiB frame); never past the limit.
					grown := make([]byte, len(line), min(max(2*cap(line), len(line)+len(chunk)), lr.max))
					copy(grown, line)
					line = grown
				}
				line = append(line, chunk...)
			}
		}
		switch {
		case terminated:
			return line, size, tooLong, nil
		case rerr == bufio.ErrBufferFull:
			continue
		case rerr != nil:
			if size > 0 || tooLong {
				// The last line had no newline: hand it out now, the error comes with the next call.
				return line, size, tooLong, nil
			}
			return nil, 0, false, rerr
		}
	}
}

// idSet remembers the ids a peer has used for its calls, as sorted disjoint ranges. A peer that counts
// up needs one range. The number of ranges is bounded: past maxRanges the two lowest are merged, so a
// peer with a pathological id pattern may see a never-used low id refused as a repeat.
type idSet struct{ r [][2]int64 }

const maxRanges = 1024

// add records id and reports whether it was new.
func (s *idSet) add(id int64) bool {
	i := sort.Search(len(s.r), func(i int) bool { return s.r[i][1] >= id })
	if i < len(s.r) && s.r[i][0] <= id {
		return false
	}
	joinLeft := i > 0 && s.r[i-1][1] == id-1
	joinRight := i < len(s.r) && s.r[i][0] == id+1
	switch {
	case joinLeft && joinRight:
		s.r[i-1][1] = s.r[i][1]
		s.r = append(s.r[:i], s.r[i+1:]...)
	case joinLeft:
		s.r[i-1][1] = id
	case joinRight:
		s.r[i][0] = id
	default:
		s.r = append(s.r, [2]int64{})
		copy(s.r[i+1:], s.r[i:])
		s.r[i] = [2]int64{id, id}
		if len(s.r) > maxRanges {
			s.r[0][1] = s.r[1][1]
			s.r = append(s.r[:1], s.r[2:]...)
		}
	}
	return true
}
