package chordpro

import (
	"fmt"
	"strings"

	"tele/board"
)

// playable leaves out a sign a file gives without its jump (a lone Coda, a Fine with no D.C. al Fine),
// which cannot be played as written, and says so; anything else that does not make a playable board is
// refused. A second sign of a kind is left out first, so that what is left takes a few checks, not one
// a sign.
func (r *reader) playable(c board.Content) (board.Content, error) {
	r.oneOfEachSign(&c)
	for {
		err := c.Validate()
		if err == nil {
			return c, nil
		}
		left, ok := c.LeaveOutSign(err)
		if !ok {
			return board.Content{}, fmt.Errorf("the file does not make a board Tele can play: %w", err)
		}
		ve := left.Err
		r.note("sign_left_out", map[string]any{"sign": string(left.Mark), "bar": left.Number, "path": ve.Path, "rule": ve.Rule, "ruleId": ve.RuleID, "ruleArgs": ve.RuleArgs}, "the sign %s was left out (%s): %s", left.Mark, ve.Path, ve.Rule)
	}
}

// flatBar numbers a bar across sections, from 0.
func flatBar(c board.Content, ref board.BarRef) int {
	n := ref.Bar
	for _, s := range c.Sections[:ref.Section] {
		n += len(s.Bars)
	}
	return n
}

// oneOfEachSign keeps the first sign of each kind (segno, coda, To Coda), and the first two jumps and
// Fines (a D.C. after the head and a D.S. after the solos, content schema version 4), as a chart has
// them, and says what it left out.
func (r *reader) oneOfEachSign(c *board.Content) {
	seen := map[string]int{}
	for s := range c.Sections {
		for b := range c.Sections[s].Bars {
			bar := &c.Sections[s].Bars[b]
			kind := string(bar.Mark)
			if strings.HasPrefix(kind, "dc") || strings.HasPrefix(kind, "ds") {
				kind = "jump"
			}
			if kind == "" {
				continue
			}
			seen[kind]++
			n, path := flatBar(*c, board.BarRef{Section: s, Bar: b})+1, fmt.Sprintf("sections[%d].bars[%d]", s, b)
			two := kind == "jump" || kind == string(board.MarkFine)
			switch {
			case two && seen[kind] > 2:
				r.note("sign_third", map[string]any{"sign": string(bar.Mark), "bar": n, "path": path}, "the sign %s was left out (%s): a chart has at most two jumps and two Fines", bar.Mark, path)
				bar.Mark = ""
			case !two && seen[kind] > 1:
				r.note("sign_repeated", map[string]any{"sign": string(bar.Mark), "bar": n, "path": path}, "the sign %s was left out (sections[%d].bars[%d]): a chart has one", bar.Mark, s, b)
				bar.Mark = ""
			}
		}
	}
}
