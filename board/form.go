package board

// The form of a chart: repeats, endings and road signs (content schema version 2, widened in version 3
// to what real books write), read the way a band reads a printed lead sheet. These are the rules, which
// checkForm enforces and PlayOrder follows:
//
//   - Repeats. repeatStart (|:) opens a repeat and repeatEnd (:|) closes it; the bars between are played
//     repeatEnd times. Repeats may span sections. A plain repeat (a vamp, no endings) may stand inside
//     another repeat's bars or endings (version 3); repeats nest no deeper.
//   - Endings. A repeat may end in volta brackets numbered 1, 2, … (up to 4) instead: ending 1 starts
//     inside the repeat, and each ending that goes back closes with an end repeat whose number is the pass
//     that follows (ending 1 closes with repeatEnd 2, ending 2 with 3, …), and may run across a section
//     mark to it (version 3). The next ending starts on the very next bar; when none does (version 3), the
//     last pass plays none of the endings and goes on after the end repeat. Pass n plays the repeated bars
//     and then ending n. The last ending runs to the end of its section, or to the bar before the next
//     repeatStart or ending.
//   - An ending reached by a jump (version 3): when the last ending before the jump closes with no end
//     repeat, an ending numbered after it may follow, right after it or later in the chart (D.C. al 3rd
//     ending over N1 … } N2 … ] … N3). The band reaches it only by the jump, which stands on the bar
//     right before it, and after the jump it plays the repeat once more and takes that ending.
//   - Road signs. A chart has at most one jump (D.C. or D.S., plain, al Fine or al Coda; two in version 4,
//     below) and at most one each of segno, Coda, Fine and To Coda, and every sign belongs to the jump: the segno to a D.S., Fine
//     to an al Fine, Coda and To Coda to an al Coda. D.C. goes back to the first bar, D.S. to the segno.
//     A plain or al Fine jump stands on the last bar (anything after it would never be played), or on the
//     bar before the ending it leads to; an al Coda jump stands on the bar just before the coda. After the
//     jump the band plays on from its target and ends after Fine, or leaves for the coda after the To Coda
//     bar, or plays to the end.
//   - After the jump, repeats already played are taken once: with their last ending, or with the ending
//     that holds the Fine or the To Coda (version 3: the band stops or leaves there); repeats in the coda
//     are played in full. A jump is taken once.
//   - Two jumps (version 4), as real books write a D.C. after the head and a D.S. after the solos: each
//     jump is taken the first time it is reached. After an al Fine (al Coda) jump, the first Fine (To
//     Coda) reached ends that journey: a Fine while the other jump is still to come does not end the
//     song, the band goes on at the bar after the jump it took; a To Coda leads to the coda. Once both
//     jumps are taken, a Fine ends the song; on that last journey a jump already taken is taken once more
//     only when it is al Fine and a Fine lies between its target and it (the only way to the Fine). While
//     following an al Fine jump a To Coda is passed, and while following an al Coda jump a Fine. A chart
//     with two jumps may have two Fines, when both jumps are al Fine; each sign belongs to one of the
//     jumps, each jump's signs stand where its own rules say, and every bar must be played.
//   - % repeats the chords of the bar written before it (another % bar repeats what that one repeats);
//     it cannot be the first bar.
//
// Bars are numbered across sections in written order ("flat" indices) inside this file.

// BarRef names a bar by section and position, as the JSON path sections[Section].bars[Bar] does.
type BarRef struct {
	Section int `json:"section"`
	Bar     int `json:"bar"`
}

// repeatGroup is one repeat: the repeated bars start..bodyEnd, then either a plain end repeat at
// bodyEnd (times > 0) or endings.
type repeatGroup struct {
	start   int
	bodyEnd int // the last repeated bar before ending 1, or the bar with the plain end repeat
	times   int // plain repeat: times played; 0 with endings
	// endings in order; the last may be empty (first > last): an ending left implicit, where the last
	// pass goes on after the end repeat of the ending before it.
	endings []span
	outer   int  // the repeat this plain repeat (a vamp) stands in, -1 when none
	byJump  bool // the last ending is reached only by a jump (D.C. al 3rd ending)
	// afterJump is the ending (0-based) the band takes when it plays the repeat again after the jump:
	// the one holding Fine or To Coda, else the last.
	afterJump int
}

