package board

import (
	"fmt"
	"slices"
	"strconv"
)

// Accepting a proposal takes all of it, some of its bars, or some of its sections onto the board as it
// is now. The proposal was made against its base revision; where the board has moved since, a bar
// the proposal changes that the board changed too, differently, is a conflict: nothing is written, and
// the musician resolves it as two browsers' edits of one bar.

// Selection is what of a proposal to accept: Bars (section, bar; 0-based, in the proposal's content),
// or Sections (indices in the proposal's content, each taken whole: a section the proposal adds is
// inserted at its place), or, both empty, all of it.
type Selection struct {
	Bars     [][2]int
	Sections []int
}

// SelectionError is a selection that names no bar or section of the proposal, names one twice, or
// names a bar whose section the proposal changes in form (bars added or removed), which only the whole
// section can take.
type SelectionError struct{ Reason string }

func (e *SelectionError) Error() string { return "board: bad selection: " + e.Reason }

// ProposalConflictError lists the bars (section, bar; 0-based, in the proposal's content) and the
// fields that both the proposal and the board changed since the proposal's base, differently.
type ProposalConflictError struct {
	Bars   [][2]int
	Fields []string
}

func (e *ProposalConflictError) Error() string {
	return "board: the proposal conflicts with " + strconv.Itoa(len(e.Bars)+len(e.Fields)) + " changes made since its base"
}

// MergeProposal returns cur with what sel takes of prop, judged against base.
func MergeProposal(base, cur, prop Content, sel Selection) (Content, error) {
	switch {
	case len(sel.Bars) > 0 && len(sel.Sections) > 0:
		return Content{}, &SelectionError{"name bars or sections, not both"}
	case len(sel.Bars) > 0:
		return mergeBars(base, cur, prop, sel.Bars)
	case len(sel.Sections) > 0:
		return mergeSections(base, cur, prop, sel.Sections)
	}
	return mergeAll(base, cur, prop)
}

func mergeAll(base, cur, prop Content) (Content, error) {
	if contentEqual(base, cur) {
		return prop, nil
	}
	out := cur
	conflict := &ProposalConflictError{}
	field := func(name string, b, c, p any, take func()) {
		if b == p || c == p {
			return
		}
		if b != c {
			conflict.Fields = append(conflict.Fields, name)
			return
		}
		take()
	}
	field("title", base.Title, cur.Title, prop.Title, func() { out.Title = prop.Title })
	field("description", base.Description, cur.Description, prop.Description, func() { out.Description = prop.Description })
	field("artist", base.Artist, cur.Artist, prop.Artist, func() { out.Artist = prop.Artist })
	field("composer", base.Composer, cur.Composer, prop.Composer, func() { out.Composer = prop.Composer })
	field("style", base.Style, cur.Style, prop.Style, func() { out.Style = prop.Style })
	field("key", base.Key, cur.Key, prop.Key, func() { out.Key = prop.Key })
	field("tempo", base.Tempo, cur.Tempo, prop.Tempo, func() { out.Tempo = prop.Tempo })
	field("beatsPerBar", base.BeatsPerBar, cur.BeatsPerBar, prop.BeatsPerBar, func() { out.BeatsPerBar = prop.BeatsPerBar })
	switch {
	case sectionsEqual(base.Sections, prop.Sections) || sectionsEqual(cur.Sections, prop.Sections):
	case sectionsEqual(base.Sections, cur.Sections):
		out.Sections = prop.Sections
	case sameForm(base, cur) && sameForm(base, prop):
		out.Sections = slices.Clone(cur.Sections)
		for s := range prop.Sections {
			at := "sections[" + strconv.Itoa(s) + "]."
			bs, cs, ps := base.Sections[s], cur.Sections[s], prop.Sections[s]
			field(at+"label", bs.Label, cs.Label, ps.Label, func() { out.Sections[s].Label = ps.Label })
			field(at+"role", bs.Role, cs.Role, ps.Role, func() { out.Sections[s].Role = ps.Role })
			field(at+"recall", bs.Recall, cs.Recall, ps.Recall, func() { out.Sections[s].Recall = ps.Recall })
			// A section's words are taken whole: the proposal's when only it changed them, a conflict
			// when the board changed them too, differently.
			bl, cl, pl := base.Sections[s].Lines, cur.Sections[s].Lines, prop.Sections[s].Lines
			switch eq := func(x, y []Line) bool { return slices.EqualFunc(x, y, Line.Equal) }; {
			case eq(bl, pl) || eq(cl, pl):
			case eq(bl, cl):
				out.Sections[s].Lines = pl
			default:
				conflict.Fields = append(conflict.Fields, "sections["+strconv.Itoa(s)+"].lines")
			}
			out.Sections[s].Bars = slices.Clone(cur.Sections[s].Bars)
			for b := range prop.Sections[s].Bars {
				bb, cb, pb := base.Sections[s].Bars[b], cur.Sections[s].Bars[b], prop.Sections[s].Bars[b]
				if barEqual(bb, pb) || barEqual(cb, pb) {
					continue
				}
				if !barEqual(bb, cb) {
					conflict.Bars = append(conflict.Bars, [2]int{s, b})
					continue
				}
				out.Sections[s].Bars[b] = pb
			}
		}
	default:
		// The board's form moved and the proposal changes bars: no bar can be placed safely.
		conflict.Bars = changedBars(base, prop)
	}
	if len(conflict.Bars) > 0 || len(conflict.Fields) > 0 {
		return Content{}, conflict
	}
	return out, nil
}

