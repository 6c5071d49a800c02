package ireal

import (
	"strings"
	"testing"

	"tele/board"
)

// TestWriteBar: one bar as iReal Pro's music writes it, with what stands around it in its section.
func TestWriteBar(t *testing.T) {
	c := func(beats int, secs ...board.Section) board.Content {
		return board.Content{BeatsPerBar: beats, Sections: secs}
	}
	sec := func(label string, bb ...board.Bar) board.Section { return board.Section{Label: label, Bars: bb} }
	plain := board.PlainBar
	for _, tc := range []struct {
		name   string
		c      board.Content
		si, bi int
		want   string
	}{
		{"a section's first bar", c(4, sec("A", plain("C"), plain("D"))), 0, 0, "[C|"},
		{"between bars", c(4, sec("A", plain("C"), plain("D"), plain("E"))), 0, 1, "D|"},
		{"the last bar", c(4, sec("A", plain("C"), plain("D"))), 0, 1, "D Z"},
		{"a section's last bar", c(4, sec("A", plain("C")), sec("B", plain("D"))), 0, 0, "[C]"},
		{"before a start repeat", c(4, sec("A", plain("C"), board.Bar{Chords: []string{"D"}, RepeatStart: true})), 0, 0, "[C"},
		{"a start repeat", c(4, sec("A", board.Bar{Chords: []string{"C"}, RepeatStart: true}, plain("D"))), 0, 0, "{C|"},
		{"an end repeat", c(4, sec("A", board.Bar{Chords: []string{"C"}, RepeatEnd: 2}, plain("D"))), 0, 0, "[C}"},
		{"played four times", c(4, sec("A", board.Bar{Chords: []string{"C"}, RepeatEnd: 4}, plain("D"))), 0, 0, "[C<4x>}"},
		{"an ending's count is implied", c(4, sec("A", plain("C"), board.Bar{Chords: []string{"D"}, Ending: 1, RepeatEnd: 3}, board.Bar{Chords: []string{"E"}, Ending: 3})), 0, 1, "N1D}"},
		{"a % bar", c(4, sec("A", plain("C"), board.Bar{Simile: true}, plain("D"))), 0, 1, " x |"},
		{"N.C.", c(4, sec("A", plain(board.NoChord), plain("D"))), 0, 0, "[n|"},
		{"iReal Pro's spelling", c(4, sec("A", plain("Cmaj7", "Dm7b5"), plain("D"))), 0, 0, "[C^7 Dh7|"},
		{"chords at their beats", c(4, sec("A", board.Bar{Chords: []string{"C", "G7"}, Durations: []int{3, 1}}, plain("D"))), 0, 0, "[C p p G7|"},
		{"a bar's own meter", c(4, sec("A", board.Bar{Chords: []string{"C"}, Beats: 3}, plain("D"))), 0, 0, "[T34C|"},
		{"12/8", c(4, sec("A", board.Bar{Chords: []string{"C"}, Beats: 12}, plain("D"))), 0, 0, "[T12C|"},
		{"no meter iReal Pro has", c(4, sec("A", board.Bar{Chords: []string{"C"}, Beats: 8}, plain("D"))), 0, 0, "[C|"},
		{"a full label", c(4, sec("Pre-Chorus", plain("C"), plain("D"))), 0, 0, "[<Pre-Chorus>C|"},
		{"segno", c(4, sec("A", board.Bar{Chords: []string{"C"}, Mark: board.MarkSegno}, plain("D"))), 0, 0, "[SC|"},
		{"coda", c(4, sec("A", board.Bar{Chords: []string{"C"}, Mark: board.MarkCoda}, plain("D"))), 0, 0, "[QC|"},
		{"To Coda", c(4, sec("A", board.Bar{Chords: []string{"C"}, Mark: board.MarkToCoda}, plain("D"))), 0, 0, "[CQ|"},
		{"a jump", c(4, sec("A", board.Bar{Chords: []string{"C"}, Mark: board.MarkDSAlCoda}, plain("D"))), 0, 0, "[C<D.S. al Coda>|"},
		{"To Coda beside a jump", c(4, sec("A", board.Bar{Chords: []string{"C"}, Mark: board.MarkDSAlCoda, ToCoda: true}, plain("D"))), 0, 0, "[C<D.S. al Coda>Q|"},
		{"a jump to an ending", c(4, sec("A", board.Bar{Chords: []string{"C"}, Mark: board.MarkDC}), sec("B", board.Bar{Chords: []string{"D"}, Ending: 2})), 0, 0, "[C<D.C. al 2nd ending>]"},
		{"Fine", c(4, sec("A", board.Bar{Chords: []string{"C"}, Mark: board.MarkFine}, plain("D"))), 0, 0, "[C<Fine>|"},
		// Content that would not validate is written without a panic, an empty <> or a doubled Q.
		{"a duration of 0", c(4, sec("A", board.Bar{Chords: []string{"C", "G7"}, Durations: []int{0, 4}}, plain("D"))), 0, 0, "[C G7 p p p|"},
		{"a duration past a bar", c(4, sec("A", board.Bar{Chords: []string{"C"}, Durations: []int{1 << 40}}, plain("D"))), 0, 0, "[C" + strings.Repeat(" p", board.MaxBarBeats) + "|"},
		{"a mark Tele does not know", c(4, sec("A", board.Bar{Chords: []string{"C"}, Mark: "fermata"}, plain("D"))), 0, 0, "[C|"},
		{"To Coda said twice", c(4, sec("A", board.Bar{Chords: []string{"C"}, Mark: board.MarkToCoda, ToCoda: true}, plain("D"))), 0, 0, "[CQ|"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newMusicWriter(tc.c)
			w.bar(tc.si, tc.bi)
			if got := w.out.String(); got != tc.want {
				t.Errorf("wrote %q, want %q", got, tc.want)
			}
		})
	}
}

