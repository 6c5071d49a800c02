package chordpro

import (
	"strings"
	"testing"

	"tele/board"
)

// TestWriteSongbook: the songs one after another, {new_song} between them, each as Write writes it.
func TestWriteSongbook(t *testing.T) {
	a, b := board.Example(), board.Example()
	a.Title, b.Title = "One", "Two"
	got := string(WriteSongbook([]board.Content{a, b}))
	want := string(Write(a)) + "\n{new_song}\n" + string(Write(b))
	if got != want || strings.Count(got, "{title:") != 2 {
		t.Fatalf("songbook:\n%s", got)
	}
}
