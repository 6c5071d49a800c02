package setlist

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"tele/board"
	"tele/utf16count"
)

// Limits of a set (docs/api.md).
const (
	// MaxTitleUnits is a board title's limit: a set's title is shown where a board's is.
	MaxTitleUnits = board.MaxTitleUnits
	// MaxBoards is more songs than any gig plays, and keeps a set's file and answers small.
	MaxBoards = 200
)

// ValidationError is a set that breaks a rule: Path names the value (title, boards[3]), Rule says
// what is wrong, in English.
type ValidationError struct {
	Path string
	Rule string
}

func (e *ValidationError) Error() string { return "set: " + e.Path + " " + e.Rule }

const (
	ruleTitle   = "must be 1–120 UTF-16 code units, not blank"
	ruleBoards  = "must hold at most 200 board ids"
	ruleBoardID = "must be a board id: 1-64 letters, digits, _ or -, starting with a letter or digit"
)

// Validate checks a set's title and boards. The same board may come back in a set (a reprise); that
// the boards exist is the HTTP edge's check, since a board may be deleted after the set names it.
func Validate(title string, boards []string) error {
	if !utf8.ValidString(title) || strings.TrimFunc(title, unicode.IsSpace) == "" {
		return &ValidationError{Path: "title", Rule: ruleTitle}
	}
	if n := utf16count.Of(title); n > MaxTitleUnits {
		return &ValidationError{Path: "title", Rule: ruleTitle}
	}
	for _, r := range title {
		if unicode.IsControl(r) {
			return &ValidationError{Path: "title", Rule: "must not hold a line break or another control character"}
		}
	}
	if len(boards) > MaxBoards {
		return &ValidationError{Path: "boards", Rule: ruleBoards}
	}
	for i, id := range boards {
		if !board.ValidID(id) {
			return &ValidationError{Path: BoardPath(i), Rule: ruleBoardID}
		}
	}
	return nil
}

// BoardPath is the path of the i-th board of a set.
func BoardPath(i int) string { return "boards[" + strconv.Itoa(i) + "]" }
