// Package strictjson decodes JSON that comes from outside the process (request bodies, chat commands,
// link frames) and refuses anything a lenient decoder would quietly accept.
//
// Decode reads exactly one JSON value (RFC 8259) into a Go value in a single pass, and rejects:
//   - duplicate object keys at any depth (compared after unescaping, so "a" and "\u0061" collide);
//   - object keys that match no field of the target struct (names match exactly: unlike encoding/json,
//     "Title" is not "title");
//   - anything but whitespace after the value;
//   - invalid UTF-8 and lone UTF-16 surrogate escapes in strings;
//   - a JSON type that does not fit the Go type (a string into an int, a fraction or exponent into an
//     integer, null into a string, number, bool or struct);
//   - nesting deeper than MaxDepth.
//
// Errors in the data are *Error with the JSON path of the offending value. A target that is not a
// non-nil pointer, or holds a type Decode cannot fill (channels, funcs, non-string map keys, the
// ",string" tag option), gives a plain error: that is a programming mistake, not bad input.
//
// Targets follow encoding/json conventions: `json:"name"` tags (",omitempty" and ",omitzero" are
// ignored on input, "-" skips a field), embedded structs are flattened, pointers are allocated, null sets
// pointers, slices, maps and interfaces to nil, interface{} receives map[string]any, []any, string,
// float64, bool or nil, and types implementing json.Unmarshaler (json.RawMessage among them) receive the
// raw bytes of their value, which Decode has already checked strictly. encoding.TextUnmarshaler types
// receive the unescaped text of a JSON string.
package strictjson

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// sharedLimit is the largest input whose strings share one backing string (see decoder.whole): a 4 KB
// board then costs one string allocation instead of hundreds, while a string kept for long (a command
// id remembered for deduplication) pins at most this much.
const sharedLimit = 16 << 10

// MaxDepth bounds the nesting of arrays and objects, so hostile input cannot exhaust the stack.
const MaxDepth = 1000

// Error is a violation in the data. Path is the JSON path of the offending value, like
// `sections[1].bars[3][0]`, or "" for the document itself. Rule says what is wrong in a few words.
type Error struct {
	Path string
	Rule string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return e.Rule
	}
	return e.Path + ": " + e.Rule
}

// Decode parses one JSON value from data into v, which must be a non-nil pointer. See the package
// documentation for what is refused. On error, v may have been partly filled.
func Decode(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("strictjson: Decode needs a non-nil pointer, not %T", v)
	}
	d := decoder{data: data}
	d.skipSpace()
	if d.pos >= len(d.data) {
		return &Error{Rule: "empty input: want one JSON value"}
	}
	if err := d.value(rv.Elem(), planFor(rv.Elem().Type())); err != nil {
		return err
	}
	d.skipSpace()
	if d.pos < len(d.data) {
		return &Error{Rule: fmt.Sprintf("unexpected data after the JSON value (offset %d)", d.pos)}
	}
	return nil
}

// Valid reports whether data is exactly one strict JSON value (the rules of Decode without a target):
// nil, or an *Error saying where and why it is not.
func Valid(data []byte) error {
	d := decoder{data: data}
	d.skipSpace()
	if d.pos >= len(d.data) {
		return &Error{Rule: "empty input: want one JSON value"}
	}
	if err := d.skipValue(); err != nil {
		return err
	}
	d.skipSpace()
	if d.pos < len(d.data) {
		return &Error{Rule: fmt.Sprintf("unexpected data after the JSON value (offset %d)", d.pos)}
	}
	return nil
}

// unsupportedError reports a target type Decode cannot fill: a bug in the caller, never bad input.
type unsupportedError struct{ msg string }

func (e *unsupportedError) Error() string { return "strictjson: " + e.msg }

// plans memoizes the decoding plan of each Go type, as encoding/json does: building one walks the type
// with reflect and costs more than decoding a small message. A plan is derived from its type alone and
// never changes once stored, so this cache holds no state a caller could observe.
var plans sync.Map // reflect.Type → *plan

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	numberType          = reflect.TypeFor[json.Number]()
)

// planKind says how a Go type is filled.
type planKind uint8

const (
	kString planKind = iota
	kBool
	kInt
	kUint
	kFloat
	kInterface // empty interface only
	kPointer
	kSlice
	kArray
	kMap
	kStruct
	kUnmarshaler     // *T implements json.Unmarshaler
	kTextUnmarshaler // *T implements encoding.TextUnmarshaler (JSON strings only)
	kNumber          // json.Number: the number's text
	kUnsupported
)

// planFor returns the cached plan for t, building the plans of t and the types it reaches on first use.
func planFor(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	b := planBuilder{}
	p := b.plan(t)
	actual, _ := plans.LoadOrStore(t, p)
	return actual.(*plan)
}

