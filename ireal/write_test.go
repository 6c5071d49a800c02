package ireal

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"tele/board"
	"tele/board/formtable"
)

// roundTrip writes c and reads it back.
func roundTrip(t *testing.T, c board.Content) board.Content {
	t.Helper()
	link := Write(c)
	songs, err := Parse(link)
	if err != nil || len(songs) != 1 || songs[0].Err != nil {
		t.Fatalf("%s: Parse(Write) = %d songs, %v\n%s", c.Title, len(songs), err, link)
	}
	if len(songs[0].Notes) > 0 {
		t.Errorf("%s: reading Tele's own link gave notes %q", c.Title, songs[0].Notes)
	}
	return songs[0].Content
}

// TestWriteRoundTrip: boards that use every construct an iReal Pro chart can hold (repeats played 2–8
// times, endings 1–4, segno, coda and To Coda, every jump, Fine, % bars, N.C., meter changes, slash
// chords, every quality of the catalogue, minor keys, the tempo, lettered sections, and intro and verse
// sections as iReal Pro marks them: Intro and Verse, with their roles) come
// back from Write and Parse unchanged, and Lost names nothing for them.
func TestWriteRoundTrip(t *testing.T) {
	var boards []board.Content
	for _, js := range []string{
		`{"title":"Blue Form","description":"","key":"F","tempo":140,"beatsPerBar":4,"sections":[{"label":"A","bars":[
			{"chords":["F7"],"repeatStart":true},["Bb7"],["F7"],["F7"],["Bb7"],["Bdim7"],["F7"],["D7"],["Gm7"],["C7"],
			{"chords":["F7","D7"],"ending":1},{"chords":["Gm7","C7"],"repeatEnd":2},{"chords":["F7","Bb7"],"ending":2},{"chords":["F7"],"mark":"dc"}]}]}`,
		`{"title":"Road Signs","description":"","key":"Cm","tempo":160,"beatsPerBar":3,"sections":[
			{"label":"Intro","role":"intro","bars":[["Cm"],{"chords":["G7"],"beats":2}]},
			{"label":"A","bars":[{"chords":["Cm"],"mark":"segno"},{"chords":"%"},["Fm7"],{"chords":["G7"],"mark":"to-coda"},["Cm"],{"chords":["Ab","G7"],"mark":"ds-al-coda"}]},
			{"label":"B","bars":[{"chords":["Cm"],"mark":"coda"},{"chords":["N.C."],"beats":2}]}]}`,
		`{"title":"Three Times","description":"","key":"Bb","tempo":96,"beatsPerBar":4,"sections":[
			{"label":"Verse","role":"verse","bars":[{"chords":["Bb","Bb/D"],"repeatStart":true},{"chords":["Eb","Edim7"],"repeatEnd":3},{"chords":["F7sus4"],"repeatStart":true,"repeatEnd":8}]},
			{"label":"C","bars":[{"chords":["Gm7"],"repeatStart":true},{"chords":["C7"],"ending":1,"repeatEnd":2},{"chords":["Cm7"],"ending":2,"repeatEnd":3},
				{"chords":["F7"],"ending":3,"repeatEnd":4},{"chords":["Bb6"],"ending":4,"mark":"fine"},["Eb"],{"chords":["F7"],"mark":"dc-al-fine"}]}]}`,
		`{"title":"Jig and Waltz","description":"","key":"D","tempo":100,"beatsPerBar":12,"sections":[
			{"label":"A","bars":[{"chords":["D"],"mark":"segno"},{"chords":["G"],"beats":9},{"chords":["A7"],"beats":6},{"chords":["D"],"beats":5},{"chords":["Bm"],"beats":7},["D"]]},
			{"label":"B","bars":[["G"],{"chords":["A"],"mark":"ds"}]}]}`,
		`{"title":"Al Coda","description":"","key":"Ebm","tempo":300,"beatsPerBar":2,"sections":[
			{"label":"A","bars":[["Ebm"],{"chords":["Bb7"],"mark":"to-coda"},{"chords":["Ebm"],"mark":"dc-al-coda"}]},
			{"label":"Z","bars":[{"chords":["Ab7","Bb7"],"mark":"coda","repeatStart":true,"repeatEnd":2},["Ebm"]]}]}`,
	} {
		c, err := board.ParseContent([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		boards = append(boards, c)
	}
	// Every quality of the catalogue, on every root, with and without a bass, four to a bar.
	cat := board.Catalogue()
	var syms []string
	for i, q := range cat.Qualities {
		for j, r := range cat.Roots {
			sym := r.Name + q.Suffix
			if (i+j)%3 == 0 {
				sym += "/" + cat.Roots[(i*7+j)%len(cat.Roots)].Name
			}
			syms = append(syms, sym)
		}
	}
	c := board.Content{Title: "Every chord", Key: "A", Tempo: 120, BeatsPerBar: 4}
	for len(syms) > 0 {
		sec := board.Section{Label: string(rune('A' + len(c.Sections)))}
		for len(syms) > 0 && len(sec.Bars) < board.MaxBarsPerSection {
			n := min(len(syms), board.MaxChordsPerBar)
			sec.Bars = append(sec.Bars, board.PlainBar(syms[:n]...))
			syms = syms[n:]
		}
		c.Sections = append(c.Sections, sec)
	}
	boards = append(boards, c)

	for _, c := range boards {
		if err := c.Validate(); err != nil {
			t.Fatalf("%s: %v", c.Title, err)
		}
		if lost := Lost(c); len(lost) > 0 {
			t.Fatalf("%s: Lost = %q", c.Title, lost)
		}
		if back := roundTrip(t, c); !reflect.DeepEqual(back, c) {
			a, _ := json.Marshal(back)
			b, _ := json.Marshal(c)
			t.Errorf("%s:\nread %s\nwant %s\n%s", c.Title, a, b, Write(c))
		}
	}
}

// TestWriteRoundTripFormTable: every playable chart of the form table (board/formtable) survives
// board → iReal Pro → board, its sections lettered A, B, … (iReal Pro marks sections with a letter).
func TestWriteRoundTripFormTable(t *testing.T) {
	n := 0
	for _, fc := range formtable.Playable(t) {
		c, err := board.ParseContent([]byte(`{"title":"` + fc.Name + `","key":"Gm","tempo":90,"beatsPerBar":4,"sections":` + string(fc.Sections) + `}`))
		if err != nil {
			t.Fatal(err)
		}
		for i := range c.Sections {
			c.Sections[i].Label = string(rune('A' + i))
		}
		if back := roundTrip(t, c); !reflect.DeepEqual(back, c) {
			t.Errorf("%s:\nread %+v\nwant %+v\n%s", c.Title, back, c, Write(c))
		}
		n++
	}
	if n < 15 {
		t.Fatalf("only %d charts", n)
	}
}

// TestLost: what an iReal Pro link cannot hold is named, never dropped without a word.
func TestLost(t *testing.T) {
	c := board.Example()
	c.Key = ""
	c.Sections[0].Role = "chorus"
	c.Sections[1].Label = "Fine" // read as the sign Fine, were it written in full
	c.BeatsPerBar = 8
	c.Title = "A=B"
	lost := strings.Join(Lost(c), "; ")
	for _, want := range []string{"description", "without a key", "= or blank", "8 beats per bar", "section roles", `label "Fine"`} {
		if !strings.Contains(lost, want) {
			t.Errorf("Lost = %q, lacks %q", lost, want)
		}
	}

	// iReal Pro's Intro and Verse marks are a label and a role at once: a section that has one without
	// the other would come back changed.
	for _, tc := range []struct {
		label string
		role  board.Role
		lost  bool
	}{
		{"Intro", "intro", false},
		{"Verse", "verse", false},
		{"A", "", false},
		{"Intro", "", true},
		{"Verse", "chorus", true},
		{"A", "intro", true},
	} {
		c := board.Example()
		c.Description = ""
		c.Sections[0].Label, c.Sections[0].Role = tc.label, tc.role
		for i := range c.Sections[1:] {
			c.Sections[i+1].Label, c.Sections[i+1].Role = "B", ""
		}
		lost := strings.Join(Lost(c), "; ")
		if got := strings.Contains(lost, "section roles"); got != tc.lost {
			t.Errorf("label %q, role %q: Lost = %q, want section roles named: %v", tc.label, tc.role, lost, tc.lost)
		}
	}
}

// TestFullLabels: a section's label iReal Pro's one letter cannot say is written in full as staff text
// on the section's first bar, and read back whole; a label that would read as a sign stays a letter and
// is named lost. Before, "Pre-Chorus" was written as P and "Coda" as C.
func TestFullLabels(t *testing.T) {
	for _, tc := range []struct {
		labels []string
		lost   bool
	}{
		{[]string{"Verse", "Pre-Chorus", "Chorus", "Bridge 2", "Coda"}, false},
		{[]string{"", "副歌", "Solo (guitar)", "A"}, false},
		{[]string{"Intro", "B", "Outro vamp"}, false},
		{[]string{"A", "Fine"}, true},
		{[]string{"A", "x3"}, true},
		{[]string{"A", "<B>"}, true},
		{[]string{"A", "BRIDGE"}, true}, // capitals alone read as a form note (AABA)
		{[]string{"A", "A2"}, true},
	} {
		c := board.Content{Title: "Labels", Key: "C", Tempo: 100, BeatsPerBar: 4}
		for _, l := range tc.labels {
			s := board.Section{Label: l, Bars: []board.Bar{board.PlainBar("C"), board.PlainBar("G7")}}
			if l == "Intro" {
				s.Role = "intro"
			}
			if l == "Verse" {
				s.Role = "verse"
			}
			c.Sections = append(c.Sections, s)
		}
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		lost := Lost(c)
		if tc.lost {
			if len(lost) == 0 {
				t.Errorf("%q: Lost names nothing", tc.labels)
			}
			continue
		}
		if len(lost) > 0 {
			t.Errorf("%q: Lost %q", tc.labels, lost)
		}
		back := roundTrip(t, c)
		for i, s := range back.Sections {
			if s.Label != tc.labels[i] {
				t.Errorf("%q: section %d read back as %q", tc.labels, i, s.Label)
			}
		}
	}
	// Staff text beside a section's letter that is not its label stays left out (with a note, but for a
	// number alone), as before: another letter's word, and the form notes real charts write there.
	for _, text := range []string{"Solos", "AABA", "AB (end on A)", "*69 2", "(AABA)", "*66   AABA"} {
		songs, err := Parse([]byte("irealbook://T=Me=Medium%20Swing=C=n=T44*A[%3C" + url.PathEscape(text) + "%3EC%20|G7%20Z"))
		if err != nil || len(songs) != 1 || songs[0].Err != nil {
			t.Fatalf("%q: %v %+v", text, err, songs)
		}
		if got := songs[0].Content.Sections; got[0].Label != "A" || len(songs[0].Notes) > 1 {
			t.Errorf("%q: read %+v, notes %q", text, got, songs[0].Notes)
		}
	}
}
