package board

import (
	"bytes"
	"strings"

	"tele/chord"
)

// Chart is one chart read from a file of another format: most files hold one, an iReal Pro playlist one
// per song. Err says why a chart could not become a board (the others still can); Notes say, in a
// musician's words (English), what was not taken over as written, and Codes says each of them again as a
// stable code and its arguments, so that a page can say it in its own language: Codes[i] is Notes[i]. A
// reader that gives no codes leaves Codes short (NoteCodes fills it in).
type Chart struct {
	Title   string
	Content Content
	Notes   []string
	Codes   []NoteCode
	Err     error
}

// NoteCode is an import note as a code (like "chord_nearest") and its arguments (like {"from": "F13b9",
// "to": "F13"}); docs/api.md lists them.
type NoteCode struct {
	Code string         `json:"code"`
	Args map[string]any `json:"args"`
}

// Notes gathers what a reader says about a chart as it reads: each note once (the same English words
// twice are one note), with its code. The zero value is ready to use.
type Notes struct {
	seen  map[string]bool
	texts []string
	codes []NoteCode
}

// Add records a note, unless its words were said already.
func (n *Notes) Add(code NoteCode, text string) {
	if n.seen[text] {
		return
	}
	if n.seen == nil {
		n.seen = map[string]bool{}
	}
	n.seen[text] = true
	n.texts = append(n.texts, text)
	n.codes = append(n.codes, code)
}

// Texts are the notes' English words, in the order they were first said.
func (n *Notes) Texts() []string { return n.texts }

// Codes says each note again as a code with its arguments: Codes()[i] is Texts()[i].
func (n *Notes) Codes() []NoteCode { return n.codes }

// NoteCodes returns a code for every note: the reader's, or "text" with the English words as the
// argument text for a note the reader gave no code.
func (c Chart) NoteCodes() []NoteCode {
	out := make([]NoteCode, len(c.Notes))
	for i, n := range c.Notes {
		if i < len(c.Codes) && c.Codes[i].Code != "" {
			out[i] = c.Codes[i]
			continue
		}
		out[i] = NoteCode{Code: "text", Args: map[string]any{"text": n}}
	}
	return out
}

// SniffFormat names the format of an import by its text: "ireal" when it holds an irealb:// or
// irealbook:// link, "json" when it is a JSON object, "text" when it is chords over lyrics (a line of
// chords right above a line of words, and no ChordPro directive or chord in brackets), else
// "chordpro".
func SniffFormat(data []byte) string {
	if bytes.Contains(data, []byte("irealb://")) || bytes.Contains(data, []byte("irealbook://")) {
		return "ireal"
	}
	if t := bytes.TrimSpace(data); len(t) > 1 && t[0] == '{' {
		if rest := bytes.TrimSpace(t[1:]); len(rest) > 0 && (rest[0] == '"' || rest[0] == '}') {
			return "json"
		}
	}
	if chordsOverWords(string(data)) {
		return "text"
	}
	return "chordpro"
}

// chordsOverWords reports whether text reads as a chord sheet: some line of chords stands right above a
// line of words (not blank, not chords, not a [heading]), and no line is a ChordPro directive or holds a
// chord in brackets.
func chordsOverWords(text string) bool {
	found := false
	prevChords := false
	for line := range strings.Lines(text) {
		line = strings.TrimRight(line, "\r\n")
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") || bracketChord(t) {
			return false
		}
		_, chords := chord.LineOfChords(line)
		if prevChords && !chords && t != "" && !strings.HasPrefix(t, "[") {
			found = true
		}
		prevChords = chords
	}
	return found
}

// bracketChord reports whether a line holds a chord in brackets, as ChordPro writes chords in words.
func bracketChord(line string) bool {
	for {
		i := strings.IndexByte(line, '[')
		if i < 0 {
			return false
		}
		j := strings.IndexByte(line[i:], ']')
		if j < 0 {
			return false
		}
		if sym := line[i+1 : i+j]; sym != "" && sym[0] >= 'A' && sym[0] <= 'G' {
			if _, ok := chord.Map(sym); ok {
				return true
			}
		}
		line = line[i+j+1:]
	}
}
