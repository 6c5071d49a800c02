package board

import (
	"errors"
	"testing"
)

// TestInvisibleText: a title, or a section label that is not blank, made only of characters that do
// not show (zero-width, control, format, bidi, variation selectors, fillers) is refused, with a rule
// that says so; one visible character among them passes, and so does a blank label (no label). Security
// review 2026-12-03 I6: a U+200B-only title passed the "not blank" rule.
func TestInvisibleText(t *testing.T) {
	for _, tt := range []struct {
		name, title, label string
		path               string // "" : accepted
	}{
		{"zero-width-title", "\u200b", "A", "title"},
		{"joiners-title", "\u200c\u200d\u2060\ufeff", "A", "title"},
		{"controls-title", "\x00\x1b\x7f", "A", "title"},
		{"bidi-title", "\u202e\u2066\u061c", "A", "title"},
		{"soft-hyphen-and-space-title", " \u00ad ", "A", "title"},
		{"filler-title", "\u3164\u115f", "A", "title"},
		{"variation-selector-title", "\ufe0f\U000e0101", "A", "title"},
		{"braille-blank-title", "\u2800", "A", "title"},
		{"tag-title", "\U000e0001\U000e0041", "A", "title"},
		{"zero-width-label", "Song", "\u200b\u200b", "sections[0].label"},
		{"control-label", "Song", "\x1b", "sections[0].label"},
		{"visible-among-invisible", "\u200bA\u200b", "\u202eB", ""},
		{"blank-label", "Song", "   ", ""},
		{"empty-label", "Song", "", ""},
		{"emoji-with-selector", "❤\ufe0f", "中", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := content(tt.title)
			c.Sections[0].Label = tt.label
			err := c.Validate()
			if tt.path == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			ve, ok := errors.AsType[*ValidationError](err)
			if !ok || ve.Path != tt.path || ve.Rule != ruleInvisible {
				t.Fatalf("Validate = %v, want %s: %s", err, tt.path, ruleInvisible)
			}
		})
	}
}
