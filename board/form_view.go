package board

// Endings says how a chart draws its endings, section by section, bar by bar (0 where nothing):
// in[s][b] is the ending the bar is in, so that a volta bracket runs over every bar of its ending and
// not only the one that opens it; al[s][b] is the ending a plain D.C. or D.S. on the bar leads to
// (content schema version 3: an ending reached only by the jump), which a chart writes as "D.C. al 3rd
// ending". A form that breaks the rules (Validate) gives the endings only where they are written.
func (c Content) Endings() (in, al [][]int) {
	in = make([][]int, len(c.Sections))
	al = make([][]int, len(c.Sections))
	for s, sec := range c.Sections {
		in[s] = make([]int, len(sec.Bars))
		al[s] = make([]int, len(sec.Bars))
		for b, bar := range sec.Bars {
			in[s][b] = bar.Ending
		}
	}
	f, err := checkForm(c.bars())
	if err != nil {
		return in, al
	}
	for _, g := range f.groups {
		for n, e := range g.endings {
			for i := e.first; i <= e.last; i++ {
				in[f.refs[i].Section][f.refs[i].Bar] = n + 1
			}
		}
		if g.byJump && f.jump >= 0 && f.jump == g.endings[len(g.endings)-1].first-1 {
			al[f.refs[f.jump].Section][f.refs[f.jump].Bar] = len(g.endings)
		}
	}
	return in, al
}
