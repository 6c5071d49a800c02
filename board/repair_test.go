package board_test

import (
	"errors"
	"testing"

	"tele/board"
)

// TestLeaveOutSign (issue 27, item 4): a rule of the form names its bar as a typed reference (Bar,
// Member), and the importers' one repair step takes off the sign the error is about, and nothing else;
// validating and repairing in turn ends with content that passes and a list of the signs left out.
// Before, each importer read the bar back from the error's path with fmt.Sscanf, in a loop of up to 512
// validations.
func TestLeaveOutSign(t *testing.T) {
	chart := func(marks ...board.Mark) board.Content {
		c := board.Content{Title: "T", Tempo: 100, BeatsPerBar: 4}
		for s := range 2 {
			sec := board.Section{Label: "A"}
			for b := range 4 {
				bar := board.PlainBar("C")
				if i := 4*s + b; i < len(marks) {
					bar.Mark = marks[i]
				}
				sec.Bars = append(sec.Bars, bar)
			}
			c.Sections = append(c.Sections, sec)
		}
		return c
	}
	for _, tc := range []struct {
		name  string
		c     board.Content
		left  []board.BarRef // the signs left out, in order
		plays bool
	}{
		{"a lone coda in the second section", chart("", "", "", "", "", board.MarkCoda), []board.BarRef{{Section: 1, Bar: 1}}, true},
		{"Fine and a segno without their jumps", chart("", board.MarkSegno, "", board.MarkFine), []board.BarRef{{Section: 0, Bar: 1}, {Section: 0, Bar: 3}}, true},
		{"signs a jump uses stay", chart(board.MarkSegno, "", "", "", "", "", "", board.MarkDS), nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c
			var left []board.BarRef
			for range 16 {
				err := c.Validate()
				if err == nil {
					break
				}
				var ve *board.ValidationError
				if !errors.As(err, &ve) || ve.Bar == nil || ve.Member != "mark" {
					t.Fatalf("Validate: %v, without a typed bar reference to a sign", err)
				}
				mark := c.Sections[ve.Bar.Section].Bars[ve.Bar.Bar].Mark
				got, ok := c.LeaveOutSign(err)
				if !ok || got.At != *ve.Bar || got.Mark != mark || got.Number != 4*ve.Bar.Section+ve.Bar.Bar+1 || got.Err != ve {
					t.Fatalf("LeaveOutSign(%v) = %+v, %t", err, got, ok)
				}
				if c.Sections[got.At.Section].Bars[got.At.Bar].Mark != "" {
					t.Fatal("the sign is still there")
				}
				left = append(left, got.At)
			}
			if err := c.Validate(); err != nil || len(left) != len(tc.left) {
				t.Fatalf("after %v left out: %v; want %v left out and a board that plays", left, err, tc.left)
			}
			for i := range left {
				if left[i] != tc.left[i] {
					t.Errorf("left out %v, want %v", left, tc.left)
				}
			}
		})
	}

	// Any other error is no sign to leave out: nothing changes.
	c := chart()
	c.Sections[0].Bars[0].Ending = 1 // an ending without a repeat: a rule of the form, not about a sign
	for _, err := range []error{c.Validate(), errors.New("other"), &board.ValidationError{Path: "sections[0].bars[9].mark", Member: "mark"},
		&board.ValidationError{Bar: &board.BarRef{Section: 5, Bar: 0}, Member: "mark"}} {
		if got, ok := c.LeaveOutSign(err); ok {
			t.Errorf("LeaveOutSign(%v) = %+v, want no repair", err, got)
		}
		if b := c.Sections[0].Bars[0]; b.Ending != 1 || b.Mark != "" {
			t.Errorf("LeaveOutSign(%v) changed the content", err)
		}
	}
}
