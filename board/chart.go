package board

import "bytes"

// Chart is one chart read from a file of another format: most files hold one, an iReal Pro playlist one
// per song. Err says why a chart could not become a board (the others still can); Notes say, in a
// musician's words, what was not taken over as written.
type Chart struct {
	Title   string
	Content Content
	Notes   []string
	Err     error
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
