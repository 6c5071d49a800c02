package board

import (
	"encoding/json"
	"strconv"

	"tele/chord"
)

// Mark is a road sign written at a bar (content schema version 2). Where it sits matters: segno, coda
// and fine belong to the bar they are written on (the segno and coda signs stand at its start, Fine at
// its end); a jump (D.C., D.S., … al Coda) and "To Coda" are read at the end of their bar, once it has
// been played.
type Mark string

const (
	MarkSegno    Mark = "segno"      // 𝄋: where D.S. goes back to
	MarkCoda     Mark = "coda"       // 𝄌: the first bar of the coda, where "To Coda" goes to
	MarkFine     Mark = "fine"       // Fine: after a D.C./D.S. al Fine the piece ends with this bar
	MarkDC       Mark = "dc"         // D.C.: back to the first bar, then play to the end
	MarkDS       Mark = "ds"         // D.S.: back to the segno, then play to the end
	MarkDCAlFine Mark = "dc-al-fine" // D.C. al Fine: back to the first bar, then play to Fine
	MarkDCAlCoda Mark = "dc-al-coda" // D.C. al Coda: back to the first bar, play to "To Coda", then the coda
	MarkDSAlFine Mark = "ds-al-fine" // D.S. al Fine: back to the segno, then play to Fine
	MarkDSAlCoda Mark = "ds-al-coda" // D.S. al Coda: back to the segno, play to "To Coda", then the coda
	MarkToCoda   Mark = "to-coda"    // To Coda: after the jump back, leave for the coda at the end of this bar
)

// marks lists every mark, in the order the schema names them.
var marks = [...]Mark{MarkSegno, MarkCoda, MarkFine, MarkDC, MarkDS, MarkDCAlFine, MarkDCAlCoda, MarkDSAlFine, MarkDSAlCoda, MarkToCoda}

// Simile is the chords value of a bar that repeats the bar written before it ("%").
const Simile = "%"

// Limits of a bar's form (content schema version 2).
const (
	MinBarBeats    = 1
	MaxBarBeats    = 12
	MinRepeatTimes = 2
	MaxRepeatTimes = 8
	MaxEnding      = 4
	MaxPlayedBars  = 4096 // bars played in all, repeats and jumps expanded
)

// Bar is one bar of a section. In JSON a bar with chords alone is the version-1 array of 1–4 chord
// symbols (["Am7","D7"]); a bar with any form is an object:
//
//	{"chords": ["Am7"] | "%", "durations": [3, 1], "beats": 3, "repeatStart": true, "repeatEnd": 2, "ending": 1, "mark": "segno"}
//
// where every member but chords is optional. Chords is nil when the bar is a simile (Simile).
// Durations (content schema version 3) gives each chord its beats, in order; nil shares the bar evenly.
type Bar struct {
	Chords      []string
	Simile      bool  // "%": the chords of the bar written before this one
	Durations   []int // each chord's beats (whole beats, at least 1, adding up to the bar's); nil: even
	Beats       int   // this bar's meter when it differs from the board's beatsPerBar; 0: the board's
	RepeatStart bool  // |: before this bar
	RepeatEnd   int   // :| after this bar; the repeated bars are played this many times (2–8); 0: none
	Ending      int   // a volta bracket numbered 1–4 starts at this bar; 0: none
	Mark        Mark  // a road sign; "": none
	// ToCoda (content schema version 3) is To Coda on a bar whose mark is another sign (a jump, Fine, a
	// segno): the jump is taken the first time, To Coda after it. A bar with To Coda alone has the
	// mark to-coda instead.
	ToCoda bool
}

// Plain reports whether the bar is chords alone, written as the version-1 array.
func (b Bar) Plain() bool {
	return !b.Simile && b.Durations == nil && b.Beats == 0 && !b.RepeatStart && b.RepeatEnd == 0 && b.Ending == 0 && b.Mark == "" && !b.ToCoda
}

// PlainBar returns a bar of the given chords and nothing else.
func PlainBar(symbols ...string) Bar {
	return Bar{Chords: symbols}
}

