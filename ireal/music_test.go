package ireal

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"tele/board"
)

// TestNextToken: each sign of the music string is one token, and the music after it is what is left.
func TestNextToken(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want token
		rest string
	}{
		{"*A[C", token{kind: tokSection, text: "*A"}, "[C"},
		{"*", token{kind: tokUnknown, text: "*"}, ""},
		{"*éC", token{kind: tokSection, text: "*é"}, "C"},
		{"*副C", token{kind: tokSection, text: "*副"}, "C"},
		{"*\xffC", token{kind: tokUnknown, text: "*"}, "\xffC"},
		{"T44C", token{kind: tokMeter, text: "T44", n: 4}, "C"},
		{"T12C", token{kind: tokMeter, text: "T12", n: 12}, "C"},
		{"T98", token{kind: tokMeter, text: "T98", n: 9}, ""},
		{"T68", token{kind: tokMeter, text: "T68", n: 6}, ""},
		{"T22", token{kind: tokMeter, text: "T22", n: 2}, ""},
		{"T13", token{kind: tokMeter, text: "T13", n: 0}, ""}, // no time signature: 0, left out
		{"T40", token{kind: tokMeter, text: "T40", n: 0}, ""},
		{"T08", token{kind: tokMeter, text: "T08", n: 0}, ""},
		{"T4|C", token{kind: tokMeter, text: "T4", n: 4}, "|C"}, // one digit: that many beats
		{"T4", token{kind: tokMeter, text: "T4", n: 4}, ""},
		{"T0|", token{kind: tokMeter, text: "T0", n: 0}, "|"},
		{"Tx", token{kind: tokUnknown, text: "T"}, "x"},
		{"{C", token{kind: tokRepeatStart, text: "{"}, "C"},
		{"}", token{kind: tokRepeatEnd, text: "}"}, ""},
		{"|", token{kind: tokBarLine, text: "|"}, ""},
		{"[", token{kind: tokBarLine, text: "["}, ""},
		{"]", token{kind: tokBarLine, text: "]"}, ""},
		{"Z ", token{kind: tokBarLine, text: "Z"}, " "},
		{"N2C", token{kind: tokEnding, text: "N2", n: 2}, "C"},
		{"N0", token{kind: tokEnding, text: "N0", n: 0}, ""},
		{"NC", token{kind: tokUnknown, text: "N"}, "C"},
		{"S", token{kind: tokSegno, text: "S"}, ""},
		{"Q", token{kind: tokCoda, text: "Q"}, ""},
		{"<D.C. al Fine>C", token{kind: tokText, text: "<D.C. al Fine>"}, "C"},
		{"<open", token{kind: tokUnknown, text: "<"}, "open"},
		{"<" + strings.Repeat("a", maxText) + ">", token{kind: tokUnknown, text: "<"}, strings.Repeat("a", maxText) + ">"},
		{"x ", token{kind: tokSimile, text: "x"}, " "},
		{"r|", token{kind: tokTwoBars, text: "r"}, "|"},
		{"n", token{kind: tokNoChord, text: "n"}, ""},
		{"p ", token{kind: tokSlash, text: "p"}, " "},
		{"(Db7)C", token{kind: tokAlternates, text: "(Db7)"}, "C"},
		{"(Db7", token{kind: tokAlternates, text: "(Db7"}, ""},
		{"C^7 D", token{kind: tokChord, text: "C^7"}, " D"},
		{"Bb-7/Ab|", token{kind: tokChord, text: "Bb-7/Ab"}, "|"},
		{"C7sus", token{kind: tokChord, text: "C7sus"}, ""},
		{"A*m*/G |", token{kind: tokChord, text: "A", custom: "m/G"}, " |"},
		{"A*m *", token{kind: tokChord, text: "A"}, "*m *"},
		{"W/B", token{kind: tokChord, text: "W/B"}, ""},
		{"W", token{kind: tokChord, text: "W"}, ""},
		{" ", token{kind: tokSkip, text: " "}, ""},
		{",", token{kind: tokSkip, text: ","}, ""},
		{"f", token{kind: tokSkip, text: "f"}, ""},
		{"Y", token{kind: tokSkip, text: "Y"}, ""},
		{"\n", token{kind: tokSkip, text: "\n"}, ""},
		{"U", token{kind: tokPlayerEnd, text: "U"}, ""}, // where iReal Pro's player ends: an al Fine with no Fine ends there
		{"s", token{kind: tokSkip, text: "s"}, ""},
		{"l", token{kind: tokSkip, text: "l"}, ""},
		{"H7 |", token{kind: tokChord, text: "H7"}, " |"},
		{"C/H |", token{kind: tokChord, text: "C/H"}, " |"},
		{"A*m*/H |", token{kind: tokChord, text: "A", custom: "m/H"}, " |"},
		{"J7 |", token{kind: tokUnknown, text: "J7"}, " |"},
		{"/X", token{kind: tokUnknown, text: "/"}, "X"},
		{"9 C", token{kind: tokUnknown, text: "9"}, " C"},
		{"é", token{kind: tokUnknown, text: "é"}, ""},
		{"\xff", token{kind: tokUnknown, text: "\xff"}, ""},
	} {
		got, rest := nextToken(tc.in)
		if got != tc.want || rest != tc.rest {
			t.Errorf("nextToken(%q) = %+v, %q; want %+v, %q", tc.in, got, rest, tc.want, tc.rest)
		}
	}
}

