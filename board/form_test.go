package board

import (
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

// formCase is one row of testdata/form/play-order.json (see its "about").
type formCase struct {
	Name     string `json:"name"`
	Sections []struct {
		Label string            `json:"label"`
		Bars  []json.RawMessage `json:"bars"`
	} `json:"sections"`
	Played string `json:"played"`
	Chords string `json:"chords"`
	Beats  string `json:"beats"`
	Error  *struct {
		Path string `json:"path"`
		Rule string `json:"rule"`
	} `json:"error"`
}

func loadFormCases(t *testing.T) []formCase {
	t.Helper()
	data, err := os.ReadFile("testdata/form/play-order.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Cases []formCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &table); err != nil {
		t.Fatal(err)
	}
	return table.Cases
}

// tableBars reads a case's bars as the schema writes them (an array, or an object).
func tableBars(t *testing.T, c formCase) [][]Bar {
	t.Helper()
	out := make([][]Bar, len(c.Sections))
	for s, sec := range c.Sections {
		for _, raw := range sec.Bars {
			var bar Bar
			if raw[0] == '[' {
				if err := json.Unmarshal(raw, &bar.Chords); err != nil {
					t.Fatal(err)
				}
			} else {
				var o struct {
					Chords      json.RawMessage `json:"chords"`
					Beats       int             `json:"beats"`
					RepeatStart bool            `json:"repeatStart"`
					RepeatEnd   int             `json:"repeatEnd"`
					Ending      int             `json:"ending"`
					Mark        Mark            `json:"mark"`
				}
				if err := json.Unmarshal(raw, &o); err != nil {
					t.Fatal(err)
				}
				bar = Bar{Beats: o.Beats, RepeatStart: o.RepeatStart, RepeatEnd: o.RepeatEnd, Ending: o.Ending, Mark: o.Mark}
				if string(o.Chords) == `"%"` {
					bar.Simile = true
				} else if err := json.Unmarshal(o.Chords, &bar.Chords); err != nil {
					t.Fatal(err)
				}
			}
			out[s] = append(out[s], bar)
		}
	}
	return out
}

// TestPlayOrderTable follows every chart of the form table and compares the bars played, their chords
// and their beats with the ones written by hand.
func TestPlayOrderTable(t *testing.T) {
	for _, c := range loadFormCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			secs := tableBars(t, c)
			order, err := PlayOrder(secs)
			if c.Error != nil {
				ve, ok := errors.AsType[*ValidationError](err)
				if !ok {
					t.Fatalf("PlayOrder = %v, %v; want the error %s: …%s…", order, err, c.Error.Path, c.Error.Rule)
				}
				if ve.Path != c.Error.Path || !strings.Contains(ve.Rule, c.Error.Rule) {
					t.Fatalf("error %s: %s\nwant   %s: …%s…", ve.Path, ve.Rule, c.Error.Path, c.Error.Rule)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// Bar numbers as a musician counts them: 1, 2, … across sections.
			first := make([]int, len(secs))
			for s := 1; s < len(secs); s++ {
				first[s] = first[s-1] + len(secs[s-1])
			}
			var played, chords, beats []string
			for _, r := range order {
				played = append(played, strconv.Itoa(first[r.Section]+r.Bar+1))
				chords = append(chords, chordsAt(secs, r)[0])
				b := secs[r.Section][r.Bar].Beats
				if b == 0 {
					b = 4
				}
				beats = append(beats, strconv.Itoa(b))
			}
			if got := strings.Join(played, " "); got != c.Played {
				t.Fatalf("played %s\nwant   %s", got, c.Played)
			}
			if got := strings.Join(chords, " "); c.Chords != "" && got != c.Chords {
				t.Fatalf("chords %s\nwant   %s", got, c.Chords)
			}
			if got := strings.Join(beats, " "); c.Beats != "" && got != c.Beats {
				t.Fatalf("beats %s\nwant   %s", got, c.Beats)
			}
		})
	}
}

// chordsAt is the chords heard in a bar: a % bar's are those of the bar it repeats.
func chordsAt(secs [][]Bar, r BarRef) []string {
	f, err := checkForm(secs)
	if err != nil {
		panic(err)
	}
	for i, ref := range f.refs {
		if ref == r {
			return f.chordsOf(i)
		}
	}
	return nil
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
		if chordsAt(secs, BarRef{0, 0}) == nil {
			t.Fatal("the first bar has no chords")
		}
	})
}