// Equal reports whether a and b are the same bar, as accepting a proposal compares bars.
func (b Bar) Equal(o Bar) bool { return barEqual(b, o) }

// Equality of contents, without encoding them: a merge compares every bar three ways.
func barEqual(a, b Bar) bool {
	return slices.Equal(a.Chords, b.Chords) && slices.Equal(a.Durations, b.Durations) && a.Simile == b.Simile && a.Beats == b.Beats &&
		a.RepeatStart == b.RepeatStart && a.RepeatEnd == b.RepeatEnd && a.Ending == b.Ending && a.Mark == b.Mark
}

func sectionEqual(a, b Section) bool {
	return a.Label == b.Label && a.Role == b.Role && a.Recall == b.Recall && slices.EqualFunc(a.Bars, b.Bars, barEqual) &&
		slices.EqualFunc(a.Lines, b.Lines, Line.Equal)
}

func sectionsEqual(a, b []Section) bool { return slices.EqualFunc(a, b, sectionEqual) }

func contentEqual(a, b Content) bool {
	return a.Title == b.Title && a.Description == b.Description && a.Artist == b.Artist && a.Composer == b.Composer &&
		a.Style == b.Style && a.Key == b.Key && a.Tempo == b.Tempo &&
		a.BeatsPerBar == b.BeatsPerBar && sectionsEqual(a.Sections, b.Sections)
}

// sameForm reports whether a and b have the same sections with the same number of bars each.
func sameForm(a, b Content) bool {
	return slices.EqualFunc(a.Sections, b.Sections, func(x, y Section) bool { return len(x.Bars) == len(y.Bars) })
}

// changedBars lists the bars of prop that differ from base at the same place, or that base lacks.
func changedBars(base, prop Content) [][2]int {
	var out [][2]int
	for s, sec := range prop.Sections {
		for b, bar := range sec.Bars {
			if s >= len(base.Sections) || b >= len(base.Sections[s].Bars) || !barEqual(base.Sections[s].Bars[b], bar) {
				out = append(out, [2]int{s, b})
			}
		}
	}
	return out
}

func mergeBars(base, cur, prop Content, bars [][2]int) (Content, error) {
	out := cur
	out.Sections = slices.Clone(cur.Sections)
	cloned := make(map[int]bool)
	seen := make(map[[2]int]bool, len(bars))
	conflict := &ProposalConflictError{}
	for _, sb := range bars {
		s, b := sb[0], sb[1]
		name := "bar [" + strconv.Itoa(s) + "," + strconv.Itoa(b) + "]"
		if s < 0 || s >= len(prop.Sections) || b < 0 || b >= len(prop.Sections[s].Bars) {
			return Content{}, &SelectionError{name + " is not a bar of the proposal"}
		}
		if seen[sb] {
			return Content{}, &SelectionError{name + " is named twice"}
		}
		seen[sb] = true
		n := len(prop.Sections[s].Bars)
		if s >= len(base.Sections) || s >= len(cur.Sections) || len(base.Sections[s].Bars) != n || len(cur.Sections[s].Bars) != n {
			return Content{}, &SelectionError{fmt.Sprintf("%s is in section %d, whose bars were added or removed: accept the section whole", name, s)}
		}
		bb, cb, pb := base.Sections[s].Bars[b], cur.Sections[s].Bars[b], prop.Sections[s].Bars[b]
		if barEqual(cb, pb) {
			continue
		}
		if !barEqual(bb, cb) {
			conflict.Bars = append(conflict.Bars, sb)
			continue
		}
		if !cloned[s] {
			out.Sections[s].Bars = slices.Clone(cur.Sections[s].Bars)
			cloned[s] = true
		}
		out.Sections[s].Bars[b] = pb
	}
	if len(conflict.Bars) > 0 {
		return Content{}, conflict
	}
	return out, nil
}

func mergeSections(base, cur, prop Content, secs []int) (Content, error) {
	sorted := slices.Clone(secs)
	slices.Sort(sorted)
	for i, s := range sorted {
		if s < 0 || s >= len(prop.Sections) {
			return Content{}, &SelectionError{"section " + strconv.Itoa(s) + " is not a section of the proposal"}
		}
		if i > 0 && sorted[i-1] == s {
			return Content{}, &SelectionError{"section " + strconv.Itoa(s) + " is named twice"}
		}
	}
	out := cur
	out.Sections = slices.Clone(cur.Sections)
	conflict := &ProposalConflictError{}
	for _, s := range sorted {
		if s >= len(base.Sections) { // a section the proposal adds
			out.Sections = slices.Insert(out.Sections, min(s, len(out.Sections)), prop.Sections[s])
			continue
		}
		if s >= len(cur.Sections) || !sectionEqual(base.Sections[s], cur.Sections[s]) {
			if s < len(cur.Sections) && sectionEqual(cur.Sections[s], prop.Sections[s]) {
				continue
			}
			for b := range prop.Sections[s].Bars {
				conflict.Bars = append(conflict.Bars, [2]int{s, b})
			}
			continue
		}
		out.Sections[s] = prop.Sections[s]
	}
	if len(conflict.Bars) > 0 {
		return Content{}, conflict
	}
	return out, nil
}
