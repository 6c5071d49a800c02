package strict_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"tele/strict"
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
	if err := strict.Decode([]byte(in), &d); err != nil {
		t.Fatal(err)
	}
	want := doc{Title: "A é😀 \"q\"", Key: "G", Sections: []section{{Bars: []bar{{"Am7"}, {}, {"C", "G/B"}}}}}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("got %#v, want %#v", d, want)
	}
}

// Every refusal names the offending value with the documented path and says why.
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
		{"unknown-digit-key", `{"sections":[{"0":1}]}`, `sections[0]["0"]`, "unknown field"},
		{"skipped-field", `{"Skip":"a"}`, "Skip", "unknown field"},
		{"wrong-type-string", `{"title":1}`, "title", "must be a string, not a number"},
		{"null-string", `{"title":null}`, "title", "must be a string, not null"},
		{"null-int", `{"tempo":null}`, "tempo", "must be an integer, not null"},
		{"null-slice", `{"sections":null}`, "sections", "must be an array, not null"},
		{"null-struct", `{"sections":[null]}`, "sections[0]", "must be an object, not null"},
		{"null-chord", `{"sections":[{"bars":[["C",null]]}]}`, "sections[0].bars[0][1]", "must be a string, not null"},
		{"null-document", `null`, "", "must be an object, not null"},
		{"wrong-type-int", `{"tempo":"120"}`, "tempo", "must be an integer, not a string"},
		{"wrong-type-bool-int", `{"tempo":true}`, "tempo", "must be an integer, not a boolean"},
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
		{"bad-escape", `{"title":"\x"}`, "title", "invalid escape"},
		{"control-char", "{\"title\":\"a\nb\"}", "title", "invalid character"},
		{"unterminated", `{"title":"abc`, "title", "unexpected end of input"},
		{"trailing-comma-object", `{"title":"a",}`, "", "invalid JSON"},
		{"trailing-comma-array", `{"sections":[{},]}`, "sections", "invalid JSON"},
		{"missing-colon", `{"title" "a"}`, "title", "invalid JSON"},
		{"single-quotes", `{'title':'a'}`, "", "invalid JSON"},
		{"leading-zero", `{"tempo":012}`, "", "invalid JSON"},
		{"nan", `{"tempo":NaN}`, "tempo", "invalid JSON"},
		{"truncated", `{"sections":[{"bars":[["C"]`, "sections[0].bars", "unexpected end of input"},
		{"bad-literal", `{"sections":nul}`, "sections", "invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d doc
			err := strict.Decode([]byte(tt.in), &d)
			e, ok := errors.AsType[*strict.Error](err)
			if !ok {
				t.Fatalf("Decode(%q) = %v, want *strict.Error", tt.in, err)
			}
			if e.Path != tt.path || !strings.Contains(e.Rule, tt.rule) {
				t.Fatalf("Decode(%q) = {Path:%q Rule:%q}, want path %q and a rule containing %q", tt.in, e.Path, e.Rule, tt.path, tt.rule)
			}
		})
	}
}

// Null goes where "absent" or "any JSON" is meant: pointers, interfaces, raw values, maps of pointers.
func TestNullAccepted(t *testing.T) {
	var v struct {
		P *int                 `json:"p"`
		A any                  `json:"a"`
		R jsontext.Value       `json:"r"`
		M map[string]*section  `json:"m"`
		L []any                `json:"l"`
		N map[string]*struct{} `json:"n"`
	}
	x := 1
	v.P, v.A = &x, 1
	if err := strict.Decode([]byte(`{"p":null,"a":null,"r":null,"m":{"z":null},"l":[null]}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.P != nil || v.A != nil || string(v.R) != "null" || v.M["z"] != nil || len(v.M) != 1 || v.L[0] != nil {
		t.Fatalf("got %+v", v)
	}
}

func TestDecodeTargets(t *testing.T) {
	type inner struct {
		A int `json:"a"`
	}
	type outer struct {
		P   *inner         `json:"p"`
		M   map[string]int `json:"m"`
		Raw jsontext.Value `json:"raw"`
		Any any            `json:"any"`
		U   uint8          `json:"u"`
		F   float64        `json:"f"`
	}
	for _, tt := range []struct{ in, path, rule string }{
		{`{"u":256}`, "u", "out of range"},
		{`{"u":-1}`, "u", "non-negative"},
		{`{"m":{"x":1,"x":2}}`, "m.x", "duplicate key"},
		{`{"raw":{"k":1,"k":2}}`, "raw.k", "duplicate key"},
		{`{"any":{"k":1,"k":2}}`, "any.k", "duplicate key"},
		{`{"raw":[{"a":1},{"b":{"c":1,"c":1}}]}`, "raw[1].b.c", "duplicate key"},
		{`{"raw":{"1":{"c":1,"c":1}}}`, `raw["1"].c`, "duplicate key"},
		{`{"p":{"a":1,"b":2}}`, "p.b", "unknown field"},
		{`{"f":1e999}`, "f", "out of range"},
		{`{"m":{"x":null}}`, "m.x", "must be an integer, not null"},
	} {
		var o outer
		err := strict.Decode([]byte(tt.in), &o)
		e, ok := errors.AsType[*strict.Error](err)
		if !ok || e.Path != tt.path || !strings.Contains(e.Rule, tt.rule) {
			t.Errorf("Decode(%s) = %#v, want path %q rule ~ %q", tt.in, err, tt.path, tt.rule)
		}
	}
}

func TestDepthLimit(t *testing.T) {
	var a any
	err := strict.Decode([]byte(strings.Repeat("[", 20000)), &a)
	if e, ok := errors.AsType[*strict.Error](err); !ok || !strings.Contains(e.Rule, "nesting too deep") {
		t.Fatalf("got %v", err)
	}
}

func TestProgrammerErrors(t *testing.T) {
	var d doc
	for _, v := range []any{nil, d, (*doc)(nil)} {
		err := strict.Decode([]byte(`{}`), v)
		if err == nil {
			t.Errorf("Decode into %T: no error", v)
		}
		if _, ok := errors.AsType[*strict.Error](err); ok {
			t.Errorf("Decode into %T: %v is a data error, want a plain error", v, err)
		}
	}
}

func TestErrorString(t *testing.T) {
	if got := (&strict.Error{Path: "a[1]", Rule: "duplicate key"}).Error(); got != "a[1]: duplicate key" {
		t.Errorf("got %q", got)
	}
	if got := (&strict.Error{Rule: "empty input"}).Error(); got != "empty input" {
		t.Errorf("got %q", got)
	}
}
