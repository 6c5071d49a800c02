package chord

import (
	"math/bits"
	"strings"
)

// tones is a set of intervals above the root, 0–23 semitones: bit n is n semitones.
type tones uint32

func tonesOf(intervals []int) tones {
	var t tones
	for _, iv := range intervals {
		t |= 1 << iv
	}
	return t
}

func (t tones) has(iv int) bool { return t&(1<<iv) != 0 }

// mask folds the tones into one octave: the chord's pitch classes above the root.
func (t tones) mask() uint16 { return uint16(t&0xfff) | uint16(t>>12&0xfff) }

// reading is what read makes of a quality as chord symbols are built.
type reading struct {
	tones tones
	all   bool // every character was understood
	any   bool // at least one part was understood: the reading says something about the chord
}

// triadWords (the start of a quality) and majorWords (a major seventh's sign after it) are tried in
// this order; the first that matches wins, so the longer spelling of each pair comes first. Read only.
var (
	triadWords = []struct {
		word  string
		tones tones
	}{
		{"minor", 1<<0 | 1<<3 | 1<<7}, {"min", 1<<0 | 1<<3 | 1<<7}, {"mi", 1<<0 | 1<<3 | 1<<7},
		{"dim", 1<<0 | 1<<3 | 1<<6}, {"aug", 1<<0 | 1<<4 | 1<<8}, {"+5", 1<<0 | 1<<4 | 1<<8},
		{"ø", 1<<0 | 1<<3 | 1<<6 | 1<<10}, {"Ø", 1<<0 | 1<<3 | 1<<6 | 1<<10}, {"h", 1<<0 | 1<<3 | 1<<6 | 1<<10},
		{"°", 1<<0 | 1<<3 | 1<<6}, {"o", 1<<0 | 1<<3 | 1<<6}, {"+", 1<<0 | 1<<4 | 1<<8},
		{"-", 1<<0 | 1<<3 | 1<<7}, {"m", 1<<0 | 1<<3 | 1<<7},
	}
	majorWords = []string{"major", "maj", "Maj", "ma", "M", "j", "^", "Δ", "∆", "△"}
)

// read reads a quality the way chord symbols are built, for spellings no alias covers: a triad (m,
// dim, aug, ø), a seventh or sixth (7, maj7, 6, 6/9), extensions (9, 11, 13) and alterations and
// additions (b9, #11, b13, add9, sus4, alt…) in any order, parentheses and commas ignored.
func read(q string) reading {
	r := reading{tones: 1<<0 | 1<<4 | 1<<7, all: true}
	take := func(w string) bool {
		if strings.HasPrefix(q, w) {
			q = q[len(w):]
			return true
		}
		return false
	}
	skip := func() {
		for q != "" && strings.ContainsRune("(), ", rune(q[0])) {
			q = q[1:]
		}
	}
	skip()
	if q == "maj" || q == "major" {
		r.any = true
		return r
	}
	minor := false
	for _, w := range triadWords {
		// "maj7" and "ma7" are a major seventh, not minor ("mmaj7" and "madd9" are minor).
		if w.word == "m" && (strings.HasPrefix(q, "maj") || strings.HasPrefix(q, "ma") && len(q) > 2 && '0' <= q[2] && q[2] <= '9') {
			continue
		}
		if take(w.word) {
			r.tones, r.any = w.tones, true
			minor = w.tones.has(3) && w.tones.has(7)
			break
		}
	}
	skip()
	r.seventh(&q, take, minor)
	for {
		skip()
		if q == "" {
			return r
		}
		if !r.alteration(take) {
			r.all = false
			_, n := firstRune(q)
			q = q[n:]
		}
	}
}

// seventh reads what follows the triad: a major seventh with its extension, a sixth, 6/9, or a
// dominant seventh, ninth, eleventh or thirteenth; "5" is a power chord.
func (r *reading) seventh(q *string, take func(string) bool, minor bool) {
	dim := r.tones.has(6) && r.tones.has(3)
	for _, w := range majorWords {
		// Written alone, a triangle or ^ is a major seventh; "M" or "maj" alone is no seventh at all.
		rest, found := strings.CutPrefix(*q, w)
		if !found || !strings.ContainsRune("^Δ∆△", []rune(w)[0]) && (rest == "" || rest[0] < '0' || rest[0] > '9') {
			continue
		}
		if take(w) {
			r.any = true
			r.tones |= 1 << 11
			switch {
			case take("13"):
				r.tones |= 1<<14 | 1<<21
			case take("11"):
				r.tones |= 1<<14 | 1<<17
			case take("9"):
				r.tones |= 1 << 14
			default:
				take("7")
			}
			return
		}
	}
	switch {
	case take("6/9") || take("69"):
		r.tones |= 1<<9 | 1<<14
	case take("6"):
		r.tones |= 1 << 9
	case take("13"):
		r.tones |= 1<<10 | 1<<14 | 1<<21
	case take("11"):
		r.tones |= 1<<10 | 1<<14 | 1<<17
		if !minor {
			r.tones &^= 1 << 4 // a dominant eleventh leaves out the third, which clashes with the eleventh
		}
	case take("9"):
		r.tones |= 1<<10 | 1<<14
	case take("7"):
		if dim && !r.tones.has(10) {
			r.tones |= 1 << 9 // dim7 is a diminished seventh
		} else {
			r.tones |= 1 << 10
		}
	case r.tones == 1<<0|1<<4|1<<7 && take("5"):
		r.tones = 1<<0 | 1<<7
	case r.tones == 1<<0|1<<4|1<<7 && take("2"):
		r.tones = 1<<0 | 1<<2 | 1<<7
	default:
		return
	}
	r.any = true
}