// plan is how to decode into one Go type. It is immutable once built.
type plan struct {
	kind   planKind
	typ    reflect.Type
	elem   *plan // pointer, slice, array, map
	fields []field
	byName map[string]int // only for structs with many fields
	err    string         // kUnsupported
}

type field struct {
	name  string
	index []int
	plan  *plan
}

// pathElem is one step of the current JSON path; key == "" with idx >= 0 is an array index.
type pathElem struct {
	key string
	raw []byte // the key when it comes straight from the input (skipped objects); avoids a copy
	idx int
}

type decoder struct {
	data  []byte
	pos   int
	depth int
	path  []pathElem
	keys  [][]byte   // scratch for duplicate detection in skipped objects
	slab  []string   // backing store handed out to string lists, so each bar is not an allocation
	lists [][]string // scratch for lists of string lists

	// whole is data as one string, made on first use when data is small: unescaped strings are then
	// substrings of it instead of one allocation each. Bounded by sharedLimit so that keeping a small
	// field of a large frame never pins the whole frame.
	whole string
	buf   []byte // scratch for unescaping
}

// planBuilder builds the plans of one type graph; plans of recursive types refer to themselves.
type planBuilder struct {
	plans map[reflect.Type]*plan
}

func (d *planBuilder) plan(t reflect.Type) *plan {
	if p, ok := d.plans[t]; ok {
		return p
	}
	if d.plans == nil {
		d.plans = make(map[reflect.Type]*plan, 8)
	}
	p := &plan{typ: t}
	d.plans[t] = p // before recursing: recursive types refer to themselves
	if t == numberType {
		p.kind = kNumber
		return p
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		pt := reflect.PointerTo(t)
		if pt.Implements(unmarshalerType) {
			p.kind = kUnmarshaler
			return p
		}
		if pt.Implements(textUnmarshalerType) {
			p.kind = kTextUnmarshaler
			return p
		}
	}
	switch t.Kind() {
	case reflect.String:
		p.kind = kString
	case reflect.Bool:
		p.kind = kBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.kind = kInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		p.kind = kUint
	case reflect.Float32, reflect.Float64:
		p.kind = kFloat
	case reflect.Interface:
		if t.NumMethod() != 0 {
			p.kind, p.err = kUnsupported, "cannot decode into non-empty interface "+t.String()
		} else {
			p.kind = kInterface
		}
	case reflect.Pointer:
		p.kind, p.elem = kPointer, d.plan(t.Elem())
	case reflect.Slice:
		p.kind, p.elem = kSlice, d.plan(t.Elem())
	case reflect.Array:
		p.kind, p.elem = kArray, d.plan(t.Elem())
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			p.kind, p.err = kUnsupported, "map key type must be a string kind, not "+t.Key().String()
		} else {
			p.kind, p.elem = kMap, d.plan(t.Elem())
		}
	case reflect.Struct:
		p.kind = kStruct
		if err := d.structFields(p, t); err != "" {
			p.kind, p.err = kUnsupported, err
		}
	default:
		p.kind, p.err = kUnsupported, "cannot decode into "+t.String()
	}
	return p
}

// structFields lists the JSON fields of t as encoding/json sees them: exported or embedded, tag names,
// "-" skipped, embedded structs flattened, and on a name clash the shallowest field wins (a tagged one
// over an untagged one at the same depth; otherwise the name is dropped).
func (d *planBuilder) structFields(p *plan, t reflect.Type) string {
	type cand struct {
		field
		depth  int
		tagged bool
	}
	var cands []cand
	var msg string
	var walk func(t reflect.Type, index []int, depth int, seen map[reflect.Type]bool)
	walk = func(t reflect.Type, index []int, depth int, seen map[reflect.Type]bool) {
		if seen[t] {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			sf := t.Field(i)
			tag, hasTag := sf.Tag.Lookup("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			for o := range strings.SplitSeq(opts, ",") {
				if o == "string" {
					msg = "the \",string\" tag option is not supported (field " + sf.Name + ")"
				}
			}
			idx := append(append([]int(nil), index...), i)
			if sf.Anonymous && name == "" {
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					walk(ft, idx, depth+1, seen)
					continue
				}
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			cands = append(cands, cand{field{name: name, index: idx, plan: d.plan(sf.Type)}, depth, hasTag && name != ""})
		}
		delete(seen, t)
	}
	walk(t, nil, 0, map[reflect.Type]bool{})
	if msg != "" {
		return msg
	}
	// Resolve clashes, keeping declaration order for the winners.
	for _, c := range cands {
		best, ok, count := c, true, 0
		for _, o := range cands {
			if o.name != c.name {
				continue
			}
			switch {
			case o.depth < best.depth || (o.depth == best.depth && o.tagged && !best.tagged):
				best, count = o, 1
			case o.depth == best.depth && o.tagged == best.tagged:
				count++
			}
		}
		if count > 1 || !sameIndex(best.index, c.index) {
			ok = false
		}
		if ok {
			p.fields = append(p.fields, c.field)
		}
	}
	if len(p.fields) > 64 {
		return fmt.Sprintf("struct %s has more than 64 JSON fields", t)
	}
	if len(p.fields) > 8 {
		p.byName = make(map[string]int, len(p.fields))
		for i, f := range p.fields {
			p.byName[f.name] = i
		}
	}
	return ""
}

