package board

import (
	"fmt"
	"strconv"
	"strings"
)

// The rules of a chart's form, each with a stable id. A refusal carries the id and its arguments
// (ValidationError.RuleID, RuleArgs) beside the English words, so that a page can say the same thing in
// its own language at the bar it names. Arguments: numbers, marks (their ids, like "ds-al-coda") and
// bars (bar numbers as a musician counts them: 1, 2, … across sections).
var formRules = map[string]string{
	"firstSimile":        `the first bar cannot be % ("as the bar before"): there is no bar before it`,
	"ending1NeedsEnd":    "ending 1 needs an end repeat (repeatEnd: 2 on its last bar) before the next repeat or ending: the band goes back after it",
	"endingMustBe":       "this must be ending {want}: the end repeat before it closes ending {prev}",
	"repeatOpen":         "a repeat is already open (it starts at {at}): end it with repeatEnd before starting another; only a plain repeat (no endings) may stand inside another, and it must end in the same section before the other ends",
	"endingOutside":      "ending {n} is outside a repeat: an ending belongs to a repeat (repeatStart … repeatEnd), or follows the repeat's last ending as the one a jump leads to",
	"endingInsideEnding": "ending {n} cannot start inside ending {open}: close ending {open} with repeatEnd: {next} first",
	"firstEndingOne":     "the first ending of a repeat is ending 1, not {n}",
	"endNoStart":         "this end repeat has no start: add repeatStart to the bar where the repeat begins",
	"lastEnding":         "ending {n} is the last one possible: it cannot close with an end repeat",
	"endingPass":         "this end repeat closes ending {n}, so the band goes back for pass {next}: repeatEnd must be {next}, not {got}",
	"nestedEnding":       "ending {n} cannot stand in a repeat inside another repeat: a repeat inside another is a plain repeat",
	"jumpEndingEnds":     "ending {n} is reached by the jump, after the repeats are played: it cannot close with an end repeat",
	"endingByJump":       "ending {n} follows the repeat's last ending, so the band reaches it only by a jump: put the D.C. or D.S. on the bar right before it",
	"jumpBeforeEnding":   "{jump} leads to ending {n}, so it must go back to the repeat's bars (from {at}) for the band to play them again and take that ending",
	"neverEnds":          "this repeat never ends: add repeatEnd (times played) to its last bar",
	"oneJump":            "a chart has at most two D.C. or D.S. (one after the head, one after the solos); the second, {other}, is already at {at}",
	"oneSign":            "a chart has one {sign}; there is one at {at}",
	"twoFines":           "a chart has two Fines only when it has two al Fine jumps, one Fine each; there is one at {at}",
	"signNeedsJump":      "this {sign} needs a jump that leads to it: add {want}",
	"signWrongJumps":     "this {sign} needs {want}, but this chart's jumps are {jump} (at {at}) and {other} (at {at2})",
	"firstJumpEnds":      "{jump} comes before the chart's other jump, so it must say where its journey ends: al Fine (the band goes on after it at the Fine) or al Coda",
	"endingJumpAlone":    "{jump} cannot stand beside a jump that leads to ending {n}: a jump to an ending is a chart's only one",
	"neverPlayed":        "with {jump} the band never plays {bar}: each of the two jumps is taken the first time it is reached, and no way through the form passes that bar",
	"signWrongJump":      "this {sign} needs {want}, but this chart's jump is {jump} (at {at})",
	"needSegno":          "{jump} needs a segno: mark the bar to go back to with segno",
	"segnoAfterJump":     "the segno must come before {jump} (at {at}): D.S. goes back to it",
	"segnoInEnding":      "the segno cannot stand in ending {n}: after the jump back the band takes the last ending",
	"jumpInRepeat":       "{jump} inside a repeat would cut the repeat short: put it after the repeat, on its end-repeat bar, or in its last ending",
	"needCoda":           "{jump} needs a coda: mark the first bar of the coda with coda",
	"needToCoda":         "{jump} needs To Coda: mark the bar after which the band leaves for the coda with to-coda",
	"toCodaPlace":        "To Coda must come between {target} and {jump} (at {at}), where the band passes it after the jump back",
	"toCodaAlone":        `toCoda is To Coda on a bar whose mark is another sign (a jump, Fine or segno); a bar with To Coda alone has the mark to-coda`,
	"toCodaInEnding":     "To Coda cannot stand in ending {n}: after the jump back the band takes ending {last}, the one the jump leads to",
	"codaAfterJump":      "the coda must start on the bar right after {jump} (at {at}): bars between them would never be played",
	"codaInRepeat":       "the coda cannot start among a repeat's bars or in an ending that goes back; it may start where a repeat starts (repeatStart) or in a last ending",
	"jumpNotLast":        "{jump} must stand on the last bar, or right before the ending it leads to: the bars after it would never be played",
	"needFine":           "{jump} needs Fine: mark the bar where the piece ends with fine",
	"fineBeforeSegno":    "Fine must come after the segno (at {at}): the band never reaches it after D.S.",
	"fineInEnding":       "Fine cannot stand in ending {n}: after the jump back the band takes ending {last}, the one the jump leads to",
	"durationsSimile":    `a % bar plays the rhythm of the bar it repeats: it has no durations of its own`,
	"durationsCount":     "give each of the bar's {chords} chords its beats: {chords} numbers, not {got}",
	"durationsWhole":     "a chord lasts a whole number of beats, at least 1",
	"durationsSum":       "the chords' beats must add up to the bar's {beats} beats, not {sum}",
	"tooLong":            "the form plays more than {max} bars with its repeats and jumps; play the repeats fewer times",
	"sectionEmpty":       "a section holds bars, lines of words, or both (a grid and then its words)",
	"linesCount":         "a section's lines, when it has any, are 1 to {max} lines",
	"linesTotal":         "too many lines of words: at most {max} in all sections together",
	"lineChordAt":        "a chord stands at a place in its line, from 0 to {len} (the line's length), not {at}",
	"lineChordOrder":     "the chords of a line stand in the order of their places, each after the one before: {at} is not after {prev}",
	"lineChordSplit":     "a chord cannot stand at {at}: that place falls inside a character (an emoji or another character written as two UTF-16 units)",
	"recallWhat":         `a section can repeat the chorus: recall must be "chorus"`,
	"recallAlone":        "a section that repeats the chorus has no bars, lines or role of its own: it is the chorus again",
	"recallNoChorus":     "this section repeats the chorus, but no chorus comes before it: give an earlier section the role chorus",
}