// readMusic reads a music string alone, as readSong does, with the codes of its notes.
func readMusic(m string) (board.Content, []string, error) {
	r := &songReader{w: newWork(context.Background(), len(m))}
	c := board.Content{Title: "T", Tempo: 120, BeatsPerBar: 4}
	err := r.music(&c, m)
	var codes []string
	for _, nc := range r.notes.Codes() {
		codes = append(codes, nc.Code)
	}
	return c, codes, err
}

func bars(bb ...board.Bar) []board.Section { return []board.Section{{Bars: bb}} }

// TestMusicBars: the music string's tokens end bars where a chart ends them, with what it writes in them.
func TestMusicBars(t *testing.T) {
	simile := board.Bar{Simile: true}
	for _, tc := range []struct {
		name, music string
		beats       int // the board's beats per bar
		sections    []board.Section
		codes       []string
	}{
		{"bars of chords", "T44C |D- G7 |C Z", 4, bars(board.PlainBar("C"), board.PlainBar("Dm", "G7"), board.PlainBar("C")), nil},
		{"no bar line at the end", "C |D", 4, bars(board.PlainBar("C"), board.PlainBar("D")), nil},
		{"empty bars are no bars", "|||C ||| Z", 4, bars(board.PlainBar("C")), nil},
		{"a slash bar goes on", "C |p p |x |D Z", 4, bars(board.PlainBar("C"), simile, simile, board.PlainBar("D")), nil},
		{"a % bar with chords is its chords", "C |x D |", 4, bars(board.PlainBar("C"), board.PlainBar("D")), []string{"simile_with_chords"}},
		{"N.C.", "n |C Z", 4, bars(board.PlainBar(board.NoChord), board.PlainBar("C")), nil},
		{"four chords kept", "C D E F G |", 4, bars(board.PlainBar("C", "D", "E", "F")), []string{"bar_chords_cut"}},
		{"chords at their beats", "C p p G7 |", 4, bars(board.Bar{Chords: []string{"C", "G7"}, Durations: []int{3, 1}}), nil},
		{"the first meter is the board's", "T34C |T44D Z", 3, bars(board.PlainBar("C"), board.Bar{Chords: []string{"D"}, Beats: 4}), nil},
		{"a meter after a chord is the bar's", "C |T34D Z", 4, bars(board.PlainBar("C"), board.Bar{Chords: []string{"D"}, Beats: 3}), nil},
		{"a meter of one digit is that many beats", "T3|C|D Z", 3, bars(board.PlainBar("C"), board.PlainBar("D")), []string{"meter_read"}},
		{"T4 is 4 beats", "T4|C|D Z", 4, bars(board.PlainBar("C"), board.PlainBar("D")), []string{"meter_read"}},
		{"a meter no one reads is left out", "T34C |T13D Z", 3, bars(board.PlainBar("C"), board.PlainBar("D")), []string{"meter_left_out"}},
		{"a first meter no one reads is left out", "T13C Z", 4, bars(board.PlainBar("C")), []string{"meter_left_out"}},
		{"sections", "*AC |*BD Z", 4, []board.Section{{Label: "A", Bars: []board.Bar{board.PlainBar("C")}}, {Label: "B", Bars: []board.Bar{board.PlainBar("D")}}}, nil},
		{"intro and verse", "*iC |*VD Z", 4, []board.Section{
			{Label: "Intro", Role: "intro", Bars: []board.Bar{board.PlainBar("C")}},
			{Label: "Verse", Role: "verse", Bars: []board.Bar{board.PlainBar("D")}}}, nil},
		{"a section without bars gives way", "*A*BC Z", 4, []board.Section{{Label: "B", Bars: []board.Bar{board.PlainBar("C")}}}, nil},
		{"a label at the very end", "C Z*B", 4, bars(board.PlainBar("C")), nil},
		{"H is B", "H7 |D Z", 4, bars(board.PlainBar("B7"), board.PlainBar("D")), []string{"chord_german_h"}},
		{"a bass H is B", "C/H |Hb^7 Z", 4, bars(board.PlainBar("C/B"), board.PlainBar("Bbmaj7")), []string{"chord_german_h", "chord_german_h"}},
		{"a bass H after chord text", "A*m*/H Z", 4, bars(board.PlainBar("Am/B")), []string{"chord_german_h"}},
		{"W/H", "C7 W/H |", 4, bars(board.PlainBar("C7", "C7/B")), []string{"chord_german_h"}},
		{"an unknown sign alone keeps its bar as N.C.", "J7 |D Z", 4, bars(board.PlainBar(board.NoChord), board.PlainBar("D")), []string{"sign_unknown_nc"}},
		{"an unknown sign beside chords is left out", "C J |x K9 |D Z", 4, bars(board.PlainBar("C"), simile, board.PlainBar("D")),
			[]string{"sign_unknown_left_out", "sign_unknown_left_out"}},
		// Unclosed staff text was skipped without a word.
		{"a < never closed", "C <|D Z", 4, bars(board.PlainBar("C"), board.PlainBar("D")), []string{"sign_unknown_left_out"}},
		{"a character outside staff text", "C é |D Z", 4, bars(board.PlainBar("C"), board.PlainBar("D")), []string{"sign_unknown_left_out"}},
		{"a section mark of a whole character", "*éC Z", 4, []board.Section{{Label: "é", Bars: []board.Bar{board.PlainBar("C")}}}, nil},
		{"a full label", "*P<Pre-Chorus>C Z", 4, []board.Section{{Label: "Pre-Chorus", Bars: []board.Bar{board.PlainBar("C")}}}, nil},
		{"endings", "{C |N1D }N2E Z", 4, bars(board.Bar{Chords: []string{"C"}, RepeatStart: true},
			board.Bar{Chords: []string{"D"}, Ending: 1, RepeatEnd: 2}, board.Bar{Chords: []string{"E"}, Ending: 2}), nil},
		{"segno carries to the next bar", "S|C Z", 4, bars(board.Bar{Chords: []string{"C"}, Mark: board.MarkSegno}), nil},
		{"a jump over an empty bar keeps it", "C |<D.C.> |D Z", 4, bars(board.PlainBar("C"), board.Bar{Simile: true, Mark: board.MarkDC}, board.PlainBar("D")), nil},
		{"text after the last bar line is the last bar's", "C |D Z<Fine>", 4, bars(board.PlainBar("C"), board.Bar{Chords: []string{"D"}, Mark: board.MarkFine}), nil},
		{"W/B: the chord before over B", "C7 W/E |", 4, bars(board.PlainBar("C7", "C7/E")), nil},
		{"W alone goes on", "C7 W |", 4, bars(board.PlainBar("C7")), nil},
		{"alternates left out", "C (Db7) |", 4, bars(board.PlainBar("C")), []string{"alternates_left_out"}},
		{"text left out", "<solo>C |", 4, bars(board.PlainBar("C")), []string{"text_left_out"}},
		{"a count-in of text", "<count>|x |C Z", 4, bars(board.PlainBar(board.NoChord), board.PlainBar(board.NoChord), board.PlainBar("C")),
			[]string{"text_left_out", "count_in"}},
		{"a count-in of slashes", "p p p p |x |C Z", 4, bars(board.PlainBar(board.NoChord), simile, board.PlainBar("C")), []string{"count_in"}},
		{"two bars again", "C |D |r|", 4, bars(board.PlainBar("C"), board.PlainBar("D"), board.PlainBar("C"), board.PlainBar("D")), []string{"two_bar_repeat"}},
		{"two bars again after %", "C |x |r|", 4, bars(board.PlainBar("C"), simile, board.PlainBar("C"), board.PlainBar("C")), []string{"two_bar_repeat"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, codes, err := readMusic(tc.music)
			if err != nil {
				t.Fatal(err)
			}
			if c.BeatsPerBar != tc.beats || !reflect.DeepEqual(c.Sections, tc.sections) || !reflect.DeepEqual(codes, tc.codes) {
				t.Errorf("%q:\nread %d beats %+v %v\nwant %d beats %+v %v", tc.music, c.BeatsPerBar, c.Sections, codes, tc.beats, tc.sections, tc.codes)
			}
		})
	}
}

