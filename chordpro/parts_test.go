package chordpro

import (
	"reflect"
	"strings"
	"testing"

	"tele/board"
)

// The pieces of the reader, each on the cases it tells apart.

func TestParseDirective(t *testing.T) {
	for _, tt := range []struct {
		in, name, value string
		attrs           map[string]string
	}{
		{"title: Blue Bossa", "title", "Blue Bossa", map[string]string{}},
		{"  Title :  x  ", "title", "x", map[string]string{}},
		{"new_song", "new_song", "", map[string]string{}},
		{"sov Verse 2", "sov", "Verse 2", map[string]string{}},
		{`start_of_grid label="A \"B\"" shape="1+4x4+2"`, "start_of_grid", "", map[string]string{"label": `A "B"`, "shape": "1+4x4+2"}},
		{`start_of_grid: label="A" Role="verse"`, "start_of_grid", "", map[string]string{"label": "A", "role": "verse"}},
		{`comment: say x="y" here`, "comment", `say x="y" here`, map[string]string{}},
		{`sog label="unclosed`, "sog", "", map[string]string{"label": "unclosed"}},
		{`sog label="a\u{42}"`, "sog", "", map[string]string{"label": "aB"}},
	} {
		name, value, attrs := parseDirective(tt.in)
		if name != tt.name || value != tt.value || !reflect.DeepEqual(attrs, tt.attrs) {
			t.Errorf("%q: %q %q %v, want %q %q %v", tt.in, name, value, attrs, tt.name, tt.value, tt.attrs)
		}
	}
}

