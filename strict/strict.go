// Package strict decodes JSON from outside the process (request bodies, link frames, notes, tool calls)
// into Go values. JSON v2 (github.com/go-json-experiment/json, the code that becomes encoding/json/v2)
// does the decoding; this package adds what the schemas need beyond its defaults and one error shape.
//
// Refused, each with the JSON path of the offending value: anything but exactly one JSON value (empty
// input, trailing data), invalid JSON, invalid UTF-8 and lone UTF-16 surrogate escapes, duplicate member
// names at any depth, members a struct does not have (names match exactly, case included), a value of
// the wrong kind, numbers that do not fit (an integer must be written as one: 120, not 120.0 or 1.2e2),
// and null anywhere but into a pointer, an interface or a raw value: JSON v2 would store the zero value,
// so "title":null would read as "" instead of being refused.
package strict

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Error is a violation in the data. Path is the JSON path of the offending value, like
// `sections[1].bars[3][0]` (a member name that is not an identifier is quoted: `a["x.y"]`), or "" for the
// document itself. Rule says what is wrong in a few words.
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

// Decode's JSON v2 options (immutable). Duplicate names and invalid UTF-8 are refused by JSON v2's
// defaults. refuseNull runs before every value is decoded, and costs an allocation for each (JSON v2
// converts each value to an interface for it): a document without the bytes "null" cannot hold a null
// and is decoded without it, at about half the time.
var (
	options         = json.RejectUnknownMembers(true)
	optionsWithNull = json.JoinOptions(options, json.WithUnmarshalers(json.UnmarshalFromFunc(refuseNull)))
)

// Decode parses exactly one JSON value from data into v, a non-nil pointer. Errors in the data are
// *Error; on error, v may have been partly filled.
func Decode(data []byte, v any) error {
	if rv := reflect.ValueOf(v); rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("strict: Decode needs a non-nil pointer, not %T", v)
	}
	if len(bytes.TrimLeft(data, " \t\r\n")) == 0 {
		return &Error{Rule: "empty input: want one JSON value"}
	}
	opts := options
	if bytes.Contains(data, []byte("null")) {
		opts = optionsWithNull
	}
	err := json.Unmarshal(data, v, opts)
	if err == nil {
		return nil
	}
	return translate(data, err)
}

// nullError is refuseNull's refusal; want names the Go value's kind in JSON words.
type nullError struct{ want string }

func (e *nullError) Error() string { return "must be " + e.want + ", not null" }

var (
	rawValueType    = reflect.TypeFor[jsontext.Value]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

// refuseNull runs before JSON v2 decodes any value. It lets JSON v2 decode everything but null, and null
// only into a pointer (absent and null read alike: a required member's nil pointer says "missing"), an
// interface or a jsontext.Value.
func refuseNull(dec *jsontext.Decoder, v any) error {
	if dec.PeekKind() != 'n' {
		return json.SkipFunc
	}
	t := reflect.TypeOf(v).Elem()
	switch {
	case t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface || t == rawValueType:
		return json.SkipFunc
	case reflect.PointerTo(t).Implements(unmarshalerType):
		return json.SkipFunc // a type that reads its own JSON (json.RawMessage) decides about null
	}
	if _, err := dec.ReadValue(); err != nil {
		return err // not null after all, but a broken literal such as nul
	}
	return &nullError{want: kindWords(t)}
}

// kindWords names what JSON a Go type takes: "a string", "an integer", ...
func kindWords(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a JSON value"
}

// jsonWords names a JSON kind as the rules say it.
func jsonWords(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '{':
		return "an object"
	case '[':
		return "an array"
	}
	return "a JSON value"
}

