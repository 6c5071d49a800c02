package ireal

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"tele/board"
	"tele/chord"
)

// Write returns the board as an irealb:// link of one song, which Parse reads back to the same content
// when the board holds only what an iReal Pro chart can (Lost says what it cannot):
//
//	irealb://Title=Composer==Style=Key==1r34LbKcu7<music, scrambled>=CompStyle=Tempo=0
//
// The music: *A (a section; *i for Intro, *V for Verse), [ … ] or { … } around a section's bars, T44 the
// meter (the board's first, then before every bar whose meter differs), N1 an ending, S segno, Q coda
// (before a bar's chords) or To Coda (after them), <D.S. al Coda> and the other jumps and Fine as staff
// text, <3x> before an end repeat played three times, x a % bar, n N.C., chords in iReal Pro's spelling
// (C^7, D-7, Bh7, Eo7, G7sus, F-^7), | between bars and Z at the end (writemusic.go). iReal Pro wants a composer and a style: "Tele"
// and "Medium Swing" (writeCredits).
//
// Write is for content that validates (board.Content.Validate). On any other it still never panics, but
// what it cannot say is left out (a mark Tele does not know, a duration outside the bar), and the link
// may not read back as the board.
func Write(c board.Content) []byte {
	key := "C"
	if c.Key != "" {
		key = strings.Replace(c.Key, "m", "-", 1)
	}
	composer, style, comp := writeCredits(c)
	song := strings.Join([]string{title(c.Title), title(composer), "", title(style), key, "",
		musicPrefix + swapBlocks(writeMusic(c)), comp, strconv.Itoa(c.Tempo), "0"}, "=")
	return []byte("irealb://" + escape(song))
}

// writeCredits is the composer and the style Write writes, and the accompaniment: iReal Pro's own for
// the style, but for the style Tele writes by default.
func writeCredits(c board.Content) (composer, style, comp string) {
	composer, style = c.Composer, c.Style
	if composer == "" {
		composer = placeholderComposer
	}
	if style == "" {
		style = placeholderStyle
	}
	if style == placeholderStyle {
		comp = "Jazz-Medium Swing"
	}
	return composer, style, comp
}

// What Tele writes for a board without a composer or a style: iReal Pro wants both.
const (
	placeholderComposer = "Tele"
	placeholderStyle    = "Medium Swing"
)

// Lost lists what a board holds that an iReal Pro link cannot, in a musician's words: Write leaves it
// out or changes it, and reading the link back does not give the same board.
func Lost(c board.Content) []string {
	var out []string
	if c.Description != "" {
		out = append(out, "the description")
	}
	if c.Key == "" {
		out = append(out, "a board without a key (iReal Pro needs one: C is written)")
	}
	if title(c.Title) != c.Title || strings.TrimSpace(c.Title) != c.Title {
		out = append(out, "an = or blank space around the title")
	}
	out = append(out, lostCredits(c)...)
	if meter(c.BeatsPerBar) == "" {
		out = append(out, strconv.Itoa(c.BeatsPerBar)+" beats per bar (iReal Pro has 2–7, 9 and 12)")
	}
	roles := false
	words := false
	for _, s := range c.Sections {
		words = words || s.Lines != nil || s.Recall != ""
	}
	if words {
		out = append(out, "lines of words, sections without bars and recalls of the chorus (an iReal Pro chart is bars)")
	}
	for si, s := range c.Sections {
		if len(s.Bars) == 0 {
			continue
		}
		mark := sectionMark(s.Label)
		label, role := markSection(mark)
		if si == 0 && s.Label == "" {
			role = "" // written without a mark
		}
		roles = roles || s.Role != role
		if (si > 0 || s.Label != "") && label != s.Label && !labelText(s.Label) {
			out = append(out, "the section label "+strconv.Quote(s.Label)+" (iReal Pro marks sections with one letter, Intro or Verse)")
		}
		for _, bar := range s.Bars {
			if bar.Beats != 0 && meter(bar.Beats) == "" {
				out = append(out, strconv.Itoa(bar.Beats)+" beats in a bar")
			}
		}
	}
	if roles {
		out = append(out, "section roles (iReal Pro marks an intro and a verse, no other kind of section)")
	}
	return out
}

// meter is the time signature of a number of beats, "" where iReal Pro has none.
func meter(beats int) string {
	switch {
	case beats >= 2 && beats <= 7:
		return "T" + strconv.Itoa(beats) + "4"
	case beats == 9:
		return "T98"
	case beats == 12:
		return "T12"
	}
	return ""
}

// sectionMark is the letter after * for a label; label is what Parse reads from it.
func sectionMark(l string) string {
	switch l {
	case "Intro":
		return "i"
	case "Verse":
		return "V"
	}
	if r := []rune(l); len(r) == 1 && r[0] < 128 && r[0] > ' ' {
		return l
	}
	for _, r := range l {
		if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' {
			return strings.ToUpper(string(r))
		}
	}
	return "A"
}

// labelText reports whether a section's label is written in full as staff text on its first bar,
// beside the one letter iReal Pro marks the section with ("Pre-Chorus": *P and <Pre-Chorus>), so that
// iReal Pro shows it and Parse reads it back. Not for a label the mark says whole (A, Intro, Verse), nor
// one that would read as something else: a jump, Fine or a repeat count, with the characters that end
// staff text or a song's field, or one that reads like the form notes real charts write there (AABA,
// "AB (end on A)", "*69 2"): a label has a word in small letters or in a script without capitals
// (Pre-Chorus, 副歌), and its first word is not capitals alone.
func labelText(l string) bool {
	if l == "" || strings.ContainsAny(l, "<>=*") || l != strings.TrimSpace(l) || !wordy(l) {
		return false
	}
	if label, _ := markSection(sectionMark(l)); label == l {
		return false
	}
	if _, _, sign := textSign(strings.ToLower(l)); sign || timesRE.MatchString(l) {
		return false
	}
	return true
}

