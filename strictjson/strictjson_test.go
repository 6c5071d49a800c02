package strictjson_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"tele/strictjson"
)

type bar []string

type section struct {
	Label string `json:"label"`
	Bars  []bar  `json:"bars"`
}

type doc struct {
	Title    string    `json:"title"`
	Key      string    `json:"key,omitempty"`
	Tempo    int       `json:"tempo"`
	Sections []section `json:"sections"`
	Skip     string    `json:"-"`
}

func TestDecodeValid(t *testing.T) {
	var d doc
	in := ` {"title":"A \u00e9\ud83d\ude00 \"q\"","tempo":-0,"sections":[{"label":"","bars":[["Am7"],[],["C","G/B"]]}],"key":"G"} ` + "\n\t"
	if err := strictjson.Decode([]byte(in), &d); err != nil {
		t.Fatal(err)
	}
	want := doc{Title: "A é😀 \"q\"", Key: "G", Sections: []section{{Bars: []bar{{"Am7"}, {}, {"C", "G/B"}}}}}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("got %#v, want %#v", d, want)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name, in   string
		path, rule string // rule is a substring of Error.Rule
	}{
		{"empty", ``, "", "empty input"},
		{"only-space", " \n ", "", "empty input"},
		{"trailing-value", `{"title":"x"} {}`, "", "unexpected data after the JSON value"},
		{"trailing-garbage", `{"title":"x"}x`, "", "unexpected data after the JSON value"},
		{"trailing-nul", "{\"title\":\"x\"}\x00", "", "unexpected data"},
		{"bom", "\ufeff{}", "", "invalid JSON"},
		{"duplicate-top", `{"title":"a","title":"b"}`, "title", "duplicate key"},
		{"duplicate-escaped", `{"title":"a","\u0074itle":"b"}`, "title", "duplicate key"},
		{"duplicate-nested", `{"sections":[{"label":"a"},{"bars":[],"label":"b","label":"c"}]}`, "sections[1].label", "duplicate key"},
		{"unknown-top", `{"title":"a","colour":"red"}`, "colour", "unknown field"},
		{"unknown-case", `{"Title":"a"}`, "Title", "unknown field"},
		{"unknown-nested", `{"sections":[{"label":"a","bars":[["C"]],"x":1}]}`, "sections[0].x", "unknown field"},
		{"unknown-weird-key", `{"sections":[{"a.b":1}]}`, `sections[0]["a.b"]`, "unknown field"},
		{"skipped-field", `{"Skip":"a"}`, "Skip", "unknown field"},
		{"wrong-type-string", `{"title":1}`, "title", "must be a string, not a number"},
		{"wrong-type-null-string", `{"title":null}`, "title", "must be a string, not null"},
		{"wrong-type-int", `{"tempo":"120"}`, "tempo", "must be an integer, not a string"},
		{"fraction", `{"tempo":120.5}`, "tempo", "must be an integer, not 120.5"},
		{"exponent", `{"tempo":1e2}`, "tempo", "must be an integer, not 1e2"},
		{"zero-fraction", `{"tempo":120.0}`, "tempo", "must be an integer"},
		{"int-overflow", `{"tempo":99999999999999999999}`, "tempo", "out of range"},
		{"wrong-type-array", `{"sections":{}}`, "sections", "must be an array, not an object"},
		{"wrong-type-object", `{"sections":[[]]}`, "sections[0]", "must be an object, not an array"},
		{"deep-chord", `{"sections":[{"bars":[["C"],["D",7]]}]}`, "sections[0].bars[1][1]", "must be a string"},
		{"top-array", `[]`, "", "must be an object, not an array"},
		{"invalid-utf8", "{\"title\":\"a\xffb\"}", "title", "invalid UTF-8"},
		{"invalid-utf8-key", "{\"ti\xc0\xaftle\":1}", "", "invalid UTF-8"},
		{"surrogate-utf8", "{\"title\":\"\xed\xa0\x80\"}", "title", "invalid UTF-8"},
		{"lone-high-surrogate", `{"title":"\ud83d"}`, "title", "lone UTF-16 surrogate"},
		{"lone-low-surrogate", `{"title":"\ude00x"}`, "title", "lone UTF-16 surrogate"},
		{"bad-escape", `{"title":"\x"}`, "title", "bad escape"},
		{"bad-u-escape", `{"title":"\u12G4"}`, "title", "bad \\u escape"},
		{"control-char", "{\"title\":\"a\nb\"}", "title", "control character"},
		{"unterminated", `{"title":"abc`, "title", "unterminated string"},
		{"trailing-comma-object", `{"title":"a",}`, "", "trailing comma"},
		{"trailing-comma-array", `{"sections":[{},]}`, "sections[0]", "trailing comma"},
		{"missing-colon", `{"title" "a"}`, "", "invalid JSON"},
		{"single-quotes", `{'title':'a'}`, "", "invalid JSON"},
		{"leading-zero", `{"tempo":012}`, "tempo", "invalid JSON"},
		{"bare-minus", `{"tempo":-}`, "tempo", "invalid JSON"},
		{"nan", `{"tempo":NaN}`, "tempo", "invalid JSON"},
		{"truncated", `{"sections":[{"bars":[["C"]`, "sections[0].bars[0]", "unexpected end of input"},
		{"bad-literal", `{"sections":nul}`, "sections", "invalid JSON"},
		{"literal-suffix", `{"sections":nullx}`, "sections", "invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d doc
			err := strictjson.Decode([]byte(tt.in), &d)
			e, ok := errors.AsType[*strictjson.Error](err)
			if !ok {
				t.Fatalf("Decode(%q) = %v, want *strictjson.Error", tt.in, err)
			}
			if e.Path != tt.path || !strings.Contains(e.Rule, tt.rule) {
				t.Fatalf("Decode(%q) = {Path:%q Rule:%q}, want path %q and a rule containing %q", tt.in, e.Path, e.Rule, tt.path, tt.rule)
			}
			if err := strictjson.Valid([]byte(tt.in)); err == nil && !strings.Contains(tt.name, "unknown") && !strings.Contains(tt.name, "type") &&
				!strings.Contains(tt.rule, "integer") && !strings.Contains(tt.rule, "range") && tt.name != "top-array" && tt.name != "skipped-field" && tt.name != "deep-chord" {
				t.Errorf("Valid(%q) = nil, want an error", tt.in)
			}
		})
	}
}

