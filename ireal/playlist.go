package ireal

import (
	"strings"

	"tele/board"
)

// WritePlaylist returns songs as one irealb:// playlist link named name: the songs as Write writes
// them, separated by "===", the playlist's name last, which is how Parse reads a playlist back.
func WritePlaylist(name string, songs []board.Content) []byte {
	var b strings.Builder
	b.WriteString("irealb://")
	for _, c := range songs {
		b.WriteString(strings.TrimPrefix(string(Write(c)), "irealb://"))
		b.WriteString(escape("==="))
	}
	b.WriteString(escape(title(name)))
	return []byte(b.String())
}