// wordy reports whether l has a letter in small letters or in a script without capitals, and a first
// word that is not capital letters and digits alone.
func wordy(l string) bool {
	first, _, _ := strings.Cut(l, " ")
	if strings.IndexFunc(first, func(r rune) bool { return !unicode.IsUpper(r) && !unicode.IsDigit(r) }) < 0 {
		return false
	}
	return strings.IndexFunc(l, func(r rune) bool { return unicode.IsLower(r) || unicode.IsLetter(r) && !unicode.IsUpper(r) }) >= 0
}

// markSection is the label and the role of a section iReal Pro marks with mark: *i is an intro, *V a
// verse, a letter only a label.
func markSection(mark string) (string, board.Role) {
	switch mark {
	case "i":
		return "Intro", "intro"
	case "V":
		return "Verse", "verse"
	}
	return mark, ""
}

// closesEnding reports whether the end repeat of bars[i] closes an ending (its count is implied by the
// next ending's number).
func closesEnding(bars []board.Bar, i int) bool {
	for j := i; j >= 0; j-- {
		if bars[j].Ending != 0 {
			return true
		}
		if bars[j].RepeatStart {
			return false
		}
	}
	return false
}

// nextBar is the bar written after bar bi of section si, nil after the last.
func nextBar(c board.Content, si, bi int) *board.Bar {
	for ; si < len(c.Sections); si, bi = si+1, -1 {
		if bi+1 < len(c.Sections[si].Bars) {
			return &c.Sections[si].Bars[bi+1]
		}
	}
	return nil
}

// jumpText is the staff text of bar's sign: a plain D.C. or D.S. right before an ending the band reaches
// by it (no end repeat between them) is written as iReal Pro charts write it, "D.C. al 3rd ending".
func jumpText(bar board.Bar, next *board.Bar) string {
	if (bar.Mark == board.MarkDC || bar.Mark == board.MarkDS) && next != nil && next.Ending >= 2 && bar.RepeatEnd == 0 {
		return markText[bar.Mark] + " al " + ordinal(next.Ending) + " ending"
	}
	return markText[bar.Mark]
}

func ordinal(n int) string {
	return strconv.Itoa(n) + map[int]string{1: "st", 2: "nd", 3: "rd"}[n] + map[bool]string{true: "th"}[n > 3]
}

var markText = map[board.Mark]string{
	board.MarkFine: "Fine", board.MarkDC: "D.C.", board.MarkDS: "D.S.",
	board.MarkDCAlFine: "D.C. al Fine", board.MarkDCAlCoda: "D.C. al Coda",
	board.MarkDSAlFine: "D.S. al Fine", board.MarkDSAlCoda: "D.S. al Coda",
}

// spellings are iReal Pro's spellings of the catalogue's qualities where they differ (a test checks that
// every quality is written in iReal Pro's letters and reads back to itself).
var spellings = map[string]string{
	"m": "-", "maj7": "^7", "m7": "-7", "m6": "-6", "m9": "-9", "maj9": "^9", "sus2": "2", "sus4": "sus",
	"7sus4": "7sus", "dim": "o", "dim7": "o7", "m7b5": "h7", "aug": "+", "m(maj7)": "-^7", "m11": "-11",
	"6/9": "69", "9sus4": "9sus", "13sus4": "13sus", "maj13": "^13", "m13": "-13",
	"maj7#11": "^7#11", "maj9#11": "^9#11", "maj7#5": "^7#5", "m(add9)": "-add9", "m(maj9)": "-^9",
	"m6/9": "-69", "mb6": "-b6", "m#5": "-#5", "m9b5": "h9", "dim(maj7)": "o^7", "6/9#11": "69#11",
	"7sus4b9": "7b9sus", "7sus4b13": "7b13sus", "7sus4add3": "7susadd3",
}

// chordSpelling writes a catalogue chord the way iReal Pro does.
func chordSpelling(sym string) string {
	if sym == board.NoChord {
		return "n"
	}
	ch, ok := chord.Parse(sym)
	if !ok {
		return sym
	}
	q := ch.Quality
	if s, ok := spellings[q]; ok {
		q = s
	}
	out := ch.Root + q
	if ch.Bass != "" {
		out += "/" + ch.Bass
	}
	return out
}

// title keeps = out of the title, which separates a song's fields.
func title(t string) string {
	return strings.ReplaceAll(t, "=", "-")
}

// escape percent-encodes the song as iReal Pro's links are: everything but letters, digits and -_.~.
func escape(s string) string {
	return strings.ReplaceAll(url.PathEscape(s), "+", "%2B")
}

// lostCredits is what Lost says of the artist, composer and style.
func lostCredits(c board.Content) []string {
	var out []string
	if title(c.Composer) != c.Composer || title(c.Style) != c.Style || strings.TrimSpace(c.Composer) != c.Composer || strings.TrimSpace(c.Style) != c.Style {
		out = append(out, "an = or blank space around the composer or style")
	}
	switch {
	case c.Composer == placeholderComposer:
		out = append(out, "the composer Tele (what Tele writes for no composer: read back as none)")
	case c.Composer != "" && c.Style == "":
		out = append(out, "a board with a composer and no style (iReal Pro needs one: Medium Swing is written)")
	case c.Composer == "" && c.Style == placeholderStyle:
		out = append(out, "the style Medium Swing with no composer (what Tele writes for neither: read back as no style)")
	}
	if c.Artist != "" {
		out = append(out, "the artist")
	}
	return out
}
