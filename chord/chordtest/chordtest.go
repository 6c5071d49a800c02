// Package chordtest is for tests only: the golden table of chord spellings
// (chord/testdata/chord-spellings.json) that the chord package, the model, the store and the page are
// all tested against.
package chordtest

import (
	"encoding/json"
	"os"
	"testing"
)

// Spellings is the table: what each spelling is stored as (Accepted), what the editor suggests for
// one it refuses (Refused, "" for none), and the code review's rows that every path must answer alike
// (Everywhere).
type Spellings struct {
	Accepted   [][2]string `json:"accepted"`
	Refused    [][2]string `json:"refused"`
	Everywhere [][2]string `json:"everywhere"`
}

// ReadSpellings reads the table at path (relative to the calling test's package) and fails t when it
// cannot, or when the table is smaller than it has ever been.
func ReadSpellings(t testing.TB, path string) Spellings {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sp Spellings
	if err := json.Unmarshal(data, &sp); err != nil {
		t.Fatal(err)
	}
	if len(sp.Accepted) < 100 || len(sp.Refused) < 20 || len(sp.Everywhere) < 5 {
		t.Fatalf("%s has %d accepted, %d refused and %d everywhere", path, len(sp.Accepted), len(sp.Refused), len(sp.Everywhere))
	}
	return sp
}