// barAt is an argument naming flat bar i: its JSON path in the English words, its number (i+1) for pages.
type barAt int

// formError is the refusal of rule id at path, with its arguments given as name, value pairs.
func (f *form) formError(path, id string, args ...any) *ValidationError {
	text, ok := formRules[id]
	if !ok {
		panic("board: no form rule " + id) // a programming error, caught by the table test of every rule
	}
	ve := &ValidationError{Path: path, RuleID: id}
	var pairs []string
	for k := 0; k+1 < len(args); k += 2 {
		name := args[k].(string)
		var words string
		var value any
		switch v := args[k+1].(type) {
		case barAt:
			words, value = f.path(int(v), ""), int(v)+1
		case Mark:
			words, value = v.words(), string(v)
		case int:
			words, value = strconv.Itoa(v), v
		default:
			panic(fmt.Sprintf("board: form rule argument %s of type %T", name, v))
		}
		if ve.RuleArgs == nil {
			ve.RuleArgs = map[string]any{}
		}
		ve.RuleArgs[name] = value
		pairs = append(pairs, "{"+name+"}", words)
	}
	// Words derived from the marks: which jumps a sign needs, and where a jump goes back to.
	if m, ok := ve.RuleArgs["sign"].(string); ok {
		pairs = append(pairs, "{want}", wantJump(Mark(m)))
	}
	if m, ok := ve.RuleArgs["jump"].(string); ok {
		pairs = append(pairs, "{target}", targetWords(Mark(m)))
	}
	ve.Rule = strings.NewReplacer(pairs...).Replace(text)
	return ve
}

// fail is formError at flat bar i (member "" for the bar itself).
func (f *form) fail(i int, member, id string, args ...any) *ValidationError {
	e := f.formError(f.path(i, member), id, args...)
	ref := f.refs[i]
	e.Bar, e.Member = &ref, member
	return e
}