func TestDecodeTargets(t *testing.T) {
	type inner struct {
		A int `json:"a"`
	}
	type Embedded struct {
		E string `json:"e"`
	}
	type outer struct {
		Embedded
		P        *inner            `json:"p"`
		M        map[string]int    `json:"m"`
		Raw      json.RawMessage   `json:"raw"`
		Any      any               `json:"any"`
		Arr      [2]int            `json:"arr"`
		U        uint8             `json:"u"`
		F        float64           `json:"f"`
		B        bool              `json:"b"`
		N        json.Number       `json:"n"`
		T        time.Time         `json:"t"`
		S        []int             `json:"s"`
		Dur      map[string]*inner `json:"dur"`
		Anys     map[string]any    `json:"anys"`
		Ptr      **string          `json:"ptr"`
		Untagged string
	}
	in := `{"e":"emb","p":{"a":3},"m":{"x":1,"y":2},"raw":{"k":[1, 2]},"any":{"a":[1,"s",true,null,{}]},
	"arr":[7],"u":255,"f":-1.5e3,"b":false,"n":12.50,"t":"2024-01-02T03:04:05Z","s":[],"dur":{"z":null},
	"anys":{},"ptr":"pp","Untagged":"u"}`
	var o outer
	if err := strictjson.Decode([]byte(in), &o); err != nil {
		t.Fatal(err)
	}
	if o.E != "emb" || o.P.A != 3 || o.M["y"] != 2 || string(o.Raw) != `{"k":[1, 2]}` || o.Arr != [2]int{7, 0} ||
		o.U != 255 || o.F != -1500 || o.N != "12.50" || o.T.Year() != 2024 || o.S == nil || len(o.S) != 0 ||
		o.Dur["z"] != nil || len(o.Dur) != 1 || **o.Ptr != "pp" || o.Untagged != "u" {
		t.Fatalf("decoded %+v", o)
	}
	if !reflect.DeepEqual(o.Any, map[string]any{"a": []any{1.0, "s", true, nil, map[string]any{}}}) {
		t.Fatalf("any = %#v", o.Any)
	}

	for _, tt := range []struct{ in, path, rule string }{
		{`{"u":256}`, "u", "out of range"},
		{`{"u":-1}`, "u", "non-negative"},
		{`{"arr":[1,2,3]}`, "arr[2]", "array too long"},
		{`{"m":{"x":1,"x":2}}`, "m.x", "duplicate key"},
		{`{"raw":{"k":1,"k":2}}`, "raw.k", "duplicate key"},
		{`{"any":{"k":1,"k":2}}`, "any.k", "duplicate key"},
		{`{"raw":[{"a":1},{"b":{"c":1,"c":1}}]}`, "raw[1].b.c", "duplicate key"},
		{`{"t":"yesterday"}`, "t", "cannot parse"},
		{`{"n":"1"}`, "n", "must be a number"},
		{`{"p":{"a":1,"b":2}}`, "p.b", "unknown field"},
		{`{"f":1e999}`, "f", "out of range"},
	} {
		var o outer
		err := strictjson.Decode([]byte(tt.in), &o)
		e, ok := errors.AsType[*strictjson.Error](err)
		if !ok || e.Path != tt.path || !strings.Contains(e.Rule, tt.rule) {
			t.Errorf("Decode(%s) = %#v, want path %q rule ~ %q", tt.in, err, tt.path, tt.rule)
		}
	}
}

