package chord

import "regexp"

// writtenRE reads a symbol as it is written, without the catalogue: a root (a letter with its
// accidental, or a Nashville number), the quality as typed, and a slash bass. It is the pattern the
// page's chords.js split uses, so the server draws a chart's symbols as the page does.
var writtenRE = regexp.MustCompile(`^([A-G][#b]?|[b#]?[1-7])(.*?)(/(?:[A-G][#b]?|[b#]?[1-7]))?$`)

// Written splits a symbol into the parts a chart typesets apart, as typed: its root, its quality and its
// bass with the slash ("/E"). NoChord, and anything that is not a chord symbol, is all root.
func Written(symbol string) (root, quality, bass string) {
	if symbol == NoChord {
		return symbol, "", ""
	}
	m := writtenRE.FindStringSubmatch(symbol)
	if m == nil {
		return symbol, "", ""
	}
	return m[1], m[2], m[3]
}

// IsNumber reports whether a root is a Nashville number (1–7, with a flat or sharp before it).
func IsNumber(root string) bool {
	switch len(root) {
	case 1:
		return root[0] >= '1' && root[0] <= '7'
	case 2:
		return (root[0] == 'b' || root[0] == '#') && root[1] >= '1' && root[1] <= '7'
	}
	return false
}