// translate turns JSON v2's errors into *Error with the path written as the schemas document it.
func translate(data []byte, err error) error {
	if ne, ok := errors.AsType[*nullError](err); ok {
		se, _ := errors.AsType[*json.SemanticError](err)
		var ptr jsontext.Pointer
		var offset int64
		if se != nil {
			ptr, offset = se.JSONPointer, se.ByteOffset
		}
		return &Error{Path: path(data, ptr, offset), Rule: ne.Error()}
	}
	if se, ok := errors.AsType[*jsontext.SyntacticError](err); ok {
		return &Error{Path: path(data, se.JSONPointer, se.ByteOffset), Rule: syntaxRule(se)}
	}
	if e, ok := errors.AsType[*Error](err); ok {
		// A type that reads its own JSON (a json.UnmarshalerFrom) refused its value; e.Path is within it.
		p := ""
		if se, ok := errors.AsType[*json.SemanticError](err); ok {
			p = path(data, se.JSONPointer, se.ByteOffset)
		}
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
	if se, ok := errors.AsType[*json.SemanticError](err); ok {
		return &Error{Path: path(data, se.JSONPointer, se.ByteOffset), Rule: semanticRule(se)}
	}
	return err // not about the data (a nil or non-pointer v): a programming error
}

func syntaxRule(se *jsontext.SyntacticError) string {
	msg := se.Err.Error()
	switch {
	case errors.Is(se.Err, jsontext.ErrDuplicateName):
		return "duplicate key"
	case errors.Is(se.Err, io.ErrUnexpectedEOF):
		return "invalid JSON: unexpected end of input"
	case strings.Contains(msg, "after top-level value"):
		return "unexpected data after the JSON value (offset " + strconv.FormatInt(se.ByteOffset, 10) + ")"
	case strings.Contains(msg, "invalid UTF-8"):
		return "invalid UTF-8 at offset " + strconv.FormatInt(se.ByteOffset, 10)
	case strings.Contains(msg, "surrogate"):
		return "invalid string: lone UTF-16 surrogate escape at offset " + strconv.FormatInt(se.ByteOffset, 10)
	case strings.Contains(msg, "exceeded max depth"):
		return "nesting too deep"
	}
	return "invalid JSON: " + msg + " at offset " + strconv.FormatInt(se.ByteOffset, 10)
}

func semanticRule(se *json.SemanticError) string {
	switch {
	case errors.Is(se.Err, json.ErrUnknownName):
		return "unknown field"
	case se.GoType == nil:
		return "cannot be decoded: " + se.Error()
	}
	want := kindWords(se.GoType)
	switch {
	case errors.Is(se.Err, strconv.ErrRange):
		if want == "a number" {
			return "number out of range: " + string(se.JSONValue)
		}
		return "integer out of range: " + string(se.JSONValue)
	case errors.Is(se.Err, strconv.ErrSyntax):
		return "must be " + want + ", not " + string(se.JSONValue)
	case se.JSONKind != 0 && se.JSONKind != jsontext.Kind(0):
		return "must be " + want + ", not " + jsonWords(se.JSONKind)
	}
	return "must be " + want
}

// MaxPathLevels is how many levels of a JSON path an Error names; a deeper path ends in "…". JSON v2
// nests up to 10,000 levels, and a path that long would cost the error path quadratic time and echo the
// whole document back.
const MaxPathLevels = 32

// path writes a JSON pointer (/sections/1/bars/3/0) as the documented path (sections[1].bars[3][0]),
// cut after MaxPathLevels levels.
func path(data []byte, ptr jsontext.Pointer, offset int64) string {
	if ptr == "" {
		return ""
	}
	var tokens []string
	cut := false
	for tok := range ptr.Tokens() {
		if len(tokens) == MaxPathLevels {
			cut = true
			break
		}
		tokens = append(tokens, tok)
	}
	kinds := containerKinds(data, offset, tokens)
	var b strings.Builder
	for i, tok := range tokens {
		switch {
		case kinds[i] == '[':
			b.WriteString("[" + tok + "]")
		case isIdent(tok):
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(tok)
		default:
			q, _ := json.Marshal(tok)
			b.WriteString("[" + string(q) + "]")
		}
	}
	if cut {
		b.WriteString("…")
	}
	return b.String()
}

// containerKinds returns the kind ('{' or '[') of the container each token of a pointer indexes. A
// pointer cannot tell an array index from a member name made of digits, so the document is read again up
// to the offending value's offset (only ever on the error path): there, the decoder's stack is the path's
// containers, and knows. It reads each token once and never builds a pointer, so a deep or wide document
// costs its length, not its length times its depth. Where the document cannot be read that far, a token of
// digits counts as an index.
func containerKinds(data []byte, offset int64, tokens []string) []jsontext.Kind {
	kinds := make([]jsontext.Kind, len(tokens))
	dec := jsontext.NewDecoder(bytes.NewReader(data),
		jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	for dec.InputOffset() < offset {
		if _, err := dec.ReadToken(); err != nil {
			break
		}
	}
	known := min(len(tokens), dec.StackDepth())
	for level := 1; level <= known; level++ {
		kinds[level-1], _ = dec.StackIndex(level)
	}
	for i := known; i < len(tokens); i++ {
		kinds[i] = '{'
		if isIndex(tokens[i]) {
			kinds[i] = '['
		}
	}
	return kinds
}

func isIndex(s string) bool {
	if s == "" || (len(s) > 1 && s[0] == '0') {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
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

// CheckDepth refuses a document that nests arrays and objects more than max levels deep, in one pass
// over its bytes and before anything is decoded: a body nested thousands of levels deep (JSON v2 allows
// 10,000) costs the decoder and its error path time and memory for every level, and no document of
// Tele's needs more than a handful. It does not check anything else: Decode does.
func CheckDepth(data []byte, max int) error {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"': // skip the string: brackets in it do not count
			for i++; i < len(data); i += 2 {
				j := bytes.IndexAny(data[i:], `"\`)
				if j < 0 {
					return nil // unterminated: Decode says so
				}
				if i += j; data[i] == '"' {
					break
				}
			}
		case '[', '{':
			if depth++; depth > max {
				return &Error{Rule: "nesting deeper than " + strconv.Itoa(max) + " levels at offset " + strconv.Itoa(i)}
			}
		case ']', '}':
			depth--
		}
	}
	return nil
}
