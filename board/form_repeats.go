package board

// Reading the repeats and endings of a chart, bar by bar in written order: a small state machine whose
// states are "outside a repeat", "in a repeat's bars", "in ending n" and "after the end repeat that
// closes ending n" (await). Each step is one of the rules of form.go's comment.

// repeatReader is the state of readRepeats between bars.
type repeatReader struct {
	f       *form
	open    int // the group whose bars or endings are being read, -1 outside every repeat
	inner   int // a plain repeat (a vamp) open inside the open group, -1 when none
	await   int // the ending due at this bar (after the end repeat that closes the one before), 0: none
	closing int // the bar of that end repeat
	// ended is the group whose last ending ended at a bar line without an end repeat (the last group
	// read), so that an ending reached by a jump may still join it; -1 when none.
	ended int
	taken int // the bar whose ending afterClosing has read, -1 when none
}

// readRepeats finds the repeats and their endings.
func (f *form) readRepeats() error {
	r := &repeatReader{f: f, open: -1, inner: -1, ended: -1, taken: -1}
	for i := range f.bars {
		if err := r.step(i); err != nil {
			return err
		}
	}
	return r.finish()
}

// step reads bar i.
func (r *repeatReader) step(i int) error {
	f := r.f
	bar := f.bars[i]
	if i == 0 && bar.Simile {
		return f.fail(i, "chords", "firstSimile")
	}
	if err := r.boundary(i); err != nil {
		return err
	}
	if r.await != 0 {
		if err := r.afterClosing(i); err != nil {
			return err
		}
	}
	if bar.RepeatStart {
		if err := r.start(i); err != nil {
			return err
		}
	}
	if bar.Ending != 0 {
		if err := r.ending(i); err != nil {
			return err
		}
	}
	if bar.RepeatEnd != 0 {
		return r.end(i)
	}
	return nil
}

// inEnding is the number of the ending being read (1, 2, …), 0 when none.
func (r *repeatReader) inEnding() int {
	if r.open < 0 || r.await != 0 {
		return 0
	}
	return len(r.f.groups[r.open].endings)
}

// boundary ends the ending being read where a section starts or a repeat starts at bar i, unless it
// closes with an end repeat further on (an ending that goes back may run across a section mark).
func (r *repeatReader) boundary(i int) error {
	n := r.inEnding()
	f := r.f
	sectionStart := i > 0 && f.refs[i].Bar == 0
	if n == 0 || r.inner >= 0 || !sectionStart && !f.bars[i].RepeatStart {
		return nil
	}
	if !f.bars[i].RepeatStart && r.closesAhead(i) {
		f.v3 = true // ending n runs across the section mark to its end repeat
		return nil
	}
	if n == 1 && !sectionStart && r.closesPlain(i) {
		return nil // a vamp inside ending 1, which goes back after it
	}
	return r.endLast(i)
}

// closesAhead reports whether an end repeat comes at or after bar i before another repeat or ending
// starts.
func (r *repeatReader) closesAhead(i int) bool {
	for k := i; k < len(r.f.bars); k++ {
		b := r.f.bars[k]
		if k > i && (b.RepeatStart || b.Ending != 0) {
			return false
		}
		if b.RepeatEnd != 0 {
			return true
		}
	}
	return false
}

// endLast ends the open group's last ending with bar i-1.
func (r *repeatReader) endLast(i int) error {
	g := &r.f.groups[r.open]
	if len(g.endings) < 2 {
		return r.f.fail(g.endings[0].first, "ending", "ending1NeedsEnd")
	}
	g.endings[len(g.endings)-1].last = i - 1
	r.ended, r.open = r.open, -1
	return nil
}

// afterClosing reads bar i right after an end repeat that closes ending await-1: ending await starts
// here, or the repeat ends with the bars after it played the last time through (an ending left
// implicit, as charts write "1." alone).
func (r *repeatReader) afterClosing(i int) error {
	f := r.f
	bar := f.bars[i]
	switch bar.Ending {
	case r.await:
		g := &f.groups[r.open]
		g.endings = append(g.endings, span{i, -1})
		r.await, r.taken = 0, i
		return nil
	case 0:
		r.implicitLast()
		return nil
	}
	return f.fail(i, "ending", "endingMustBe", "want", r.await, "prev", r.await-1)
}

// implicitLast closes the open group after its end repeat: its last pass plays none of its endings
// but goes on after them (an empty ending).
func (r *repeatReader) implicitLast() {
	g := &r.f.groups[r.open]
	g.endings = append(g.endings, span{r.closing + 1, r.closing})
	r.f.v3 = true
	r.open, r.await, r.ended = -1, 0, -1
}

