package chordpro

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"tele/board"
)

// MaxSongs bounds the songs of a songbook ReadCharts reads: more than any songbook holds, few enough
// that reading them stays quick.
const MaxSongs = 4096

// ReadCharts is Read as the import route takes a format: a ChordPro file is one chart, and a songbook
// (songs separated by {new_song} or {ns}, as WriteSongbook writes them) one chart a song. A song that
// cannot be read is a chart with its error, beside the others; a file of one song is refused with its
// error. Read's cost is linear in the file and bounded by its limits, so a song whose reading has begun
// is read to its end; no song begins once the context has ended.
func ReadCharts(ctx context.Context, data []byte) ([]board.Chart, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("the file is %d bytes; a ChordPro file can be at most %d", len(data), MaxFileBytes)
	}
	songs, err := splitSongs(data)
	if err != nil {
		return nil, err
	}
	if len(songs) == 1 {
		c, r, err := read(songs[0].data)
		if err != nil {
			return nil, songs[0].at(err)
		}
		return []board.Chart{{Title: c.Title, Content: c, Notes: r.notes.Texts(), Codes: r.notes.Codes()}}, nil
	}
	charts := make([]board.Chart, 0, len(songs))
	for i, song := range songs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c, r, err := read(song.data)
		if err != nil {
			charts = append(charts, board.Chart{Title: song.title(i), Err: song.at(err)})
			continue
		}
		charts = append(charts, board.Chart{Title: c.Title, Content: c, Notes: r.notes.Texts(), Codes: r.notes.Codes()})
	}
	return charts, nil
}

// song is one song of a songbook: its lines, and the line of the file before its first.
type song struct {
	data []byte
	line int
}

// at is err with the line of the file where it is, not of the song.
func (s song) at(err error) error {
	var e *Error
	if s.line == 0 || !errors.As(err, &e) {
		return err
	}
	return &Error{Line: e.Line + s.line, Msg: e.Msg}
}

// title is the song's {title}, or its place in the songbook (from 0) when it has none.
func (s song) title(i int) string {
	for _, line := range strings.Split(string(s.data), "\n") {
		t := strings.TrimSpace(line)
		if !strings.HasPrefix(t, "{") || !strings.HasSuffix(t, "}") {
			continue
		}
		if name, value, _ := parseDirective(t[1 : len(t)-1]); (name == "title" || name == "t") && value != "" {
			return unescape(value)
		}
	}
	return "song " + strconv.Itoa(i+1)
}

// splitSongs cuts a file into its songs at each {new_song} or {ns} line. What is before the first such
// line, or after the last, is a song only if it has a line other than blank ones and comments (a
// songbook may begin each song with {new_song}).
func splitSongs(data []byte) ([]song, error) {
	var songs []song
	start, startLine := 0, 0
	add := func(end int) {
		if part := data[start:end]; hasContent(part) {
			songs = append(songs, song{part, startLine})
		}
	}
	line := 0
	for at := 0; at < len(data); line++ {
		end := bytes.IndexByte(data[at:], '\n')
		next := len(data)
		if end >= 0 {
			next = at + end + 1
		}
		if isNewSong(data[at:next]) {
			add(at)
			start, startLine = next, line+1
		}
		at = next
	}
	add(len(data))
	if len(songs) > MaxSongs {
		return nil, fmt.Errorf("the songbook has more than %d songs", MaxSongs)
	}
	if len(songs) == 0 {
		return []song{{data, 0}}, nil // no song: read refuses it as it refuses any empty file
	}
	return songs, nil
}

// isNewSong reports whether a line of the file is {new_song} or {ns}.
func isNewSong(line []byte) bool {
	t := strings.TrimSpace(string(line))
	if !strings.HasPrefix(t, "{") || !strings.HasSuffix(t, "}") {
		return false
	}
	name, _, _ := parseDirective(t[1 : len(t)-1])
	return name == "new_song" || name == "ns"
}

// hasContent reports whether part of a file has a line other than blank ones and # comments.
func hasContent(part []byte) bool {
	for _, line := range strings.Split(string(part), "\n") {
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
			return true
		}
	}
	return false
}
