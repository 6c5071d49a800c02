package chordpro

import (
	"slices"
	"testing"

	"tele/board"
)

// TestMetaFields: {meta: name value} is ChordPro's long form of the song's directives, so each name a
// board has a field for lands where its short directive puts it; a name a board has none for is a note.
func TestMetaFields(t *testing.T) {
	const words = "{start_of_verse}\n[Am]words\n{end_of_verse}\n"
	for _, tc := range []struct {
		meta  string
		check func(c board.Content) bool
		codes []string
	}{
		{"{meta: title Scarborough Fair}", func(c board.Content) bool { return c.Title == "Scarborough Fair" }, nil},
		{"{meta: key Am}", func(c board.Content) bool { return c.Key == "Am" }, []string{"title_missing"}},
		{"{meta: tempo 96}", func(c board.Content) bool { return c.Tempo == 96 }, []string{"title_missing"}},
		{"{meta: time 3/4}", func(c board.Content) bool { return c.BeatsPerBar == 3 }, []string{"title_missing"}},
		{"{meta: subtitle Traditional}", func(c board.Content) bool { return c.Description == "Traditional" }, []string{"subtitle_in_description", "title_missing"}},
		{"{meta: capo 2}", func(c board.Content) bool { return c.Key == "" }, []string{"capo_left_out", "title_missing"}},
		{"{meta: artist Simon}", func(c board.Content) bool { return c.Artist == "Simon" }, []string{"title_missing"}},
		{"{meta: Key Em}", func(c board.Content) bool { return c.Key == "Em" }, []string{"title_missing"}},
		{"{meta: album Parsley}", func(c board.Content) bool { return c.Title == "Untitled" }, []string{"directive_left_out", "title_missing"}},
	} {
		c, r, err := read([]byte(tc.meta + "\n" + words))
		if err != nil {
			t.Errorf("%s: %v", tc.meta, err)
			continue
		}
		var got []string
		for _, nc := range r.notes.Codes() {
			got = append(got, nc.Code)
		}
		slices.Sort(got)
		if !tc.check(c) || !slices.Equal(got, tc.codes) {
			t.Errorf("%s: title %q key %q tempo %d beats %d description %q artist %q; notes %v, want %v",
				tc.meta, c.Title, c.Key, c.Tempo, c.BeatsPerBar, c.Description, c.Artist, got, tc.codes)
		}
	}
}
