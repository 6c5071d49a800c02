package board

// player follows a checked form bar by bar (form.go's rules), as expand drives it.
type player struct {
	f       *form
	groupAt []int // the group that starts at each bar, or -1
	closer  []int // the group whose end repeat stands after each bar, or -1
	endAt   []int // the ending (1, 2, …) that starts at each bar, or 0; its group is endOf
	endOf   []int
	pass    []int // the pass each group is on
	jumped  bool
	back    bool // the last move went back to a repeat's start
	order   []int
}

func newPlayer(f *form) *player {
	n := len(f.bars)
	p := &player{f: f, groupAt: filled(n, -1), closer: filled(n, -1), endAt: make([]int, n), endOf: filled(n, -1),
		pass: make([]int, len(f.groups)), order: make([]int, 0, n)}
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

// once reports whether group gi is taken once: it was played before the jump, which has been taken.
func (p *player) once(gi int) bool {
	return p.jumped && p.f.groups[gi].start <= p.f.jump
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
	switch {
	case p.jumped && bar.Mark == MarkFine:
		return -1, nil
	case p.jumped && (bar.Mark == MarkToCoda || bar.ToCoda):
		return f.coda, nil
	}
	if gi := p.closer[i]; gi >= 0 && !p.once(gi) && p.pass[gi] < bar.RepeatEnd {
		p.pass[gi]++
		p.back = true
		return f.groups[gi].start, nil
	}
	if i == f.jump && !p.jumped {
		p.jumped = true
		return f.target(), nil
	}
	return i + 1, nil
}
