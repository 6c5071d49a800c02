package board

import "bytes"

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
// irealbook:// link (a link alone, or the HTML of a playlist), "json" for a JSON object ({ then " or }),
// otherwise "chordpro" (whose directives start with { too).
func SniffFormat(data []byte) string {
	if bytes.Contains(data, []byte("irealb://")) || bytes.Contains(data, []byte("irealbook://")) {
		return "ireal"
	}
	if t := bytes.TrimSpace(data); len(t) > 1 && t[0] == '{' {
		if rest := bytes.TrimSpace(t[1:]); len(rest) > 0 && (rest[0] == '"' || rest[0] == '}') {
			return "json"
		}
	}
	return "chordpro"
}
