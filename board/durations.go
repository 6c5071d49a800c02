package board

import (
	"strconv"
	"strings"
)

// checkDurations applies the rules of a bar's durations (content schema version 3) against the bar's
// beats (its own meter, or the board's). path is the bar's JSON path. The refusals carry rule ids of
// formRules, so a page says them in its own language like the rules of the form.
func (b Bar) checkDurations(path string, beats int) *ValidationError {
	if b.Durations == nil {
		return nil
	}
	at := path + ".durations"
	if b.Simile {
		return barRuleError(at, "durationsSimile")
	}
	if len(b.Durations) != len(b.Chords) {
		return barRuleError(at, "durationsCount", "chords", len(b.Chords), "got", len(b.Durations))
	}
	sum := 0
	for k, d := range b.Durations {
		if d < 1 || d > MaxBarBeats {
			return barRuleError(at+"["+strconv.Itoa(k)+"]", "durationsWhole")
		}
		sum += d
	}
	if sum != beats {
		return barRuleError(at, "durationsSum", "beats", beats, "sum", sum)
	}
	return nil
}

// barRuleError is the refusal of rule id (formRules) at path, with integer arguments given as name,
// value pairs.
func barRuleError(path, id string, args ...any) *ValidationError {
	ve := &ValidationError{Path: path, RuleID: id}
	var pairs []string
	for k := 0; k+1 < len(args); k += 2 {
		name, v := args[k].(string), args[k+1].(int)
		if ve.RuleArgs == nil {
			ve.RuleArgs = map[string]any{}
		}
		ve.RuleArgs[name] = v
		pairs = append(pairs, "{"+name+"}", strconv.Itoa(v))
	}
	ve.Rule = strings.NewReplacer(pairs...).Replace(formRules[id])
	return ve
}

// Rhythm returns how many beats each of chords' chords lasts in a bar of beats beats: durations
// when they fit (one whole number per chord, adding up to beats), otherwise an even share. A % bar
// sounds the bar it repeats with that bar's durations, which is why they are passed apart from the
// bar: Rhythm(heard.Chords, heard.Durations, this bar's beats).
func Rhythm(chords []string, durations []int, beats int) []float64 {
	out := make([]float64, len(chords))
	if len(durations) == len(chords) {
		sum := 0
		for _, d := range durations {
			sum += max(d, 0)
		}
		if sum == beats {
			for k, d := range durations {
				out[k] = float64(d)
			}
			return out
		}
	}
	for k := range out {
		out[k] = float64(beats) / float64(len(chords))
	}
	return out
}

// SchemaVersion is the earliest version of the content schema c is a document of: 1 for bars of
// chords alone, 2 with form (bar objects, roles), 3 with durations, lines of words, a recall of the
// chorus, a section without bars, or an artist, composer or style, 4 with two jumps. Each version only adds optional
// members, so a document is of every later version too.
func (c Content) SchemaVersion() int {
	if c.twoJumps() {
		return 4
	}
	if c.Artist != "" || c.Composer != "" || c.Style != "" {
		return 3
	}
	v := 1
	for _, s := range c.Sections {
		if s.Lines != nil || s.Recall != "" || s.Bars == nil {
			return 3
		}
		if s.Role != "" {
			v = max(v, 2)
		}
		for _, b := range s.Bars {
			switch {
			case b.Durations != nil || b.ToCoda:
				return 3
			case !b.Plain():
				v = 2
			}
		}
	}
	if v == 2 && formV3(c) {
		return 3
	}
	return v
}

// formV3 reports whether the content's form uses what version 3 added to it (an ending reached by a
// jump or left implicit, an ending across a section mark, a repeat inside another, Fine, To Coda or the
// coda in an ending).
func formV3(c Content) bool {
	f, err := checkForm(c.bars())
	return err == nil && f.v3
}

// twoJumps reports whether the content's form has two jumps (version 4); the form is read only when two
// bars carry a jump.
func (c Content) twoJumps() bool {
	n := 0
	for _, s := range c.Sections {
		for _, b := range s.Bars {
			if b.Mark.jump() {
				n++
			}
		}
	}
	if n != 2 {
		return false
	}
	f, err := checkForm(c.bars())
	return err == nil && f.v4
}

// bars are the bars of each section.
func (c Content) bars() [][]Bar {
	bars := make([][]Bar, len(c.Sections))
	for i, s := range c.Sections {
		bars[i] = s.Bars
	}
	return bars
}

// evenDurations reports whether durations give every chord the same beats: an even share, which a
// bar without durations says too.
func evenDurations(durations []int) bool {
	for _, d := range durations {
		if d != durations[0] {
			return false
		}
	}
	return len(durations) > 0
}

// CellDurations reads a bar drawn as n equal cells (a ChordPro grid's, iReal Pro's) whose chords start
// on the cells onsets (increasing, from 0) into durations for a bar of beats beats: nil when they share
// the bar evenly. A chord starting between beats is put on the nearest beat (moved reports it), never
// on the next chord's nor past the bar; ok is false when two chords would then share a beat (the
// bar can only be shared evenly). A bar whose first chord starts late is heard from its first beat.
func CellDurations(onsets []int, n, beats int) (durations []int, moved, ok bool) {
	if len(onsets) < 2 || n < 1 {
		return nil, false, true
	}
	starts := make([]int, len(onsets))
	for k, cell := range onsets {
		at := (2*cell*beats + n) / (2 * n) // cell*beats/n to the nearest beat, a half up
		moved = moved || cell*beats%n != 0
		at = min(at, beats-(len(onsets)-k))
		if k > 0 && at <= starts[k-1] {
			return nil, moved, false
		}
		starts[k] = at
	}
	starts[0] = 0
	out := make([]int, len(starts))
	for k := range starts {
		end := beats
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		out[k] = end - starts[k]
	}
	if evenDurations(out) {
		return nil, moved, true
	}
	return out, moved, true
}