// TestWriteMusic: a board's whole music string, before scrambling.
func TestWriteMusic(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    board.Content
		want string
	}{
		{"one section without a label", board.Content{BeatsPerBar: 4, Sections: []board.Section{
			{Bars: []board.Bar{board.PlainBar("C"), board.PlainBar("G7")}}}}, "T44[C|G7 Z"},
		{"sections", board.Content{BeatsPerBar: 3, Sections: []board.Section{
			{Label: "Intro", Bars: []board.Bar{board.PlainBar("C")}},
			{Label: "Verse", Lines: []board.Line{{Text: "words"}}},
			{Label: "B", Bars: []board.Bar{{Chords: []string{"D"}, RepeatStart: true}, {Simile: true, RepeatEnd: 2}}},
			{Label: "Outro", Bars: []board.Bar{board.PlainBar("E")}},
			{Label: "Tag", Lines: []board.Line{{Text: "more words"}}},
		}}, "T34*i[C]*B{D| x }*O[<Outro>E Z"},
		{"meter changes", board.Content{BeatsPerBar: 4, Sections: []board.Section{
			{Label: "A", Bars: []board.Bar{board.PlainBar("C"), {Chords: []string{"D"}, Beats: 2}, {Chords: []string{"E"}, Beats: 2}, board.PlainBar("F")}}}},
			"T44*A[C|T24D|E|T44F Z"},
		{"no meter iReal Pro has", board.Content{BeatsPerBar: 8, Sections: []board.Section{{Bars: []board.Bar{board.PlainBar("C")}}}}, "[C Z"},
		{"endings", board.Content{BeatsPerBar: 4, Sections: []board.Section{
			{Bars: []board.Bar{{Chords: []string{"C"}, RepeatStart: true}, {Chords: []string{"D"}, Ending: 1, RepeatEnd: 2}, {Chords: []string{"E"}, Ending: 2}}}}},
			"T44{C|N1D}N2E Z"},
		{"no bars", board.Content{BeatsPerBar: 4}, "T44"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := writeMusic(tc.c); got != tc.want {
				t.Errorf("wrote %q, want %q", got, tc.want)
			}
		})
	}
}