// alteration reads one alteration, addition or suspension at the start of the rest.
func (r *reading) alteration(take func(string) bool) bool {
	third := tones(1<<3 | 1<<4)
	switch {
	case take("sus2"):
		r.tones = r.tones&^third | 1<<2
	case take("sus4") || take("sus"):
		r.tones = r.tones&^third | 1<<5
	case take("add9"):
		r.tones |= 1 << 14
	case take("add2"):
		r.tones |= 1 << 2
	case take("add11"):
		r.tones |= 1 << 17
	case take("add4"):
		r.tones |= 1 << 5
	case take("add13"):
		r.tones |= 1 << 21
	case take("add6"):
		r.tones |= 1 << 9
	case take("add3"):
		r.tones |= 1 << 4
	case take("alt"):
		r.tones = 1<<0 | 1<<4 | 1<<10 | 1<<13 | 1<<15 | 1<<20
	case take("b5") || take("-5"):
		r.tones = r.tones&^(1<<7) | 1<<6
	case take("#5") || take("+5"):
		r.tones = r.tones&^(1<<7) | 1<<8
	case take("b6"):
		r.tones |= 1 << 8
	case take("b9") || take("-9"):
		r.tones = r.tones&^(1<<14) | 1<<13
	case take("#9") || take("+9"):
		r.tones = r.tones&^(1<<14) | 1<<15
	case take("#11") || take("+11"):
		r.tones = r.tones&^(1<<17) | 1<<18
	case take("b13") || take("-13"):
		r.tones = r.tones&^(1<<21) | 1<<20
	case take("9"):
		r.tones |= 1 << 14
	case take("+"):
		r.tones = r.tones&^(1<<7) | 1<<8
	default:
		return false
	}
	r.any = true
	return true
}

func firstRune(s string) (rune, int) {
	for i, c := range s {
		if i > 0 {
			return c, i
		}
	}
	return 0, len(s)
}

// Family is what a chord is at heart, by its third, fifth and seventh: a suggestion never changes it.
type Family string

// The families of the catalogue's qualities.
const (
	Major          Family = "major"
	Minor          Family = "minor"
	Dominant       Family = "dominant"
	Diminished     Family = "diminished"
	HalfDiminished Family = "half-diminished"
	Augmented      Family = "augmented"
	Suspended      Family = "suspended"
	Power          Family = "power"
)

// familyOf names the family of a chord with these tones.
func familyOf(t tones) Family {
	m := t.mask()
	has := func(pc int) bool { return m&(1<<pc) != 0 }
	switch {
	case has(4) && has(10):
		return Dominant
	case has(4) && has(8) && !has(7):
		return Augmented
	case has(4):
		return Major
	case has(3) && has(6) && !has(7) && has(10):
		return HalfDiminished
	case has(3) && has(6) && !has(7):
		return Diminished
	case has(3):
		return Minor
	case has(2) || has(5):
		return Suspended
	}
	return Power
}

// nearest returns the row sounding nearest a chord of these tones: most pitch classes in common,
// fewest differing, the third and seventh counting most; a row of another family only when no row of
// the same family comes near. Ties go to the earlier row.
func nearest(t tones) int {
	want, fam := t.mask(), familyOf(t)
	best, bestScore := 0, -1<<30
	for i, r := range table {
		have := tonesOf(r.intervals).mask()
		common := bits.OnesCount16(want & have)
		differ := bits.OnesCount16(want ^ have)
		score := 4*common - 3*differ
		for _, pc := range [...]int{3, 4, 10, 11} {
			w, h := want&(1<<pc) != 0, have&(1<<pc) != 0
			switch {
			case w && h:
				score += 2
			case w != h:
				score -= 4
			}
		}
		if familyOf(tonesOf(r.intervals)) != fam {
			score -= 8
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// rowWithTones returns the row with exactly these tones.
func rowWithTones(t tones) (int, bool) {
	i, ok := lookup.tones[t]
	return i, ok
}
