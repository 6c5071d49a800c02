package firstview

import (
	"encoding/json"
	"html"
	"strings"
	"testing"

	"tele/board"
)

// TestChord: a chord is typeset as the page's chordElement does it: root, quality and bass apart, each
// b or # of a root, a bass or a quality's degree an accidental (never a word's letter: sus, dim, b in
// "dim" or "sus"), N.C. and % as they are, a Nashville number's quality raised from its first degree.
func TestChord(t *testing.T) {
	acc := func(c string) string {
		g := map[string]string{"b": "♭", "#": "♯"}[c]
		return `<span class="acc" data-glyph="` + g + `">` + c + `</span>`
	}
	for symbol, want := range map[string]string{
		"C":            `<span class="chord"><span class="root">C</span></span>`,
		"Am7":          `<span class="chord"><span class="root">A</span><span class="q">m7</span></span>`,
		"Bb7b9":        `<span class="chord"><span class="root">B` + acc("b") + `</span><span class="q">7` + acc("b") + `9</span></span>`,
		"F#m7b5":       `<span class="chord"><span class="root">F` + acc("#") + `</span><span class="q">m7` + acc("b") + `5</span></span>`,
		"Ebmaj7#11/Bb": `<span class="chord"><span class="root">E` + acc("b") + `</span><span class="q">maj7` + acc("#") + `11</span><span class="bass">/B` + acc("b") + `</span></span>`,
		"Cb":           `<span class="chord"><span class="root">C` + acc("b") + `</span></span>`,
		"E#dim7":       `<span class="chord"><span class="root">E` + acc("#") + `</span><span class="q">dim7</span></span>`,
		"Dsus4/A":      `<span class="chord"><span class="root">D</span><span class="q">sus4</span><span class="bass">/A</span></span>`,
		"N.C.":         `<span class="chord nc"><span class="root">N.C.</span></span>`,
		"%":            `<span class="chord"><span class="root">%</span></span>`,
		"b7m7":         `<span class="chord num"><span class="root">` + acc("b") + `7</span><span class="q" data-num="true">m<span class="up">7</span></span></span>`,
		"2m7b5/b7":     `<span class="chord num"><span class="root">2</span><span class="q" data-num="true">m<span class="up">7` + acc("b") + `5</span></span><span class="bass">/` + acc("b") + `7</span></span>`,
		"1sus":         `<span class="chord num"><span class="root">1</span><span class="q" data-num="true">sus</span></span>`,
		"<x>":          `<span class="chord"><span class="root">&lt;x&gt;</span></span>`,
	} {
		var b strings.Builder
		writeChord(&b, symbol, 0)
		if got := b.String(); got != want {
			t.Errorf("%s:\n got %s\nwant %s", symbol, got, want)
		}
	}
	var b strings.Builder
	writeChord(&b, "G7", 3)
	if got := b.String(); !strings.HasPrefix(got, `<span class="chord" data-b="3">`) {
		t.Errorf("a chord of three beats: %s", got)
	}
}

// TestBar: a bar's number, its chords' count (data-busy from three), beat positions, its form as the
// page's data attributes (the bracket running over every bar of an ending, a plain bar outside one
// carrying none) and its words (the volta number, the meter, the sign, the ending a jump leads to, To
// Coda beside a sign, the repeat count from 3).
func TestBar(t *testing.T) {
	for _, tc := range []struct {
		name    string
		bar     board.Bar
		in, al  int
		want    []string
		wantNot []string
	}{
		{"plain", board.PlainBar("C", "G7"), 0, 0, []string{`<li class="bar" data-path="sections[1].bars[0]"><span class="bar-num" aria-hidden="true">5</span><span class="chords" data-n="2">`}, []string{"form-text", "data-busy"}},
		{"busy", board.PlainBar("C", "F", "G", "C"), 0, 0, []string{`<li class="bar" data-path="sections[1].bars[0]" data-busy="">`, `data-n="4"`}, nil},
		{"in an ending", board.PlainBar("C"), 2, 0, []string{`<li class="bar" data-path="sections[1].bars[0]" data-in-ending="2">`}, []string{"form-text"}},
		{"timed", board.Bar{Chords: []string{"C", "G7"}, Durations: []int{3, 1}}, 0, 0, []string{`data-timed="3 1" data-beats="4"`, `<span class="chord" data-b="3">`, `<span class="chord" data-b="1">`}, []string{"form-text"}},
		{"simile", board.Bar{Simile: true, RepeatStart: true}, 0, 0, []string{`data-repeat-start=""`, `data-n="1"><span class="chord"><span class="root">%</span>`}, nil},
		{"ending with sign", board.Bar{Chords: []string{"F"}, Ending: 3, Mark: board.MarkToCoda}, 3, 0, []string{`data-ending="3" data-mark="to-coda"`, `<span class="form-text">3. To Coda ⊕</span>`}, []string{"data-in-ending"}},
		{"meter and count", board.Bar{Chords: []string{"G"}, Beats: 3, RepeatEnd: 3}, 0, 0, []string{`data-repeat-end="3"`, `<span class="form-text">3/4 ×3</span>`}, nil},
		{"al ending", board.Bar{Chords: []string{"G7"}, Mark: board.MarkDC}, 2, 3, []string{`data-in-ending="2" data-mark="dc"`, `<span class="form-text">D.C. al 3rd ending</span>`}, nil},
		{"fine with to coda", board.Bar{Chords: []string{"D7"}, Mark: board.MarkFine, ToCoda: true}, 0, 0, []string{`data-mark="fine" data-to-coda=""`, `<span class="form-text">Fine To Coda ⊕</span>`}, nil},
		{"the board's meter is not written", board.Bar{Chords: []string{"G"}, Beats: 4, RepeatEnd: 2}, 0, 0, []string{`data-repeat-end="2"`}, []string{"form-text"}},
	} {
		var b strings.Builder
		writeBar(&b, tc.bar, "sections[1].bars[0]", 5, 4, tc.in, tc.al)
		got := b.String()
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: no %s in\n%s", tc.name, w, got)
			}
		}
		for _, w := range tc.wantNot {
			if strings.Contains(got, w) {
				t.Errorf("%s: %s in\n%s", tc.name, w, got)
			}
		}
	}
}