func sameIndex(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ---- errors and paths ----

func (d *decoder) fail(rule string) error {
	return &Error{Path: formatPath(d.path), Rule: rule}
}

func (d *decoder) failKey(key, rule string) error {
	d.path = append(d.path, pathElem{key: key, idx: -1})
	err := d.fail(rule)
	d.path = d.path[:len(d.path)-1]
	return err
}

func formatPath(path []pathElem) string {
	var b strings.Builder
	for _, e := range path {
		if e.raw != nil {
			e.key = string(e.raw)
		}
		if e.idx >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(e.idx))
			b.WriteByte(']')
			continue
		}
		if isIdent(e.key) {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e.key)
			continue
		}
		b.WriteByte('[')
		q, _ := json.Marshal(e.key)
		b.Write(q)
		b.WriteByte(']')
	}
	return b.String()
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// what names the JSON type that starts at the current position, for error messages.
func (d *decoder) what() string {
	if d.pos >= len(d.data) {
		return "end of input"
	}
	switch c := d.data[d.pos]; {
	case c == '"':
		return "a string"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || '0' <= c && c <= '9':
		return "a number"
	}
	return "invalid JSON"
}

func (d *decoder) wrongType(want string) error {
	got := d.what()
	// A token that is not even JSON is a syntax error, not a value of the wrong type.
	start := d.pos
	var err error
	switch got {
	case "invalid JSON", "end of input":
		return d.syntaxError()
	case "a boolean":
		if d.data[d.pos] == 't' {
			err = d.literal("true")
		} else {
			err = d.literal("false")
		}
	case "null":
		err = d.literal("null")
	case "a number":
		_, _, err = d.number()
	}
	if err != nil {
		return err
	}
	d.pos = start
	return d.fail("must be " + want + ", not " + got)
}

func (d *decoder) syntaxError() error {
	if d.pos >= len(d.data) {
		return d.fail("invalid JSON: unexpected end of input")
	}
	c := d.data[d.pos]
	if c >= 0x20 && c < 0x7f {
		return d.fail(fmt.Sprintf("invalid JSON: unexpected %q at offset %d", c, d.pos))
	}
	return d.fail(fmt.Sprintf("invalid JSON: unexpected byte 0x%02x at offset %d", c, d.pos))
}

// ---- scanning ----

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) literal(lit string) error {
	if len(d.data)-d.pos >= len(lit) && string(d.data[d.pos:d.pos+len(lit)]) == lit {
		d.pos += len(lit)
		if d.pos < len(d.data) && isLetter(d.data[d.pos]) {
			return d.syntaxError()
		}
		return nil
	}
	for i := 0; i < len(lit) && d.pos < len(d.data) && d.data[d.pos] == lit[i]; i++ {
		d.pos++
	}
	return d.syntaxError()
}

func isLetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// number scans a JSON number and returns its text and whether it is an integer literal (no fraction,
// no exponent).
func (d *decoder) number() (text []byte, integer bool, err error) {
	start := d.pos
	integer = true
	if d.pos < len(d.data) && d.data[d.pos] == '-' {
		d.pos++
	}
	switch {
	case d.pos < len(d.data) && d.data[d.pos] == '0':
		d.pos++
	case d.pos < len(d.data) && '1' <= d.data[d.pos] && d.data[d.pos] <= '9':
		for d.pos < len(d.data) && '0' <= d.data[d.pos] && d.data[d.pos] <= '9' {
			d.pos++
		}
	default:
		return nil, false, d.syntaxError()
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		integer = false
		d.pos++
		if d.pos >= len(d.data) || d.data[d.pos] < '0' || d.data[d.pos] > '9' {
			return nil, false, d.syntaxError()
		}
		for d.pos < len(d.data) && '0' <= d.data[d.pos] && d.data[d.pos] <= '9' {
			d.pos++
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		integer = false
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if d.pos >= len(d.data) || d.data[d.pos] < '0' || d.data[d.pos] > '9' {
			return nil, false, d.syntaxError()
		}
		for d.pos < len(d.data) && '0' <= d.data[d.pos] && d.data[d.pos] <= '9' {
			d.pos++
		}
	}
	if d.pos < len(d.data) && (isLetter(d.data[d.pos]) || d.data[d.pos] == '.' || d.data[d.pos] == '-' || d.data[d.pos] == '+') {
		return nil, false, d.syntaxError()
	}
	return d.data[start:d.pos], integer, nil
}

// rawString scans a JSON string starting at its opening quote. It returns the bytes between the quotes
// and whether they contain escapes. UTF-8 and escape syntax are checked here.
func (d *decoder) rawString() (raw []byte, escaped bool, err error) {
	d.pos++ // opening quote
	start := d.pos
	data := d.data
	for i := d.pos; i < len(data); {
		c := data[i]
		switch {
		case c == '"':
			d.pos = i + 1
			return data[start:i], escaped, nil
		case c == '\\':
			escaped = true
			if i+1 >= len(data) {
				d.pos = len(data)
				return nil, false, d.syntaxError()
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				r, ok := hex4(data, i+2)
				if !ok {
					d.pos = i
					return nil, false, d.fail(fmt.Sprintf("invalid JSON: bad \\u escape at offset %d", i))
				}
				i += 6
				if 0xD800 <= r && r < 0xDC00 {
					r2, ok := rune(0), false
					if i+1 < len(data) && data[i] == '\\' && data[i+1] == 'u' {
						r2, ok = hex4(data, i+2)
					}
					if !ok || r2 < 0xDC00 || r2 >= 0xE000 {
						d.pos = i - 6
						return nil, false, d.fail(fmt.Sprintf("invalid string: lone UTF-16 surrogate escape at offset %d", i-6))
					}
					i += 6
				} else if 0xDC00 <= r && r < 0xE000 {
					d.pos = i - 6
					return nil, false, d.fail(fmt.Sprintf("invalid string: lone UTF-16 surrogate escape at offset %d", i-6))
				}
			default:
				d.pos = i
				return nil, false, d.fail(fmt.Sprintf("invalid JSON: bad escape at offset %d", i))
			}
		case c < 0x20:
			d.pos = i
			return nil, false, d.fail(fmt.Sprintf("invalid JSON: control character 0x%02x in string at offset %d", c, i))
		case c < 0x80:
			i++
		default:
			n := utf8Len(data[i:])
			if n == 0 {
				d.pos = i
				return nil, false, d.fail(fmt.Sprintf("invalid UTF-8 at offset %d", i))
			}
			i += n
		}
	}
	d.pos = len(data)
	return nil, false, d.fail("invalid JSON: unterminated string")
}

// utf8Len returns the length of the valid UTF-8 sequence (of a non-ASCII rune) at the start of b, or 0.
// It rejects overlong forms, surrogates and values above U+10FFFF, as utf8.Valid does.
func utf8Len(b []byte) int {
	c := b[0]
	switch {
	case c >= 0xC2 && c <= 0xDF:
		if len(b) >= 2 && b[1]&0xC0 == 0x80 {
			return 2
		}
	case c >= 0xE0 && c <= 0xEF:
		if len(b) < 3 || b[1]&0xC0 != 0x80 || b[2]&0xC0 != 0x80 {
			return 0
		}
		if c == 0xE0 && b[1] < 0xA0 || c == 0xED && b[1] >= 0xA0 {
			return 0
		}
		return 3
	case c >= 0xF0 && c <= 0xF4:
		if len(b) < 4 || b[1]&0xC0 != 0x80 || b[2]&0xC0 != 0x80 || b[3]&0xC0 != 0x80 {
			return 0
		}
		if c == 0xF0 && b[1] < 0x90 || c == 0xF4 && b[1] >= 0x90 {
			return 0
		}
		return 4
	}
	return 0
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// unescape decodes the body of a string that rawString has already validated.
func unescape(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			j := i + 1
			for j < len(raw) && raw[j] != '\\' {
				j++
			}
			dst = append(dst, raw[i:j]...)
			i = j
			continue
		}
		switch raw[i+1] {
		case '"', '\\', '/':
			dst = append(dst, raw[i+1])
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, _ := hex4(raw, i+2)
			if 0xD800 <= r && r < 0xDC00 {
				r2, _ := hex4(raw, i+8)
				r = 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
				i += 6
			}
			dst = appendRune(dst, r)
			i += 6
			continue
		}
		i += 2
	}
	return dst
}

