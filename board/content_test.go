package board

import (
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// specExample is the example of docs/content.md, verbatim.
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

const omit = "\x00omit"

// doc builds a content document in schema order from valid defaults; a field set to omit is left out.
func doc(fields map[string]string) string {
	def := []struct{ k, v string }{
		{"title", `"T"`}, {"description", `"d"`}, {"key", `"C"`}, {"tempo", `120`}, {"beatsPerBar", `4`},
		{"sections", `[{"label":"A","bars":[["C"]]}]`},
	}
	var b strings.Builder
	b.WriteString("{")
	n := 0
	for _, f := range def {
		v := f.v
		if o, ok := fields[f.k]; ok {
			v = o
		}
		if v == omit {
			continue
		}
		if n > 0 {
			b.WriteString(",")
		}
		n++
		b.WriteString(`"` + f.k + `":` + v)
	}
	for k, v := range fields {
		if !slicesContains([]string{"title", "description", "key", "tempo", "beatsPerBar", "sections"}, k) {
			b.WriteString(`,"` + k + `":` + v)
		}
	}
	b.WriteString("}")
	return b.String()
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func q(s string) string { b, _ := json.Marshal(s); return string(b) }

func bars(n int, bar string) string {
	return "[" + strings.TrimSuffix(strings.Repeat(bar+",", n), ",") + "]"
}

func sections(n int, sec string) string {
	return "[" + strings.TrimSuffix(strings.Repeat(sec+",", n), ",") + "]"
}

func TestParseContentSpecExample(t *testing.T) {
	c, err := ParseContent([]byte(specExample))
	if err != nil {
		t.Fatal(err)
	}
	want := Content{
		Title: "Autumn Leaves", Description: "Two-five-one practice in G.", Key: "G", Tempo: 120, BeatsPerBar: 4,
		Sections: []Section{
			{Label: "A", Bars: []Bar{PlainBar("Am7"), PlainBar("D7"), PlainBar("Gmaj7"), PlainBar("Cmaj7")}},
			{Label: "B", Bars: []Bar{PlainBar("F#m7b5"), PlainBar("B7"), PlainBar("Em", "Em/D"), PlainBar("C#m7b5", "F#7")}},
		},
	}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("got %#v", c)
	}
}

func TestParseContentValid(t *testing.T) {
	tests := []struct {
		name   string
		fields map[string]string
		check  func(Content) bool
	}{
		{"defaults", nil, nil},
		{"no-description", map[string]string{"description": omit}, func(c Content) bool { return c.Description == "" }},
		{"no-key", map[string]string{"key": omit}, func(c Content) bool { return c.Key == "" }},
		{"empty-key-means-none", map[string]string{"key": `""`}, func(c Content) bool { return c.Key == "" }},
		{"minor-key", map[string]string{"key": `"F#m"`}, func(c Content) bool { return c.Key == "F#m" }},
		{"flat-key", map[string]string{"key": `"Bbm"`}, nil},
		{"title-120-units", map[string]string{"title": q(strings.Repeat("x", 120))}, nil},
		{"title-60-emoji-is-120-units", map[string]string{"title": q(strings.Repeat("😀", 60))}, nil},
		{"title-120-cjk", map[string]string{"title": q(strings.Repeat("中", 120))}, nil},
		{"title-padded", map[string]string{"title": `"  x  "`}, func(c Content) bool { return c.Title == "  x  " }},
		{"description-2000", map[string]string{"description": q(strings.Repeat("é", 2000))}, nil},
		{"description-empty", map[string]string{"description": `""`}, nil},
		{"tempo-30", map[string]string{"tempo": `30`}, nil},
		{"tempo-300", map[string]string{"tempo": `300`}, nil},
		{"beats-1", map[string]string{"beatsPerBar": `1`}, nil},
		{"beats-12", map[string]string{"beatsPerBar": `12`}, nil},
		{"label-empty", map[string]string{"sections": `[{"label":"","bars":[["C"]]}]`}, nil},
		{"label-absent", map[string]string{"sections": `[{"bars":[["C"]]}]`}, nil},
		{"label-40", map[string]string{"sections": `[{"label":` + q(strings.Repeat("ab", 20)) + `,"bars":[["C"]]}]`}, nil},
		{"label-20-emoji", map[string]string{"sections": `[{"label":` + q(strings.Repeat("🎸", 20)) + `,"bars":[["C"]]}]`}, nil},
		{"sections-32", map[string]string{"sections": sections(32, `{"label":"x","bars":[["C"]]}`)}, nil},
		{"bars-64", map[string]string{"sections": `[{"label":"x","bars":` + bars(64, `["C"]`) + `}]`}, nil},
		{"bars-512-total", map[string]string{"sections": sections(8, `{"label":"x","bars":`+bars(64, `["C"]`)+`}`)}, nil},
		{"four-chords", map[string]string{"sections": `[{"bars":[["C","Dm","Em","F"]]}]`}, nil},
		{"chords", map[string]string{"sections": `[{"bars":[["N.C."],["C/E","F#m7b5/C#"],["Bbmaj9","Ab13","Gb7#9","Db7b9"],["Eaug","Fdim7","Gsus4","A7sus4"]]}]`}, nil},
		{"whitespace", map[string]string{"tempo": " \n 120 \t"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := doc(tt.fields)
			c, err := ParseContent([]byte(in))
			if err != nil {
				t.Fatalf("ParseContent(%s): %v", in, err)
			}
			if tt.check != nil && !tt.check(c) {
				t.Fatalf("ParseContent(%s) = %#v", in, c)
			}
			if err := c.Validate(); err != nil {
				t.Fatalf("Validate: %v", err)
			}
		})
	}
}

func TestParseContentInvalid(t *testing.T) {
	tests := []struct {
		name   string
		in     string // a whole document, or "" to build one from fields
		fields map[string]string
		path   string
		rule   string // a substring of the rule
	}{
		// Form: syntax, types, unknown fields, duplicates, trailing data, UTF-8.
		{name: "empty", in: ``, path: "", rule: "empty"},
		{name: "not-json", in: `title: x`, path: "", rule: "invalid JSON"},
		{name: "array", in: `[]`, path: "", rule: "must be an object"},
		{name: "null", in: `null`, path: "", rule: "must be an object"},
		{name: "trailing-data", in: doc(nil) + `{}`, path: "", rule: "unexpected data after"},
		{name: "trailing-garbage", in: doc(nil) + ` x`, path: "", rule: "unexpected data after"},
		{name: "unknown-field", fields: map[string]string{"colour": `"red"`}, path: "colour", rule: "unknown field"},
		{name: "unknown-field-case", fields: map[string]string{"Title": `"x"`}, path: "Title", rule: "unknown field"},
		{name: "unknown-section-field", fields: map[string]string{"sections": `[{"label":"A","bars":[["C"]],"repeat":2}]`}, path: "sections[0].repeat", rule: "unknown field"},
		{name: "duplicate-title", in: `{"title":"a","title":"b","tempo":120,"beatsPerBar":4,"sections":[{"bars":[["C"]]}]}`, path: "title", rule: "duplicate key"},
		{name: "duplicate-escaped", in: `{"title":"a","tempo":120,"t\u0065mpo":121,"beatsPerBar":4,"sections":[{"bars":[["C"]]}]}`, path: "tempo", rule: "duplicate key"},
		{name: "duplicate-nested", fields: map[string]string{"sections": `[{"label":"A","bars":[["C"]]},{"bars":[["C"]],"bars":[["D"]]}]`}, path: "sections[1].bars", rule: "duplicate key"},
		{name: "title-number", fields: map[string]string{"title": `1`}, path: "title", rule: "must be a string"},
		{name: "description-null", fields: map[string]string{"description": `null`}, path: "description", rule: "must be a string"},
		{name: "key-number", fields: map[string]string{"key": `5`}, path: "key", rule: "must be a string"},
		{name: "tempo-string", fields: map[string]string{"tempo": `"120"`}, path: "tempo", rule: "must be an integer"},
		{name: "tempo-fraction", fields: map[string]string{"tempo": `120.5`}, path: "tempo", rule: "must be an integer"},
		{name: "tempo-exponent", fields: map[string]string{"tempo": `1e2`}, path: "tempo", rule: "must be an integer"},
		{name: "tempo-point-zero", fields: map[string]string{"tempo": `120.0`}, path: "tempo", rule: "must be an integer"},
		{name: "tempo-huge", fields: map[string]string{"tempo": `1000000000000000000000`}, path: "tempo", rule: "out of range"},
		{name: "tempo-bool", fields: map[string]string{"tempo": `true`}, path: "tempo", rule: "must be an integer"},
		{name: "beats-fraction", fields: map[string]string{"beatsPerBar": `4.5`}, path: "beatsPerBar", rule: "must be an integer"},
		{name: "sections-object", fields: map[string]string{"sections": `{}`}, path: "sections", rule: "must be an array"},
		{name: "section-array", fields: map[string]string{"sections": `[[]]`}, path: "sections[0]", rule: "must be an object"},
		{name: "bars-string", fields: map[string]string{"sections": `[{"bars":"C"}]`}, path: "sections[0].bars", rule: "must be an array"},
		{name: "bar-string", fields: map[string]string{"sections": `[{"bars":["C"]}]`}, path: "sections[0].bars[0]", rule: "must be an array"},
		{name: "chord-number", fields: map[string]string{"sections": `[{"bars":[["C"]]},{"bars":[["C"],["C"],["C"],["D",7]]}]`}, path: "sections[1].bars[3][1]", rule: "must be a string"},
		{name: "label-number", fields: map[string]string{"sections": `[{"label":1,"bars":[["C"]]}]`}, path: "sections[0].label", rule: "must be a string"},
		{name: "invalid-utf8", fields: map[string]string{"title": "\"a\xff\""}, path: "title", rule: "invalid UTF-8"},
		{name: "invalid-utf8-chord", fields: map[string]string{"sections": "[{\"bars\":[[\"C\xc3\"]]}]"}, path: "sections[0].bars[0][0]", rule: "invalid UTF-8"},
		{name: "lone-surrogate", fields: map[string]string{"title": `"\ud800"`}, path: "title", rule: "surrogate"},

		// Required fields (absent, or null for a required one).
		{name: "title-missing", fields: map[string]string{"title": omit}, path: "title", rule: "is required"},
		{name: "title-null", fields: map[string]string{"title": `null`}, path: "title", rule: "is required"},
		{name: "tempo-missing", fields: map[string]string{"tempo": omit}, path: "tempo", rule: "is required"},
		{name: "beats-missing", fields: map[string]string{"beatsPerBar": omit}, path: "beatsPerBar", rule: "is required"},
		{name: "sections-missing", fields: map[string]string{"sections": omit}, path: "sections", rule: "is required"},
		{name: "sections-null", fields: map[string]string{"sections": `null`}, path: "sections", rule: "is required"},

		// The rules of the table.
		{name: "title-empty", fields: map[string]string{"title": `""`}, path: "title", rule: ruleTitle},
		{name: "title-blank", fields: map[string]string{"title": `" \t\u3000 "`}, path: "title", rule: ruleTitle},
		{name: "title-121", fields: map[string]string{"title": q(strings.Repeat("x", 121))}, path: "title", rule: ruleTitle},
		{name: "title-emoji-121-units", fields: map[string]string{"title": q("x" + strings.Repeat("😀", 60))}, path: "title", rule: ruleTitle},
		{name: "title-121-cjk", fields: map[string]string{"title": q(strings.Repeat("中", 121))}, path: "title", rule: ruleTitle},
		{name: "description-2001", fields: map[string]string{"description": q(strings.Repeat("d", 2001))}, path: "description", rule: ruleDescription},
		{name: "description-1001-emoji", fields: map[string]string{"description": q(strings.Repeat("🎵", 1001))}, path: "description", rule: ruleDescription},
		{name: "key-unknown", fields: map[string]string{"key": `"H"`}, path: "key", rule: ruleKey},
		{name: "key-lowercase", fields: map[string]string{"key": `"c"`}, path: "key", rule: ruleKey},
		{name: "key-major-suffix", fields: map[string]string{"key": `"Cmaj"`}, path: "key", rule: ruleKey},
		{name: "key-e-sharp", fields: map[string]string{"key": `"E#"`}, path: "key", rule: ruleKey},
		{name: "key-min", fields: map[string]string{"key": `"Amin"`}, path: "key", rule: ruleKey},
		{name: "tempo-29", fields: map[string]string{"tempo": `29`}, path: "tempo", rule: ruleTempo},
		{name: "tempo-301", fields: map[string]string{"tempo": `301`}, path: "tempo", rule: ruleTempo},
		{name: "tempo-negative", fields: map[string]string{"tempo": `-120`}, path: "tempo", rule: ruleTempo},
		{name: "beats-0", fields: map[string]string{"beatsPerBar": `0`}, path: "beatsPerBar", rule: ruleBeats},
		{name: "beats-13", fields: map[string]string{"beatsPerBar": `13`}, path: "beatsPerBar", rule: ruleBeats},
		{name: "sections-0", fields: map[string]string{"sections": `[]`}, path: "sections", rule: ruleSections},
		{name: "sections-33", fields: map[string]string{"sections": sections(33, `{"bars":[["C"]]}`)}, path: "sections", rule: ruleSections},
		{name: "label-41", fields: map[string]string{"sections": `[{"label":` + q(strings.Repeat("l", 41)) + `,"bars":[["C"]]}]`}, path: "sections[0].label", rule: ruleLabel},
		{name: "label-21-emoji", fields: map[string]string{"sections": `[{"bars":[["C"]]},{"label":` + q(strings.Repeat("🎸", 20)+"x") + `,"bars":[["C"]]}]`}, path: "sections[1].label", rule: ruleLabel},
		{name: "bars-0", fields: map[string]string{"sections": `[{"label":"A","bars":[]}]`}, path: "sections[0].bars", rule: ruleBars},
		{name: "bars-absent", fields: map[string]string{"sections": `[{"label":"A"}]`}, path: "sections[0].bars", rule: formRules["sectionEmpty"]},
		{name: "bars-null", fields: map[string]string{"sections": `[{"label":"A","bars":null}]`}, path: "sections[0].bars", rule: "must be an array, not null"},
		{name: "bars-65", fields: map[string]string{"sections": `[{"bars":[["C"]]},{"bars":` + bars(65, `["C"]`) + `}]`}, path: "sections[1].bars", rule: ruleBars},
		{name: "bars-513-total", fields: map[string]string{"sections": sections(8, `{"bars":`+bars(64, `["C"]`)+`}`)[:0] +
			"[" + strings.Repeat(`{"bars":`+bars(64, `["C"]`)+`},`, 8) + `{"bars":[["C"]]}]`}, path: "sections[8].bars[0]", rule: ruleTotalBars},
		{name: "bar-empty", fields: map[string]string{"sections": `[{"bars":[["C"],[]]}]`}, path: "sections[0].bars[1]", rule: ruleBar},
		{name: "bar-null", fields: map[string]string{"sections": `[{"bars":[null]}]`}, path: "sections[0].bars[0]", rule: "must be an array, not null"},
		{name: "bar-5-chords", fields: map[string]string{"sections": `[{"bars":[["C","C","C","C","C"]]}]`}, path: "sections[0].bars[0]", rule: ruleBar},
		{name: "chord-unknown-quality", fields: map[string]string{"sections": `[{"bars":[["Cmaj7b9"]]}]`}, path: "sections[0].bars[0][0]", rule: "Not a chord Tele knows: `"},
		{name: "chord-lowercase", fields: map[string]string{"sections": `[{"bars":[["am"]]}]`}, path: "sections[0].bars[0][0]", rule: "Not a chord Tele knows: `"},
		{name: "chord-empty", fields: map[string]string{"sections": `[{"bars":[[""]]}]`}, path: "sections[0].bars[0][0]", rule: "Not a chord Tele knows: `"},
		{name: "chord-space", fields: map[string]string{"sections": `[{"bars":[[" C"]]}]`}, path: "sections[0].bars[0][0]", rule: "Not a chord Tele knows: `"},
		{name: "chord-cbb", fields: map[string]string{"sections": `[{"bars":[["Cbb"]]}]`}, path: "sections[0].bars[0][0]", rule: "Not a chord Tele knows: `"},
		{name: "chord-bad-bass", fields: map[string]string{"sections": `[{"bars":[["C/H"]]}]`}, path: "sections[0].bars[0][0]", rule: "Not a chord Tele knows: `"},
		{name: "chord-empty-bass", fields: map[string]string{"sections": `[{"bars":[["C/"]]}]`}, path: "sections[0].bars[0][0]", rule: "Not a chord Tele knows: `"},
		{name: "chord-double-bass", fields: map[string]string{"sections": `[{"bars":[["C/E/G"]]}]`}, path: "sections[0].bars[0][0]", rule: "Not a chord Tele knows: `"},
		{name: "chord-nc-lower", fields: map[string]string{"sections": `[{"bars":[["n.c.c"]]}]`}, path: "sections[0].bars[0][0]", rule: "Not a chord Tele knows: `"},
		{name: "chord-nc-bass", fields: map[string]string{"sections": `[{"bars":[["N.C./E"]]}]`}, path: "sections[0].bars[0][0]", rule: "Not a chord Tele knows: `"},
		{name: "chord-deep", fields: map[string]string{"sections": `[{"bars":[["C"]]},{"bars":[["C"],["C"],["C"],["Em","Xm"]]}]`}, path: "sections[1].bars[3][1]", rule: "Not a chord Tele knows: `"},

		// The first offending value, in schema order, wins.
		{name: "first-error-title", fields: map[string]string{"title": `""`, "tempo": `1`}, path: "title", rule: ruleTitle},
		{name: "first-error-tempo", fields: map[string]string{"tempo": `1`, "sections": `[]`}, path: "tempo", rule: ruleTempo},
		{name: "first-error-bar", fields: map[string]string{"sections": `[{"bars":[["X"],[]]}]`}, path: "sections[0].bars[0][0]", rule: "Not a chord Tele knows: `"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			if in == "" && tt.fields != nil {
				in = doc(tt.fields)
			}
			_, err := ParseContent([]byte(in))
			ve, ok := errors.AsType[*ValidationError](err)
			if !ok {
				t.Fatalf("ParseContent(%.200s) = %v, want a *ValidationError", in, err)
			}
			if ve.Path != tt.path || !strings.Contains(ve.Rule, tt.rule) {
				t.Fatalf("ParseContent(%.200s) = {Path:%q Rule:%q}, want path %q and a rule containing %q", in, ve.Path, ve.Rule, tt.path, tt.rule)
			}
		})
	}
}

