package chord

import "strings"

// NoChord is the symbol of a bar (or part of one) where nothing sounds.
const NoChord = "N.C."

// Chord is a parsed chord symbol, in the catalogue's spelling. For NoChord only NoChord is set.
type Chord struct {
	Root    string // "F#"
	Quality string // the suffix: "m7b5"; "" is major
	Bass    string // "" or a root: the bass of a slash chord
	NoChord bool
}

// String writes the chord back as a symbol.
func (c Chord) String() string {
	if c.NoChord {
		return NoChord
	}
	if c.Bass != "" {
		return c.Root + c.Quality + "/" + c.Bass
	}
	return c.Root + c.Quality
}

// Intervals returns the chord's intervals in semitones above its root (nil for NoChord). The result is
// the caller's.
func (c Chord) Intervals() []int {
	if c.NoChord {
		return nil
	}
	i, _, ok := rowOf(c.Quality)
	if !ok {
		return nil
	}
	return append([]int(nil), table[i].intervals...)
}

// Parse parses a chord symbol: a spelling of NoChord, or a root, a quality, and optionally "/" with a
// root for the bass. The root is a letter A–G, optionally # or b; the quality a catalogue suffix or
// one of its aliases, with or without parentheses; accidental characters (♭ ♯) may stand for b and #.
// The Chord is in the catalogue's spelling: Parse("B♭∆7/D").String() is "Bbmaj7/D". Nothing else is
// accepted: no spaces, no lower-case or German roots (Suggest fixes those), and qualities are
// case-sensitive ("M7" is maj7, "m7" minor seventh).
func Parse(symbol string) (Chord, bool) {
	if isNoChord(symbol) {
		return Chord{NoChord: true}, true
	}
	root, quality, bass, ok := split(plain(symbol))
	if !ok {
		return Chord{}, false
	}
	i, _, _ := rowOf(quality)
	return Chord{Root: root, Quality: table[i].suffix, Bass: bass}, true
}

// Canonical reports whether symbol is a chord (ok) and whether it is already written in the
// catalogue's spelling (canonical). It allocates nothing for a symbol in the catalogue's spelling:
// content validation calls it for every symbol of a board.
func Canonical(symbol string) (canonical, ok bool) {
	if symbol == NoChord {
		return true, true
	}
	if _, quality, _, ok := split(symbol); ok {
		_, exact, _ := rowOf(quality)
		return exact, true
	}
	if isNoChord(symbol) {
		return false, true
	}
	if p := plain(symbol); p != symbol {
		_, _, _, ok := split(p)
		return false, ok
	}
	return false, false
}

// isNoChord: s is one of the spellings of NoChord, in any letter case.
func isNoChord(s string) bool {
	if len(s) > len(NoChord) {
		return false
	}
	for _, nc := range noChords {
		if strings.EqualFold(s, nc) {
			return true
		}
	}
	return false
}

// plain replaces the accidental characters (♭ ♯) of s by b and #.
func plain(s string) string {
	for _, a := range accidentals {
		if strings.Contains(s, a.Alias) {
			s = strings.ReplaceAll(s, a.Alias, a.Suffix)
		}
	}
	return s
}

// split is the tokenizer: it splits a symbol other than NoChord, written with plain accidentals, into
// root, typed quality (a suffix or an alias) and bass root. The bass follows the last "/" when what
// follows is a root ("C6/9" is C six-nine, "C6/9/E" has the bass E). The longest root comes first: "C#m"
// is C# minor, "Cb" C-flat major (no quality starts with b or #, so no symbol reads two ways).
func split(symbol string) (root, quality, bass string, ok bool) {
	main := symbol
	if i := strings.LastIndexByte(symbol, '/'); i >= 0 {
		if _, ok := RootPitch(symbol[i+1:]); ok {
			main, bass = symbol[:i], symbol[i+1:]
		}
	}
	for n := 2; n >= 1; n-- {
		if len(main) < n {
			continue
		}
		if _, ok := RootPitch(main[:n]); !ok {
			continue
		}
		if _, _, ok := rowOf(main[n:]); ok {
			return main[:n], main[n:], bass, true
		}
	}
	return "", "", "", false
}

// RootPitch returns the pitch class (C = 0 … B = 11) of a root: a letter A–G, optionally # or b.
func RootPitch(name string) (int, bool) {
	if len(name) == 0 || len(name) > 2 || name[0] < 'A' || name[0] > 'G' {
		return 0, false
	}
	pc := pitchOfLetter[name[0]-'A']
	if len(name) == 1 {
		return pc, true
	}
	switch name[1] {
	case '#':
		return (pc + 1) % 12, true
	case 'b':
		return (pc + 11) % 12, true
	}
	return 0, false
}

// IsKey reports whether k is a board key: a key root (every root but Cb, Fb, E# and B#), optionally
// followed by "m".
func IsKey(k string) bool {
	k = strings.TrimSuffix(k, "m")
	for _, r := range rootNames[:keyRoots] {
		if r == k {
			return true
		}
	}
	return false
}

// fixRoot is the root normaliser: the root a typed root means, with its letter in upper case and a
// German H as B ("h" → "B", "cb" → "Cb", "f♯" → "F#"), or false. respelled is true when it changed.
func fixRoot(typed string) (root string, respelled, ok bool) {
	typed = plain(typed)
	if typed == "" || len(typed) > 2 {
		return "", false, false
	}
	letter := typed[0]
	if 'a' <= letter && letter <= 'h' {
		letter -= 'a' - 'A'
	}
	if letter == 'H' {
		letter = 'B'
	}
	name := string(letter) + typed[1:]
	if _, ok := RootPitch(name); !ok {
		return "", false, false
	}
	return name, name != typed, true
}