// TestRepeatCounts: <Nx> or <xN> is the count of the next end repeat; an end repeat without one is played
// twice; an end repeat after an empty bar is the bar before's. A count a board cannot hold is the nearest
// it can, with a note.
func TestRepeatCounts(t *testing.T) {
	for _, tc := range []struct {
		music string
		want  []int // each bar's end repeat
		notes []string
	}{
		{"{C }", []int{2}, nil},
		{"{C <4x>}", []int{4}, nil},
		{"{C <x3>}", []int{3}, nil},
		{"{C < 5 X >}", []int{5}, nil},
		{"{C <*12 4x>}", []int{4}, nil},
		{"<3x>{C |D }{E }", []int{0, 3, 2}, nil},
		{"{C <8x>}", []int{8}, nil},
		{"{C <9x>}", []int{8}, []string{"the repeat that ends at bar 1 says 9x: a board plays a repeat 2 to 8 times, so it is played 8 times"}},
		{"{C |D <10x>}", []int{0, 8}, []string{"the repeat that ends at bar 2 says 10x: a board plays a repeat 2 to 8 times, so it is played 8 times"}},
		{"{C |D |<x12> }", []int{0, 8}, []string{"the repeat that ends at bar 2 says 12x: a board plays a repeat 2 to 8 times, so it is played 8 times"}},
		{"{C <1x>}", []int{2}, []string{"the repeat that ends at bar 1 says 1x: a board plays a repeat 2 to 8 times, so it is played 2 times"}},
		{"{C <0x>}", []int{2}, []string{`the text "0x" was left out`}},
		{"{C <1000x>}", []int{2}, []string{`the text "1000x" was left out`}},
		{"{C |D | }", []int{0, 2}, nil},
		{"{C |D <4x>| }", []int{0, 4}, nil},
		// A count with no end repeat after it in its repeat counts nothing, and says so (it counted nothing
		// silently, or the next repeat).
		{"C <3x>|D Z", []int{0, 0}, []string{`the text "3x" in bar 1 has no end repeat after it to count: it was left out`}},
		{"{C |D }E <4x>|{F }", []int{0, 2, 0, 2}, []string{`the text "4x" in bar 3 has no end repeat after it to count: it was left out`}},
		{"{C <3x>|D <4x>}", []int{0, 4}, []string{`the text "3x" in bar 1 has no end repeat after it to count: it was left out`}},
		{"{C |D |<4x> }", []int{0, 4}, nil},
	} {
		r := &songReader{w: newWork(context.Background(), len(tc.music))}
		c := board.Content{Title: "T", Tempo: 120, BeatsPerBar: 4}
		if err := r.music(&c, tc.music); err != nil {
			t.Fatalf("%q: %v", tc.music, err)
		}
		var got []int
		for _, b := range c.Sections[0].Bars {
			got = append(got, b.RepeatEnd)
		}
		if !reflect.DeepEqual(got, tc.want) || !reflect.DeepEqual(r.notes.Texts(), tc.notes) {
			t.Errorf("%q: end repeats %v, notes %q; want %v, %q", tc.music, got, r.notes.Texts(), tc.want, tc.notes)
		}
	}
}