func appendRune(dst []byte, r rune) []byte {
	switch {
	case r < 0x80:
		return append(dst, byte(r))
	case r < 0x800:
		return append(dst, 0xC0|byte(r>>6), 0x80|byte(r)&0x3F)
	case r < 0x10000:
		return append(dst, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
	}
	return append(dst, 0xF0|byte(r>>18), 0x80|byte(r>>12)&0x3F, 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
}

// str scans a string and returns its decoded text.
func (d *decoder) str() (string, error) {
	raw, esc, err := d.rawString()
	if err != nil {
		return "", err
	}
	if !esc {
		if len(d.data) > sharedLimit || len(raw) == 0 {
			return string(raw), nil
		}
		if d.whole == "" {
			d.whole = string(d.data)
		}
		end := d.pos - 1 // closing quote
		return d.whole[end-len(raw) : end], nil
	}
	d.buf = unescape(d.buf[:0], raw)
	return string(d.buf), nil
}

// key scans an object key and the colon after it. The returned bytes are valid until the next key or
// string is scanned.
func (d *decoder) key() ([]byte, error) {
	k, _, err := d.keyEsc()
	return k, err
}

// keyEsc is key, also reporting whether the key had escapes (and so lives in the scratch buffer).
func (d *decoder) keyEsc() ([]byte, bool, error) {
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		if d.pos < len(d.data) && d.data[d.pos] == '}' {
			return nil, false, d.fail(fmt.Sprintf("invalid JSON: trailing comma before '}' at offset %d", d.pos))
		}
		return nil, false, d.syntaxError()
	}
	raw, esc, err := d.rawString()
	if err != nil {
		return nil, false, err
	}
	if esc {
		d.buf = unescape(d.buf[:0], raw)
		raw = d.buf
	}
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != ':' {
		return nil, false, d.syntaxError()
	}
	d.pos++
	d.skipSpace()
	return raw, esc, nil
}

func (d *decoder) enter() error {
	d.depth++
	if d.depth > MaxDepth {
		return d.fail(fmt.Sprintf("nesting deeper than %d levels", MaxDepth))
	}
	return nil
}

// afterElem consumes whitespace and then ',' or the closing byte. It reports whether the container ended.
func (d *decoder) afterElem(closing byte) (end bool, err error) {
	d.skipSpace()
	if d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.skipSpace()
			if d.pos < len(d.data) && d.data[d.pos] == closing && closing == ']' {
				return false, d.fail(fmt.Sprintf("invalid JSON: trailing comma before ']' at offset %d", d.pos))
			}
			return false, nil
		case closing:
			d.pos++
			return true, nil
		}
	}
	return false, d.syntaxError()
}

// beginArray and nextElem walk an array, with its depth, path and separators kept in one place:
//
//	done, err := d.beginArray()
//	for n := 0; err == nil && !done; n++ {
//		... consume element n (the path already names it) ...
//		done, err = d.nextElem()
//	}
//
// Direct calls rather than a callback: arrays in Tele's documents are short (a bar's chords), and an
// indirect call per element measured 20–30% slower on a whole board.

// beginArray consumes '[' and reports whether the array was empty (then it is closed again).
func (d *decoder) beginArray() (done bool, err error) {
	if err := d.enter(); err != nil {
		return false, err
	}
	d.pos++
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		d.depth--
		return true, nil
	}
	d.path = append(d.path, pathElem{idx: 0})
	return false, nil
}

// nextElem consumes the separator after an element and reports whether the array ended; if not, the
// path names the next element. (It does afterElem's work itself: one call per element, as in a loop
// written out by hand.)
func (d *decoder) nextElem() (done bool, err error) {
	d.skipSpace()
	if d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ',':
			d.pos++
			d.skipSpace()
			if d.pos < len(d.data) && d.data[d.pos] == ']' {
				return false, d.fail(fmt.Sprintf("invalid JSON: trailing comma before ']' at offset %d", d.pos))
			}
			d.path[len(d.path)-1].idx++
			return false, nil
		case ']':
			d.pos++
			d.path = d.path[:len(d.path)-1]
			d.depth--
			return true, nil
		}
	}
	return false, d.syntaxError()
}

// beginObject and nextMember do the same for objects; reading the key, checking it and keeping the path
// stay with the caller, since each kind of object treats its keys differently:
//
//	done, err := d.beginObject()
//	for err == nil && !done {
//		... read the key, push its path element, consume the value, pop the path ...
//		done, err = d.nextMember()
//	}

// beginObject consumes '{' and reports whether the object was empty (then it is closed again).
func (d *decoder) beginObject() (done bool, err error) {
	if err := d.enter(); err != nil {
		return false, err
	}
	d.pos++
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		d.depth--
		return true, nil
	}
	return false, nil
}

// nextMember consumes the separator after a member and reports whether the object ended.
func (d *decoder) nextMember() (done bool, err error) {
	end, err := d.afterElem('}')
	if end {
		d.depth--
	}
	return end, err
}

