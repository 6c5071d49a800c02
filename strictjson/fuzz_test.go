package strictjson_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"tele/board"
	"tele/strictjson"
)

// specExample is the content example of SPEC 3.2.
const specExample = `{
  "title": "Autumn Leaves",
  "description": "Two-five-one practice in G.",
  "key": "G",
  "tempo": 120,
  "beatsPerBar": 4,
  "sections": [
    {"label": "A", "bars": [["Am7"], ["D7"], ["Gmaj7"], ["Cmaj7"]]},
    {"label": "B", "bars": [["F#m7b5"], ["B7"], ["Em", "Em/D"], ["C#m7b5", "F#7"]]}
  ]
}`

// FuzzDecode checks Decode against encoding/json on any input:
//   - it never panics, and its errors are *strictjson.Error;
//   - Valid and Decode into interface{} accept the same inputs (but for numbers beyond float64);
//   - what it accepts, encoding/json accepts and reads the same way (into interface{}, into a struct,
//     into json.RawMessage), and re-encoding it gives a document Decode reads back to the same value;
//   - what it refuses and encoding/json accepts is refused for one of strictjson's extra rules.
func FuzzDecode(f *testing.F) {
	ex, _ := json.Marshal(board.Example())
	f.Add(ex)
	f.Add([]byte(specExample))
	b := board.Board{ID: "welcome", Revision: 3, Content: board.Example()}
	f.Add(b.JSON())
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Add([]byte(`{"a":"\ud800"}`))
	f.Add([]byte("[\"\xff\"]"))
	f.Add([]byte(`[1,2,{"x":[null,true,false,-0.5e-3]}] `))
	f.Add([]byte(`{"type":"send","id":"u","epoch":"e","idleVersion":3,"text":"hi"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		err := strictjson.Decode(data, &v)
		validErr := strictjson.Valid(data)
		if (err == nil) != (validErr == nil) && (validErr != nil || !strings.Contains(err.Error(), "out of range")) {
			// (Valid checks syntax; a number too large for float64 is refused only when decoded.)
			t.Fatalf("Decode: %v; Valid: %v", err, validErr)
		}
		if err != nil {
			var se *strictjson.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v is not a *strictjson.Error", err, err)
			}
			if json.Valid(data) && !extraRule(se.Rule) {
				var dummy any
				if json.Unmarshal(data, &dummy) == nil {
					t.Fatalf("refused valid JSON for %q", se.Rule)
				}
			}
			return
		}
		var std any
		if err := json.Unmarshal(data, &std); err != nil {
			t.Fatalf("encoding/json refuses what Decode accepted: %v", err)
		}
		if !reflect.DeepEqual(v, std) {
			t.Fatalf("Decode read %#v, encoding/json %#v", v, std)
		}
		enc, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var again any
		if err := strictjson.Decode(enc, &again); err != nil || !reflect.DeepEqual(again, v) {
			t.Fatalf("re-encoded value: %v", err)
		}
		var raw json.RawMessage
		if err := strictjson.Decode(data, &raw); err != nil || !bytes.Equal(raw, bytes.Trim(data, " \t\r\n")) {
			t.Fatalf("RawMessage: %v %q", err, raw)
		}
		var c, cstd board.Content
		if strictjson.Decode(data, &c) == nil {
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&cstd); err != nil {
				t.Fatalf("encoding/json refuses the struct: %v", err)
			}
			if !reflect.DeepEqual(c, cstd) {
				t.Fatalf("struct differs:\n%#v\n%#v", c, cstd)
			}
		}
	})
}

// extraRule reports whether a rule is one strictjson adds to RFC 8259 parsing as encoding/json does it.
func extraRule(rule string) bool {
	for _, s := range []string{"duplicate key", "UTF-8", "surrogate", "nesting deeper"} {
		if strings.Contains(rule, s) {
			return true
		}
	}
	return false
}
