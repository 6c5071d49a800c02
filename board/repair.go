package board

import "errors"

// SignLeftOut is a sign an importer left out of a chart: the sign, its bar (At, and Number, counted
// across sections from 1) and the rule of the form it broke.
type SignLeftOut struct {
	Mark   Mark
	At     BarRef
	Number int
	Err    *ValidationError
}

// LeaveOutSign is the importers' one repair step. When err, from c.Validate, is about a bar's sign (a
// sign without its jump, or where its jump cannot use it), the sign is taken off c and returned; for
// any other error ok is false, and no repair helps. A chart that cannot be played as written keeps
// what can be played: an importer validates, repairs and validates again until the content passes or
// a step says no. Each step takes a sign off, so the loop ends.
func (c *Content) LeaveOutSign(err error) (SignLeftOut, bool) {
	ve, ok := errors.AsType[*ValidationError](err)
	if !ok || ve.Bar == nil || ve.Member != "mark" && ve.Member != "toCoda" {
		return SignLeftOut{}, false
	}
	at := *ve.Bar
	if at.Section < 0 || at.Section >= len(c.Sections) || at.Bar < 0 || at.Bar >= len(c.Sections[at.Section].Bars) {
		return SignLeftOut{}, false
	}
	bar := &c.Sections[at.Section].Bars[at.Bar]
	if ve.Member == "toCoda" && bar.ToCoda {
		bar.ToCoda = false
		return SignLeftOut{Mark: MarkToCoda, At: at, Number: c.barNumber(at), Err: ve}, true
	}
	if bar.Mark == "" {
		return SignLeftOut{}, false
	}
	left := SignLeftOut{Mark: bar.Mark, At: at, Number: c.barNumber(at), Err: ve}
	bar.Mark = ""
	return left, true
}

// barNumber is the number of the bar at as a musician counts: 1, 2, … across sections.
func (c *Content) barNumber(at BarRef) int {
	n := at.Bar + 1
	for _, s := range c.Sections[:at.Section] {
		n += len(s.Bars)
	}
	return n
}
