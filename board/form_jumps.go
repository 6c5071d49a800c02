package board

// Two jumps in one chart (content schema version 4): a D.C. after the head and a D.S. after the solos,
// as real books write them. form.go states how the band plays them; these are the checks.

// twoJumps checks a chart with two jumps: each sign belongs to one of them, each jump's signs stand
// where its own rules say, and the band plays every bar.
func (f *form) twoJumps() error {
	if err := f.endingJumpAlone(); err != nil {
		return err
	}
	if a := f.bars[f.jumps[0]].Mark; !a.alFine() && !a.alCoda() {
		// A plain jump first would have no end before the other jump: the band would play through it.
		return f.fail(f.jumps[0], "mark", "firstJumpEnds", "jump", a)
	}
	if err := f.signsBelong(); err != nil {
		return err
	}
	for _, j := range f.jumps {
		if err := f.checkJump(j); err != nil {
			return err
		}
	}
	if err := f.signsInEndings(); err != nil {
		return err
	}
	return f.everyBarPlayed()
}

// endingJumpAlone refuses a jump to an ending beside another jump, said at the jump that does not lead
// to the ending: the sign an importer leaves out.
func (f *form) endingJumpAlone() error {
	for _, g := range f.groups {
		if !g.byJump {
			continue
		}
		n, other := len(g.endings), f.jumps[1]
		if other == g.endings[n-1].first-1 {
			other = f.jumps[0]
		}
		return f.fail(other, "mark", "endingJumpAlone", "jump", f.bars[other].Mark, "n", n)
	}
	return nil
}

// signsBelong refuses a sign that neither jump leads to or through.
func (f *form) signsBelong() error {
	a, b := f.bars[f.jumps[0]].Mark, f.bars[f.jumps[1]].Mark
	for _, s := range f.signs() {
		m := s.mark
		if s.at < 0 {
			continue
		}
		belongs := func(j Mark) bool {
			return m == MarkSegno && j.toSegno() || m == MarkFine && j.alFine() || (m == MarkCoda || m == MarkToCoda) && j.alCoda()
		}
		if !belongs(a) && !belongs(b) {
			return f.fail(s.at, f.member(s.at, m), "signWrongJumps", "sign", m, "jump", a, "at", barAt(f.jumps[0]), "other", b, "at2", barAt(f.jumps[1]))
		}
	}
	return nil
}

// signsInEndings checks the Fines, the To Coda and the coda against the endings they stand in, as for
// one jump.
func (f *form) signsInEndings() error {
	for _, i := range f.fines {
		if err := f.takeEndingOf(i, "fineInEnding"); err != nil {
			return err
		}
	}
	if f.toCoda >= 0 {
		if err := f.takeEndingOf(f.toCoda, "toCodaInEnding"); err != nil {
			return err
		}
	}
	if f.coda >= 0 {
		r := f.regionOf(f.coda)
		if r.group >= 0 && f.groups[r.group].start != f.coda && (r.ending == 0 || !r.last) {
			return f.fail(f.coda, "mark", "codaInRepeat")
		}
	}
	return nil
}

// checkJump checks the signs the jump at bar j leads to, and that it cuts no repeat short.
func (f *form) checkJump(j int) error {
	jm := f.bars[j].Mark
	r := f.regionOf(j)
	closesPlainRepeat := r.group >= 0 && r.ending == 0 && f.groups[r.group].times > 0 && f.groups[r.group].bodyEnd == j
	if r.group >= 0 && !r.last && !closesPlainRepeat {
		return f.fail(j, "mark", "jumpInRepeat", "jump", jm)
	}
	if jm.toSegno() {
		switch {
		case f.segno < 0:
			return f.fail(j, "mark", "needSegno", "jump", jm)
		case f.segno > j:
			return f.fail(f.segno, "mark", "segnoAfterJump", "jump", jm, "at", barAt(j))
		}
		if n, bad := f.inNonLastEnding(f.segno); bad {
			return f.fail(f.segno, "mark", "segnoInEnding", "n", n)
		}
	}
	t := f.targetOf(j)
	switch {
	case jm.alFine() && len(f.fines) == 0:
		return f.fail(j, "mark", "needFine", "jump", jm)
	case jm.alFine() && f.fines[len(f.fines)-1] < t && !f.alFineOnTheWay(j):
		return f.fail(f.fines[len(f.fines)-1], "mark", "fineBeforeSegno", "at", barAt(t))
	case !jm.alCoda():
		return nil
	case f.coda < 0:
		return f.fail(j, "mark", "needCoda", "jump", jm)
	case f.toCoda < 0:
		return f.fail(j, "mark", "needToCoda", "jump", jm)
	case f.toCoda < t || f.toCoda > j:
		return f.fail(f.toCoda, f.member(f.toCoda, MarkToCoda), "toCodaPlace", "jump", jm, "at", barAt(j))
	case f.coda <= j:
		return f.fail(f.coda, "mark", "codaAfterJump", "jump", jm, "at", barAt(j))
	}
	return nil
}

// alFineOnTheWay reports whether the other jump is al Fine and stands between the target of the jump at
// bar j and it, with a Fine before it: the band takes it again to reach its Fine (Belleville: D.S. al
// Fine to a segno after the Fine, through the D.C. al Fine).
func (f *form) alFineOnTheWay(j int) bool {
	for _, o := range f.jumps {
		if o != j && f.targetOf(j) <= o && o < j && f.bars[o].Mark.alFine() && f.fineBetween(f.targetOf(o), o) {
			return true
		}
	}
	return false
}

// everyBarPlayed refuses a chart with two jumps whose play passes a bar by: with one jump, where the
// jump stands says so, but two jumps leave the bars between a jump and its Fine to a later journey.
func (f *form) everyBarPlayed() error {
	order, err := f.expand()
	if err != nil {
		return err
	}
	played := make([]bool, len(f.bars))
	for _, i := range order {
		played[i] = true
	}
	for i, p := range played {
		if !p {
			// Said at the second jump, the sign an importer leaves out to play the chart with one.
			j := f.jumps[1]
			return f.fail(j, "mark", "neverPlayed", "jump", f.bars[j].Mark, "bar", barAt(i))
		}
	}
	return nil
}