func TestSizeLimit(t *testing.T) {
	// The document as sent: exactly MaxContentBytes passes, one byte more does not.
	base := doc(nil)
	pad := func(n int) []byte { return []byte(base[:1] + strings.Repeat(" ", n-len(base)) + base[1:]) }
	if _, err := ParseContent(pad(MaxContentBytes)); err != nil {
		t.Fatalf("%d bytes: %v", MaxContentBytes, err)
	}
	_, err := ParseContent(pad(MaxContentBytes + 1))
	if ve, ok := errors.AsType[*ValidationError](err); !ok || ve.Path != "" || !strings.Contains(ve.Rule, ruleSize) {
		t.Fatalf("%d bytes: %v, want the size rule", MaxContentBytes+1, err)
	}

	// The largest content the other rules allow (512 bars of four of the longest symbols, every text
	// at its limit in characters that encoding/json escapes to six bytes) stays under the limit in its
	// compact form, so Validate's size check is a backstop and stored boards always re-parse.
	long := "C♯7♭9♭13/F♯" // the longest symbol accepted: 18 bytes
	c := Content{Title: strings.Repeat("<", 120), Description: strings.Repeat("<", 2000), Key: "C#m", Tempo: 120, BeatsPerBar: 12}
	for range 8 {
		s := Section{Label: strings.Repeat("&", 40)}
		for range 64 {
			s.Bars = append(s.Bars, PlainBar(long, long, long, long))
		}
		c.Sections = append(c.Sections, s)
	}
	for range 24 {
		c.Sections = append(c.Sections, Section{Label: strings.Repeat(">", 40)})
	}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "sections[8].bars") {
		t.Fatalf("Validate = %v, want the empty 9th section refused", err) // 512 bars are used up
	}
	c.Sections = c.Sections[:8]
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(c)
	if n := exactEncodedLen(c); n != len(data) || n > MaxContentBytes {
		t.Fatalf("largest content: exactEncodedLen %d, json.Marshal %d bytes, limit %d", n, len(data), MaxContentBytes)
	}
	if _, err := ParseContent(data); err != nil {
		t.Fatal(err)
	}
}

