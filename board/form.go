package board

// The form of a chart: repeats, endings and road signs (content schema version 2), read the way a band
// reads a printed lead sheet. These are the rules, which checkForm enforces and PlayOrder follows:
//
//   - Repeats. repeatStart (|:) opens a repeat and repeatEnd (:|) closes it; the bars between are played
//     repeatEnd times. Repeats do not nest, and may span sections.
//   - Endings. A repeat may end in volta brackets numbered 1, 2, … (up to 4) instead: ending 1 starts
//     inside the repeat, and each ending but the last closes with an end repeat whose number is the pass
//     that follows (ending 1 closes with repeatEnd 2, ending 2 with 3, …). The next ending starts on the
//     very next bar. Pass n plays the repeated bars and then ending n. An ending lies within one section;
//     the last ending runs to the end of its section, or to the bar before the next repeatStart.
//   - Road signs. A chart has at most one jump (D.C. or D.S., plain, al Fine or al Coda) and at most one
//     each of segno, Coda, Fine and To Coda, and every sign belongs to the jump: the segno to a D.S., Fine
//     to an al Fine, Coda and To Coda to an al Coda. D.C. goes back to the first bar, D.S. to the segno.
//     A plain or al Fine jump stands on the last bar (anything after it would never be played); an al Coda
//     jump stands on the bar just before the coda. After the jump the band plays on from its target and
//     ends after Fine, or leaves for the coda after the To Coda bar, or plays to the end.
//   - After the jump, repeats already played are taken once (the last ending, no going back); repeats in
//     the coda are played in full. A jump is taken once.
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
	endings []span
}

// span is a run of bars, first..last inclusive.
type span struct{ first, last int }

// form is a checked chart's form.
type form struct {
	bars   []Bar
	refs   []BarRef // refs[i] is flat bar i's place
	groups []repeatGroup
	// Flat indices of the signs, -1 where there is none.
	segno, coda, fine, toCoda, jump int
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
	if err := f.readSigns(); err != nil {
		return nil, err
	}
	return f, nil
}

// readRepeats finds the repeats and their endings, in one pass in written order.
//
// Its cognitive complexity is over the lint gate of 30, and accepted: the form's rules in the order
// docs/content.md lists them, one branch a rule, each with its table row.
//
//gocognit:ignore
func (f *form) readRepeats() error {
	open := -1   // the group whose repeated bars or endings are still being read
	await := 0   // the ending that must start at this bar (the one after an end repeat closing an ending)
	closing := 0 // the bar of that end repeat
	// endLast ends the open group's last ending with bar i-1.
	endLast := func(i int) error {
		g := &f.groups[open]
		if len(g.endings) < 2 {
			e := g.endings[0].first
			return f.fail(e, "ending", "ending1NeedsEnd")
		}
		g.endings[len(g.endings)-1].last = i - 1
		open = -1
		return nil
	}
	for i, bar := range f.bars {
		if i == 0 && bar.Simile {
			return f.fail(i, "chords", "firstSimile")
		}
		sectionStart := i > 0 && f.refs[i].Bar == 0
		inEnding := open >= 0 && await == 0 && len(f.groups[open].endings) > 0
		if inEnding && (sectionStart || bar.RepeatStart) {
			if err := endLast(i); err != nil {
				return err
			}
		}
		if await != 0 && bar.Ending != await {
			if bar.Ending != 0 {
				return f.fail(i, "ending", "endingMustBe", "want", await, "prev", await-1)
			}
			return f.fail(closing, "repeatEnd", "endingMustFollow", "want", await, "prev", await-1)
		}
		if bar.RepeatStart {
			if open >= 0 {
				return f.fail(i, "repeatStart", "repeatOpen", "at", barAt(f.groups[open].start))
			}
			f.groups = append(f.groups, repeatGroup{start: i})
			open = len(f.groups) - 1
		}
		if bar.Ending != 0 {
			switch {
			case await != 0:
				f.groups[open].endings = append(f.groups[open].endings, span{i, -1})
				await = 0
			case open < 0:
				return f.fail(i, "ending", "endingOutside", "n", bar.Ending)
			case len(f.groups[open].endings) > 0:
				n := len(f.groups[open].endings)
				return f.fail(i, "ending", "endingInsideEnding", "n", bar.Ending, "open", n, "next", n+1)
			case bar.Ending != 1:
				return f.fail(i, "ending", "firstEndingOne", "n", bar.Ending)
			default:
				g := &f.groups[open]
				g.bodyEnd = i - 1
				g.endings = append(g.endings, span{i, -1})
			}
		}
		if bar.RepeatEnd != 0 {
			if open < 0 {
				return f.fail(i, "repeatEnd", "endNoStart")
			}
			g := &f.groups[open]
			if n := len(g.endings); n > 0 {
				if n == MaxEnding {
					return f.fail(i, "repeatEnd", "lastEnding", "n", n)
				}
				if bar.RepeatEnd != n+1 {
					return f.fail(i, "repeatEnd", "endingPass", "n", n, "next", n+1, "got", bar.RepeatEnd)
				}
				g.endings[n-1].last = i
				await, closing = n+1, i
			} else {
				g.bodyEnd, g.times = i, bar.RepeatEnd
				open = -1
			}
		}
	}
	switch {
	case await != 0:
		return f.fail(closing, "repeatEnd", "endingNext", "n", await-1, "next", await)
	case open >= 0 && len(f.groups[open].endings) == 0:
		return f.fail(f.groups[open].start, "repeatStart", "neverEnds")
	case open >= 0:
		return endLast(len(f.bars))
	}
	return nil
}

