package chordpro

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"tele/board"
)

// How the reader is laid out: read.go reads a file line by line into a state (state.go), which gives
// each directive to directive.go and each grid row to gridline.go; at the end of the file the grids'
// bars become board bars (gridbars.go), the lines of words become sections (lyrics.go), {transpose}
// moves the key (transpose.go), and a sign the board cannot play is left out (signs.go).

// MaxFileBytes bounds a ChordPro file Read accepts.
const MaxFileBytes = 1 << 20

// ErrNoGrid is Read's refusal of a file with neither grid sections nor lines of words; over HTTP its
// code is not_a_grid.
var ErrNoGrid error = noGridError{}

type noGridError struct{}

func (noGridError) Error() string {
	return "the file has no ChordPro grid ({start_of_grid} … {end_of_grid}) and no lines of words: there is nothing to make a board of"
}

// Code is the API's error code of the refusal.
func (noGridError) Code() string { return "not_a_grid" }

// Error is a line Read cannot read.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Read reads the grid sections of a ChordPro file into board content. Notes lists, in a musician's
// words, what was not taken over as written (a chord mapped to the nearest in the catalogue, lyrics and
// other sections left out, …). The content is valid (Validate) when err is nil.
func Read(data []byte) (c board.Content, notes []string, err error) {
	c, r, err := read(data)
	if err != nil {
		return board.Content{}, nil, err
	}
	return c, r.notes.Texts(), nil
}

// read is Read with the reader, whose codes say the notes again (ReadCharts gives them).
func read(data []byte) (board.Content, *reader, error) {
	if len(data) > MaxFileBytes {
		return board.Content{}, nil, fmt.Errorf("the file is %d bytes; a ChordPro file can be at most %d", len(data), MaxFileBytes)
	}
	if !utf8.Valid(data) {
		return board.Content{}, nil, errors.New("the file is not UTF-8 text")
	}
	s := newState()
	for n, line := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		s.r.line = n + 1
		if err := s.readLine(line); err != nil {
			return board.Content{}, nil, err
		}
	}
	c, err := s.finish()
	if err != nil {
		return board.Content{}, nil, err
	}
	return c, s.r, nil
}