func TestEscapedKeys(t *testing.T) {
	c, err := ParseContent([]byte(`{"t\u0069tle":"T","tempo":120,"beatsPerBar":4,"sections":[{"b\u0061rs":[["C"]]}]}`))
	if err != nil || c.Title != "T" || c.Sections[0].Bars[0].Chords[0] != "C" {
		t.Fatalf("got %#v, %v", c, err)
	}
}

func TestEncodedLenMatchesMarshal(t *testing.T) {
	for _, c := range []Content{
		Example(),
		{Title: "a\"b\\c\nd\re\tf\x01g\bh\fi\x7f<h>i&j\u2028k\u2029l😀中é", Description: "", Key: "", Tempo: 30, BeatsPerBar: 1,
			Sections: []Section{{Label: "", Bars: []Bar{PlainBar("C"), {}, PlainBar()}}, {Bars: nil}}},
		{Title: "x", Tempo: -5, Sections: nil},
	} {
		data, _ := json.Marshal(c)
		if got := exactEncodedLen(c); got != len(data) {
			t.Errorf("exactEncodedLen = %d, json.Marshal = %d (%s)", got, len(data), data)
		}
		if got := encodedLenBound(c); got < len(data) {
			t.Errorf("encodedLenBound = %d < json.Marshal = %d", got, len(data))
		}
	}
}

