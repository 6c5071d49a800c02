package main

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// forTerminal is the one way the CLI makes text from a board (a title, a note about a chart, an error
// that quotes one, an exported file) safe to print: every rune a terminal would act on instead of
// showing is written by escape, except the ones keep names. Those are the C0 and C1 controls and DEL
// (ESC and CSI start the sequences that move the cursor, erase lines, set the window title or make OSC 8
// hyperlinks that send a printed edit link elsewhere; BEL ends an OSC) and the bidirectional controls,
// which reorder the text after them. Bytes that are not UTF-8 become U+FFFD: a lone 0x9B is CSI to an
// 8-bit terminal. Everything else, other scripts included, is printed as it is.
func forTerminal(s string, keep func(rune) bool, escape func(rune) string) string {
	clean := true
	for i, r := range s {
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") || actsOnTerminal(r) && !keep(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			b.WriteRune(utf8.RuneError)
		case actsOnTerminal(r) && !keep(r):
			b.WriteString(escape(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// actsOnTerminal reports whether a terminal acts on r rather than showing it.
func actsOnTerminal(r rune) bool {
	switch {
	case unicode.IsControl(r): // C0, DEL, C1
		return true
	case r == '\u061C', r == '\u200E', r == '\u200F', '\u202A' <= r && r <= '\u202E', '\u2066' <= r && r <= '\u2069':
		return true // bidirectional marks, embeddings, overrides and isolates
	}
	return false
}

// printable keeps board text (a title, a note) to one safe line: a line break becomes a space, every
// other control is shown as \u{hex}.
func printable(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(strings.TrimSpace(s))
	return forTerminal(s, keepNothing, chordproEscape)
}

// errorLine is printable for an error, which a lower layer may have written on several lines: they are
// joined with "; ".
func errorLine(s string) string {
	return printable(strings.NewReplacer("\r\n", "; ", "\n", "; ", "\r", "; ").Replace(strings.TrimSpace(s)))
}

// chordproEscape writes r as ChordPro's \u{hex} escape, which `tele board import` reads back as r.
func chordproEscape(r rune) string { return fmt.Sprintf(`\u{%x}`, r) }

// jsonEscape writes r as a JSON string escape; in JSON text such runes only occur inside strings.
func jsonEscape(r rune) string { return fmt.Sprintf(`\u%04x`, r) }

func keepNothing(rune) bool { return false }

// keepLines keeps the line breaks and tabs of a multi-line file.
func keepLines(r rune) bool { return r == '\n' || r == '\t' }
