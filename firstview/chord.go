package firstview

import (
	"html"
	"strconv"
	"strings"

	"tele/chord"
)

// writeChord writes a chord as board-view.js's chordElement draws it: its root, quality and bass as
// three parts, each accidental an element whose glyph app.css draws over its ASCII letter, and a
// Nashville number's quality raised from its first degree on. beats is the chord's share of a bar with
// beat positions (app.css grows it by data-b), 0 in a bar without.
func writeChord(b *strings.Builder, symbol string, beats int) {
	root, quality, bass := chord.Written(symbol)
	number := chord.IsNumber(root)
	switch {
	case symbol == chord.NoChord:
		b.WriteString(`<span class="chord nc"`)
	case number:
		b.WriteString(`<span class="chord num"`)
	default:
		b.WriteString(`<span class="chord"`)
	}
	if beats != 0 {
		b.WriteString(` data-b="`)
		b.WriteString(strconv.Itoa(beats))
		b.WriteString(`"`)
	}
	b.WriteString(`>`)
	writePart(b, "root", root, accidentalsOfRoot(root))
	if quality != "" {
		if number {
			writeRaised(b, quality)
		} else {
			writePart(b, "q", quality, accidentalsOfQuality(quality))
		}
	}
	if bass != "" {
		writePart(b, "bass", bass, accidentalsOfBass(bass))
	}
	b.WriteString(`</span>`)
}

// writePart writes a part of class kind: its text, with an accidental element at each of the byte
// offsets acc.
func writePart(b *strings.Builder, kind, text string, acc []int) {
	b.WriteString(`<span class="`)
	b.WriteString(kind)
	b.WriteString(`">`)
	typeset(b, text, acc)
	b.WriteString(`</span>`)
}

// writeRaised writes a Nashville number's quality: what stays on the line (the triad's word) and, raised,
// the rest from its first degree on ("m7" → m and 7).
func writeRaised(b *strings.Builder, quality string) {
	line, up := raised(quality)
	b.WriteString(`<span class="q" data-num="true">`)
	typeset(b, line, accidentalsOfQuality(line))
	if up != "" {
		b.WriteString(`<span class="up">`)
		typeset(b, up, accidentalsOfQuality(up))
		b.WriteString(`</span>`)
	}
	b.WriteString(`</span>`)
}

// typeset writes text with an accidental element at each offset of acc.
func typeset(b *strings.Builder, text string, acc []int) {
	at := 0
	for _, i := range acc {
		b.WriteString(html.EscapeString(text[at:i]))
		b.WriteString(`<span class="acc" data-glyph="`)
		if text[i] == 'b' {
			b.WriteString("♭")
		} else {
			b.WriteString("♯")
		}
		b.WriteString(`">`)
		b.WriteByte(text[i])
		b.WriteString(`</span>`)
		at = i + 1
	}
	b.WriteString(html.EscapeString(text[at:]))
}

func isAccidental(c byte) bool { return c == 'b' || c == '#' }

// accidentalsOfRoot: a letter's accidental (Bb, F#), or a number's before it (b7).
func accidentalsOfRoot(root string) []int {
	if len(root) >= 2 && root[0] >= 'A' && root[0] <= 'G' && isAccidental(root[1]) {
		return []int{1}
	}
	if len(root) >= 2 && isAccidental(root[0]) && root[1] >= '1' && root[1] <= '7' {
		return []int{0}
	}
	return nil
}

// accidentalsOfQuality: a b or # where a degree follows (7b9, maj7#11), never a word's letter.
func accidentalsOfQuality(q string) []int {
	var out []int
	for i := 0; i+1 < len(q); i++ {
		if isAccidental(q[i]) && q[i+1] >= '0' && q[i+1] <= '9' {
			out = append(out, i)
		}
	}
	return out
}

// accidentalsOfBass: the bass's accidental after the slash and its letter (/Bb), or before its number (/b7).
func accidentalsOfBass(bass string) []int {
	switch {
	case len(bass) >= 3 && bass[1] >= 'A' && bass[1] <= 'G' && isAccidental(bass[2]):
		return []int{2}
	case len(bass) >= 2 && isAccidental(bass[1]):
		return []int{1}
	}
	return nil
}

// raised splits a number's quality where its first degree starts (a b or # before a digit, or a digit).
func raised(q string) (line, up string) {
	for i := 0; i < len(q); i++ {
		if q[i] >= '0' && q[i] <= '9' {
			return q[:i], q[i:]
		}
		if isAccidental(q[i]) && i+1 < len(q) && q[i+1] >= '0' && q[i+1] <= '9' {
			return q[:i], q[i:]
		}
	}
	return q, ""
}
