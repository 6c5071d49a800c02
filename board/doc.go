// Package board is Tele's content model (docs/content.md): what a board holds and every rule it must
// pass, the form and the bars it plays, lines of words, durations, the chart the importers build, the
// chord catalogue as the API serves it (its rules are the chord package's), the teaching example, a
// proposal merged into a board, and the importers' one repair step. Pure: no files, no network and
// no clock; the store (package store) keeps boards and the routes (package boardhttp) serve
// them.
package board
