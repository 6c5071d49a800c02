package ireal

import (
	"testing"

	"tele/board"
)

// TestWritePlaylistReadsBack: a playlist of two boards reads back as the two songs, in order.
func TestWritePlaylistReadsBack(t *testing.T) {
	a, b := board.Example(), board.Example()
	a.Title, b.Title = "First = one", "Second"
	songs, err := Parse(WritePlaylist("Friday gig", []board.Content{a, b}))
	if err != nil {
		t.Fatal(err)
	}
	if len(songs) != 2 || songs[0].Content.Title != "First - one" || songs[1].Content.Title != "Second" {
		t.Fatalf("read back %d songs: %+v", len(songs), songs)
	}
}
