package ireal

import (
	"slices"
	"strings"

	"tele/board"
)

// Jumps as real books write them where the words or signs around them are not the ones the form names:
// each is read as the form can hold it, with a note.

// cueJump reads "D.C. on cue" (a vamp the band leaves when the leader signals, Speak Like A Child) as the
// jump it names: Tele plays the vamp its times, then takes the jump.
func (r *songReader) cueJump(words string, bar int) (board.Mark, bool) {
	jump, ok := strings.CutSuffix(words, " on cue")
	if !ok {
		return "", false
	}
	m, al, ok := textSign(jump)
	if !ok || al != 0 || !endSign(m) || m == board.MarkFine {
		return "", false
	}
	r.note("jump_on_cue", "the %s on cue at bar %d was read as a jump: Tele plays the vamp as written, then takes it", "sign", string(m), "bar", bar+1)
	r.cues = append(r.cues, bar)
	return m, true
}

// jumpsAsMusiciansRead reads an al Fine jump whose Fine is missing or leads on: with no Fine, the end
// mark iReal Pro's player stops at (U) is the Fine (Swing 42), and with neither the band plays on to the
// end, a plain D.C. or D.S. (La Folle); a Fine that also has To Coda, or a coda after the jump that no
// To Coda leads to, makes it al Coda with To Coda at the Fine (La Camarde, Round Midnight).
func (r *songReader) jumpsAsMusiciansRead(c *board.Content) {
	flat, _ := flatBars(c)
	jump, fine, coda, toCoda := -1, -1, -1, false
	for i, b := range flat {
		switch {
		case b.Mark == board.MarkFine:
			fine = i
		case b.Mark == board.MarkCoda:
			coda = i
		case b.Mark == board.MarkToCoda:
			toCoda = true
		case alFine(b.Mark):
			jump = i
		}
	}
	if jump < 0 {
		return
	}
	m := flat[jump].Mark
	switch {
	case fine < 0 && len(r.ends) > 0 && r.ends[len(r.ends)-1] < len(flat) && flat[r.ends[len(r.ends)-1]].Mark == "":
		at := r.ends[len(r.ends)-1]
		flat[at].Mark = board.MarkFine
		r.note("fine_at_end_mark", "the %s at bar %d ends at bar %d, where the chart marks the end for iReal Pro's player (U): Fine was put there", "sign", string(m), "bar", jump+1, "fine", at+1)
	case fine < 0:
		plain := board.MarkDC
		if toSegno(m) {
			plain = board.MarkDS
		}
		flat[jump].Mark = plain
		r.note("al_fine_no_fine", "the %s at bar %d was read as %s: the chart has no Fine, so the band plays on to the end", "sign", string(m), "bar", jump+1, "read", string(plain))
	case coda > jump && !toCoda && (flat[fine].ToCoda || !slices.ContainsFunc(flat, func(b *board.Bar) bool { return b.ToCoda })):
		al := map[board.Mark]board.Mark{board.MarkDCAlFine: board.MarkDCAlCoda, board.MarkDSAlFine: board.MarkDSAlCoda}[m]
		flat[jump].Mark = al
		flat[fine].Mark, flat[fine].ToCoda = board.MarkToCoda, false
		r.note("al_fine_coda", "the %s at bar %d was read as %s: the band leaves at the Fine (bar %d) for the coda written after the jump", "sign", string(m), "bar", jump+1, "read", string(al), "fine", fine+1)
	}
}

// strayEndings reads an ending 1 that never goes back: one the next ending follows with no end repeat
// between is closed by the bar before it (Spivy: N1 … ] N2), from the first bar of its section when no
// repeat starts there; one no ending follows is plain bars (Douce Ambience: N1 in a bridge with no
// repeat).
func (r *songReader) strayEndings(c *board.Content) {
	flat, sectionStart := flatBars(c)
	for i, b := range flat {
		if b.Ending != 1 {
			continue
		}
		k := i
		for k < len(flat) && flat[k].RepeatEnd == 0 && (k == i || flat[k].Ending == 0) {
			k++
		}
		switch {
		case k < len(flat) && flat[k].RepeatEnd != 0:
			continue
		case k < len(flat) && flat[k].Ending == 2:
			flat[k-1].RepeatEnd = 2
			start := i - 1
			for start > 0 && !sectionStart[start] && !flat[start].RepeatStart && flat[start-1].RepeatEnd == 0 && flat[start-1].Ending == 0 {
				start--
			}
			if start >= 0 && !flat[start].RepeatStart && sectionStart[start] {
				flat[start].RepeatStart = true
			}
			r.note("ending_closed", "ending 1 (bar %d) closes at bar %d, right before ending 2: the band goes back there", "bar", i+1, "end", k)
		default:
			b.Ending = 0
			r.note("ending_left_out", "ending 1 at bar %d has no end repeat and no ending after it: its bars were read as plain bars", "bar", i+1)
		}
	}
}
