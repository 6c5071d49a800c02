package link

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// MaxDepth bounds the nesting of arrays and objects in a frame. Deeper frames are malformed: the bound keeps
// every recursive JSON walker downstream (gjson, encoding/json) far from stack exhaustion.
const MaxDepth = 512

// Fields holds the members of a JSON object as raw JSON values, keyed by their unescaped names. The values
// are sub-slices of the frame; they stay valid after the handler returns (every frame has its own buffer).
type Fields map[string][]byte

// ParseObject splits one JSON object into its members, refusing invalid JSON and UTF-8, duplicate member
// names at the top level, nesting deeper than MaxDepth, and anything that is not an object. Values are not
// decoded: each is the raw JSON of that member.
func ParseObject(data []byte) (Fields, error) {
	if err := checkJSON(data); err != nil {
		return nil, err
	}
	return members(data)
}

// checkJSON validates UTF-8, the nesting depth and the JSON grammar, in that order (the depth check must
// come before gjson's recursive validator).
func checkJSON(data []byte) error {
	if !utf8.Valid(data) {
		return errors.New("invalid UTF-8")
	}
	if err := checkDepth(data); err != nil {
		return err
	}
	if !gjson.ValidBytes(data) {
		return errors.New("not valid JSON")
	}
	return nil
}

// checkDepth refuses nesting deeper than MaxDepth. It does not validate; it only tracks strings and
// brackets, so it is a fast byte loop with strings skipped by IndexByte.
func checkDepth(d []byte) error {
	depth := 0
	for i := 0; i < len(d); i++ {
		switch d[i] {
		case '"':
			end, ok := skipString(d, i)
			if !ok {
				return errors.New("unterminated string")
			}
			i = end - 1
		case '{', '[':
			depth++
			if depth > MaxDepth {
				return fmt.Errorf("nesting deeper than %d", MaxDepth)
			}
		case '}', ']':
			depth--
		}
	}
	return nil
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipWS(d []byte, i int) int {
	for i < len(d) && isWS(d[i]) {
		i++
	}
	return i
}

// skipString returns the index just past the string that opens at d[i] == '"'.
func skipString(d []byte, i int) (int, bool) {
	j := i + 1
	for {
		k := bytes.IndexByte(d[j:], '"')
		if k < 0 {
			return len(d), false
		}
		pos := j + k
		n := 0
		for b := pos - 1; b > i && d[b] == '\\'; b-- {
			n++
		}
		if n%2 == 0 {
			return pos + 1, true
		}
		j = pos + 1
	}
}

// skipValue returns the index just past the JSON value that starts at d[i]; d is known to be valid JSON.
func skipValue(d []byte, i int) (int, bool) {
	if i >= len(d) {
		return i, false
	}
	switch d[i] {
	case '"':
		return skipString(d, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(d); j++ {
			switch d[j] {
			case '"':
				end, ok := skipString(d, j)
				if !ok {
					return len(d), false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return len(d), false
	default:
		j := i
		for j < len(d) && !isWS(d[j]) && d[j] != ',' && d[j] != '}' && d[j] != ']' {
			j++
		}
		return j, j > i
	}
}

// members walks the top level of an object in valid JSON.
func members(d []byte) (Fields, error) {
	i := skipWS(d, 0)
	if i >= len(d) || d[i] != '{' {
		return nil, errors.New("not an object")
	}
	f := Fields{}
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		if skipWS(d, i+1) != len(d) {
			return nil, errors.New("trailing data")
		}
		return f, nil
	}
	for {
		if i >= len(d) || d[i] != '"' {
			return nil, errors.New("bad object")
		}
		end, ok := skipString(d, i)
		if !ok {
			return nil, errors.New("bad object")
		}
		key, err := unquote(d[i:end])
		if err != nil {
			return nil, err
		}
		if _, dup := f[key]; dup {
			return nil, errors.New("duplicate member name")
		}
		i = skipWS(d, end)
		if i >= len(d) || d[i] != ':' {
			return nil, errors.New("bad object")
		}
		i = skipWS(d, i+1)
		vend, ok := skipValue(d, i)
		if !ok {
			return nil, errors.New("bad object")
		}
		f[key] = d[i:vend:vend]
		i = skipWS(d, vend)
		if i >= len(d) {
			return nil, errors.New("bad object")
		}
		if d[i] == '}' {
			if skipWS(d, i+1) != len(d) {
				return nil, errors.New("trailing data")
			}
			return f, nil
		}
		if d[i] != ',' {
			return nil, errors.New("bad object")
		}
		i = skipWS(d, i+1)
	}
}

// unquote decodes one JSON string literal (with its quotes).
func unquote(q []byte) (string, error) {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return "", errors.New("not a string")
	}
	if bytes.IndexByte(q, '\\') < 0 {
		return string(q[1 : len(q)-1]), nil
	}
	var s string
	if err := json.Unmarshal(q, &s); err != nil {
		return "", errors.New("bad string")
	}
	return s, nil
}

// String decodes a raw JSON string of at most max bytes (UTF-8 bytes of the decoded value).
func String(raw []byte, max int) (string, error) {
	if len(raw) == 0 || raw[0] != '"' {
		return "", errors.New("must be a string")
	}
	s, err := unquote(raw)
	if err != nil {
		return "", errors.New("must be a string")
	}
	if !utf8.ValidString(s) {
		return "", errors.New("invalid UTF-8")
	}
	if len(s) > max {
		return "", fmt.Errorf("longer than %d bytes", max)
	}
	return s, nil
}

// Bool decodes a raw JSON boolean.
func Bool(raw []byte) (bool, error) {
	switch string(raw) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, errors.New("must be a boolean")
}

// Int decodes a raw JSON integer: digits only (an optional minus sign), no fraction, no exponent, within
// ±(2^53-1) so both ends agree on its value.
func Int(raw []byte) (int64, error) {
	s := raw
	neg := false
	if len(s) > 0 && s[0] == '-' {
		neg, s = true, s[1:]
	}
	if len(s) == 0 || len(s) > 16 || (s[0] == '0' && len(s) > 1) {
		return 0, errors.New("must be an integer")
	}
	var n int64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, errors.New("must be an integer")
		}
		n = n*10 + int64(c-'0')
	}
	if n > maxSafe {
		return 0, errors.New("integer out of range")
	}
	if neg {
		if n == 0 {
			return 0, errors.New("must be an integer")
		}
		n = -n
	}
	return n, nil
}

const maxSafe = 1<<53 - 1

// IsNull reports whether raw is the JSON literal null.
func IsNull(raw []byte) bool { return string(raw) == "null" }
