package link

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"tele/strict"
)

// MaxDepth bounds the nesting of arrays and objects in a frame. Deeper frames are malformed: the bound keeps
// every recursive JSON walker downstream far from stack exhaustion.
const MaxDepth = 512

// members holds the members of a JSON object as raw JSON values, keyed by their unescaped names. The
// values are sub-slices of the frame.
type members map[string]jsontext.Value

// parseObject splits one JSON object into its members with JSON v2's decoder, refusing invalid JSON and
// UTF-8, duplicate member names at the top level, nesting deeper than MaxDepth, and anything that is not
// one object. Values are not decoded: each is the raw JSON of that member, a sub-slice of data (no copy).
// Whoever decodes a value checks it strictly (duplicates inside a call's args are the call's error, to
// be answered, not a malformed frame).
func parseObject(data []byte) (members, error) {
	if err := checkDepth(data); err != nil {
		return nil, err
	}
	// A bytes.Buffer is parsed in place: ReadValue returns sub-slices of data.
	dec := jsontext.NewDecoder(bytes.NewBuffer(data), jsontext.AllowDuplicateNames(true))
	tok, err := dec.ReadToken()
	if err != nil {
		return nil, reason(err)
	}
	if tok.Kind() != '{' {
		return nil, errors.New("not an object")
	}
	f := members{}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, reason(err)
		}
		name := tok.String() // before the next read voids the token
		val, err := dec.ReadValue()
		if err != nil {
			return nil, reason(err)
		}
		if _, dup := f[name]; dup {
			return nil, errors.New("duplicate member name")
		}
		f[name] = val[:len(val):len(val)]
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, reason(err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, errors.New("trailing data")
	}
	return f, nil
}

// reason says what is wrong with a frame in words that never quote it (JSON v2's messages may).
func reason(err error) error {
	se, _ := errors.AsType[*jsontext.SyntacticError](err)
	switch {
	case se != nil && se.Err != nil && se.Err.Error() == "invalid UTF-8":
		return errors.New("invalid UTF-8")
	}
	return errors.New("not valid JSON")
}

// checkDepth refuses nesting deeper than MaxDepth (JSON v2 allows 10,000). It does not validate; it only
// tracks strings and brackets, so it is a fast byte loop with strings skipped by IndexByte.
func checkDepth(d []byte) error {
	depth := 0
	for i := 0; i < len(d); i++ {
		switch d[i] {
		case '"':
			end, ok := skipString(d, i)
			if !ok {
				return errors.New("not valid JSON")
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

// decodeString decodes a raw JSON string of at most max bytes (UTF-8 bytes of the decoded value).
func decodeString(raw []byte, max int) (string, error) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || strict.Decode(raw, &s) != nil {
		return "", errors.New("must be a string")
	}
	if len(s) > max {
		return "", fmt.Errorf("longer than %d bytes", max)
	}
	return s, nil
}

// decodeInt decodes a raw JSON integer: no fraction, no exponent, within ±(2^53-1) so both ends agree on its value.
func decodeInt(raw []byte) (int64, error) {
	var n int64
	if err := strict.Decode(raw, &n); err != nil {
		if e, ok := errors.AsType[*strict.Error](err); ok && strings.Contains(e.Rule, "out of range") {
			return 0, errors.New("integer out of range")
		}
		return 0, errors.New("must be an integer")
	}
	if n == 0 && raw[0] == '-' {
		return 0, errors.New("must be an integer") // -0: both ends must agree, and JavaScript keeps the sign
	}
	if n > maxSafe || n < -maxSafe {
		return 0, errors.New("integer out of range")
	}
	return n, nil
}

const maxSafe = 1<<53 - 1