// start reads the start repeat at bar i: a repeat, or a plain repeat inside the open one.
func (r *repeatReader) start(i int) error {
	f := r.f
	if r.open >= 0 && r.inner < 0 && r.closesPlain(i) {
		f.groups = append(f.groups, repeatGroup{start: i, outer: r.open})
		r.inner = len(f.groups) - 1
		f.v3 = true
		return nil
	}
	if r.open >= 0 {
		return f.fail(i, "repeatStart", "repeatOpen", "at", barAt(f.groups[r.open].start))
	}
	f.groups = append(f.groups, repeatGroup{start: i, outer: -1})
	r.open, r.ended = len(f.groups)-1, -1
	return nil
}

// closesPlain reports whether the repeat starting at bar i, inside the open one, closes with a plain
// end repeat before any ending, start repeat or section mark, and the open repeat goes on after it
// (so it is a vamp inside the repeat, not a second repeat beside it).
func (r *repeatReader) closesPlain(i int) bool {
	f := r.f
	k := i
	for ; k < len(f.bars) && f.bars[k].RepeatEnd == 0; k++ {
		b := f.bars[k]
		if b.Ending != 0 || k > i && (b.RepeatStart || f.refs[k].Bar == 0) {
			return false
		}
	}
	if k == len(f.bars) || f.bars[k].Ending != 0 {
		return false
	}
	for k++; k < len(f.bars) && !f.bars[k].RepeatStart; k++ {
		if f.bars[k].RepeatEnd != 0 {
			return true // the open repeat still closes after the vamp
		}
	}
	return false
}

// ending reads the ending that starts at bar i (one that does not follow an end repeat).
func (r *repeatReader) ending(i int) error {
	f := r.f
	n := f.bars[i].Ending
	if i == r.taken {
		return nil // read in afterClosing
	}
	if r.inner >= 0 {
		return f.fail(i, "ending", "nestedEnding", "n", n)
	}
	if r.open < 0 {
		return r.endingByJump(i, r.ended, n)
	}
	g := &f.groups[r.open]
	if k := len(g.endings); k > 0 {
		if n == k+1 && k >= 2 {
			// Ending k went on with no end repeat: the last before the jump, and n is reached by it.
			g.endings[k-1].last = i - 1
			return r.endingByJump(i, r.open, n)
		}
		return f.fail(i, "ending", "endingInsideEnding", "n", n, "open", k, "next", k+1)
	}
	if n != 1 {
		return f.fail(i, "ending", "firstEndingOne", "n", n)
	}
	g.bodyEnd = i - 1
	g.endings = append(g.endings, span{i, -1})
	return nil
}

// endingByJump reads ending n at bar i as the last ending of group gi, whose ending n-1 ended with no
// end repeat: the band reaches it only by a D.C. or D.S. (readSigns checks the jump).
func (r *repeatReader) endingByJump(i, gi, n int) error {
	f := r.f
	if gi < 0 || n != len(f.groups[gi].endings)+1 || n < 2 {
		return f.fail(i, "ending", "endingOutside", "n", n)
	}
	g := &f.groups[gi]
	g.endings = append(g.endings, span{i, -1})
	g.byJump = true
	f.v3 = true
	r.open, r.ended = gi, -1
	return nil
}

// end reads the end repeat at bar i.
func (r *repeatReader) end(i int) error {
	f := r.f
	times := f.bars[i].RepeatEnd
	if r.inner >= 0 {
		g := &f.groups[r.inner]
		g.bodyEnd, g.times = i, times
		r.inner = -1
		return nil
	}
	if r.open < 0 {
		return f.fail(i, "repeatEnd", "endNoStart")
	}
	g := &f.groups[r.open]
	n := len(g.endings)
	switch {
	case n == 0:
		g.bodyEnd, g.times = i, times
		r.open = -1
		return nil
	case g.byJump:
		return f.fail(i, "repeatEnd", "jumpEndingEnds", "n", n)
	case n == MaxEnding:
		return f.fail(i, "repeatEnd", "lastEnding", "n", n)
	case times != n+1:
		return f.fail(i, "repeatEnd", "endingPass", "n", n, "next", n+1, "got", times)
	}
	g.endings[n-1].last = i
	r.await, r.closing = n+1, i
	return nil
}

// finish closes what is still open after the last bar.
func (r *repeatReader) finish() error {
	f := r.f
	switch {
	case r.inner >= 0:
		return f.fail(f.groups[r.inner].start, "repeatStart", "neverEnds")
	case r.await != 0:
		r.implicitLast()
	case r.open >= 0 && len(f.groups[r.open].endings) == 0:
		return f.fail(f.groups[r.open].start, "repeatStart", "neverEnds")
	case r.open >= 0:
		return r.endLast(len(f.bars))
	}
	return nil
}
