package board

// Reading the road signs of a chart and checking that they make one playable route (form.go's rules),
// one small check a rule.

// readSigns finds the road signs and checks that they make one playable route.
func (f *form) readSigns() error {
	if err := f.placeSigns(); err != nil {
		return err
	}
	if f.jump < 0 {
		for _, s := range f.signs() {
			if s.at >= 0 {
				return f.fail(s.at, f.member(s.at, s.mark), "signNeedsJump", "sign", s.mark)
			}
		}
		return f.noEndingByJump()
	}
	if f.v4 {
		return f.twoJumps()
	}
	for _, check := range []func() error{f.signsOfJump, f.checkSegno, f.checkJumpPlace, f.checkEnd, f.checkEndingsAfterJump} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// placeSigns notes where each sign stands: at most two jumps and two Fines (version 4), one of each
// other sign.
func (f *form) placeSigns() error {
	for i, bar := range f.bars {
		switch m := bar.Mark; {
		case m == "":
			continue
		case m.jump():
			if len(f.jumps) == 2 {
				return f.fail(i, "mark", "oneJump", "other", f.bars[f.jumps[1]].Mark, "at", barAt(f.jumps[1]))
			}
			f.jumps = append(f.jumps, i)
			continue
		case m == MarkFine:
			if len(f.fines) == 2 {
				return f.fail(i, "mark", "twoFines", "at", barAt(f.fines[1]))
			}
			f.fines = append(f.fines, i)
			continue
		}
		slot := &f.segno
		switch bar.Mark {
		case MarkCoda:
			slot = &f.coda
		case MarkToCoda:
			slot = &f.toCoda
		}
		if *slot >= 0 {
			return f.fail(i, "mark", "oneSign", "sign", bar.Mark, "at", barAt(*slot))
		}
		*slot = i
	}
	if len(f.jumps) > 0 {
		f.jump = f.jumps[0]
	}
	if len(f.fines) > 0 {
		f.fine = f.fines[0]
	}
	// Two Fines belong to two al Fine jumps, one each.
	switch {
	case len(f.fines) < 2:
	case len(f.jumps) < 2:
		return f.fail(f.fines[1], "mark", "oneSign", "sign", MarkFine, "at", barAt(f.fines[0]))
	case !f.bars[f.jumps[0]].Mark.alFine() || !f.bars[f.jumps[1]].Mark.alFine():
		return f.fail(f.fines[1], "mark", "twoFines", "at", barAt(f.fines[0]))
	}
	f.v4 = len(f.jumps) == 2
	for i, bar := range f.bars {
		if !bar.ToCoda {
			continue
		}
		if bar.Mark == "" || bar.Mark == MarkToCoda || bar.Mark == MarkCoda {
			return f.fail(i, "toCoda", "toCodaAlone")
		}
		if f.toCoda >= 0 {
			return f.fail(i, "toCoda", "oneSign", "sign", MarkToCoda, "at", barAt(f.toCoda))
		}
		f.toCoda = i
		f.v3 = true
	}
	return nil
}

// signs are the sign slots with the mark each stands for.
func (f *form) signs() [4]struct {
	at   int
	mark Mark
} {
	return [4]struct {
		at   int
		mark Mark
	}{{f.segno, MarkSegno}, {f.coda, MarkCoda}, {f.fine, MarkFine}, {f.toCoda, MarkToCoda}}
}

// member is the member of bar i that holds the sign m: toCoda for a To Coda beside another sign.
func (f *form) member(i int, m Mark) string {
	if m == MarkToCoda && f.bars[i].ToCoda {
		return "toCoda"
	}
	return "mark"
}

// noEndingByJump refuses an ending reached by a jump in a chart with none.
func (f *form) noEndingByJump() error {
	for _, g := range f.groups {
		if g.byJump {
			e := g.endings[len(g.endings)-1].first
			return f.fail(e, "ending", "endingByJump", "n", len(g.endings))
		}
	}
	return nil
}

// signsOfJump refuses a sign that belongs to another kind of jump.
func (f *form) signsOfJump() error {
	j, jm := f.jump, f.bars[f.jump].Mark
	for _, s := range f.signs() {
		m := s.mark
		if s.at < 0 {
			continue
		}
		if m == MarkSegno && !jm.toSegno() || m == MarkFine && !jm.alFine() || (m == MarkCoda || m == MarkToCoda) && !jm.alCoda() {
			return f.fail(s.at, f.member(s.at, m), "signWrongJump", "sign", m, "jump", jm, "at", barAt(j))
		}
	}
	return nil
}

// target is the bar the jump goes back to.
func (f *form) target() int { return f.targetOf(f.jump) }

// targetOf is the bar the jump at bar j goes back to.
func (f *form) targetOf(j int) int {
	if f.bars[j].Mark.toSegno() {
		return f.segno
	}
	return 0
}

func (f *form) checkSegno() error {
	j, jm := f.jump, f.bars[f.jump].Mark
	if !jm.toSegno() {
		return nil
	}
	if f.segno < 0 {
		return f.fail(j, "mark", "needSegno", "jump", jm)
	}
	if f.segno > j {
		return f.fail(f.segno, "mark", "segnoAfterJump", "jump", jm, "at", barAt(j))
	}
	if n, bad := f.inNonLastEnding(f.segno); bad {
		return f.fail(f.segno, "mark", "segnoInEnding", "n", n)
	}
	return nil
}

// leadsToEnding reports whether the jump stands right before an ending reached by it.
func (f *form) leadsToEnding() bool {
	for _, g := range f.groups {
		if g.byJump && g.endings[len(g.endings)-1].first == f.jump+1 {
			return true
		}
	}
	return false
}

// checkJumpPlace refuses a jump that would cut a repeat short.
func (f *form) checkJumpPlace() error {
	j := f.jump
	r := f.regionOf(j)
	closesPlainRepeat := r.group >= 0 && r.ending == 0 && f.groups[r.group].times > 0 && f.groups[r.group].bodyEnd == j
	if r.group >= 0 && !r.last && !closesPlainRepeat && !f.leadsToEnding() {
		return f.fail(j, "mark", "jumpInRepeat", "jump", f.bars[j].Mark)
	}
	return nil
}

// checkEnd checks how the band ends after the jump: at Fine, in the coda, or at the end.
func (f *form) checkEnd() error {
	j, jm := f.jump, f.bars[f.jump].Mark
	switch {
	case jm.alCoda():
		return f.checkCoda()
	case j != len(f.bars)-1 && !f.leadsToEnding():
		return f.fail(j, "mark", "jumpNotLast", "jump", jm)
	case !jm.alFine():
		return nil
	case f.fine < 0:
		return f.fail(j, "mark", "needFine", "jump", jm)
	case f.fine < f.target():
		return f.fail(f.fine, "mark", "fineBeforeSegno", "at", barAt(f.target()))
	}
	return f.takeEndingOf(f.fine, "fineInEnding")
}

func (f *form) checkCoda() error {
	j, jm := f.jump, f.bars[f.jump].Mark
	switch {
	case f.coda < 0:
		return f.fail(j, "mark", "needCoda", "jump", jm)
	case f.toCoda < 0:
		return f.fail(j, "mark", "needToCoda", "jump", jm)
	case f.toCoda < f.target() || f.toCoda > j:
		return f.fail(f.toCoda, f.member(f.toCoda, MarkToCoda), "toCodaPlace", "jump", jm, "at", barAt(j))
	}
	if err := f.takeEndingOf(f.toCoda, "toCodaInEnding"); err != nil {
		return err
	}
	if f.coda != j+1 {
		return f.fail(f.coda, "mark", "codaAfterJump", "jump", jm, "at", barAt(j))
	}
	// The coda may start where a repeat starts, or inside a last ending (a bracket a chart closed just
	// before it); never among a repeat's bars or in an ending that goes back.
	r := f.regionOf(f.coda)
	if r.group >= 0 && f.groups[r.group].start != f.coda && (r.ending == 0 || !r.last) {
		return f.fail(f.coda, "mark", "codaInRepeat")
	}
	if r.group >= 0 && r.ending > 0 {
		f.v3 = true
	}
	return nil
}

// takeEndingOf makes the repeat whose ending holds the Fine or To Coda at bar i take that ending after
// the jump (version 3 when it is not the last); a repeat whose last ending is reached by the jump must
// take that one.
func (f *form) takeEndingOf(i int, rule string) error {
	r := f.regionOf(i)
	if r.ending == 0 || r.last {
		return nil
	}
	if f.groups[r.group].byJump {
		m := MarkFine
		if rule == "toCodaInEnding" {
			m = MarkToCoda
		}
		return f.fail(i, f.member(i, m), rule, "n", r.ending, "last", len(f.groups[r.group].endings))
	}
	f.groups[r.group].afterJump = r.ending - 1
	f.v3 = true
	return nil
}

// checkEndingsAfterJump checks each ending reached by the jump: the jump stands right before it and
// goes back to before the repeat's endings, so the band plays the repeat again and takes it.
func (f *form) checkEndingsAfterJump() error {
	for _, g := range f.groups {
		if !g.byJump {
			continue
		}
		n := len(g.endings)
		e := g.endings[n-1].first
		if f.jump != e-1 {
			return f.fail(e, "ending", "endingByJump", "n", n)
		}
		if f.target() > g.bodyEnd {
			jm := f.bars[f.jump].Mark
			return f.fail(f.jump, "mark", "jumpBeforeEnding", "jump", jm, "n", n, "at", barAt(g.start))
		}
	}
	return nil
}

// regionOf says where flat bar i lies, in the outermost repeat that holds it.
func (f *form) regionOf(i int) region {
	for gi, g := range f.groups {
		if i < g.start {
			break
		}
		if g.outer >= 0 {
			continue
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
