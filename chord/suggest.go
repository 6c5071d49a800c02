package chord

import (
	"strings"
	"unicode/utf8"
)

// Suggest proposes a chord in the catalogue's spelling for a symbol Parse refuses, or false when it
// cannot be sure. In this order: a spelling of NoChord with spaces; the root fixed by the root
// normaliser ("h7" → "B7", "am7" → "Am7", "C maj7" → "Cmaj7"); and, for a quality with a typo, the
// nearest suffix or alias by edit distance, only when every spelling that near is of the family the
// typed quality reads as ("Cdim7b" → "Cdim7"; "Cm7b", which could be Cm7 or Cm7b5, gets none). A quality
// read completely that the catalogue does not hold ("C7sus2") gets none: every guess would change a
// chord tone. The page's chords.js makes the same suggestions (both are tested against
// chord/testdata/chord-spellings.json).
func Suggest(symbol string) (string, bool) {
	if _, ok := Parse(symbol); ok {
		return "", false
	}
	s := strings.ReplaceAll(plain(symbol), " ", "")
	if isNoChord(s) {
		return NoChord, true
	}
	main, bass := s, ""
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		if b, _, ok := fixRoot(s[i+1:]); ok {
			main, bass = s[:i], b
		}
	}
	root, rest, ok := splitRoot(main)
	if !ok {
		return "", false
	}
	quality, ok := suggestQuality(rest)
	if !ok {
		return "", false
	}
	out := root + quality
	if bass != "" {
		out += "/" + bass
	}
	if _, ok := Parse(out); !ok || out == symbol {
		return "", false
	}
	return out, true
}

// splitRoot splits a typed root, fixed by the root normaliser, from the rest: the longest root whose
// rest is a quality, else the longest root.
func splitRoot(s string) (root, rest string, ok bool) {
	for n := 2; n >= 1; n-- {
		if len(s) >= n {
			if r, _, ok := fixRoot(s[:n]); ok {
				if _, _, known := rowOf(s[n:]); known {
					return r, s[n:], true
				}
			}
		}
	}
	for n := 2; n >= 1; n-- {
		if len(s) >= n {
			if r, _, ok := fixRoot(s[:n]); ok {
				return r, s[n:], true
			}
		}
	}
	return "", "", false
}

// suggestQuality returns the catalogue suffix a typed quality most likely means, or false.
func suggestQuality(typed string) (string, bool) {
	if i, _, ok := rowOf(typed); ok {
		return table[i].suffix, true
	}
	r := read(typed)
	if r.all {
		if i, ok := rowWithTones(r.tones); ok {
			return table[i].suffix, true
		}
		return "", false
	}
	if !r.any {
		return "", false
	}
	return nearestSpelling(typed, familyOf(r.tones))
}

// nearestSpelling returns the suffix whose spelling (the suffix itself or an alias) is nearest to typed:
// the fewest edits, at most two and fewer than typed has characters (so "Cx" gets no guess); then the
// longest common beginning ("ø7" is nearer "ø" than "7"); then a suffix before an alias; then the
// earlier quality of the catalogue. It gives none unless every spelling that near is of one family,
// the family typed: "Cm7b" could be Cm7 or Cm7b5, so it gets no guess.
func nearestSpelling(typed string, family Family) (string, bool) {
	n := utf8.RuneCountInString(typed)
	best, found, unanimous := 0, false, true
	var bestRank [4]int
	consider := func(spelling string, i, alias int) {
		if diff := n - utf8.RuneCountInString(spelling); diff > 2 || diff < -2 {
			return // more than two edits apart by length alone: no need to count them
		}
		d := editDistance(typed, spelling)
		if d > 2 || d > 0 && d >= n {
			return
		}
		rank := [4]int{d, -commonPrefix(typed, spelling), alias, i}
		switch {
		case !found || d < bestRank[0]:
			unanimous = true
		case d == bestRank[0] && familyOf(tonesOf(table[i].intervals)) != familyOf(tonesOf(table[best].intervals)):
			unanimous = false
		}
		if !found || less(rank, bestRank) {
			best, bestRank, found = i, rank, true
		}
	}
	for i, r := range table {
		consider(r.suffix, i, 0)
	}
	for _, a := range lookup.aliases {
		consider(a.Alias, lookup.row[a.Suffix], 1)
	}
	if !found || !unanimous || familyOf(tonesOf(table[best].intervals)) != family {
		return "", false
	}
	return table[best].suffix, true
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
	// Rows on the stack for the catalogue's short spellings: a reader maps every chord a file writes,
	// and a quality the catalogue lacks is compared with every spelling.
	var rows [2][40]int
	prev, cur := rows[0][:0], rows[1][:0]
	if len(rb)+1 > len(rows[0]) {
		prev, cur = make([]int, 0, len(rb)+1), make([]int, 0, len(rb)+1)
	}
	prev, cur = prev[:len(rb)+1], cur[:len(rb)+1]
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
