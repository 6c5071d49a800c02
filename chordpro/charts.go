package chordpro

import (
	"context"

	"tele/board"
)

// ReadCharts is Read as the import route takes a format: a ChordPro file is one chart. Read's cost is
// linear in the file and bounded by its limits, so a reading that has begun runs to its end; one whose
// context has ended does not begin.
func ReadCharts(ctx context.Context, data []byte) ([]board.Chart, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, r, err := read(data)
	if err != nil {
		return nil, err
	}
	return []board.Chart{{Title: c.Title, Content: c, Notes: r.noteList, Codes: r.codes}}, nil
}
