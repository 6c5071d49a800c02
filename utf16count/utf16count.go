// Package utf16count counts and cuts text in UTF-16 code units, as a browser's String.length counts
// it: the limits of docs/api.md, docs/content.md and docs/projection.md (titles, labels, chat text,
// display items) are stated in those units, so the page and the server agree on them. A rune outside
// the Basic Multilingual Plane (most emoji) is two units, everything else one. Bytes that are not valid
// UTF-8 count one unit each, as the U+FFFD they become on the wire.
package utf16count

import "unicode/utf16"

// Of returns the number of UTF-16 code units of s.
func Of(s string) int {
	n := 0
	for _, r := range s { // an invalid byte reads as U+FFFD: one unit
		n += utf16.RuneLen(r)
	}
	return n
}

// Cut returns the longest prefix of s that is at most max UTF-16 code units long. It cuts only between
// runes, so it never splits a surrogate pair (nor a UTF-8 sequence).
func Cut(s string, max int) string {
	if max <= 0 {
		return ""
	}
	if len(s) <= max {
		return s // every unit takes at least one byte
	}
	n := 0
	for i, r := range s {
		n += utf16.RuneLen(r)
		if n > max {
			return s[:i]
		}
	}
	return s
}

// ByteIndex returns the byte index in s of the place units UTF-16 code units from its start, and
// whether there is such a place: false when units is negative, past the end of s, or between the two
// units of a surrogate pair (inside one character). An offset of a chord in a line of words is such a
// place (docs/content.md).
func ByteIndex(s string, units int) (int, bool) {
	if units < 0 {
		return 0, false
	}
	n := 0
	for i, r := range s {
		if n == units {
			return i, true
		}
		n += utf16.RuneLen(r)
		if n > units {
			return 0, false
		}
	}
	if n != units {
		return 0, false
	}
	return len(s), true
}
