// Package chordname reads chord symbols as other programs write them (ChordPro files, iReal Pro
// charts: Am7, A-7, Amin7, AΔ7, A^7, Aø, Ah7, Ao7, A+, A7sus, A7(b9), C69, Cb…) and maps each onto
// Tele's catalogue. A spelling of a catalogue chord maps exactly; any other quality maps to the
// catalogue quality sounding nearest (most notes in common, fewest differing), and the caller is told,
// so an importer can list it: nothing is changed silently.
package chordname

import (
	"strings"

	"tele/board"
)

// Result is a mapped symbol. Exact is false when the chord was changed to fit the catalogue (another
// quality, or a root the catalogue spells differently).
type Result struct {
	Symbol string
	Exact  bool
}

// Map maps a foreign chord symbol onto the catalogue. ok is false when it is not a chord at all (no
// root A–G).
func Map(symbol string) (r Result, ok bool) {
	s := strings.TrimSpace(symbol)
	if ch, ok := board.ParseChord(s); ok {
		return Result{ch.String(), true}, true // the catalogue's chord, or one of its own aliases
	}
	s = strings.NewReplacer("♯", "#", "♭", "b", "Δ", "^", "△", "^", "°", "o", "ø", "h").Replace(s)
	switch strings.ToUpper(s) {
	case "N.C.", "NC", "N.C", "N":
		return Result{board.NoChord, true}, true
	}
	exact := true
	main, bass := s, ""
	if i := strings.LastIndexByte(s, '/'); i > 0 {
		main, bass = s[:i], s[i+1:]
	}
	root, rest, rootExact, ok := readRoot(main)
	if !ok {
		return Result{}, false
	}
	exact = exact && rootExact
	if bass != "" {
		b, tail, bassExact, ok := readRoot(bass)
		if !ok || tail != "" {
			bass = "" // not a bass note (like C/9): dropped, and said
			exact = false
		} else {
			bass = b
			exact = exact && bassExact
		}
	}
	q, qExact := quality(rest)
	exact = exact && qExact
	out := root + q
	if bass != "" {
		out += "/" + bass
	}
	if _, ok := board.ParseChord(out); !ok {
		return Result{}, false
	}
	return Result{out, exact}, true
}

