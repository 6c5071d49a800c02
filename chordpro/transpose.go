package chordpro

import (
	"strconv"
	"strings"

	"tele/board"
	"tele/chord"
)

// setTranspose reads {transpose: N}: it moves the chords after it N semitones; {transpose} alone ends
// that.
func (r *reader) setTranspose(value string) {
	v, err := strconv.Atoi(strings.TrimSpace(value))
	if err != nil && strings.TrimSpace(value) != "" || v < -12 || v > 12 {
		r.note("transpose_unknown", map[string]any{"transpose": value}, "{transpose: %s} is not a number of semitones from -12 to 12: the chords after it were read as written", value)
		v = 0
	}
	r.transpose = v
	if v != 0 {
		r.note("transposed", map[string]any{"semitones": v}, "the chords after {transpose: %d} were moved %d semitones, as the file asks", v, v)
	}
}

// oneShift is the semitones every chord (of the grids and the lines) was moved, if they were all moved
// the same.
func (r *reader) oneShift() (int, bool) {
	if len(r.shifts) != 1 {
		return 0, false
	}
	for shift := range r.shifts {
		return shift, shift != 0
	}
	return 0, false
}

// moveKey moves the board's key with its chords when every chord was moved the same.
func (r *reader) moveKey(c *board.Content) {
	shift, ok := r.oneShift()
	if !ok || c.Key == "" {
		return
	}
	k := transposed(c.Key, shift)
	if !chord.IsKey(k) {
		k = transposed(c.Key, shift-12) // the same pitch spelled with flats: A# is no key, Bb is
	}
	c.Key = k
}

var sharpNames = [12]string{"C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"}
var flatNames = [12]string{"C", "Db", "D", "Eb", "E", "F", "Gb", "G", "Ab", "A", "Bb", "B"}

// transposed is sym moved n semitones: its root and its bass, spelled with flats when the root was
// written with one or the move is down, else with sharps. A symbol without a root comes back as it was.
func transposed(sym string, n int) string {
	if n == 0 {
		return sym
	}
	name, rest := rootOf(sym)
	if name == "" {
		return sym
	}
	quality, bass, slash := strings.Cut(rest, "/")
	out := moveRoot(name, n) + quality
	if slash {
		if b, tail := rootOf(bass); b != "" && tail == "" {
			bass = moveRoot(b, n)
		}
		out += "/" + bass
	}
	return out
}

// rootOf splits a symbol into its root (A–G with an optional b or #) and the rest; no root: "" and s.
func rootOf(s string) (string, string) {
	if s == "" || s[0] < 'A' || s[0] > 'G' {
		return "", s
	}
	if len(s) > 1 && (s[1] == 'b' || s[1] == '#') {
		return s[:2], s[2:]
	}
	return s[:1], s[1:]
}

// moveRoot is a root moved n semitones.
func moveRoot(name string, n int) string {
	p, ok := chord.RootPitch(name)
	if !ok {
		return name
	}
	p = ((p+n)%12 + 12) % 12
	if strings.HasSuffix(name, "b") || n < 0 && !strings.HasSuffix(name, "#") {
		return flatNames[p]
	}
	return sharpNames[p]
}
