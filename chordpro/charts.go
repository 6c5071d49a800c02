package chordpro

import "tele/board"

// ReadCharts is Read as the import route takes a format: a ChordPro file is one chart.
func ReadCharts(data []byte) ([]board.Chart, error) {
	c, notes, err := Read(data)
	if err != nil {
		return nil, err
	}
	return []board.Chart{{Title: c.Title, Content: c, Notes: notes}}, nil
}
