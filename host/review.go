package host

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"tele/board"
	"tele/board/store"
)

// review keeps the proposals the model made on this binding (review mode, docs/api.md) until the model
// has heard what the musician did with them: before the model's next turn the bridge asks (`turn`),
// and the host answers one short message about every proposal closed since, then forgets them.
type review struct {
	mu      sync.Mutex
	pending []store.Proposal // oldest first
}

func (r *review) add(p store.Proposal) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pending = append(r.pending, p)
}

// maxToldBars bounds the bars one part of the message names one by one; more are counted.
const maxToldBars = 8

// outcome returns the message about the proposals that closed (accepted, rejected or dropped) since
// the last call, "" when none did, and forgets them. A proposal still open stays for a later turn.
func (r *review) outcome(boards *store.Store, id string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pending) == 0 {
		return "", nil
	}
	open, err := boards.Proposals(id)
	if err != nil {
		return "", err
	}
	cur, err := boards.Get(id)
	if err != nil {
		return "", err
	}
	var lines []string
	var still []store.Proposal
	for _, p := range r.pending {
		if slices.ContainsFunc(open, func(o store.Proposal) bool { return o.ID == p.ID }) {
			still = append(still, p)
			continue
		}
		told, err := toldOf(boards, id, p, cur)
		if err != nil { // the history cannot be read: the model still hears that the proposal closed
			told = "Proposal " + p.ID + ": closed."
		}
		lines = append(lines, told)
	}
	r.pending = still
	if len(lines) == 0 {
		return "", nil
	}
	return "The musician reviewed your proposals for the board (bars counted from 1 in each section): " +
		strings.Join(lines, " ") + " Read the board again (get) before you change it.", nil
}

// toldOf says what became of closed proposal p: which of its changes the revision that accepted it
// took, or that it was rejected or dropped, and which of its bars the musician has since written
// otherwise (cur is the board now).
func toldOf(boards *store.Store, id string, p store.Proposal, cur store.Board) (string, error) {
	head := "Proposal " + p.ID
	if p.Note != "" {
		head += " (" + strconv.Quote(p.Note) + ")"
	}
	accepted, found, err := acceptingRevision(boards, id, p)
	if err != nil {
		return "", err
	}
	base, err := boards.GetRevision(id, p.BaseRevision)
	var parts []string
	switch {
	case !found && cur.Revision-p.BaseRevision >= store.ProposalMaxAge:
		parts = append(parts, fmt.Sprintf("dropped unreviewed: the board moved %d revisions past it", store.ProposalMaxAge))
	case !found:
		parts = append(parts, "rejected")
	case err != nil: // the base is no longer kept: what was taken cannot be told bar by bar
		parts = append(parts, "accepted in revision "+strconv.FormatInt(accepted.Revision, 10))
	default:
		parts = append(parts, takenParts(base.Content, p.Content, accepted.Content)...)
	}
	if err == nil {
		parts = append(parts, changedParts(base.Content, p.Content, cur.Content)...)
	}
	return head + ": " + strings.Join(parts, "; ") + ".", nil
}

// acceptingRevision finds the revision whose history row names p, among those after its base.
func acceptingRevision(boards *store.Store, id string, p store.Proposal) (store.Board, bool, error) {
	before := int64(0)
	for {
		rows, next, err := boards.Revisions(id, before, store.MaxRevisionsPage)
		if err != nil {
			return store.Board{}, false, err
		}
		for _, row := range slices.Backward(rows) {
			if row.Revision <= p.BaseRevision {
				return store.Board{}, false, nil
			}
			if row.Proposal == p.ID {
				b, err := boards.GetRevision(id, row.Revision)
				return b, err == nil, err
			}
		}
		if next == 0 {
			return store.Board{}, false, nil
		}
		before = next
	}
}