// span is a run of bars, first..last inclusive.
type span struct{ first, last int }

// form is a checked chart's form.
type form struct {
	bars   []Bar
	refs   []BarRef // refs[i] is flat bar i's place
	groups []repeatGroup
	// Flat indices of the signs, -1 where there is none: jump and fine are the first of jumps and fines.
	segno, coda, fine, toCoda, jump int
	jumps, fines                    []int // every jump (at most two) and every Fine (at most two), in written order
	// v3 is set when the form uses what content schema version 3 added to it, v4 when it has two jumps
	// (version 4; see SchemaVersion).
	v3, v4 bool
}

// region says where a bar lies relative to the repeats.
type region struct {
	group  int // index in form.groups, -1 outside every repeat
	ending int // 0: among the repeated bars; n: in ending n
	last   bool
}

// path is the JSON path of flat bar i, or of one of its members.
func (f *form) path(i int, member string) string {
	p := barPath(f.refs[i].Section, f.refs[i].Bar)
	if member != "" {
		p += "." + member
	}
	return p
}

// checkForm reads and checks the form of the sections' bars (each bar's own values are already
// checked). The error is a *ValidationError at the first bar, in written order, where the chart cannot be
// played, except that the signs are checked after the repeats.
func checkForm(sections [][]Bar) (*form, error) {
	f := &form{segno: -1, coda: -1, fine: -1, toCoda: -1, jump: -1}
	for s, bars := range sections {
		for b, bar := range bars {
			f.bars = append(f.bars, bar)
			f.refs = append(f.refs, BarRef{s, b})
		}
	}
	if err := f.readRepeats(); err != nil {
		return nil, err
	}
	for gi := range f.groups {
		f.groups[gi].afterJump = len(f.groups[gi].endings) - 1
	}
	if err := f.readSigns(); err != nil {
		return nil, err
	}
	return f, nil
}

// wantJump names the jumps a sign belongs to.
func wantJump(m Mark) string {
	switch m {
	case MarkSegno:
		return "D.S., D.S. al Fine or D.S. al Coda (ds, ds-al-fine, ds-al-coda)"
	case MarkFine:
		return "D.C. al Fine or D.S. al Fine (dc-al-fine, ds-al-fine)"
	}
	return "D.C. al Coda or D.S. al Coda (dc-al-coda, ds-al-coda)"
}

func targetWords(m Mark) string {
	if m.toSegno() {
		return "the segno"
	}
	return "the first bar"
}

// PlayOrder is PlayOrder of the content's sections.
func (c Content) PlayOrder() ([]BarRef, error) {
	return PlayOrder(c.bars())
}

// PlayOrder returns the bars of the sections in the order a band plays them: repeats, endings, D.C./D.S.
// al Fine/al Coda and To Coda followed. The sections must hold a valid form (Content.Validate): otherwise
// the error is the *ValidationError that says why, and so is a form that would play more than
// MaxPlayedBars bars.
func PlayOrder(sections [][]Bar) ([]BarRef, error) {
	f, err := checkForm(sections)
	if err != nil {
		return nil, err
	}
	order, err := f.expand()
	if err != nil {
		return nil, err
	}
	refs := make([]BarRef, len(order))
	for k, i := range order {
		refs[k] = f.refs[i]
	}
	return refs, nil
}

// expand follows the checked form and returns the flat indices of the bars played.
func (f *form) expand() ([]int, error) {
	p := newPlayer(f)
	for i := 0; i < len(f.bars); {
		next, err := p.step(i)
		if err != nil {
			return nil, err
		}
		if next < 0 {
			break
		}
		i = next
	}
	return p.order, nil
}