func TestUnescape(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`plain`, `plain`},
		{`a\}b\\c`, `a}b\c`},
		{`\u{9}tab`, "\ttab"},
		{`\u{1F600}`, "😀"},
		{`\u{110000}`, `u{110000}`}, // no character: the escape is the u and what follows
		{`\u{zz}`, `u{zz}`},
		{`\u{`, `u{`},
		{`\u{00000000041}`, `u{00000000041}`}, // longer than any character: not looked into
		{`end\`, `end\`},
	} {
		if got := unescape(tt.in); got != tt.want {
			t.Errorf("unescape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestTransposed(t *testing.T) {
	for _, tt := range []struct {
		sym  string
		n    int
		want string
	}{
		{"C", 0, "C"},
		{"C", 2, "D"},
		{"C", 1, "C#"},
		{"C", -1, "B"},
		{"Db7", 1, "D7"},
		{"Eb", 1, "E"},
		{"F#m7", 1, "Gm7"},
		{"D", -1, "Db"},
		{"Am7/G", 3, "Cm7/A#"},
		{"Bbmaj7/F", 2, "Cmaj7/G"},
		{"C/E9", 2, "D/E9"}, // a bass that is no note stays
		{"N.C.", 5, "N.C."},
		{"", 5, ""},
	} {
		if got := transposed(tt.sym, tt.n); got != tt.want {
			t.Errorf("transposed(%q, %d) = %q, want %q", tt.sym, tt.n, got, tt.want)
		}
	}
}

func TestGridLineParts(t *testing.T) {
	for _, tt := range []struct {
		line        string
		first, last int
	}{
		{"| C . . . |", 0, 5},
		{"Segno || C . | D . :| x3", 1, 7},
		{"no bars here", -1, -1},
		{"C D :|", 2, 2},
	} {
		first, last := barLineSpan(strings.Fields(tt.line))
		if first != tt.first || last != tt.last {
			t.Errorf("%q: bar lines %d…%d, want %d…%d", tt.line, first, last, tt.first, tt.last)
		}
	}
	for _, tt := range []struct {
		margin string
		n      int
		ok     bool
	}{{"x3", 3, true}, {"X8 Fine", 8, true}, {"x9", 0, false}, {"x1", 0, false}, {"x", 0, false}, {"Fine", 0, false}, {"", 0, false}} {
		if n, _, ok := repeatCount(tt.margin); n != tt.n || ok != tt.ok {
			t.Errorf("repeatCount(%q) = %d %v", tt.margin, n, ok)
		}
	}
	r := newState().r
	for _, tt := range []struct {
		row       string
		transpose int
		bad       string
	}{
		{"| C . G~Am7 . | % | %% | - / . |", 0, ""},
		{"| C . Xmaj . |", 0, "Xmaj"},
		{"| H7 |", 0, ""}, // read as B7, with a note where the bar is made
		{"| C~Q |", 0, "Q"},
	} {
		r.transpose = tt.transpose
		if bad, _ := r.notAChord(strings.Fields(tt.row)); bad != tt.bad {
			t.Errorf("%q: not a chord %q, want %q", tt.row, bad, tt.bad)
		}
	}
}

func TestRightMargin(t *testing.T) {
	for _, tt := range []struct {
		margin string
		in     gridBar
		want   gridBar
	}{
		{"x3", gridBar{repeatEnd: 2}, gridBar{repeatEnd: 3}},
		{"x3", gridBar{}, gridBar{}}, // no end repeat to count: margin text
		{"x3", gridBar{repeatEnd: 2, ending: 1}, gridBar{repeatEnd: 2, ending: 1}},
		{"x4 D.C. al Fine", gridBar{repeatEnd: 2}, gridBar{repeatEnd: 4, mark: board.MarkDCAlFine}},
		{"d.s. al coda", gridBar{}, gridBar{mark: board.MarkDSAlCoda}},
		{"Fine To Coda", gridBar{}, gridBar{mark: board.MarkFine, toCoda: true}},
		{"To Coda", gridBar{}, gridBar{mark: board.MarkToCoda}},
		{"To Coda", gridBar{mark: board.MarkSegno}, gridBar{mark: board.MarkSegno, toCoda: true}}, // Segno in the left margin
		{"ritard", gridBar{}, gridBar{}},
	} {
		r := newState().r
		got := tt.in
		r.rightMargin(&got, tt.margin)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: %+v, want %+v", tt.margin, got, tt.want)
		}
	}
}

func TestVoltas(t *testing.T) {
	type bar = gridBar
	for _, tt := range []struct {
		name string
		in   []gridBar
		want []gridBar
	}{
		{"endings without repeat signs", []bar{{}, {ending: 1}, {ending: 2}},
			[]bar{{repeatStart: true}, {ending: 1, repeatEnd: 2}, {ending: 2}}},
		{"after an end repeat", []bar{{repeatStart: true}, {repeatEnd: 2}, {}, {ending: 1}, {ending: 2}},
			[]bar{{repeatStart: true}, {repeatEnd: 2}, {repeatStart: true}, {ending: 1, repeatEnd: 2}, {ending: 2}}},
		{"the ending a D.C. leads to", []bar{{repeatStart: true}, {ending: 1, repeatEnd: 2}, {ending: 2, mark: board.MarkDC}, {ending: 3}},
			[]bar{{repeatStart: true}, {ending: 1, repeatEnd: 2}, {ending: 2, mark: board.MarkDC}, {ending: 3}}},
		{"written in full", []bar{{repeatStart: true}, {ending: 1, repeatEnd: 2}, {ending: 2}},
			[]bar{{repeatStart: true}, {ending: 1, repeatEnd: 2}, {ending: 2}}},
	} {
		s := &gridSection{bars: tt.in}
		newState().r.voltas(s)
		if !reflect.DeepEqual(s.bars, tt.want) {
			t.Errorf("%s: %+v, want %+v", tt.name, s.bars, tt.want)
		}
	}
}

func TestFillBar(t *testing.T) {
	two := []board.Bar{{Chords: []string{"C"}}, {Simile: true}}
	for _, tt := range []struct {
		name    string
		out     []board.Bar
		second  []string
		bar     board.Bar
		double  bool
		want    board.Bar
		wantErr bool
	}{
		{"first bar empty", nil, nil, board.Bar{}, false, board.Bar{Chords: []string{board.NoChord}}, false},
		{"empty goes on", two, nil, board.Bar{}, false, board.Bar{Simile: true}, false},
		{"after %%", two, []string{"D"}, board.Bar{}, false, board.Bar{Chords: []string{"D"}}, false},
		{"%%", two, nil, board.Bar{}, true, board.Bar{Chords: []string{"C"}}, false},
		{"%% too soon", two[:1], nil, board.Bar{}, true, board.Bar{}, true},
		{"% with chords", two, nil, board.Bar{Simile: true, Chords: []string{"G"}}, false, board.Bar{Chords: []string{"G"}}, false},
		{"five chords", two, nil, board.Bar{Chords: []string{"A", "B", "C", "D", "E"}}, false, board.Bar{Chords: []string{"A", "B", "C", "D"}}, false},
	} {
		g := &gridReading{out: tt.out, second: tt.second}
		bar := tt.bar
		err := newState().r.fillBar(g, &bar, &barCells{double: tt.double}, 1)
		if (err != nil) != tt.wantErr || err == nil && !reflect.DeepEqual(bar, tt.want) {
			t.Errorf("%s: %+v %v, want %+v", tt.name, bar, err, tt.want)
		}
	}
}
