package board

// player follows a checked form bar by bar (form.go's rules), as expand drives it.
type player struct {
	f       *form
	groupAt []int // the group that starts at each bar, or -1
	closer  []int // the group whose end repeat stands after each bar, or -1
	endAt   []int // the ending (1, 2, …) that starts at each bar, or 0; its group is endOf
	endOf   []int
	pass    []int // the pass each group is on
	taken   []int // how often each of f.jumps has been taken
	// following is the jump (index in f.jumps) whose journey the band is on, -1 none; lastJump the
	// furthest bar of a jump taken so far, -1 before any: the repeats up to it have been played.
	following, lastJump int
	back                bool // the last move went back to a repeat's start
	order               []int
}

func newPlayer(f *form) *player {
	n := len(f.bars)
	p := &player{f: f, groupAt: filled(n, -1), closer: filled(n, -1), endAt: make([]int, n), endOf: filled(n, -1),
		pass: make([]int, len(f.groups)), order: make([]int, 0, n), taken: make([]int, len(f.jumps)), following: -1, lastJump: -1}
	for gi, g := range f.groups {
		p.groupAt[g.start] = gi
		if g.times > 0 {
			p.closer[g.bodyEnd] = gi
		}
		for k, e := range g.endings {
			if e.first > e.last {
				continue // an ending left implicit
			}
			p.endAt[e.first], p.endOf[e.first] = k+1, gi
			if f.bars[e.last].RepeatEnd != 0 {
				p.closer[e.last] = gi
			}
		}
	}
	return p
}

func filled(n, v int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// once reports whether group gi is taken once: it was played before a jump that has been taken.
func (p *player) once(gi int) bool {
	return p.f.groups[gi].start <= p.lastJump
}

// allTaken reports whether every jump has been taken: the band is on its last journey.
func (p *player) allTaken() bool {
	for _, n := range p.taken {
		if n == 0 {
			return false
		}
	}
	return len(p.taken) > 0
}

// followed is the mark of the jump being followed, "" when none.
func (p *player) followed() Mark {
	if p.following < 0 {
		return ""
	}
	return p.f.bars[p.f.jumps[p.following]].Mark
}

// step plays bar i, or skips to the ending due, and returns the next bar (-1: the end).
func (p *player) step(i int) (int, error) {
	f := p.f
	if gi := p.groupAt[i]; gi >= 0 && !p.back {
		p.pass[gi] = 1
	}
	p.back = false
	if n := p.endAt[i]; n > 0 {
		gi := p.endOf[i]
		want := p.pass[gi]
		if p.once(gi) {
			want = f.groups[gi].afterJump + 1
		}
		if want != n {
			return f.groups[gi].endings[want-1].first, nil
		}
	}
	if len(p.order) == MaxPlayedBars {
		return 0, f.formError("sections", "tooLong", "max", MaxPlayedBars)
	}
	p.order = append(p.order, i)
	bar := f.bars[i]
	jm := p.followed()
	if bar.Mark == MarkFine && !jm.alCoda() {
		switch {
		case p.allTaken():
			return -1, nil
		case jm.alFine():
			// The head is over: on to what follows the jump just taken (the solos).
			next := f.jumps[p.following] + 1
			p.following = -1
			return next, nil
		}
	}
	if (bar.Mark == MarkToCoda || bar.ToCoda) && jm.alCoda() {
		p.following = -1
		return f.coda, nil
	}
	if gi := p.closer[i]; gi >= 0 && !p.once(gi) && p.pass[gi] < bar.RepeatEnd {
		p.pass[gi]++
		p.back = true
		return f.groups[gi].start, nil
	}
	if k := p.jumpAt(i); k >= 0 {
		p.taken[k]++
		p.following, p.lastJump = k, max(p.lastJump, i)
		return f.targetOf(i), nil
	}
	return i + 1, nil
}

// jumpAt is the jump at bar i (index in f.jumps) the band takes now, -1 when it plays on: each jump the
// first time; on the last journey an al Fine jump once more when a Fine lies between its target and it.
func (p *player) jumpAt(i int) int {
	f := p.f
	for k, j := range f.jumps {
		if j != i {
			continue
		}
		switch {
		case p.taken[k] == 0:
			return k
		case p.taken[k] == 1 && len(f.jumps) == 2 && p.allTaken() && f.bars[j].Mark.alFine() && f.fineBetween(f.targetOf(j), j):
			return k
		}
	}
	return -1
}

// fineBetween reports whether a Fine stands on a bar from..to.
func (f *form) fineBetween(from, to int) bool {
	for _, i := range f.fines {
		if from <= i && i <= to {
			return true
		}
	}
	return false
}
