package strict_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"tele/board"
	"tele/board/store"
	"tele/costtest"
	"tele/strict"
)

// FuzzDecode checks Decode against encoding/json on any input:
//   - it never panics, and its errors about the data are *strict.Error;
//   - what it accepts, encoding/json accepts and reads the same way (into interface{}, into a struct),
//     and re-encoding it gives a document Decode reads back to the same value;
//   - what it refuses and encoding/json accepts is refused for one of its extra rules.
func FuzzDecode(f *testing.F) {
	ex, _ := json.Marshal(board.Example())
	f.Add(ex)
	b := store.Board{ID: "welcome", Revision: 3, Content: board.Example()}
	f.Add(b.JSON())
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Add([]byte(`{"a":"\ud800"}`))
	f.Add([]byte("[\"\xff\"]"))
	f.Add([]byte(`[1,2,{"x":[null,true,false,-0.5e-3]}] `))
	f.Add([]byte(`{"title":null,"sections":[{"bars":[["C",null]]}]}`))
	f.Add([]byte(`{"type":"send","id":"u","epoch":"e","idleVersion":3,"text":"hi"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		var err error
		// Decoding costs work linear in the body, refusals too: at most 256 bytes allocated a byte of
		// it (documents like a board's allocate under 10; 40 open brackets about 150).
		costtest.Bound(t, len(data), 64<<10, 256, func() { err = strict.Decode(data, &v) })
		if err != nil {
			se, ok := errors.AsType[*strict.Error](err)
			if !ok {
				t.Fatalf("error %T %v is not a *strict.Error", err, err)
			}
			var std any
			if json.Unmarshal(data, &std) == nil && !extraRule(se.Rule) {
				t.Fatalf("refused JSON that encoding/json reads, for %q", se.Rule)
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
		if err := strict.Decode(enc, &again); err != nil || !reflect.DeepEqual(again, v) {
			t.Fatalf("re-encoded value: %v", err)
		}
		var c, cstd board.Content
		if strict.Decode(data, &c) == nil {
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

// extraRule reports whether a rule is one Decode adds to RFC 8259 parsing as encoding/json does it.
func extraRule(rule string) bool {
	for _, s := range []string{"duplicate key", "UTF-8", "surrogate", "nesting too deep"} {
		if strings.Contains(rule, s) {
			return true
		}
	}
	return false
}
