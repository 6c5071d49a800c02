package projection

import "unicode/utf16"

// The limits of docs/api.md and docs/projection.md are counted in UTF-16 code units, as the browser counts String.length: a
// rune outside the Basic Multilingual Plane (most emoji) is two units, everything else one. Byte
// sequences that are not valid UTF-8 count as one unit each, as the U+FFFD they become on the wire.

// utf16Len returns the number of UTF-16 code units of s.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s { // an invalid byte reads as U+FFFD: one unit
		n += utf16.RuneLen(r)
	}
	return n
}

// cutUTF16 returns the longest prefix of s that is at most max UTF-16 code units long. It cuts only
// between runes, so it never splits a surrogate pair (nor a UTF-8 sequence).
func cutUTF16(s string, max int) string {
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