// pitch names of the catalogue, preferring the spelling given when the catalogue has it.
var sharpNames = [12]string{"C", "C#", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"}

// readRoot reads a root at the start of s: a letter A–G and optionally # or b. Spellings the
// catalogue lacks (Cb, Fb, E#, B#) become the catalogue's name for the same pitch, not exact.
func readRoot(s string) (root, rest string, exact, ok bool) {
	if s == "" {
		return "", "", false, false
	}
	letter := strings.ToUpper(s[:1])
	base := map[string]int{"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}
	pc, found := base[letter]
	if !found {
		return "", "", false, false
	}
	name, rest := letter, s[1:]
	if rest != "" && (rest[0] == '#' || rest[0] == 'b') {
		if rest[0] == '#' {
			pc = (pc + 1) % 12
		} else {
			pc = (pc + 11) % 12
		}
		name += rest[:1]
		rest = rest[1:]
	}
	if _, ok := board.ParseChord(name); ok {
		return name, rest, s[:1] == letter, true
	}
	return sharpNames[pc], rest, false, true
}

// aliases are spellings of catalogue qualities that the catalogue's own aliases (board.ParseChord) do
// not cover: mostly iReal Pro's shorthand.
var aliases = map[string]string{
	"M": "", "maj": "", "major": "", "minor": "m",
	"^": "maj7", "^7": "maj7", "j7": "maj7", "^9": "maj9", "^13": "maj13",
	"h": "m7b5", "h7": "m7b5", "m7(b5)": "m7b5",
	"#5": "aug", "+5": "aug", "7+5": "7#5",
	"-^7": "m(maj7)", "m^7": "m(maj7)", "minmaj7": "m(maj7)", "-maj7": "m(maj7)",
	"7(b9)": "7b9", "7(#9)": "7#9", "7(b5)": "7b5", "7(#5)": "7#5", "7(#11)": "7#11", "7(b13)": "7b13",
	"2": "sus2", "(add9)": "add9",
}

// quality maps a quality suffix onto a catalogue suffix.
func quality(q string) (string, bool) {
	if a, ok := aliases[q]; ok {
		return a, true
	}
	if ch, ok := board.ParseChord("C" + q); ok && !strings.Contains(q, "/") {
		return ch.Quality, true
	}
	want := intervals(q)
	best, bestScore := "", -1000
	for _, cq := range board.Catalogue().Qualities {
		have := map[int]bool{}
		for _, iv := range cq.Intervals {
			have[iv%12] = true
		}
		common, differ := 0, 0
		for iv := range want {
			if have[iv] {
				common++
			} else {
				differ++
			}
		}
		for iv := range have {
			if !want[iv] {
				differ++
			}
		}
		// The third and the seventh say most about a chord: they count more, either way.
		score := 4*common - 3*differ
		for _, iv := range []int{3, 4, 10, 11} {
			switch {
			case want[iv] && have[iv]:
				score += 2
			case want[iv] != have[iv]:
				score -= 4
			}
		}
		if score > bestScore {
			best, bestScore = cq.Suffix, score
		}
	}
	return best, false
}

// intervals reads a quality the way chord symbols are built: a triad (m, dim, aug, sus), a seventh
// (7, maj7, 6), extensions and alterations (9, 11, 13, b9, #9, #11, b5, #5, b13, add9, alt).
func intervals(q string) map[int]bool {
	q = strings.NewReplacer("(", "", ")", "", ",", "", " ", "").Replace(q)
	set := map[int]bool{0: true, 4: true, 7: true}
	take := func(prefix string) bool {
		if strings.HasPrefix(q, prefix) {
			q = q[len(prefix):]
			return true
		}
		return false
	}
	switch {
	case take("mmaj") || take("-^") || take("mM") || take("minmaj"):
		set = map[int]bool{0: true, 3: true, 7: true, 11: true}
	case !strings.HasPrefix(q, "maj") && (take("min") || take("mi") || take("m") || take("-")):
		set = map[int]bool{0: true, 3: true, 7: true}
	case take("dim") || take("o"):
		set = map[int]bool{0: true, 3: true, 6: true}
		if take("7") {
			set[9] = true
		}
	case take("h") || take("ø"):
		set = map[int]bool{0: true, 3: true, 6: true, 10: true}
	case take("aug") || take("+"):
		set = map[int]bool{0: true, 4: true, 8: true}
	}
	switch {
	case take("maj") || take("^") || take("M") || take("j"):
		set[11] = true
		take("7")
		if take("9") {
			set[2] = true
		} else if take("13") {
			set[2], set[9] = true, true
		}
	case take("69"):
		set[9], set[2] = true, true
	case take("6"):
		set[9] = true
	case take("13"):
		set[10], set[2], set[9] = true, true, true
	case take("11"):
		set[10], set[2], set[5] = true, true, true
	case take("9"):
		set[10], set[2] = true, true
	case take("7"):
		set[10] = true
	case take("5"):
		set = map[int]bool{0: true, 7: true}
	}
	for q != "" {
		switch {
		case take("sus4") || take("sus"):
			delete(set, 3)
			delete(set, 4)
			set[5] = true
		case take("sus2"):
			delete(set, 3)
			delete(set, 4)
			set[2] = true
		case take("add9") || take("add2"):
			set[2] = true
		case take("add11") || take("add4"):
			set[5] = true
		case take("b5"):
			delete(set, 7)
			set[6] = true
		case take("#5") || take("+5"):
			delete(set, 7)
			set[8] = true
		case take("b9"):
			set[1] = true
		case take("#9"):
			set[3] = true
		case take("#11"):
			set[6] = true
		case take("b13"):
			set[8] = true
		case take("alt"):
			set[1], set[3] = true, true
		default:
			q = q[1:] // a character no chord symbol explains: skip it
		}
	}
	return set
}
