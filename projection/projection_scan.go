package projection

import (
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
)

// A small structural JSON scanner for the projection. It walks objects and arrays in one pass, so the
// projector can descend into an entry's `message` and its `content` while it looks for the entry's end,
// and it skips what is never projected (tool results, thinking, arguments, summaries, output) without
// decoding it: strings are crossed with strings.IndexByte, which is much faster than a byte loop over
// tool output. Scalars that are projected are decoded with gjson (decodeString).
//
// It checks structure strictly (quotes, nesting, members, commas, literals) but not every detail of
// JSON (number grammar, control bytes inside strings, escape spelling): those cannot hurt the
// projection, which decodes only what it keeps. Every function is bounded by len(s) and never panics.

// maxNesting bounds the depth of skipped values (Pi's entries are a handful of levels deep).
const maxNesting = 512

// view returns a string sharing b's memory. The string must not outlive the call that made it, and b
// must not change meanwhile: every string the projector keeps is cloned (materialize) before the call
// returns. This is the same zero-copy cast gjson.GetBytes makes; it avoids copying a 20 MB branch.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

func skipWS(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// endOfString returns the index after the string that starts at s[i] == '"'.
func endOfString(s string, i int) (int, bool) {
	j := i + 1
	for {
		k := strings.IndexByte(s[j:], '"')
		if k < 0 {
			return 0, false
		}
		q := j + k
		b := q - 1
		for s[b] == '\\' { // stops at the opening quote at the latest
			b--
		}
		if (q-1-b)%2 == 0 {
			return q + 1, true
		}
		j = q + 1
	}
}

// skipValue returns the index after the JSON value that starts at s[i].
func skipValue(s string, i int) (int, bool) {
	if i >= len(s) {
		return 0, false
	}
	switch c := s[i]; c {
	case '"':
		return endOfString(s, i)
	case '{', '[':
		return skipNested(s, i)
	case 't':
		return literal(s, i, "true")
	case 'f':
		return literal(s, i, "false")
	case 'n':
		return literal(s, i, "null")
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			j := i + 1
			for j < len(s) {
				c := s[j]
				if (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-' {
					j++
					continue
				}
				break
			}
			return j, true
		}
		return 0, false
	}
}

func literal(s string, i int, lit string) (int, bool) {
	if strings.HasPrefix(s[i:], lit) {
		return i + len(lit), true
	}
	return 0, false
}

// skipNested skips the object or array at s[i]. It checks that brackets match, not member syntax.
func skipNested(s string, i int) (int, bool) {
	var objs [maxNesting / 64]uint64 // bit set: the open bracket at that depth is '{'
	depth := 0
	for i < len(s) {
		switch s[i] {
		case '"':
			e, ok := endOfString(s, i)
			if !ok {
				return 0, false
			}
			i = e
			continue
		case '{', '[':
			if depth == maxNesting {
				return 0, false
			}
			w, bit := depth/64, uint64(1)<<(depth%64)
			if s[i] == '{' {
				objs[w] |= bit
			} else {
				objs[w] &^= bit
			}
			depth++
		case '}', ']':
			if depth == 0 {
				return 0, false
			}
			depth--
			isObj := objs[depth/64]&(uint64(1)<<(depth%64)) != 0
			if isObj != (s[i] == '}') {
				return 0, false
			}
			if depth == 0 {
				return i + 1, true
			}
		}
		i++
	}
	return 0, false
}

// objIter walks the members of the object whose '{' is at s[i]. After next returns a member, the
// caller consumes the value that starts at v and stores its end in it.i (or sets it.bad).
type objIter struct {
	s   string
	i   int
	n   int
	bad bool
	end int // after the closing brace, once next returned false without bad
}

func newObjIter(s string, i int) objIter { return objIter{s: s, i: i + 1} }

// next returns the next member's key (decoded) and the start of its value.
func (o *objIter) next() (key string, v int, ok bool) {
	if o.bad {
		return "", 0, false // a member that did not scan ends the object: the caller checks o.bad after its loop
	}
	s := o.s
	i := skipWS(s, o.i)
	if i >= len(s) {
		o.bad = true
		return "", 0, false
	}
	if o.n > 0 {
		switch s[i] {
		case ',':
			i = skipWS(s, i+1)
		case '}':
			o.end = i + 1
			return "", 0, false
		default:
			o.bad = true
			return "", 0, false
		}
	} else if s[i] == '}' {
		o.end = i + 1
		return "", 0, false
	}
	if i >= len(s) || s[i] != '"' {
		o.bad = true
		return "", 0, false
	}
	// Keys are short: a byte loop, falling back to the string scanner and gjson for escapes.
	e := i + 1
	for e < len(s) && s[e] != '"' && s[e] != '\\' {
		e++
	}
	if e >= len(s) {
		o.bad = true
		return "", 0, false
	}
	if s[e] == '"' {
		key, e = s[i+1:e], e+1
	} else {
		if e, ok = endOfString(s, i); !ok {
			o.bad = true
			return "", 0, false
		}
		key, _ = decodeString(s[i:e])
	}
	i = skipWS(s, e)
	if i >= len(s) || s[i] != ':' {
		o.bad = true
		return "", 0, false
	}
	i = skipWS(s, i+1)
	if i >= len(s) {
		o.bad = true
		return "", 0, false
	}
	o.n++
	return key, i, true
}

// skip consumes the value at v. On failure it sets bad and leaves i at v, so s[v:i] stays a valid
// (empty) slice expression.
func (o *objIter) skip(v int) {
	e, ok := skipValue(o.s, v)
	if !ok {
		o.bad = true
		e = v
	}
	o.i = e
}

// stringOnce consumes the value at v and, when it is a string and its key was not seen before (*have),
// decodes it into *dst. It reports false otherwise: a repeated key or another type is not what Pi writes,
// and the caller marks the object bad.
func (o *objIter) stringOnce(v int, dst *string, have *bool) bool {
	o.skip(v)
	raw := o.s[v:o.i]
	if o.bad || *have || !isString(raw) {
		return false
	}
	*dst, _ = decodeString(raw)
	*have = true
	return true
}

// arrIter walks the elements of the array whose '[' is at s[i], like objIter.
type arrIter struct {
	s   string
	i   int
	n   int
	bad bool
	end int
}

func newArrIter(s string, i int) arrIter { return arrIter{s: s, i: i + 1} }

// next returns the start of the next element.
func (a *arrIter) next() (v int, ok bool) {
	s := a.s
	i := skipWS(s, a.i)
	if i >= len(s) {
		a.bad = true
		return 0, false
	}
	if a.n > 0 {
		switch s[i] {
		case ',':
			i = skipWS(s, i+1)
		case ']':
			a.end = i + 1
			return 0, false
		default:
			a.bad = true
			return 0, false
		}
	} else if s[i] == ']' {
		a.end = i + 1
		return 0, false
	}
	if i >= len(s) || s[i] == ']' || s[i] == ',' {
		a.bad = true
		return 0, false
	}
	a.n++
	return i, true
}

func (a *arrIter) skip(v int) {
	e, ok := skipValue(a.s, v)
	if !ok {
		a.bad = true
		e = v
	}
	a.i = e
}

// decodeString returns the value of the raw JSON string (with quotes). fresh is true when the result
// was allocated by the decoder; otherwise it shares memory with raw. Decoding is gjson's.
func decodeString(raw string) (s string, fresh bool) {
	if strings.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1], false
	}
	return gjson.Parse(raw).Str, true
}

// isString reports whether the raw value is a JSON string (the scanner already found its end).
func isString(raw string) bool { return len(raw) >= 2 && raw[0] == '"' }
