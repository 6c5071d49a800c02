package chordpro

import (
	"bytes"

	"tele/board"
)

// WriteSongbook returns songs as one ChordPro file, one song after another, each begun by
// {new_song} after the first: how ChordPro separates the songs of a songbook.
func WriteSongbook(songs []board.Content) []byte {
	var b bytes.Buffer
	for i, c := range songs {
		if i > 0 {
			b.WriteString("\n{new_song}\n")
		}
		b.Write(Write(c))
	}
	return b.Bytes()
}