// skipValue checks the value at the current position strictly (syntax, UTF-8, duplicate keys, depth)
// without storing it.
func (d *decoder) skipValue() error {
	if d.pos >= len(d.data) {
		return d.syntaxError()
	}
	switch c := d.data[d.pos]; {
	case c == '"':
		_, _, err := d.rawString()
		return err
	case c == '{':
		return d.skipObject()
	case c == '[':
		done, err := d.beginArray()
		for err == nil && !done {
			if err = d.skipValue(); err == nil {
				done, err = d.nextElem()
			}
		}
		return err
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		_, _, err := d.number()
		return err
	}
	return d.syntaxError()
}

// skipObject checks an object without storing it. Keys are remembered in d.keys to find duplicates:
// a linear search for small objects, a set once an object has many keys.
func (d *decoder) skipObject() error {
	base := len(d.keys)
	var set map[string]struct{}
	done, err := d.beginObject()
	for err == nil && !done {
		var k []byte
		var esc bool
		k, esc, err = d.keyEsc()
		if err != nil {
			return err
		}
		if esc {
			k = append([]byte(nil), k...) // d.buf is reused by the next escaped string
		}
		dup := false
		if set != nil {
			_, dup = set[string(k)]
		} else {
			for _, o := range d.keys[base:] {
				if string(o) == string(k) {
					dup = true
					break
				}
			}
		}
		if dup {
			return d.failKey(string(k), "duplicate key")
		}
		switch {
		case set != nil:
			set[string(k)] = struct{}{}
		case len(d.keys)-base >= 16:
			set = make(map[string]struct{}, 32)
			for _, o := range d.keys[base:] {
				set[string(o)] = struct{}{}
			}
			set[string(k)] = struct{}{}
			d.keys = d.keys[:base]
		default:
			d.keys = append(d.keys, k)
		}
		d.path = append(d.path, pathElem{raw: k, idx: -1})
		if err = d.skipValue(); err != nil {
			return err
		}
		d.path = d.path[:len(d.path)-1]
		done, err = d.nextMember()
	}
	d.keys = d.keys[:base]
	return err
}

// ---- decoding into Go values ----

func (d *decoder) value(v reflect.Value, p *plan) error {
	if d.pos >= len(d.data) {
		return d.syntaxError()
	}
	c := d.data[d.pos]
	if c == 'n' {
		switch p.kind {
		case kPointer, kSlice, kMap, kInterface:
			if err := d.literal("null"); err != nil {
				return err
			}
			v.SetZero()
			return nil
		}
	}
	switch p.kind {
	case kString:
		if c != '"' {
			return d.wrongType("a string")
		}
		s, err := d.str()
		if err != nil {
			return err
		}
		v.SetString(s)
		return nil
	case kBool:
		switch c {
		case 't':
			if err := d.literal("true"); err != nil {
				return err
			}
			v.SetBool(true)
			return nil
		case 'f':
			if err := d.literal("false"); err != nil {
				return err
			}
			v.SetBool(false)
			return nil
		}
		return d.wrongType("a boolean")
	case kInt, kUint, kFloat:
		return d.num(v, p)
	case kInterface:
		x, err := d.anyValue()
		if err != nil {
			return err
		}
		if x == nil {
			v.SetZero()
		} else {
			v.Set(reflect.ValueOf(x))
		}
		return nil
	case kNumber:
		if c != '-' && (c < '0' || c > '9') {
			return d.wrongType("a number")
		}
		text, _, err := d.number()
		if err != nil {
			return err
		}
		v.SetString(string(text))
		return nil
	case kPointer:
		if v.IsNil() {
			v.Set(reflect.New(p.typ.Elem()))
		}
		if err := d.enter(); err != nil { // bounds `type T *T`
			return err
		}
		err := d.value(v.Elem(), p.elem)
		d.depth--
		return err
	case kSlice:
		return d.slice(v, p)
	case kArray:
		return d.array(v, p)
	case kMap:
		return d.mapValue(v, p)
	case kStruct:
		return d.object(v, p)
	case kUnmarshaler:
		start := d.pos
		if err := d.skipValue(); err != nil {
			return err
		}
		if err := v.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(d.data[start:d.pos:d.pos]); err != nil {
			return d.nested(err)
		}
		return nil
	case kTextUnmarshaler:
		if c != '"' {
			return d.wrongType("a string")
		}
		raw, esc, err := d.rawString()
		if err != nil {
			return err
		}
		text := raw
		if esc {
			text = unescape(nil, raw)
		}
		if err := v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText(text); err != nil {
			return d.nested(err)
		}
		return nil
	}
	return &unsupportedError{p.err}
}

// nested turns an error from a json.Unmarshaler or encoding.TextUnmarshaler into an *Error at the
// current path (joining paths when it is an *Error itself).
func (d *decoder) nested(err error) error {
	var e *Error
	if errors.As(err, &e) {
		p := formatPath(d.path)
		switch {
		case p == "":
			p = e.Path
		case e.Path == "":
		case e.Path[0] == '[':
			p += e.Path
		default:
			p += "." + e.Path
		}
		return &Error{Path: p, Rule: e.Rule}
	}
	return d.fail(err.Error())
}

