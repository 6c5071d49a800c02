package chat

import "unicode/utf8"

// The limits of SPEC 6 and 7 are counted in UTF-16 code units, as the browser counts String.length: a
// rune outside the Basic Multilingual Plane (most emoji) is two units, everything else one. Byte
// sequences that are not valid UTF-8 count as one unit each, as the U+FFFD they become on the wire.

// utf16Len returns the number of UTF-16 code units of s.
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
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
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			if n+1 > max {
				return s[:i]
			}
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if n+w > max {
			return s[:i]
		}
		n += w
		i += size
	}
	return s
}