// regionOf says where flat bar i lies.
func (f *form) regionOf(i int) region {
	for gi, g := range f.groups {
		if i < g.start {
			break
		}
		if i <= g.bodyEnd {
			return region{group: gi}
		}
		for n, e := range g.endings {
			if e.first <= i && i <= e.last {
				return region{group: gi, ending: n + 1, last: n == len(g.endings)-1}
			}
		}
	}
	return region{group: -1}
}

// inNonLastEnding reports whether bar i lies in an ending that is not its repeat's last.
func (f *form) inNonLastEnding(i int) (int, bool) {
	r := f.regionOf(i)
	return r.ending, r.ending > 0 && !r.last
}

// readSigns finds the road signs and checks that they make one playable route.
//
// Its cognitive complexity is over the lint gate of 30, and accepted: the form's rules in the order
// docs/content.md lists them, one branch a rule, each with its table row.
//
//gocognit:ignore
func (f *form) readSigns() error {
	for i, bar := range f.bars {
		if bar.Mark == "" {
			continue
		}
		slot := &f.segno
		switch m := bar.Mark; {
		case m.jump():
			slot = &f.jump
		case m == MarkCoda:
			slot = &f.coda
		case m == MarkFine:
			slot = &f.fine
		case m == MarkToCoda:
			slot = &f.toCoda
		}
		if *slot >= 0 {
			if bar.Mark.jump() {
				return f.fail(i, "mark", "oneJump", "other", f.bars[*slot].Mark, "at", barAt(*slot))
			}
			return f.fail(i, "mark", "oneSign", "sign", bar.Mark, "at", barAt(*slot))
		}
		*slot = i
	}
	if f.jump < 0 {
		for _, i := range []int{f.segno, f.coda, f.fine, f.toCoda} {
			if i >= 0 {
				return f.fail(i, "mark", "signNeedsJump", "sign", f.bars[i].Mark)
			}
		}
		return nil
	}
	j, jm := f.jump, f.bars[f.jump].Mark
	// Signs that belong to another kind of jump.
	for _, i := range []int{f.segno, f.coda, f.fine, f.toCoda} {
		if i < 0 {
			continue
		}
		m := f.bars[i].Mark
		if m == MarkSegno && !jm.toSegno() || m == MarkFine && !jm.alFine() || (m == MarkCoda || m == MarkToCoda) && !jm.alCoda() {
			return f.fail(i, "mark", "signWrongJump", "sign", m, "jump", jm, "at", barAt(j))
		}
	}
	target := 0
	if jm.toSegno() {
		if f.segno < 0 {
			return f.fail(j, "mark", "needSegno", "jump", jm)
		}
		if f.segno > j {
			return f.fail(f.segno, "mark", "segnoAfterJump", "jump", jm, "at", barAt(j))
		}
		if n, bad := f.inNonLastEnding(f.segno); bad {
			return f.fail(f.segno, "mark", "segnoInEnding", "n", n)
		}
		target = f.segno
	}
	r := f.regionOf(j)
	closesPlainRepeat := r.group >= 0 && r.ending == 0 && f.groups[r.group].times > 0 && f.groups[r.group].bodyEnd == j
	if r.group >= 0 && !r.last && !closesPlainRepeat {
		return f.fail(j, "mark", "jumpInRepeat", "jump", jm)
	}
	switch {
	case jm.alCoda():
		if f.coda < 0 {
			return f.fail(j, "mark", "needCoda", "jump", jm)
		}
		if f.toCoda < 0 {
			return f.fail(j, "mark", "needToCoda", "jump", jm)
		}
		if f.toCoda < target || f.toCoda > j {
			return f.fail(f.toCoda, "mark", "toCodaPlace", "jump", jm, "at", barAt(j))
		}
		if n, bad := f.inNonLastEnding(f.toCoda); bad {
			return f.fail(f.toCoda, "mark", "toCodaInEnding", "n", n)
		}
		if f.coda != j+1 {
			return f.fail(f.coda, "mark", "codaAfterJump", "jump", jm, "at", barAt(j))
		}
		if r := f.regionOf(f.coda); r.group >= 0 && f.groups[r.group].start != f.coda {
			return f.fail(f.coda, "mark", "codaInRepeat")
		}
	default:
		if j != len(f.bars)-1 {
			return f.fail(j, "mark", "jumpNotLast", "jump", jm)
		}
		if jm.alFine() {
			if f.fine < 0 {
				return f.fail(j, "mark", "needFine", "jump", jm)
			}
			if f.fine < target {
				return f.fail(f.fine, "mark", "fineBeforeSegno", "at", barAt(target))
			}
			if n, bad := f.inNonLastEnding(f.fine); bad {
				return f.fail(f.fine, "mark", "fineInEnding", "n", n)
			}
		}
	}
	return nil
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
	bars := make([][]Bar, len(c.Sections))
	for i, s := range c.Sections {
		bars[i] = s.Bars
	}
	return PlayOrder(bars)
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
//
// Its cognitive complexity is over the lint gate of 30, and accepted: the form's rules in the order
// docs/content.md lists them, one branch a rule, each with its table row.
//
//gocognit:ignore
func (f *form) expand() ([]int, error) {
	n := len(f.bars)
	groupAt := make([]int, n) // the group that starts at each bar, or -1
	for i := range groupAt {
		groupAt[i] = -1
	}
	for gi, g := range f.groups {
		groupAt[g.start] = gi
	}
	pass := make([]int, len(f.groups)) // the pass each group is on
	jumped := false
	order := make([]int, 0, n)
	back := false // the last move went back to a repeat's start
	for i := 0; i < n; {
		bar := f.bars[i]
		r := f.regionOf(i)
		if gi := groupAt[i]; gi >= 0 && !back {
			pass[gi] = 1
		}
		back = false
		// Once a group was played before the jump, it is taken once after it.
		once := r.group >= 0 && jumped && f.groups[r.group].start <= f.jump
		if r.ending > 0 && i == f.groups[r.group].endings[r.ending-1].first {
			g := f.groups[r.group]
			want := pass[r.group]
			if once {
				want = len(g.endings)
			}
			if want != r.ending {
				i = g.endings[want-1].first
				continue
			}
		}
		if len(order) == MaxPlayedBars {
			return nil, f.formError("sections", "tooLong", "max", MaxPlayedBars)
		}
		order = append(order, i)
		switch {
		case jumped && bar.Mark == MarkFine:
			return order, nil
		case jumped && bar.Mark == MarkToCoda:
			i = f.coda
			continue
		}
		if bar.RepeatEnd != 0 && !once {
			g := f.groups[r.group]
			times := g.times
			if r.ending > 0 {
				times = r.ending + 1
			}
			if pass[r.group] < times {
				pass[r.group]++
				i, back = g.start, true
				continue
			}
		}
		if i == f.jump && !jumped {
			jumped = true
			i = 0
			if bar.Mark.toSegno() {
				i = f.segno
			}
			continue
		}
		i++
	}
	return order, nil
}
