// Package formtable is for tests only: the form table (play-order.json, whose "about" says how to read
// it), charts written by hand with the bars a band plays, their chords and beats, or the refusal a chart
// gets. The board's play order and form rules, the ChordPro and iReal Pro writers and the page's player
// are all tested against it. It imports nothing of Tele's, so the board package's own tests can use it.
package formtable

import (
	_ "embed"
	"encoding/json"
	"testing"
)

//go:embed play-order.json
var table []byte

// Case is one chart of the table.
type Case struct {
	Name     string          `json:"name"`
	Source   string          `json:"source"`   // the real chart the row is written after, and its playlist
	Sections json.RawMessage `json:"sections"` // a board's "sections", as a client would send them
	Played   string          `json:"played"`   // the bars played, numbered 1, 2, … across sections
	Chords   string          `json:"chords"`   // the first chord heard in each bar played
	Beats    string          `json:"beats"`    // each bar played's beats
	Rhythm   string          `json:"rhythm"`   // each bar played's chords' beats, like 3+1 (content schema version 3)
	Error    *struct {
		Path string `json:"path"`
		Rule string `json:"rule"` // a part of the refusal's rule text
	} `json:"error"` // set for a chart that is refused
}

// Cases returns every chart of the table.
func Cases(t testing.TB) []Case {
	t.Helper()
	var doc struct {
		Cases []Case `json:"cases"`
	}
	if err := json.Unmarshal(table, &doc); err != nil {
		t.Fatalf("the form table: %v", err)
	}
	return doc.Cases
}

// Playable returns the charts of the table that are not refused.
func Playable(t testing.TB) []Case {
	t.Helper()
	var out []Case
	for _, c := range Cases(t) {
		if c.Error == nil {
			out = append(out, c)
		}
	}
	return out
}