func TestValidateGoValues(t *testing.T) {
	base := func() Content { return Example() }
	tests := []struct {
		name   string
		mutate func(*Content)
		path   string
		rule   string
	}{
		{"invalid-utf8-title", func(c *Content) { c.Title = "a\xffb" }, "title", ruleUTF8},
		{"invalid-utf8-description", func(c *Content) { c.Description = "\xc3" }, "description", ruleUTF8},
		{"invalid-utf8-label", func(c *Content) { c.Sections[1].Label = "\xed\xa0\x80" }, "sections[1].label", ruleUTF8},
		{"nil-sections", func(c *Content) { c.Sections = nil }, "sections", ruleSections},
		{"nil-bars", func(c *Content) { c.Sections[0].Bars = nil }, "sections[0].bars", formRules["sectionEmpty"]},
		{"nil-bar", func(c *Content) { c.Sections[1].Bars[2] = Bar{} }, "sections[1].bars[2]", ruleBar},
		{"zero-tempo", func(c *Content) { c.Tempo = 0 }, "tempo", ruleTempo},
		{"bad-chord", func(c *Content) { c.Sections[0].Bars[7] = PlainBar("G7", "G13b") }, "sections[0].bars[7][1]", "Not a chord Tele knows: `G13b`. Did you mean `G13b9`?"},
		{"bad-key", func(c *Content) { c.Key = "Cm7" }, "key", ruleKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base()
			tt.mutate(&c)
			err := c.Validate()
			ve, ok := errors.AsType[*ValidationError](err)
			if !ok || ve.Path != tt.path || ve.Rule != tt.rule {
				t.Fatalf("Validate = %#v, want {%q %q}", err, tt.path, tt.rule)
			}
		})
	}
}