func TestDuplicateKeysInLargeObjects(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 200 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + itoa(i) + `":1`)
	}
	ok := b.String() + "}"
	dup := b.String() + `,"k150":2}`
	var raw json.RawMessage
	if err := strictjson.Decode([]byte(ok), &raw); err != nil {
		t.Fatal(err)
	}
	err := strictjson.Decode([]byte(dup), &raw)
	if e, isE := errors.AsType[*strictjson.Error](err); !isE || e.Path != "k150" || e.Rule != "duplicate key" {
		t.Fatalf("got %v", err)
	}
	var m map[string]int
	if err := strictjson.Decode([]byte(dup), &m); err == nil {
		t.Fatal("map: duplicate accepted")
	}
	var a any
	if err := strictjson.Decode([]byte(dup), &a); err == nil {
		t.Fatal("any: duplicate accepted")
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestDepthLimit(t *testing.T) {
	deep := strings.Repeat("[", strictjson.MaxDepth+1) + strings.Repeat("]", strictjson.MaxDepth+1)
	var a any
	if err := strictjson.Decode([]byte(deep), &a); err == nil || !strings.Contains(err.Error(), "nesting") {
		t.Fatalf("got %v", err)
	}
	var raw json.RawMessage
	if err := strictjson.Decode([]byte(deep), &raw); err == nil || !strings.Contains(err.Error(), "nesting") {
		t.Fatalf("got %v", err)
	}
	ok := strings.Repeat("[", strictjson.MaxDepth) + strings.Repeat("]", strictjson.MaxDepth)
	if err := strictjson.Decode([]byte(ok), &a); err != nil {
		t.Fatal(err)
	}
}

func TestProgrammerErrors(t *testing.T) {
	var d doc
	for _, v := range []any{nil, d, (*doc)(nil)} {
		err := strictjson.Decode([]byte(`{}`), v)
		if err == nil {
			t.Errorf("Decode into %T: no error", v)
		}
		if _, ok := errors.AsType[*strictjson.Error](err); ok {
			t.Errorf("Decode into %T: %v is a data error, want a plain error", v, err)
		}
	}
	var ch struct {
		C chan int `json:"c"`
	}
	if err := strictjson.Decode([]byte(`{"c":1}`), &ch); err == nil {
		t.Error("chan field: no error")
	} else if _, ok := errors.AsType[*strictjson.Error](err); ok {
		t.Errorf("chan field: %v is a data error", err)
	}
	var im map[int]int
	if err := strictjson.Decode([]byte(`{"1":1}`), &im); err == nil {
		t.Error("int map keys: no error")
	}
}

func TestNullHandling(t *testing.T) {
	var v struct {
		P *int            `json:"p"`
		S []int           `json:"s"`
		M map[string]int  `json:"m"`
		A any             `json:"a"`
		R json.RawMessage `json:"r"`
	}
	x := 1
	v.P, v.S, v.M, v.A = &x, []int{1}, map[string]int{}, 1
	if err := strictjson.Decode([]byte(`{"p":null,"s":null,"m":null,"a":null,"r":null}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.P != nil || v.S != nil || v.M != nil || v.A != nil || string(v.R) != "null" {
		t.Fatalf("got %+v", v)
	}
	for _, in := range []string{`{"i":null}`, `{"b":null}`, `{"f":null}`, `{"st":null}`} {
		var w struct {
			I  int      `json:"i"`
			B  bool     `json:"b"`
			F  float64  `json:"f"`
			St struct{} `json:"st"`
		}
		if err := strictjson.Decode([]byte(in), &w); err == nil || !strings.Contains(err.Error(), "not null") {
			t.Errorf("Decode(%s) = %v, want a null error", in, err)
		}
	}
}

func TestAgreesWithEncodingJSON(t *testing.T) {
	inputs := []string{
		`{"a":[1,2.5,-3e-2,"x\u00e9\ud83d\ude00\n\t\/",true,false,null],"b":{"c":{}},"d":[]}`,
		`"just a string"`, `12`, `-0.0`, `true`, `null`, `[[[]]]`, `"\u2028\u2029<>&"`,
		`{"":1,"\u0000":2}`, "\"\u00ff\u4e2d\U0001F600\"",
	}
	for _, in := range inputs {
		var got, want any
		if err := strictjson.Decode([]byte(in), &got); err != nil {
			t.Errorf("Decode(%s): %v", in, err)
			continue
		}
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Decode(%s) = %#v, encoding/json says %#v", in, got, want)
		}
		if err := strictjson.Valid([]byte(in)); err != nil {
			t.Errorf("Valid(%s): %v", in, err)
		}
	}
}

func TestErrorString(t *testing.T) {
	if got := (&strictjson.Error{Path: "a[1]", Rule: "duplicate key"}).Error(); got != "a[1]: duplicate key" {
		t.Errorf("got %q", got)
	}
	if got := (&strictjson.Error{Rule: "empty input"}).Error(); got != "empty input" {
		t.Errorf("got %q", got)
	}
}

func TestLargeInputStrings(t *testing.T) {
	// Above the size where strings share the input's copy, every string is its own allocation; both
	// paths must read the same values.
	for _, n := range []int{10, 20 << 10} {
		var in struct {
			A string   `json:"a"`
			B []string `json:"b"`
		}
		in.A = strings.Repeat("x", n)
		in.B = []string{"", "é", "q\"uote", strings.Repeat("y", n)}
		data, _ := json.Marshal(in)
		var out struct {
			A string   `json:"a"`
			B []string `json:"b"`
		}
		if err := strictjson.Decode(data, &out); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(in, out) {
			t.Fatalf("%d: decoded differently", n)
		}
	}
}

// Every kind of array and object shares one walk (beginArray/nextElem, beginObject/nextMember); a bad
// separator after an element or member must be an error in each of them, never skipped over.
func TestSeparatorsInEveryKindOfContainer(t *testing.T) {
	type inner struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	type target struct {
		Chords []string          `json:"chords"`
		Bars   [][]string        `json:"bars"`
		Nums   []int             `json:"nums"`
		Pair   [2]int            `json:"pair"`
		Any    any               `json:"any"`
		Map    map[string]int    `json:"map"`
		Inner  inner             `json:"inner"`
		Raw    json.RawMessage   `json:"raw"`
		Deep   map[string][]bool `json:"deep"`
	}
	for _, tt := range []struct{ name, doc string }{
		{"string-list-missing-comma", `{"chords":["a" "b"]}`},
		{"string-list-trailing-comma", `{"chords":["a",]}`},
		{"string-list-unclosed", `{"chords":["a"`},
		{"list-of-lists-missing-comma", `{"bars":[["a"] ["b"]]}`},
		{"list-of-lists-inner-missing-comma", `{"bars":[["a" "b"]]}`},
		{"slice-missing-comma", `{"nums":[1 2]}`},
		{"array-missing-comma", `{"pair":[1 2]}`},
		{"any-missing-comma", `{"any":[1 2]}`},
		{"skipped-missing-comma", `[1 2]`},
		{"struct-missing-comma", `{"inner":{"a":1 "b":2}}`},
		{"struct-trailing-garbage", `{"inner":{"a":1;}}`},
		{"map-missing-comma", `{"map":{"a":1 "b":2}}`},
		{"any-object-missing-comma", `{"any":{"a":1 "b":2}}`},
		{"raw-object-missing-comma", `{"raw":{"a":1 "b":2}}`},
		{"top-level-missing-comma", `{"nums":[] "pair":[1,2]}`},
		{"skipped-object-missing-comma", `{"a":1 "b":2}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if strings.HasPrefix(tt.name, "skipped-") {
				err = strictjson.Valid([]byte(tt.doc))
			} else {
				var v target
				err = strictjson.Decode([]byte(tt.doc), &v)
			}
			if err == nil {
				t.Fatalf("%s: accepted", tt.doc)
			}
		})
	}
}