func (d *decoder) num(v reflect.Value, p *plan) error {
	c := d.data[d.pos]
	if c != '-' && (c < '0' || c > '9') {
		switch p.kind {
		case kFloat:
			return d.wrongType("a number")
		default:
			return d.wrongType("an integer")
		}
	}
	text, integer, err := d.number()
	if err != nil {
		return err
	}
	switch p.kind {
	case kInt:
		if !integer {
			return d.fail("must be an integer, not " + string(text))
		}
		n, err := strconv.ParseInt(string(text), 10, p.typ.Bits())
		if err != nil {
			return d.fail("integer out of range: " + string(text))
		}
		v.SetInt(n)
	case kUint:
		if !integer || text[0] == '-' && string(text) != "-0" {
			return d.fail("must be a non-negative integer, not " + string(text))
		}
		if text[0] == '-' {
			text = text[1:]
		}
		n, err := strconv.ParseUint(string(text), 10, p.typ.Bits())
		if err != nil {
			return d.fail("integer out of range: " + string(text))
		}
		v.SetUint(n)
	default:
		f, err := strconv.ParseFloat(string(text), p.typ.Bits())
		if err != nil {
			return d.fail("number out of range: " + string(text))
		}
		v.SetFloat(f)
	}
	return nil
}

func (d *decoder) slice(v reflect.Value, p *plan) error {
	if d.data[d.pos] != '[' {
		return d.wrongType("an array")
	}
	// Every slice type whose elements are of kind string has the layout of []string, and every slice
	// of those the layout of [][]string. (UnsafeAddr, unlike Addr, needs no pointer type, whose lookup
	// costs more than the store.)
	switch {
	case p.elem.kind == kString:
		out, err := d.stringList()
		if err != nil {
			return err
		}
		*(*[]string)(unsafe.Pointer(v.UnsafeAddr())) = out
		return nil
	case p.elem.kind == kSlice && p.elem.elem.kind == kString:
		out, err := d.stringLists()
		if err != nil {
			return err
		}
		*(*[][]string)(unsafe.Pointer(v.UnsafeAddr())) = out
		return nil
	}
	n := 0
	done, err := d.beginArray()
	for ; err == nil && !done; n++ {
		if n >= v.Cap() {
			nv := reflect.MakeSlice(p.typ, n, max(2*v.Cap(), 4))
			reflect.Copy(nv, v)
			v.Set(nv)
		}
		if n >= v.Len() {
			v.SetLen(n + 1)
		}
		if err = d.value(v.Index(n), p.elem); err == nil {
			done, err = d.nextElem()
		}
	}
	if err != nil {
		return err
	}
	if n < v.Len() {
		v.SetLen(n)
	}
	if v.IsNil() {
		v.Set(reflect.MakeSlice(p.typ, 0, 0))
	}
	return nil
}

// stringList reads an array of strings (the current byte is '[') without an allocation of its own: the
// strings go into a slab shared by the lists of one Decode call, each list capped so that an append by
// the caller copies instead of overwriting its neighbour. Lists of strings (a bar's chords) and lists
// of them (a section's bars) are the most common containers in Tele's documents, so they skip reflect.
func (d *decoder) stringList() ([]string, error) {
	start := len(d.slab)
	done, err := d.beginArray()
	for n := 0; err == nil && !done; n++ {
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, d.wrongType("a string")
		}
		var s string
		if s, err = d.str(); err != nil {
			return nil, err
		}
		if len(d.slab) == cap(d.slab) {
			slab := make([]string, 0, max(256, 2*n))
			d.slab = append(slab, d.slab[start:]...)
			start = 0
		}
		d.slab = append(d.slab, s)
		done, err = d.nextElem()
	}
	if err != nil {
		return nil, err
	}
	out := d.slab[start:len(d.slab):len(d.slab)]
	if out == nil {
		out = []string{}
	}
	return out, nil
}

// stringLists reads an array of arrays of strings (or nulls) with one allocation of the exact length.
func (d *decoder) stringLists() ([][]string, error) {
	base := len(d.lists)
	done, err := d.beginArray()
	for err == nil && !done {
		var list []string
		switch {
		case d.pos < len(d.data) && d.data[d.pos] == '[':
			list, err = d.stringList()
		case d.pos < len(d.data) && d.data[d.pos] == 'n':
			err = d.literal("null")
		default:
			err = d.wrongType("an array")
		}
		if err == nil {
			d.lists = append(d.lists, list)
			done, err = d.nextElem()
		}
	}
	if err != nil {
		return nil, err
	}
	out := append(make([][]string, 0, len(d.lists)-base), d.lists[base:]...)
	clear(d.lists[base:])
	d.lists = d.lists[:base]
	return out, nil
}

