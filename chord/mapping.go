package chord

import "strings"

// Mapped is a foreign chord symbol in the catalogue's spelling. Exact is false when the chord was
// changed to fit the catalogue: another quality (the nearest sounding one), a root respelled (a German
// H, a lower-case letter), or a bass that was no note dropped. An importer notes every inexact mapping.
type Mapped struct {
	Symbol string
	Exact  bool
}

// Map reads a chord symbol as other programs write it (ChordPro files, iReal Pro charts: Am7, A-7,
// AΔ7, A^7, Aø, Ah7, Ao7, A+, A7sus, A7(b9), C69, Cb…) into the catalogue. A spelling Parse accepts
// maps exactly, and so does any quality read as chord symbols are built to exactly a catalogue
// quality's intervals ("C7(b9,#11)" → "C7b9#11"); any other quality maps to the catalogue quality
// sounding nearest, not exact. ok is false when it is not a chord at all: no root, or a lower-case root
// with a quality nothing explains (a strum word such as "dn").
func Map(symbol string) (m Mapped, ok bool) {
	s := strings.TrimSpace(symbol)
	if ch, ok := Parse(s); ok {
		return Mapped{ch.String(), true}, true
	}
	if isNoChord(strings.ReplaceAll(s, " ", "")) {
		return Mapped{NoChord, true}, true
	}
	s = plain(s)
	exact := true
	main, bass := s, ""
	if i := strings.LastIndexByte(s, '/'); i > 0 {
		if b, respelled, ok := fixRoot(s[i+1:]); ok {
			main, bass, exact = s[:i], b, !respelled
		} else if !strings.HasSuffix(s[:i], "6") {
			main, exact = s[:i], false // not a bass note and no 6/9 (like C/9): dropped, and said
		}
	}
	root, rest, ok := splitRoot(main)
	if !ok {
		return Mapped{}, false
	}
	if typedRoot := main[:len(root)]; typedRoot != root {
		exact = false
	}
	quality := ""
	if i, _, known := rowOf(rest); known {
		quality = table[i].suffix
	} else {
		// The editor's suggestion when there is one (a quality read completely that the catalogue
		// holds is exact), else the nearest sounding quality.
		r := read(rest)
		if !r.all && main[0] != root[0] {
			return Mapped{}, false
		}
		if q, ok := suggestQuality(rest); ok {
			quality, exact = q, exact && r.all
		} else {
			quality, exact = table[nearest(r.tones)].suffix, false
		}
	}
	out := root + quality
	if bass != "" {
		out += "/" + bass
	}
	if _, ok := Parse(out); !ok {
		return Mapped{}, false
	}
	return Mapped{out, exact}, true
}