// TestGrid: the grid holds each section, its label (escaped; hidden when empty), the place of its role's
// name for the page to write, bars numbered across sections, and the meter's class; the slots hold the
// title and description escaped.
func TestGrid(t *testing.T) {
	c := board.Content{Title: `Blue <b>&</b> "green"`, Description: "<script>x</script>", Tempo: 120, BeatsPerBar: 7, Sections: []board.Section{
		{Label: `A <img src=x onerror=alert(1)>`, Role: "verse", Bars: []board.Bar{board.PlainBar("C"), board.PlainBar("G")}},
		{Bars: []board.Bar{board.PlainBar("F")}},
	}}
	slots := Slots(c)
	if slots["title"] != `Blue &lt;b&gt;&amp;&lt;/b&gt; &#34;green&#34;` || slots["description"] != "&lt;script&gt;x&lt;/script&gt;" {
		t.Errorf("title %q, description %q", slots["title"], slots["description"])
	}
	grid := slots["grid"]
	if slots["grid-meter"] != ` data-meter="long"` {
		t.Errorf("the grid's meter: %q", slots["grid-meter"])
	}
	for _, want := range []string{
		`<section class="section" data-path="sections[0]" data-bars="2"><div class="section-head"><h2 class="mark">A &lt;img src=x onerror=alert(1)&gt;</h2><span class="role-name" data-i18n="role.verse"></span></div><ol class="bars">`,
		`<section class="section" data-path="sections[1]" data-bars="1"><div class="section-head"><h2 class="mark" hidden></h2><span class="role-name" hidden></span></div>`,
		`</ol><div class="lyrics" hidden></div></section>`,
		`<span class="bar-num" aria-hidden="true">3</span>`,
	} {
		if !strings.Contains(grid, want) {
			t.Errorf("no %s in\n%s", want, grid)
		}
	}
	if strings.Contains(grid, "<img") {
		t.Error("a label's markup reached the page")
	}
	c.BeatsPerBar = 0
	if Slots(c)["grid-meter"] != ` data-meter="short"` {
		t.Error("a board without beats per bar is a short meter (the page reads it as 4)")
	}
}

// TestEligible: a chart is drawn; a song with words (lines, or a chorus recalled) is the page's.
func TestEligible(t *testing.T) {
	chart := board.Content{Sections: []board.Section{{Bars: []board.Bar{board.PlainBar("C")}}}}
	if !Eligible(chart) {
		t.Error("a chart is not drawn")
	}
	words := board.Content{Sections: []board.Section{{Bars: []board.Bar{board.PlainBar("C")}}, {Lines: []board.Line{{Text: "la"}}}}}
	recall := board.Content{Sections: []board.Section{{Bars: []board.Bar{board.PlainBar("C")}}, {Recall: "chorus"}}}
	if Eligible(words) || Eligible(recall) {
		t.Error("a song with words is drawn")
	}
}

// FuzzGrid: whatever a board's labels, roles and chords hold (a board from outside: an import, Pi's
// edit), the first view carries it as text: every < and & of it escaped, so no markup of a board's
// reaches the page.
func FuzzGrid(f *testing.F) {
	f.Add("A", "verse", "C", "Song")
	f.Add(`<img src=x onerror=alert(1)>`, `"><script>`, `</span><b>`, "&amp;")
	f.Fuzz(func(t *testing.T, label, role, symbol, title string) {
		c := board.Content{Title: title, Sections: []board.Section{{Label: label, Role: board.Role(role), Bars: []board.Bar{
			{Chords: []string{symbol, symbol + "b9"}, Durations: []int{2, 2}, Ending: 1, Mark: board.MarkSegno},
		}}}}
		slots := Slots(c)
		for _, s := range []string{slots["grid"], slots["title"]} {
			// Markup is ours alone: strip every tag we write and no < or > is left.
			text := tagRE.ReplaceAllString(s, "")
			if strings.ContainsAny(text, "<>") {
				t.Fatalf("markup from the board in %q", s)
			}
		}
		for _, v := range []string{label, title} {
			if !strings.Contains(slots["grid"]+slots["title"], html.EscapeString(v)) {
				t.Fatalf("%q is not in the page as text", v)
			}
		}
	})
}

// TestEndingsAsThePageDraws: board.Endings is the page's endingSpans and jumpEndings (form.js) for every
// chart of the form table: the brackets and "al N ending" the first view draws are the page's.
func TestEndingsAsThePageDraws(t *testing.T) {
	cases := playable(t)
	got := map[string][2][][]int{}
	for _, fc := range cases {
		in, al := fc.content.Endings()
		got[fc.name] = [2][][]int{in, al}
	}
	want := pageEndings(t, cases)
	for name, g := range got {
		w, ok := want[name]
		if !ok {
			t.Errorf("%s: the page gave nothing", name)
			continue
		}
		gj, _ := json.Marshal(g)
		wj, _ := json.Marshal(w)
		if string(gj) != string(wj) {
			t.Errorf("%s: the server's endings %s, the page's %s", name, gj, wj)
		}
	}
}