// takenParts compares what proposal prop changed from base with what the accepting revision holds.
func takenParts(base, prop, accepted board.Content) []string {
	if contentSame(prop, accepted) {
		return []string{"accepted all of it"}
	}
	var took, left []string
	for _, f := range changedFields(base, prop) {
		if fieldOf(accepted, f) == fieldOf(prop, f) {
			took = append(took, "the "+f)
		} else {
			left = append(left, "the "+f)
		}
	}
	names := sectionNames(prop)
	for s, sec := range prop.Sections {
		if s >= len(base.Sections) || len(base.Sections[s].Bars) != len(sec.Bars) {
			// A section the proposal adds or reshapes is taken whole or not at all.
			if slices.ContainsFunc(accepted.Sections, func(a board.Section) bool { return sectionSame(a, sec) }) {
				took = append(took, "section "+names[s])
			} else {
				left = append(left, "section "+names[s])
			}
			continue
		}
		var in, out []int
		for b, bar := range sec.Bars {
			if bar.Equal(base.Sections[s].Bars[b]) {
				continue
			}
			if s < len(accepted.Sections) && b < len(accepted.Sections[s].Bars) && accepted.Sections[s].Bars[b].Equal(bar) {
				in = append(in, b)
			} else {
				out = append(out, b)
			}
		}
		if len(in) > 0 {
			took = append(took, barList(in)+" of "+names[s])
		}
		if len(out) > 0 {
			left = append(left, barList(out)+" of "+names[s])
		}
	}
	var parts []string
	if len(took) > 0 {
		parts = append(parts, "accepted "+strings.Join(took, ", "))
	}
	if len(left) > 0 {
		parts = append(parts, "rejected "+strings.Join(left, ", "))
	}
	if len(parts) == 0 {
		parts = append(parts, "accepted, changing nothing")
	}
	return parts
}

// changedParts names the bars prop changed that the board now holds in a third way: neither as the
// base had them nor as proposed (the musician wrote something else).
func changedParts(base, prop, now board.Content) []string {
	names := sectionNames(prop)
	var parts []string
	n := 0
	for s, sec := range prop.Sections {
		if s >= len(base.Sections) || s >= len(now.Sections) || len(base.Sections[s].Bars) != len(sec.Bars) || len(now.Sections[s].Bars) != len(sec.Bars) {
			continue
		}
		for b, bar := range sec.Bars {
			was, is := base.Sections[s].Bars[b], now.Sections[s].Bars[b]
			if bar.Equal(was) || is.Equal(bar) || is.Equal(was) {
				continue
			}
			if n++; n <= maxToldBars {
				parts = append(parts, fmt.Sprintf("the musician changed bar %d of %s to %s", b+1, names[s], barText(is)))
			}
		}
	}
	if n > maxToldBars {
		parts = append(parts, fmt.Sprintf("and %d more bars", n-maxToldBars))
	}
	return parts
}

// barList writes 0-based bar indices as a musician counts them: "bar 3", "bars 1–2, 5".
func barList(bars []int) string {
	var runs []string
	for i := 0; i < len(bars); {
		j := i
		for j+1 < len(bars) && bars[j+1] == bars[j]+1 {
			j++
		}
		if j == i {
			runs = append(runs, strconv.Itoa(bars[i]+1))
		} else {
			runs = append(runs, strconv.Itoa(bars[i]+1)+"–"+strconv.Itoa(bars[j]+1))
		}
		i = j + 1
	}
	if len(bars) == 1 {
		return "bar " + runs[0]
	}
	if len(runs) > maxToldBars {
		runs = append(runs[:maxToldBars], "…")
	}
	return "bars " + strings.Join(runs, ", ")
}

// sectionNames names each section as the musician sees it: its label, with its number when another
// section has the same label or it has none.
func sectionNames(c board.Content) []string {
	count := map[string]int{}
	for _, s := range c.Sections {
		count[s.Label]++
	}
	out := make([]string, len(c.Sections))
	for i, s := range c.Sections {
		switch {
		case s.Label == "":
			out[i] = "section " + strconv.Itoa(i+1)
		case count[s.Label] > 1:
			out[i] = strconv.Quote(s.Label) + " (section " + strconv.Itoa(i+1) + ")"
		default:
			out[i] = strconv.Quote(s.Label)
		}
	}
	return out
}

// barText is a bar's chords as the chart writes them.
func barText(b board.Bar) string {
	if b.Simile {
		return board.Simile
	}
	return strings.Join(b.Chords, " ")
}

var contentFields = []string{"title", "description", "key", "tempo", "beatsPerBar"}

func fieldOf(c board.Content, f string) string {
	switch f {
	case "title":
		return c.Title
	case "description":
		return c.Description
	case "key":
		return c.Key
	case "tempo":
		return strconv.Itoa(c.Tempo)
	}
	return strconv.Itoa(c.BeatsPerBar)
}

func changedFields(base, prop board.Content) []string {
	var out []string
	for _, f := range contentFields {
		if fieldOf(base, f) != fieldOf(prop, f) {
			out = append(out, f)
		}
	}
	return out
}

func sectionSame(a, b board.Section) bool {
	return a.Label == b.Label && a.Role == b.Role && slices.EqualFunc(a.Bars, b.Bars, board.Bar.Equal)
}

func contentSame(a, b board.Content) bool {
	return changedFields(a, b) == nil && slices.EqualFunc(a.Sections, b.Sections, sectionSame)
}
