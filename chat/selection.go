package chat

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"tele/utf16count"
)

// Limits of a send's selection ("Ask Pi about these bars", docs/api.md).
const (
	MaxSelectionBars     = 64  // a section's most bars
	MaxSelectionFrom     = 512 // a board's most bars, counted from 1
	MaxSelectionBarUnits = 120 // one bar's chords as the page shows them
	MaxSelectionName     = 40  // a section's name
	MaxSelectionView     = 120 // how the page's view differs from the board
)

// SelectionHeader starts the block a selection adds to a sent message; the page folds the block back
// into a chip when the message comes back in the conversation (bar-selection.js).
const SelectionHeader = "[Tele selection: section "

// Selection is the bars the musician pointed at, as their page shows them: the section's name, the
// first bar's number (counted from 1 across the board, as the grid numbers them), each bar's chords
// as one line, and how the view differs from the board (transposed, capo, numbers), or "". The page
// sends what it shows; the host checks its shape and writes it out for the model.
type Selection struct {
	Section string   `json:"section"`
	From    int      `json:"from"`
	Bars    []string `json:"bars"`
	View    string   `json:"view,omitempty"`
}

// check refuses a selection the page cannot have made: no bars, too many, a bar number off the board,
// a name, a bar or a view that is not one short line.
func (s *Selection) check() error {
	if n := len(s.Bars); n == 0 || n > MaxSelectionBars {
		return errBadCommand(fmt.Sprintf("selection needs 1 to %d bars", MaxSelectionBars))
	}
	if s.From < 1 || s.From+len(s.Bars)-1 > MaxSelectionFrom {
		return errBadCommand(fmt.Sprintf("selection's bars must be numbered 1 to %d", MaxSelectionFrom))
	}
	if !oneLine(s.Section, MaxSelectionName, true) {
		return errBadCommand(fmt.Sprintf("selection's section must be one line of at most %d characters", MaxSelectionName))
	}
	if !oneLine(s.View, MaxSelectionView, true) {
		return errBadCommand(fmt.Sprintf("selection's view must be one line of at most %d characters", MaxSelectionView))
	}
	for _, b := range s.Bars {
		if b == "" || !oneLine(b, MaxSelectionBarUnits, false) {
			return errBadCommand(fmt.Sprintf("each selected bar must be one line of 1 to %d characters", MaxSelectionBarUnits))
		}
	}
	return nil
}

// oneLine: valid UTF-8, at most max UTF-16 units, no line break or other control character.
func oneLine(s string, max int, emptyOK bool) bool {
	if s == "" {
		return emptyOK
	}
	if !utf8.ValidString(s) || utf16count.Of(s) > max {
		return false
	}
	return !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029' })
}

// expand is text with the selection written out for the model after it:
//
//	Why does this feel static?
//
//	[Tele selection: section "Verse", bars 5-8; view: transposed +2 (key A)]
//	5: C7
//	6: F7 Bb7
//
// The section's name is JSON-quoted, so a name holding quotes or brackets reads back the same.
func (s *Selection) expand(text string) string {
	var b strings.Builder
	name, _ := json.Marshal(s.Section) // a valid string: cannot fail
	fmt.Fprintf(&b, "%s\n\n%s%s, bars %d-%d", text, SelectionHeader, name, s.From, s.From+len(s.Bars)-1)
	if s.View != "" {
		fmt.Fprintf(&b, "; view: %s", s.View)
	}
	b.WriteString("]")
	for i, bar := range s.Bars {
		fmt.Fprintf(&b, "\n%d: %s", s.From+i, bar)
	}
	return b.String()
}

// checkMessage checks a send's text and selection, and that both together keep the send limit.
func (c *command) checkMessage() error {
	if err := checkText(*c.Text); err != nil {
		return err
	}
	if c.Selection == nil {
		return nil
	}
	if err := c.Selection.check(); err != nil {
		return err
	}
	_, err := c.message()
	return err
}

// message is what a send gives Pi: its text, and its selection written out when it has one. The whole
// keeps the send limit: a selection too long with the text is refused as the text would be.
func (c *command) message() (string, error) {
	if c.Selection == nil {
		return *c.Text, nil
	}
	m := c.Selection.expand(*c.Text)
	if utf16count.Of(m) > MaxTextUnits {
		return "", errBadText("the text and the selected bars are more than 8000 UTF-16 code units together")
	}
	return m, nil
}