// TestMusicRefused: music that makes no board, or more than a board holds, is refused with why.
func TestMusicRefused(t *testing.T) {
	for _, tc := range []struct{ name, music, err string }{
		{"no bars", "T44[ ]<words>Z", "the song has no bars"},
		{"empty", "", "the song has no bars"},
		{"two-bar repeat too early", "C |r|", "fewer than two bars of chords"},
		{"two-bar repeat after a first % bar", "x |C |r", "fewer than two bars of chords"},
		{"bars in all", strings.Repeat("*AC|C|C|C|C|C|C|C|C|C|C|C|C|C|C|C|", board.MaxBars/16) + "C|", "more bars than a board holds"},
		{"all bars in one section", strings.Repeat("C|", board.MaxBarsPerSection) + "C|", "more bars than a board holds"},
		{"sections", strings.Repeat("*AC|", board.MaxSections) + "*BC|", "more than 32 sections"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readMusic(tc.music)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("%v; want …%s…", err, tc.err)
			}
		})
	}
	// At the limits, the board is read.
	for _, m := range []string{strings.Repeat("C|", board.MaxBarsPerSection), strings.Repeat("*AC|", board.MaxSections),
		strings.Repeat("*A"+strings.Repeat("C|", 16), board.MaxBars/16)} {
		if _, _, err := readMusic(m); err != nil {
			t.Errorf("%.40q…: %v", m, err)
		}
	}
}
