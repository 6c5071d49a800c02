package board

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// lyricDoc is a content document whose sections are secs (a JSON array).
func lyricDoc(secs string) string {
	return `{"title":"T","tempo":90,"beatsPerBar":4,"sections":` + secs + `}`
}

func TestLinesParse(t *testing.T) {
	data := lyricDoc(`[
	 {"label":"Verse 1","role":"verse","lines":[
	   {"text":"Amazing grace, how sweet the sound","chords":[{"at":0,"chord":"G"},{"at":8,"chord":"G7"},{"at":33,"chord":"C"}]},
	   {"text":""},
	   {"text":"","chords":[{"at":0,"chord":"D"}]}]},
	 {"label":"Chorus","role":"chorus","bars":[["C"],["G"]],"lines":[{"text":"中文 😀 words","chords":[{"at":1,"chord":"Am"},{"at":3,"chord":"B♭"},{"at":5,"chord":"Cø"},{"at":11,"chord":"D"}]}]},
	 {"label":"","recall":"chorus"}]`)
	c, err := ParseContent([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if v := c.SchemaVersion(); v != 3 {
		t.Errorf("SchemaVersion = %d, want 3", v)
	}
	if len(c.Sections) != 3 || c.Sections[0].Bars != nil || len(c.Sections[0].Lines) != 3 || c.Sections[2].Recall != RecallChorus {
		t.Fatalf("sections: %+v", c.Sections)
	}
	stored, err := storable(c)
	if err != nil {
		t.Fatal(err)
	}
	got := stored.Sections[1].Lines[0].Chords
	want := []LineChord{{At: 1, Chord: "Am"}, {At: 3, Chord: "Bb"}, {At: 5, Chord: "Cm7b5"}, {At: 11, Chord: "D"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stored chords %v, want %v", got, want)
	}
	enc, err := json.Marshal(stored)
	if err != nil {
		t.Fatal(err)
	}
	if n := exactEncodedLen(stored); n != len(enc) {
		t.Errorf("exactEncodedLen %d, json.Marshal %d", n, len(enc))
	}
	// The stored document reads back as the same content, and is written without bars where there are none.
	back, err := ParseContent(enc)
	if err != nil {
		t.Fatalf("stored %s: %v", enc, err)
	}
	if !reflect.DeepEqual(back, stored) {
		t.Errorf("read back %+v\nwant %+v", back, stored)
	}
	if strings.Contains(string(enc), `"bars":null`) || !strings.Contains(string(enc), `{"label":"","recall":"chorus"}`) {
		t.Errorf("stored %s", enc)
	}
}

func TestLinesRefused(t *testing.T) {
	line := func(l string) string { return lyricDoc(`[{"label":"V","lines":[` + l + `]}]`) }
	for _, tc := range []struct {
		name, doc, path, rule string
	}{
		{"nothing", lyricDoc(`[{"label":"V"}]`), "sections[0].bars", "sectionEmpty"},
		{"empty bars", lyricDoc(`[{"label":"V","bars":[]}]`), "sections[0].bars", ""},
		{"empty bars with lines", lyricDoc(`[{"label":"V","bars":[],"lines":[{"text":"a"}]}]`), "sections[0].bars", ""},
		{"empty lines", lyricDoc(`[{"label":"V","lines":[]}]`), "sections[0].lines", "linesCount"},
		{"too many lines", lyricDoc(`[{"label":"V","lines":` + bars(201, `{"text":"a"}`) + `}]`), "sections[0].lines", "linesCount"},
		{"past the end", line(`{"text":"abc","chords":[{"at":4,"chord":"C"}]}`), "sections[0].lines[0].chords[0].at", "lineChordAt"},
		{"negative", line(`{"text":"abc","chords":[{"at":-1,"chord":"C"}]}`), "sections[0].lines[0].chords[0].at", "lineChordAt"},
		{"same place", line(`{"text":"abc","chords":[{"at":1,"chord":"C"},{"at":1,"chord":"G"}]}`), "sections[0].lines[0].chords[1].at", "lineChordOrder"},
		{"backwards", line(`{"text":"abc","chords":[{"at":2,"chord":"C"},{"at":1,"chord":"G"}]}`), "sections[0].lines[0].chords[1].at", "lineChordOrder"},
		{"inside an emoji", line(`{"text":"a😀b","chords":[{"at":2,"chord":"C"}]}`), "sections[0].lines[0].chords[0].at", "lineChordSplit"},
		{"two on an empty line", line(`{"text":"","chords":[{"at":0,"chord":"C"},{"at":1,"chord":"G"}]}`), "sections[0].lines[0].chords[1].at", "lineChordAt"},
		{"not a chord", line(`{"text":"abc","chords":[{"at":0,"chord":"H7"}]}`), "sections[0].lines[0].chords[0].chord", ""},
		{"empty chord", line(`{"text":"abc","chords":[{"at":0,"chord":""}]}`), "sections[0].lines[0].chords[0].chord", ""},
		{"no text", line(`{"chords":[{"at":0,"chord":"C"}]}`), "sections[0].lines[0].text", ""},
		{"no at", line(`{"text":"a","chords":[{"chord":"C"}]}`), "sections[0].lines[0].chords[0].at", ""},
		{"no chord", line(`{"text":"a","chords":[{"at":0}]}`), "sections[0].lines[0].chords[0].chord", ""},
		{"unknown member", line(`{"text":"a","lyrics":"x"}`), "sections[0].lines[0].lyrics", ""},
		{"fraction", line(`{"text":"a","chords":[{"at":0.5,"chord":"C"}]}`), "sections[0].lines[0].chords[0].at", ""},
		{"a string line", line(`"la la"`), "sections[0].lines[0]", ""},
		{"null chords", line(`{"text":"a","chords":null}`), "sections[0].lines[0].chords", ""},
		{"line break", line(`{"text":"a\nb"}`), "sections[0].lines[0].text", ""},
		{"long text", line(`{"text":"` + strings.Repeat("a", 501) + `"}`), "sections[0].lines[0].text", ""},
		{"recall first", lyricDoc(`[{"label":"C","recall":"chorus"},{"label":"C","role":"chorus","lines":[{"text":"a"}]}]`), "sections[0].recall", "recallNoChorus"},
		{"recall of a verse only", lyricDoc(`[{"label":"V","role":"verse","lines":[{"text":"a"}]},{"label":"","recall":"chorus"}]`), "sections[1].recall", "recallNoChorus"},
		{"recall with words", lyricDoc(`[{"label":"C","role":"chorus","lines":[{"text":"a"}]},{"label":"","recall":"chorus","lines":[{"text":"a"}]}]`), "sections[1].recall", "recallAlone"},
		{"recall with a role", lyricDoc(`[{"label":"C","role":"chorus","lines":[{"text":"a"}]},{"label":"","role":"chorus","recall":"chorus"}]`), "sections[1].recall", "recallAlone"},
		{"recall a verse", lyricDoc(`[{"label":"C","role":"verse","lines":[{"text":"a"}]},{"label":"","recall":"verse"}]`), "sections[1].recall", "recallWhat"},
		{"artist too long", `{"title":"T","artist":"` + strings.Repeat("a", 121) + `","tempo":90,"beatsPerBar":4,"sections":[{"label":"A","bars":[["C"]]}]}`, "artist", ""},
		{"invisible composer", `{"title":"T","composer":"\u200b","tempo":90,"beatsPerBar":4,"sections":[{"label":"A","bars":[["C"]]}]}`, "composer", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseContent([]byte(tc.doc))
			ve, ok := errors.AsType[*ValidationError](err)
			if !ok {
				t.Fatalf("err %v, want a *ValidationError", err)
			}
			if ve.Path != tc.path || ve.RuleID != tc.rule {
				t.Errorf("path %q rule id %q (%s), want %q %q", ve.Path, ve.RuleID, ve.Rule, tc.path, tc.rule)
			}
			if ve.RuleID != "" {
				if _, ok := formRules[ve.RuleID]; !ok || strings.Contains(ve.Rule, "{") {
					t.Errorf("rule %q words %q", ve.RuleID, ve.Rule)
				}
			}
		})
	}
}

// TestLinesChordSuggestion: a line's chord is refused as a bar's is, with the same suggestion.
func TestLinesChordSuggestion(t *testing.T) {
	_, err := ParseContent([]byte(lyricDoc(`[{"label":"V","lines":[{"text":"a","chords":[{"at":0,"chord":"H7"}]}]}]`)))
	ve, _ := errors.AsType[*ValidationError](err)
	if ve == nil || ve.Symbol != "H7" || ve.Suggestion != "B7" {
		t.Fatalf("%#v", ve)
	}
}

// TestLinesUTF16 places chords by UTF-16 code units: CJK one unit each, an emoji outside the BMP two,
// an emoji with a skin tone four; every place between characters is allowed, none inside a pair.
func TestLinesUTF16(t *testing.T) {
	for _, tc := range []struct {
		text   string
		ok, no []int
	}{
		{"中文歌词", []int{0, 1, 2, 3, 4}, []int{5}},
		{"😀", []int{0, 2}, []int{1, 3}},
		{"a👍🏽b", []int{0, 1, 3, 5, 6}, []int{2, 4, 7}},
		{"é", []int{0, 1}, []int{2}}, // precomposed: one unit
	} {
		for _, at := range append(tc.ok, tc.no...) {
			doc := lyricDoc(fmt.Sprintf(`[{"label":"V","lines":[{"text":%q,"chords":[{"at":%d,"chord":"C"}]}]}]`, tc.text, at))
			_, err := ParseContent([]byte(doc))
			want := slicesContainsInt(tc.ok, at)
			if (err == nil) != want {
				t.Errorf("%q at %d: err %v, want ok %v", tc.text, at, err, want)
			}
		}
	}
}

func slicesContainsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestLongSongFits: 200 lines of 200 characters, each with four chords, are a valid board within the
// size limit, as stored.
func TestLongSongFits(t *testing.T) {
	c := Content{Title: "Long", Tempo: 100, BeatsPerBar: 4}
	var sec Section
	for i := range 200 {
		if len(sec.Lines) == 40 {
			c.Sections = append(c.Sections, sec)
			sec = Section{}
		}
		sec.Label = fmt.Sprintf("Verse %d", len(c.Sections)+1)
		text := strings.Repeat(fmt.Sprintf("word%02d ", i%100), 29)[:200]
		sec.Lines = append(sec.Lines, Line{Text: text, Chords: []LineChord{{At: 0, Chord: "Am7"}, {At: 50, Chord: "D7"}, {At: 100, Chord: "Gmaj7"}, {At: 150, Chord: "C#m7b5"}}})
	}
	c.Sections = append(c.Sections, sec)
	stored, err := storable(c)
	if err != nil {
		t.Fatal(err)
	}
	enc, _ := json.Marshal(stored)
	t.Logf("a song of 200 lines of 200 characters is %d bytes stored", len(enc))
	if len(enc) > MaxContentBytes {
		t.Fatalf("%d bytes", len(enc))
	}
}

// TestEarlierSchemasUnchanged: a board of every earlier version reads and is stored as it was, and
// reports its version.
func TestEarlierSchemasUnchanged(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want int
	}{
		{lyricDoc(`[{"label":"A","bars":[["C"],["G7"]]}]`), 1},
		{lyricDoc(`[{"label":"A","role":"verse","bars":[{"chords":["C"],"repeatStart":true},{"chords":"%","repeatEnd":2}]}]`), 2},
		{lyricDoc(`[{"label":"A","bars":[{"chords":["C","G7"],"durations":[3,1]}]}]`), 3},
	} {
		c, err := ParseContent([]byte(tc.doc))
		if err != nil {
			t.Fatal(err)
		}
		if v := c.SchemaVersion(); v != tc.want {
			t.Errorf("%s: version %d, want %d", tc.doc, v, tc.want)
		}
		enc, _ := json.Marshal(c)
		if string(enc) != `{"title":"T","description":"",`+strings.TrimPrefix(tc.doc, `{"title":"T",`) {
			t.Errorf("stored %s", enc)
		}
	}
}

func TestCreditsParse(t *testing.T) {
	c, err := ParseContent([]byte(`{"title":"T","artist":"The Band","composer":"Kosma","style":"Medium Swing","tempo":90,"beatsPerBar":4,"sections":[{"label":"A","bars":[["C"]]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.Artist != "The Band" || c.Composer != "Kosma" || c.Style != "Medium Swing" || c.SchemaVersion() != 3 {
		t.Errorf("%+v", c)
	}
	enc, _ := json.Marshal(c)
	if n := exactEncodedLen(c); n != len(enc) {
		t.Errorf("exactEncodedLen %d, json.Marshal %d", n, len(enc))
	}
}

// TestMergeLines: a proposal's change of a section's words is taken when the board left them alone,
// and conflicts when the board changed them differently.
func TestMergeLines(t *testing.T) {
	mk := func(text string) Content {
		return Content{Title: "T", Tempo: 90, BeatsPerBar: 4, Sections: []Section{{Label: "V", Bars: []Bar{PlainBar("C")}, Lines: []Line{{Text: text}}}}}
	}
	base, prop := mk("a"), mk("b")
	got, err := MergeProposal(base, base, prop, Selection{})
	if err != nil || got.Sections[0].Lines[0].Text != "b" {
		t.Fatalf("%v %+v", err, got)
	}
	cur := mk("c")
	cur.Sections[0].Bars = []Bar{PlainBar("D")}
	_, err = MergeProposal(base, cur, prop, Selection{})
	if ce, ok := errors.AsType[*ProposalConflictError](err); !ok || len(ce.Fields) != 1 || ce.Fields[0] != "sections[0].lines" {
		t.Fatalf("err %v", err)
	}
}

func TestLineFit(t *testing.T) {
	long := strings.Repeat("a", MaxLineUnits-1) + "😀" // 501 units: the emoji's halves straddle the limit
	for _, tc := range []struct {
		name   string
		in     Line
		text   string
		chords []LineChord
		cut    bool
	}{
		{name: "short stays", in: Line{Text: "grace", Chords: []LineChord{{At: 0, Chord: "G"}}}, text: "grace", chords: []LineChord{{At: 0, Chord: "G"}}},
		{name: "cut before a pair, chords past it left out", in: Line{Text: long, Chords: []LineChord{{At: 3, Chord: "C"}, {At: MaxLineUnits, Chord: "G"}}},
			text: strings.Repeat("a", MaxLineUnits-1), chords: []LineChord{{At: 3, Chord: "C"}}, cut: true},
		{name: "no chord left", in: Line{Text: long, Chords: []LineChord{{At: MaxLineUnits + 1, Chord: "G"}}}, text: strings.Repeat("a", MaxLineUnits-1), cut: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, cut := tc.in.Fit()
			if got.Text != tc.text || !slices.Equal(got.Chords, tc.chords) || cut != tc.cut {
				t.Fatalf("Fit = %q %v %v, want %q %v %v", got.Text, got.Chords, cut, tc.text, tc.chords, tc.cut)
			}
			doc, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ParseContent([]byte(lyricDoc(`[{"lines":[` + string(doc) + `]}]`))); err != nil {
				t.Fatalf("the fitted line is not valid: %v", err)
			}
		})
	}
}