func TestValidID(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)
	for _, id := range []string{
		"", "a", "A", "0", "welcome", "my-board_2", "-a", "_a", "a.b", "a/b", "a b", "é", strings.Repeat("a", 64),
		strings.Repeat("a", 65), "a\n", "..", "a-", "Z_", "a\x00",
	} {
		if got, want := ValidID(id), re.MatchString(id) && !strings.ContainsRune(id, '\n'); got != want {
			t.Errorf("ValidID(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestClone(t *testing.T) {
	c := Example()
	d := c.Clone()
	if !reflect.DeepEqual(c, d) {
		t.Fatal("clone differs")
	}
	d.Sections[0].Bars[0].Chords[0] = "D"
	d.Sections[1].Label = "x"
	d.Sections[0].Bars = append(d.Sections[0].Bars, PlainBar("E"))
	d.Sections[0].Bars[1].Chords = append(d.Sections[0].Bars[1].Chords, "G") // must not overwrite bar 2
	if c.Sections[0].Bars[0].Chords[0] != "C" || c.Sections[1].Label != "Chorus" || len(c.Sections[0].Bars) != 8 {
		t.Fatal("clone shares memory with the original")
	}
	if d.Sections[0].Bars[2].Chords[0] != "F" {
		t.Fatalf("append to one cloned bar overwrote the next: %v", d.Sections[0].Bars[2])
	}
	if (Content{}).Clone().Sections != nil {
		t.Fatal("nil sections became non-nil")
	}
}

func TestJSONStringLenEveryASCIIByte(t *testing.T) {
	for c := range 0x80 {
		for _, s := range []string{string(rune(c)), "x" + string(rune(c)) + "y"} {
			data, _ := json.Marshal(s)
			if got := jsonStringLen(s); got != len(data) {
				t.Errorf("jsonStringLen(%q) = %d, json.Marshal gives %d (%s)", s, got, len(data), data)
			}
		}
	}
	for _, s := range []string{"\u2028", "\u2029", "\u00e9", "\U0001F600", "\xff", "\xed\xa0\x80", "\u0085", "\ufeff"} {
		data, _ := json.Marshal(s)
		if got := jsonStringLen(s); got != len(data) {
			t.Errorf("jsonStringLen(%q) = %d, json.Marshal gives %d (%s)", s, got, len(data), data)
		}
	}
}
