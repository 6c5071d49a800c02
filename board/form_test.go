package board

import (
	"cmp"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"tele/board/formtable"
)

// heardChords is the chords each bar sounds: its own, or for a % bar those of the last bar written
// before it with chords (nil for a % with none before it).
func heardChords(c Content) map[BarRef][]string {
	heard := map[BarRef][]string{}
	for r, bar := range heardBars(c) {
		heard[r] = bar.Chords
	}
	return heard
}

// heardBars is the bar whose chords and durations each bar sounds: itself, or for a % bar the last bar
// written before it with chords.
func heardBars(c Content) map[BarRef]Bar {
	heard := map[BarRef]Bar{}
	var last Bar
	for s, sec := range c.Sections {
		for b, bar := range sec.Bars {
			if !bar.Simile {
				last = bar
			}
			heard[BarRef{s, b}] = last
		}
	}
	return heard
}

// TestPlayOrderTable reads every chart of the form table as a board would arrive (ParseContent, so the
// whole validator runs) and compares the bars played, their chords and their beats with the ones
// written by hand, or the refusal with the one expected.
func TestPlayOrderTable(t *testing.T) {
	for _, fc := range formtable.Cases(t) {
		t.Run(fc.Name, func(t *testing.T) {
			doc := `{"title":"T","tempo":120,"beatsPerBar":4,"sections":` + string(fc.Sections) + `}`
			c, err := ParseContent([]byte(doc))
			if fc.Error != nil {
				ve, ok := errors.AsType[*ValidationError](err)
				if !ok {
					t.Fatalf("ParseContent = %v; want the error %s: …%s…", err, fc.Error.Path, fc.Error.Rule)
				}
				if ve.Path != fc.Error.Path || !strings.Contains(ve.Rule, fc.Error.Rule) {
					t.Fatalf("error %s: %s\nwant   %s: …%s…", ve.Path, ve.Rule, fc.Error.Path, fc.Error.Rule)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			order, err := c.PlayOrder()
			if err != nil {
				t.Fatal(err)
			}
			// Bar numbers as a musician counts them: 1, 2, … across sections.
			first := make([]int, len(c.Sections))
			for s := 1; s < len(c.Sections); s++ {
				first[s] = first[s-1] + len(c.Sections[s-1].Bars)
			}
			heard := heardBars(c)
			var played, chords, beats, rhythm []string
			for _, r := range order {
				played = append(played, strconv.Itoa(first[r.Section]+r.Bar+1))
				chords = append(chords, heard[r].Chords[0])
				bar := c.Sections[r.Section].Bars[r.Bar]
				n := cmp.Or(bar.Beats, c.BeatsPerBar)
				beats = append(beats, strconv.Itoa(n))
				var shares []string
				for _, b := range Rhythm(heard[r].Chords, heard[r].Durations, n) {
					shares = append(shares, strconv.FormatFloat(b, 'f', -1, 64))
				}
				rhythm = append(rhythm, strings.Join(shares, "+"))
			}
			if got := strings.Join(played, " "); got != fc.Played {
				t.Fatalf("played %s\nwant   %s", got, fc.Played)
			}
			if got := strings.Join(chords, " "); fc.Chords != "" && got != fc.Chords {
				t.Fatalf("chords %s\nwant   %s", got, fc.Chords)
			}
			if got := strings.Join(beats, " "); fc.Beats != "" && got != fc.Beats {
				t.Fatalf("beats %s\nwant   %s", got, fc.Beats)
			}
			if got := strings.Join(rhythm, " "); fc.Rhythm != "" && got != fc.Rhythm {
				t.Fatalf("rhythm %s\nwant   %s", got, fc.Rhythm)
			}
			// What was read is written back as it came (bars with chords alone as arrays).
			var back Content
			enc, _ := json.Marshal(c)
			if back, err = ParseContent(enc); err != nil || !reflect.DeepEqual(back, c) {
				t.Fatalf("round trip: %v\n%s", err, enc)
			}
		})
	}
}

// TestPlayOrderBound: a form that would play more than MaxPlayedBars bars is refused, one that plays
// exactly that many is not.
func TestPlayOrderBound(t *testing.T) {
	// 8 sections of 64 bars = 512 bars, each section repeated 8 times: 4,096 bars played.
	secs := make([][]Bar, 8)
	for s := range secs {
		for b := range MaxBarsPerSection {
			secs[s] = append(secs[s], Bar{Chords: []string{"C"}, RepeatStart: b == 0})
		}
		secs[s][MaxBarsPerSection-1].RepeatEnd = MaxRepeatTimes
	}
	order, err := PlayOrder(secs)
	if err != nil || len(order) != MaxPlayedBars {
		t.Fatalf("PlayOrder: %d bars, %v; want %d", len(order), err, MaxPlayedBars)
	}
	// Plus a D.C. on the last bar: twice as long.
	secs[7][63].Mark = MarkDC
	_, err = PlayOrder(secs)
	if ve, ok := errors.AsType[*ValidationError](err); !ok || ve.Path != "sections" || !strings.Contains(ve.Rule, "more than 4096 bars") {
		t.Fatalf("PlayOrder over the bound: %v", err)
	}
}

// fuzzForm builds sections of bars from bytes: three bytes a bar (repeat signs, ending and mark, a new
// section or a %), so the fuzzer reaches every combination of signs.
func fuzzForm(data []byte) [][]Bar {
	var secs [][]Bar
	for len(data) >= 3 && len(secs) <= MaxSections {
		a, b, c := data[0], data[1], data[2]
		data = data[3:]
		if len(secs) == 0 || c&0x80 != 0 {
			secs = append(secs, nil)
		}
		bar := Bar{Chords: []string{"C"}, RepeatStart: a&1 != 0, Ending: int(a>>1) % (MaxEnding + 1)}
		if r := int(a>>4) % 9; r >= MinRepeatTimes {
			bar.RepeatEnd = r
		}
		if m := int(b) % (2 * len(marks)); m < len(marks) {
			bar.Mark = marks[m]
		}
		if c&0x40 != 0 {
			bar.Chords, bar.Simile = nil, true
		}
		if c&0x20 != 0 {
			bar.Beats = int(c&0x0f)%MaxBarBeats + 1
		}
		bar.ToCoda = c&0x10 != 0 && bar.Mark != "" // version 3: To Coda beside another sign
		s := len(secs) - 1
		if len(secs[s]) < MaxBarsPerSection {
			secs[s] = append(secs[s], bar)
		}
	}
	return secs
}

// FuzzPlayOrder: whatever the form, PlayOrder ends; a form it accepts plays its first bar first, every
// written bar at least once (nothing is dead), nothing outside the chart, at most MaxPlayedBars bars, and
// a % never reaches back past the first bar.
func FuzzPlayOrder(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0x22, 0, 0})                                     // |: C C :|2
	f.Add([]byte{1, 0, 0, 2, 0, 0, 0x24, 0, 0x40, 4, 0, 0})                         // endings
	f.Add([]byte{0, 20, 0, 0, 0, 0, 0, 9, 0, 0, 5, 0, 0, 1, 0})                     // to-coda, ds-al-coda, coda
	f.Add([]byte{1, 0, 0, 0x80, 0, 0x20, 0x22, 0, 0x80, 0, 2, 0, 0, 0, 0, 0, 7, 0}) // fine, dc-al-fine
	f.Add([]byte{1, 10, 0, 0x22, 10, 0, 4, 10, 0, 0, 3, 0, 6, 10, 0})               // D.C. al 3rd ending (version 3)
	f.Add([]byte{1, 10, 0, 1, 10, 0, 0x30, 10, 0, 0x20, 10, 0})                     // a vamp inside a repeat (version 3)
	f.Add([]byte{1, 10, 0, 0x22, 2, 0, 4, 10, 0, 0, 5, 0})                          // Fine in ending 1 (version 3)
	f.Add([]byte{1, 10, 0, 2, 10, 0, 0, 10, 0x80, 0x20, 10, 0, 4, 10, 0})           // ending 1 across a section (version 3)
	for _, c := range []string{"\x01\x00\x00\x00\x01\x00\x82\x00\x00"} {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		secs := fuzzForm(data)
		if len(secs) == 0 {
			return // content holds at least one bar
		}
		order, err := PlayOrder(secs)
		if err != nil {
			if _, ok := errors.AsType[*ValidationError](err); !ok {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		if len(order) == 0 || len(order) > MaxPlayedBars || order[0] != (BarRef{0, 0}) {
			t.Fatalf("%d bars played, first %v", len(order), order)
		}
		played := map[BarRef]bool{}
		for _, r := range order {
			if r.Section >= len(secs) || r.Bar >= len(secs[r.Section]) {
				t.Fatalf("played %v outside the chart", r)
			}
			played[r] = true
		}
		for s := range secs {
			for b := range secs[s] {
				if !played[BarRef{s, b}] {
					t.Fatalf("bar %d of section %d is never played: %v", b, s, order)
				}
			}
		}
		c := Content{Sections: make([]Section, len(secs))}
		for i := range secs {
			c.Sections[i].Bars = secs[i]
		}
		heard := heardChords(c)
		for _, r := range order {
			if heard[r] == nil {
				t.Fatalf("bar %v plays no chords", r)
			}
		}
	})
}