func (d *decoder) array(v reflect.Value, p *plan) error {
	if d.data[d.pos] != '[' {
		return d.wrongType("an array")
	}
	n := 0
	done, err := d.beginArray()
	for ; err == nil && !done; n++ {
		if n >= v.Len() {
			return d.fail(fmt.Sprintf("array too long: at most %d elements", v.Len()))
		}
		if err = d.value(v.Index(n), p.elem); err == nil {
			done, err = d.nextElem()
		}
	}
	if err != nil {
		return err
	}
	for i := n; i < v.Len(); i++ {
		v.Index(i).SetZero()
	}
	return nil
}

func (d *decoder) mapValue(v reflect.Value, p *plan) error {
	if d.data[d.pos] != '{' {
		return d.wrongType("an object")
	}
	if v.IsNil() {
		v.Set(reflect.MakeMap(p.typ))
	}
	kt := p.typ.Key()
	seen := make(map[string]struct{})
	done, err := d.beginObject()
	for err == nil && !done {
		var k []byte
		k, err = d.key()
		if err != nil {
			return err
		}
		ks := string(k)
		if _, dup := seen[ks]; dup {
			return d.failKey(ks, "duplicate key")
		}
		seen[ks] = struct{}{}
		d.path = append(d.path, pathElem{key: ks, idx: -1})
		ev := reflect.New(p.typ.Elem()).Elem()
		if err = d.value(ev, p.elem); err != nil {
			return err
		}
		d.path = d.path[:len(d.path)-1]
		v.SetMapIndex(reflect.ValueOf(ks).Convert(kt), ev)
		done, err = d.nextMember()
	}
	return err
}

func (d *decoder) object(v reflect.Value, p *plan) error {
	if d.data[d.pos] != '{' {
		return d.wrongType("an object")
	}
	var seen uint64
	done, err := d.beginObject()
	for err == nil && !done {
		var k []byte
		k, err = d.key()
		if err != nil {
			return err
		}
		i := -1
		if p.byName != nil {
			if j, ok := p.byName[string(k)]; ok {
				i = j
			}
		} else {
			for j := range p.fields {
				if p.fields[j].name == string(k) {
					i = j
					break
				}
			}
		}
		if i < 0 {
			return d.failKey(string(k), "unknown field")
		}
		f := &p.fields[i]
		if seen&(1<<i) != 0 {
			return d.failKey(f.name, "duplicate key")
		}
		seen |= 1 << i
		d.path = append(d.path, pathElem{key: f.name, idx: -1})
		var fv reflect.Value
		if len(f.index) == 1 {
			fv = v.Field(f.index[0])
		} else {
			fv, err = fieldByIndex(v, f.index)
			if err != nil {
				return err
			}
		}
		if err = d.value(fv, f.plan); err != nil {
			return err
		}
		d.path = d.path[:len(d.path)-1]
		done, err = d.nextMember()
	}
	return err
}

// fieldByIndex walks into embedded structs, allocating nil embedded pointers.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, error) {
	for n, i := range index {
		if n > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					return v, &unsupportedError{"cannot set embedded pointer to unexported struct " + v.Type().Elem().String()}
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(i)
	}
	return v, nil
}

// anyValue decodes into the types encoding/json uses for interface{}.
func (d *decoder) anyValue() (any, error) {
	if d.pos >= len(d.data) {
		return nil, d.syntaxError()
	}
	switch c := d.data[d.pos]; {
	case c == '"':
		return d.str()
	case c == '{':
		m := map[string]any{}
		done, err := d.beginObject()
		for err == nil && !done {
			var k []byte
			if k, err = d.key(); err != nil {
				return nil, err
			}
			ks := string(k)
			if _, dup := m[ks]; dup {
				return nil, d.failKey(ks, "duplicate key")
			}
			d.path = append(d.path, pathElem{key: ks, idx: -1})
			var x any
			if x, err = d.anyValue(); err != nil {
				return nil, err
			}
			d.path = d.path[:len(d.path)-1]
			m[ks] = x
			done, err = d.nextMember()
		}
		if err != nil {
			return nil, err
		}
		return m, nil
	case c == '[':
		a := []any{}
		done, err := d.beginArray()
		for err == nil && !done {
			var x any
			if x, err = d.anyValue(); err == nil {
				a = append(a, x)
				done, err = d.nextElem()
			}
		}
		if err != nil {
			return nil, err
		}
		return a, nil
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		text, _, err := d.number()
		if err != nil {
			return nil, err
		}
		f, err := strconv.ParseFloat(string(text), 64)
		if err != nil {
			return nil, d.fail("number out of range: " + string(text))
		}
		return f, nil
	}
	return nil, d.syntaxError()
}
