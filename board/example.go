package board

// Example returns the teaching example (docs/content.md): a short, playable board in C with a I–vi–IV–V verse
// and a ii–V–I chorus, whose description says in one paragraph how to edit, play and ask Pi. Board
// content is never translated. The result is the caller's to keep or change.
func Example() Content {
	return Content{
		Title: "Welcome to Tele",
		Description: "This board is yours to change. Click a bar to edit it: type up to four chords " +
			"separated by spaces (like Am7 or G/B, or N.C. for a silent bar), and each change is saved as a " +
			"new revision. Press Play to hear the board at its tempo, with the chords sharing each bar " +
			"evenly. To work on it with Pi, run /tele <board id> in Pi (the id is the last part of this " +
			"page's address) and open the link it shows; then ask Pi in the terminal or in the chat panel here, for example \"make the " +
			"chorus a minor ii–V–i\", and its edits appear on this page as they are saved.",
		Key:         "C",
		Tempo:       96,
		BeatsPerBar: 4,
		Sections: []Section{
			{Label: "Verse", Bars: []Bar{PlainBar("C"), PlainBar("Am"), PlainBar("F"), PlainBar("G"), PlainBar("C"), PlainBar("Am"), PlainBar("F"), PlainBar("G7")}},
			{Label: "Chorus", Bars: []Bar{PlainBar("Dm7"), PlainBar("G7"), PlainBar("Cmaj7"), PlainBar("Cmaj7"), PlainBar("Dm7"), PlainBar("G7"), PlainBar("Cmaj7"), PlainBar("Am7", "G7")}},
		},
	}
}
