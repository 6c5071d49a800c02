package board

import (
	"strings"
	"unicode/utf8"
)

// suggestChord proposes a chord in the catalogue's spelling for a symbol the catalogue refuses: the
// root with its case, a German H, or an enharmonic spelling the catalogue leaves out fixed ("cb7" →
// "B7"), and the nearest quality suffix or alias by edit distance ("Cø7" → "Cm7b5", "Cmaj" → "Cmaj7").
// It returns false when nothing is near enough to be a useful guess. The page's chords.js makes the same
// suggestions (both are tested against testdata/chord-spellings.json).
func suggestChord(symbol string) (string, bool) {
	if _, ok := ParseChord(symbol); ok {
		return "", false
	}
	s := strings.ReplaceAll(withPlainAccidentals(symbol), " ", "")
	if isNoChordTypo(s) {
		return NoChord, true
	}
	main, bass := s, ""
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		if b, ok := fixRoot(s[i+1:]); ok {
			main, bass = s[:i], b
		}
	}
	root, rest, ok := "", "", false
	if len(main) >= 2 && (main[1] == '#' || main[1] == 'b') {
		if r, fixed := fixRoot(main[:2]); fixed {
			root, rest, ok = r, main[2:], true
		}
	}
	if !ok && len(main) >= 1 {
		if r, fixed := fixRoot(main[:1]); fixed {
			root, rest, ok = r, main[1:], true
		}
	}
	if !ok {
		return "", false
	}
	quality, ok := nearestQuality(rest)
	if !ok {
		return "", false
	}
	out := root + quality
	if bass != "" {
		out += "/" + bass
	}
	if _, ok := ParseChord(out); !ok || out == symbol {
		return "", false
	}
	return out, true
}

// isNoChordTypo: "NC", "n.c.", "N.C" and the like mean N.C.
func isNoChordTypo(s string) bool {
	switch strings.ToUpper(s) {
	case "NC", "N.C", "NC.", "N.C.":
		return true
	}
	return false
}

// fixRoot returns the catalogue root a typed root means: itself, with its letter in upper case, H as
// B (German), or the catalogue's enharmonic spelling of Cb, Fb, E# and B#.
func fixRoot(typed string) (string, bool) {
	if typed == "" || len(typed) > 2 {
		return "", false
	}
	letter := typed[0]
	if 'a' <= letter && letter <= 'h' {
		letter -= 'a' - 'A'
	}
	if letter == 'H' {
		letter = 'B'
	}
	name := string(letter) + typed[1:]
	switch name {
	case "Cb":
		return "B", true
	case "Fb":
		return "E", true
	case "E#":
		return "F", true
	case "B#":
		return "C", true
	}
	if _, ok := rootPitch(name); ok {
		return name, true
	}
	return "", false
}

// nearestQuality returns the catalogue suffix whose spelling (the suffix itself or an alias) is nearest
// to typed: the fewest edits; then the longest common beginning ("ø7" is nearer "ø" than "7"); then a
// suffix before an alias; then the earlier quality of the catalogue. Only guesses with at most two
// edits, and fewer edits than typed has characters, count (so "Cx" gets no guess).
func nearestQuality(typed string) (string, bool) {
	n := utf8.RuneCountInString(typed)
	best, found := "", false
	var bestRank [4]int
	consider := func(spelling, suffix string, alias int) {
		d := editDistance(typed, spelling)
		if d > 2 || d > 0 && d >= n {
			return
		}
		rank := [4]int{d, -commonPrefix(typed, spelling), alias, qualityIndex(suffix)}
		if !found || less(rank, bestRank) {
			best, bestRank, found = suffix, rank, true
		}
	}
	for _, q := range qualities {
		consider(q.Suffix, q.Suffix, 0)
	}
	for _, a := range qualityAliases {
		consider(a.Alias, a.Suffix, 1)
	}
	return best, found
}

func less(a, b [4]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// commonPrefix counts the characters a and b begin with alike.
func commonPrefix(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	n := 0
	for n < len(ra) && n < len(rb) && ra[n] == rb[n] {
		n++
	}
	return n
}

// editDistance is the Levenshtein distance between a and b in characters.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