// TestWriteCredits: iReal Pro wants a composer and a style; Tele writes its own for either missing, and
// iReal Pro's accompaniment for the style it writes by default.
func TestWriteCredits(t *testing.T) {
	for _, tc := range []struct {
		composer, style          string
		wComposer, wStyle, wComp string
	}{
		{"", "", "Tele", "Medium Swing", "Jazz-Medium Swing"},
		{"Ellington", "", "Ellington", "Medium Swing", "Jazz-Medium Swing"},
		{"", "Bossa Nova", "Tele", "Bossa Nova", ""},
		{"Jobim", "Bossa Nova", "Jobim", "Bossa Nova", ""},
		{"Jobim", "Medium Swing", "Jobim", "Medium Swing", "Jazz-Medium Swing"},
	} {
		composer, style, comp := writeCredits(board.Content{Composer: tc.composer, Style: tc.style})
		if composer != tc.wComposer || style != tc.wStyle || comp != tc.wComp {
			t.Errorf("%q, %q: wrote %q, %q, %q; want %q, %q, %q", tc.composer, tc.style, composer, style, comp, tc.wComposer, tc.wStyle, tc.wComp)
		}
	}
}

// FuzzWrite: Write never panics, whatever the content (valid or not), writes no empty staff text <> and
// no doubled Q, and Parse reads what it writes without a panic.
func FuzzWrite(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{9, 9, 0, 0, 250, 3, 7, 1, 11, 2, 255, 0, 5})
	f.Add([]byte("a duration of 0, an unknown mark, To Coda twice"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := fuzzContent(data)
		music := writeMusic(c)
		if strings.Contains(music, "<>") || strings.Contains(music, "QQ") {
			t.Fatalf("%+v wrote %q", c, music)
		}
		if _, err := Parse(Write(c)); err != nil {
			t.Fatalf("%+v: Parse(Write) = %v", c, err)
		}
	})
}

// fuzzContent builds a board's content, valid or not, from bytes: each bar takes eight of them, up to
// about as many bars as a board holds.
func fuzzContent(data []byte) board.Content {
	data = data[:min(len(data), 8*board.MaxBars)]
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(int8(b))
	}
	pick := func(list []string) string { return list[(next()%len(list)+len(list))%len(list)] }
	chords := []string{"C", "Dm7", board.NoChord, "", "X", "C/E", "Bb7b9"}
	marks := []string{"", "segno", "coda", "fine", "to-coda", "dc", "ds", "dc-al-fine", "dc-al-coda", "ds-al-fine", "ds-al-coda", "fermata"}
	labels := []string{"", "A", "Intro", "Verse", "Pre-Chorus", "<>", "é", "3x", "D.C."}
	c := board.Content{Title: "T", BeatsPerBar: next(), Tempo: next()}
	var sec *board.Section
	for len(data) > 0 {
		if next()%4 == 0 || sec == nil {
			c.Sections = append(c.Sections, board.Section{Label: pick(labels)})
			sec = &c.Sections[len(c.Sections)-1]
		}
		bar := board.Bar{Simile: next()%5 == 0, Beats: next() % 16, RepeatStart: next()%3 == 0, RepeatEnd: next() % 12,
			Ending: next() % 6, Mark: board.Mark(pick(marks)), ToCoda: next()%4 == 0}
		for n := next() % 6; n > 0; n-- {
			bar.Chords = append(bar.Chords, pick(chords))
		}
		if next()%2 == 0 {
			for range bar.Chords {
				bar.Durations = append(bar.Durations, next()%14)
			}
		}
		sec.Bars = append(sec.Bars, bar)
	}
	return c
}