// check applies the rules of a bar written as an object (every bar that is not Plain) to its own
// values; the form as a whole is form.go's. path is the bar's JSON path.
func (b Bar) check(path string) *ValidationError {
	fail := func(member, rule string) *ValidationError {
		return &ValidationError{Path: path + "." + member, Rule: rule}
	}
	if b.Simile {
		if len(b.Chords) > 0 {
			return fail("chords", ruleSimileBoth)
		}
	} else {
		if len(b.Chords) < 1 || len(b.Chords) > MaxChordsPerBar {
			return fail("chords", ruleBarChords)
		}
		for k, sym := range b.Chords {
			if _, ok := chord.Canonical(sym); !ok {
				return chordError(path+".chords["+strconv.Itoa(k)+"]", sym)
			}
		}
	}
	switch {
	case b.Beats != 0 && (b.Beats < MinBarBeats || b.Beats > MaxBarBeats):
		return fail("beats", ruleBarBeats)
	case b.RepeatEnd != 0 && (b.RepeatEnd < MinRepeatTimes || b.RepeatEnd > MaxRepeatTimes):
		return fail("repeatEnd", ruleRepeatEnd)
	case b.Ending != 0 && (b.Ending < 1 || b.Ending > MaxEnding):
		return fail("ending", ruleEnding)
	case b.Mark != "" && !validMark(b.Mark):
		return fail("mark", ruleMark)
	}
	return nil
}

// barObject is a bar as a JSON object: the members of Bar that are set.
type barObject struct {
	Chords      any   `json:"chords"`
	Durations   []int `json:"durations,omitempty"`
	Beats       int   `json:"beats,omitempty"`
	RepeatStart bool  `json:"repeatStart,omitempty"`
	RepeatEnd   int   `json:"repeatEnd,omitempty"`
	Ending      int   `json:"ending,omitempty"`
	Mark        Mark  `json:"mark,omitempty"`
	ToCoda      bool  `json:"toCoda,omitempty"`
}

// MarshalJSON writes the bar as the schema does: the version-1 array of chords when it carries nothing
// else (so a version-1 board is stored byte for byte as before), otherwise an object.
func (b Bar) MarshalJSON() ([]byte, error) {
	if b.Plain() {
		return json.Marshal(b.Chords)
	}
	o := barObject{Chords: b.Chords, Durations: b.Durations, Beats: b.Beats, RepeatStart: b.RepeatStart, RepeatEnd: b.RepeatEnd, Ending: b.Ending, Mark: b.Mark, ToCoda: b.ToCoda}
	if b.Simile {
		o.Chords = Simile
	}
	return json.Marshal(o)
}

func validMark(m Mark) bool {
	for _, k := range marks {
		if m == k {
			return true
		}
	}
	return false
}

// jump reports whether m sends the player back (D.C. or D.S., with or without al Fine/al Coda).
func (m Mark) jump() bool {
	switch m {
	case MarkDC, MarkDS, MarkDCAlFine, MarkDCAlCoda, MarkDSAlFine, MarkDSAlCoda:
		return true
	}
	return false
}

// toSegno reports whether the jump m goes back to the segno (D.S.) rather than the first bar (D.C.).
func (m Mark) toSegno() bool {
	return m == MarkDS || m == MarkDSAlFine || m == MarkDSAlCoda
}

// alFine and alCoda report how the jump m ends.
func (m Mark) alFine() bool { return m == MarkDCAlFine || m == MarkDSAlFine }
func (m Mark) alCoda() bool { return m == MarkDCAlCoda || m == MarkDSAlCoda }

// words is the mark as printed on a chart, for messages.
func (m Mark) words() string {
	switch m {
	case MarkSegno:
		return "segno"
	case MarkCoda:
		return "Coda"
	case MarkFine:
		return "Fine"
	case MarkDC:
		return "D.C."
	case MarkDS:
		return "D.S."
	case MarkDCAlFine:
		return "D.C. al Fine"
	case MarkDCAlCoda:
		return "D.C. al Coda"
	case MarkDSAlFine:
		return "D.S. al Fine"
	case MarkDSAlCoda:
		return "D.S. al Coda"
	case MarkToCoda:
		return "To Coda"
	}
	return string(m)
}
