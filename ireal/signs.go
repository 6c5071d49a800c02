package ireal

import (
	"slices"
	"strings"

	"tele/board"
	"tele/chord"
)

// Road signs as iReal Pro charts write them, placed once a song's bars are read.

// endSign reports whether m is read at the end of its bar (a jump, or Fine): such a sign over a bar with
// no chord keeps the bar.
func endSign(m board.Mark) bool {
	switch m {
	case board.MarkFine, board.MarkDC, board.MarkDS, board.MarkDCAlFine, board.MarkDCAlCoda, board.MarkDSAlFine, board.MarkDSAlCoda:
		return true
	}
	return false
}

// barAt returns flat bar i (bars numbered across sections in written order), nil past the last.
func barAt(c *board.Content, i int) *board.Bar {
	if i < 0 {
		return nil
	}
	for s := range c.Sections {
		if bars := c.Sections[s].Bars; i < len(bars) {
			return &bars[i]
		} else {
			i -= len(bars)
		}
	}
	return nil
}

// codaSigns places the Qs of the music. A chart writes Q twice: where the band leaves for the coda (To
// Coda), then where the coda starts, so the first Q is To Coda and the last the coda, whatever stands
// around them (a % bar, a bar line). A Q alone is To Coda after chords of its bar, else the coda. To
// Coda read before its bar's chords (just after a bar line) belongs to the bar before: it is read at
// the end of a bar.
func (r *songReader) codaSigns(c *board.Content, qs []qSign, written int) {
	place := func(at int, m board.Mark) {
		b := barAt(c, at)
		if b != nil && m == board.MarkToCoda && b.Mark != "" && b.Mark != board.MarkCoda {
			b.ToCoda = true // To Coda beside the bar's own sign (Tell me a bedtime story: G^9,Q,<D.S. al Coda>)
			return
		}
		if b == nil || b.Mark != "" {
			r.note("sign_left_out_place", "the sign %s at bar %d was left out: it has no bar of its own", "sign", string(m), "bar", at+1)
			return
		}
		b.Mark = m
	}
	toCoda := func(q qSign) {
		if q.content {
			place(q.at, board.MarkToCoda)
		} else {
			place(q.at-1, board.MarkToCoda)
		}
	}
	switch n := len(qs); {
	case n == 1 && qs[0].content:
		toCoda(qs[0])
	case n == 1:
		place(qs[0].at, board.MarkCoda)
	case n >= 2:
		toCoda(qs[0])
		place(qs[n-1].at, board.MarkCoda)
		for _, q := range qs[1 : n-1] {
			r.note("sign_repeated", "the sign %s at bar %d was left out: a chart has one", "sign", string(board.MarkCoda), "bar", q.at+1)
		}
	}
}

// flatBars lists the bars of c in written order, and which of them start a section.
func flatBars(c *board.Content) (flat []*board.Bar, sectionStart []bool) {
	for s := range c.Sections {
		for b := range c.Sections[s].Bars {
			flat = append(flat, &c.Sections[s].Bars[b])
			sectionStart = append(sectionStart, b == 0)
		}
	}
	return flat, sectionStart
}

// alEndings reads "D.C. al 2nd ending" (and D.S.): back to the start, play the repeat again and take
// that ending. An ending written after the repeat's last ending closed with no end repeat (N1 … } N2 …
// ] … N3) is reached only by the jump: the jump is plain, on the bar right before it. Otherwise the band
// takes that ending and ends there: D.C. al Fine with Fine on the ending's last bar (its end repeat, the
// bar before its ] or Z, or its section's last).
func (r *songReader) alEndings(c *board.Content, als []alEnding, closed map[int]bool) {
	flat, sectionStart := flatBars(c)
	for _, al := range als {
		j := al.at
		if j >= len(flat) || !alFine(flat[j].Mark) {
			j--
		}
		if j < 0 || !alFine(flat[j].Mark) {
			continue
		}
		e := slices.IndexFunc(flat, func(b *board.Bar) bool { return b.Ending == al.ending })
		switch {
		case e > 0 && al.ending >= 2 && flat[e-1].RepeatEnd == 0:
			r.jumpToEnding(flat, j, e, al.ending)
		case e >= 0 && r.toCodaInEnding(flat, j, e, endOfEnding(flat, e, sectionStart, closed), al.ending):
		case e >= 0:
			r.fineInEnding(flat, j, endOfEnding(flat, e, sectionStart, closed), al.ending)
		default:
			r.alEndingLeftOut(flat, j, al.ending)
		}
	}
}

const alEndingLeftOut = "%s al ending %d was left out: the chart has no such ending, or a Fine or another sign where it ends"

// alEndingLeftOut drops the jump at bar j to an ending the chart does not have, or cannot end in.
func (r *songReader) alEndingLeftOut(flat []*board.Bar, j, ending int) {
	r.note("al_ending_left_out", alEndingLeftOut, "jump", jumpWords(flat[j].Mark), "ending", ending)
	flat[j].Mark = ""
}

func jumpWords(m board.Mark) string {
	if toSegno(m) {
		return "D.S."
	}
	return "D.C."
}

func toSegno(m board.Mark) bool {
	return m == board.MarkDS || m == board.MarkDSAlFine || m == board.MarkDSAlCoda
}

// jumpToEnding makes the jump at bar j a plain D.C. or D.S. on the bar before ending n (at bar e), which
// the band reaches only by it.
func (r *songReader) jumpToEnding(flat []*board.Bar, j, e, n int) {
	plain := board.MarkDC
	if toSegno(flat[j].Mark) {
		plain = board.MarkDS
	}
	if j != e-1 && flat[e-1].Mark != "" {
		r.alEndingLeftOut(flat, j, n)
		return
	}
	flat[j].Mark = ""
	flat[e-1].Mark = plain
	if j == e-1 {
		return // where the chart wrote it
	}
	r.note("al_ending_jump", "%s al ending %d was read at bar %d, right before ending %d: after the jump the band plays the repeat again and takes that ending",
		"jump", jumpWords(plain), "ending", n, "bar", e, "ending2", n)
}

// fineInEnding puts Fine on bar fine, the last of ending n, for the al Fine jump at bar j.
func (r *songReader) fineInEnding(flat []*board.Bar, j, fine, n int) {
	words := jumpWords(flat[j].Mark)
	k := slices.IndexFunc(flat, func(b *board.Bar) bool { return b.Mark == board.MarkFine })
	if k >= 0 && k <= fine && inEnding(flat, k, fine, n) {
		// The chart's own Fine stands in that ending (Cheese Cake: N2 … <Fine> ] … <D.C. al 2nd End.>).
		r.note("al_ending_fine", "%s al ending %d was read as %s al Fine, with Fine at the end of ending %d (bar %d)", "jump", words, "ending", n, "fine", words, "ending2", n, "bar", k+1)
		return
	}
	if k > fine && r.fineInLaterEnding(flat, j, fine, k, n) {
		return
	}
	taken := slices.ContainsFunc(flat, func(b *board.Bar) bool { return b.Mark == board.MarkFine })
	if taken || flat[fine].Mark != "" {
		r.note("al_ending_left_out", alEndingLeftOut, "jump", words, "ending", n)
		flat[j].Mark = ""
		return
	}
	flat[fine].Mark = board.MarkFine
	r.note("al_ending_fine", "%s al ending %d was read as %s al Fine, with Fine at the end of ending %d (bar %d)", "jump", words, "ending", n, "fine", words, "ending2", n, "bar", fine+1)
}

// inEnding reports whether bar k lies in ending n, which ends at bar last.
func inEnding(flat []*board.Bar, k, last, n int) bool {
	for i := k; i >= 0; i-- {
		if flat[i].Ending != 0 {
			return flat[i].Ending == n && k <= last
		}
	}
	return false
}

// endOfEnding is the last bar of the ending that starts at bar e: its end repeat, or the bar before its
// ] or Z, a section mark, a start repeat or another ending.
func endOfEnding(flat []*board.Bar, e int, sectionStart []bool, closed map[int]bool) int {
	k := e
	for ; k+1 < len(flat); k++ {
		if flat[k].RepeatEnd != 0 || closed[k] {
			break
		}
		if next := flat[k+1]; sectionStart[k+1] || next.RepeatStart || next.Ending != 0 {
			break
		}
	}
	return k
}

func alFine(m board.Mark) bool { return m == board.MarkDCAlFine || m == board.MarkDSAlFine }

// oneOfEachSign keeps the first of each kind of sign (segno, coda, To Coda), and the first two jumps
// and Fines (a D.C. after the head and a D.S. after the solos, content schema version 4), as a chart has
// them, and says what it left out: what is left then takes a few checks, not one per sign.
func (r *songReader) oneOfEachSign(c *board.Content) {
	r.cueJumpAlone(c)
	seen := map[board.Mark]int{}
	n := 0
	for s := range c.Sections {
		for b := range c.Sections[s].Bars {
			n++
			bar := &c.Sections[s].Bars[b]
			if bar.Mark == "" {
				continue
			}
			kind := bar.Mark
			if endSign(kind) && kind != board.MarkFine {
				kind = board.MarkDC // every jump is of one kind
			}
			seen[kind]++
			two := kind == board.MarkDC || kind == board.MarkFine
			switch {
			case two && seen[kind] > 2:
				r.note("sign_third", "the sign %s at bar %d was left out: a chart has at most two jumps and two Fines", "sign", string(bar.Mark), "bar", n)
				bar.Mark = ""
			case !two && seen[kind] > 1:
				r.note("sign_repeated", "the sign %s at bar %d was left out: a chart has one", "sign", string(bar.Mark), "bar", n)
				bar.Mark = ""
			}
		}
	}
}

// cueJumpAlone leaves out a jump on cue in a chart with another jump: a vamp left on the leader's cue
// (This Masquerade: "<D.C. on Cue>" over the coda's vamp after a D.S. al Coda) says how the band may
// stretch the end, not a second journey through the form.
func (r *songReader) cueJumpAlone(c *board.Content) {
	flat, _ := flatBars(c)
	jumps := 0
	for _, b := range flat {
		if endSign(b.Mark) && b.Mark != board.MarkFine {
			jumps++
		}
	}
	for _, i := range r.cues {
		if jumps < 2 || i >= len(flat) || !endSign(flat[i].Mark) || flat[i].Mark == board.MarkFine {
			continue
		}
		r.note("jump_on_cue_left_out", "the %s on cue at bar %d was left out: the chart has another jump, and a jump on cue is kept only alone", "sign", string(flat[i].Mark), "bar", i+1)
		flat[i].Mark = ""
		jumps--
	}
}

// customText reads iReal Pro's chord text written by hand after a root (A*m*, C*-^*): the text between
// the stars, and the music after it (with a bass, A*m*/G, kept in the text).
func customText(m string) (text, rest string, ok bool) {
	if !strings.HasPrefix(m, "*") {
		return "", m, false
	}
	end := strings.IndexByte(m[1:min(len(m), 18)], '*')
	if end <= 0 || strings.ContainsAny(m[1:1+end], " |[]{},<>") {
		return "", m, false
	}
	text, rest = m[1:1+end], m[2+end:]
	if len(rest) >= 2 && rest[0] == '/' && rest[1] >= 'A' && rest[1] <= 'G' {
		n := 2
		if len(rest) > 2 && (rest[2] == '#' || rest[2] == 'b') {
			n = 3
		}
		text, rest = text+rest[:n], rest[n:]
	}
	return text, rest, true
}

// customChord maps a root (sym, perhaps with a quality and a bass) followed by chord text: as the chord
// the text spells when the catalogue has it (or its nearest), otherwise as the chord without the text,
// with a note.
func (r *songReader) customChord(sym, text string) (chord.Mapped, error) {
	base, bass, _ := strings.Cut(sym, "/")
	quality, textBass, _ := strings.Cut(text, "/")
	written := sym + "*" + quality + "*"
	if textBass != "" {
		bass = textBass
		written += "/" + bass
	}
	spelled := base + quality
	if bass != "" {
		spelled += "/" + bass
	}
	if mapped, ok := chord.Map(spelled); ok {
		if !mapped.Exact {
			r.note("chord_nearest", "%s became %s, the nearest chord in Tele's catalogue", "from", written, "to", mapped.Symbol)
		}
		return mapped, nil
	}
	mapped, err := r.chord(sym)
	if err == nil {
		r.note("chord_text_unknown", "the chord %s (its quality written as text) is not one Tele knows: it was read as %s", "from", written, "to", mapped.Symbol)
	}
	return mapped, err
}

// jumpsWhereIRealPlaysThem moves a D.C. or D.S. written over a bar before the end of the form to where
// iReal Pro plays it: its text is only drawn over that bar, and the player takes the jump at the end of
// the form, the last bar before the coda (al Coda) or the chart's last bar. Charts put the text a bar or
// two early, over the turnaround (Caravan: "G7 <D.C. al Fine> | Db7 Z"); read where it stands, the bars
// after it could never be played and the jump was left out. A jump is moved only onto a bar without a
// sign, and only forward.
func (r *songReader) jumpsWhereIRealPlaysThem(c *board.Content) {
	r.firstJumpToSectionEnd(c)
	n := 0
	for _, s := range c.Sections {
		n += len(s.Bars)
	}
	jump, coda, toCoda := -1, -1, -1
	for i := range n {
		switch m := barAt(c, i).Mark; {
		case m == board.MarkCoda:
			coda = i
		case m == board.MarkToCoda:
			toCoda = i
		case endSign(m) && m != board.MarkFine:
			jump = i
		}
		if barAt(c, i).ToCoda {
			toCoda = i
		}
	}
	if next := barAt(c, jump+1); jump < 0 || next != nil && next.Ending >= 2 && barAt(c, jump).RepeatEnd == 0 {
		return // none, or one right before the ending it leads to (alEndings)
	}
	m := barAt(c, jump).Mark
	if (m == board.MarkDC || m == board.MarkDS) && toCoda >= 0 && toCoda < jump && coda > jump {
		// A plain D.C. or D.S. in a chart with To Coda and a coda after it (I Got Rhythm: "< D.C.>"
		// then the coda) is played as al Coda: the coda after it is where the band ends.
		al := map[board.Mark]board.Mark{board.MarkDC: board.MarkDCAlCoda, board.MarkDS: board.MarkDSAlCoda}[m]
		r.note("jump_al_coda", "the %s at bar %d was read as %s: the chart has To Coda and a coda after it", "sign", string(m), "bar", jump+1, "read", string(al))
		m = al
		barAt(c, jump).Mark = m
	}
	to := n - 1
	switch {
	case m == board.MarkDCAlCoda || m == board.MarkDSAlCoda:
		if coda <= jump {
			return
		}
		to = coda - 1
	case coda > jump:
		return // a coda after a jump that does not lead to it: no end of form to move to
	}
	if to <= jump || barAt(c, to).Mark != "" {
		return
	}
	barAt(c, to).Mark, barAt(c, jump).Mark = m, ""
	if b := barAt(c, jump); b.ToCoda {
		b.Mark, b.ToCoda = board.MarkToCoda, false // To Coda keeps the bar the jump left
	}
	r.note("jump_moved", "the %s written over bar %d was read at bar %d, the end of the form, where iReal Pro plays it", "sign", string(m), "from", jump+1, "to", to+1)
}

// repeatsAsMusiciansRead reads the repeat signs a chart leaves unmatched as a musician does, where the
// form would otherwise refuse the chart: an end repeat (or a first ending) with no start repeats from
// the bar after the last repeat before it (after its last ending, which ends where a section starts), or
// from the top (Freddie Freeloader, Lover Man: N1 … } with no {); a start that never ends is left out
// (Prism, They All Laughed), also when another start follows it (Brazilian Suite, Syracuse). A start
// that closes inside an open repeat, which goes on after it, is a vamp inside it and kept. Each is said in
// a note. It follows the bars once, as the form's check does (board/form_repeats.go), and leaves every
// other fault of the form to the validation that follows.
func (r *songReader) repeatsAsMusiciansRead(c *board.Content) {
	bars, sectionStart := flatBars(c)
	m := &repeatMatcher{r: r, bars: bars, sectionStart: sectionStart}
	for i := range bars {
		if !m.step(i) {
			return
		}
	}
	if m.open && !m.endings {
		m.leaveOutStart()
	}
}

// repeatMatcher is repeatsAsMusiciansRead's state between bars.
type repeatMatcher struct {
	r            *songReader
	bars         []*board.Bar
	sectionStart []bool
	open         bool // a repeat is open
	start        int  // where it starts
	endings      bool // its endings have begun
	await        bool // an ending closed with an end repeat: the next is due
	inner        bool // a vamp is open inside it
	n            int  // the ending being read
	from         int  // where a repeat with no start begins; -1 while a last ending may still run
}

// step reads bar i; false: a fault the validation will name.
func (m *repeatMatcher) step(i int) bool {
	bar := m.bars[i]
	if i > 0 && m.sectionStart[i] && m.open && m.endings && !m.await && !endingCrosses(m.bars, i, m.n) {
		m.open = false // the last ending ends where a section starts
		m.from = i
	}
	if m.await && bar.Ending == 0 {
		m.open, m.await, m.from = false, false, i // the last pass goes on after the end repeat
	}
	if bar.RepeatStart && !m.startAt(i) {
		return false
	}
	if bar.Ending != 0 {
		if !m.open && bar.Ending == 1 {
			m.begin(i)
		}
		if !m.open {
			return m.from >= 0 // an ending after the last, reached by a jump: the validation says
		}
		m.endings, m.await, m.n = true, false, bar.Ending
	}
	if bar.RepeatEnd != 0 {
		return m.endAt(i)
	}
	return true
}

// startAt reads the start repeat at bar i.
func (m *repeatMatcher) startAt(i int) bool {
	if !m.open {
		m.open, m.start, m.endings, m.await = true, i, false, false
		return true
	}
	if m.endings || m.inner {
		return false
	}
	if m.vampAt(i) {
		m.inner = true
		return true
	}
	m.leaveOutStart()
	m.open, m.start = true, i
	return true
}

// endAt reads the end repeat at bar i.
func (m *repeatMatcher) endAt(i int) bool {
	if m.inner {
		m.inner = false
		return true
	}
	if !m.open {
		m.begin(i)
		if !m.open {
			return false
		}
	}
	if m.endings {
		m.await = true
	} else {
		m.open, m.from = false, i+1
	}
	return true
}

// endingCrosses reports whether ending n, open where a section starts at bar i, runs across the section
// mark to an end repeat ahead (before another repeat or ending starts): ending 1 always goes back (One
// For My Baby); a later ending only when ending n+1 follows that end repeat (Warm Valley: N2 … *B … *A
// … } N3). Otherwise it ends at the section mark, as a musician reads a last ending (Here's To Life:
// N2 … ] *B … }).
func endingCrosses(bars []*board.Bar, i, n int) bool {
	if n == 0 || i >= len(bars) || bars[i].RepeatStart {
		return false
	}
	for k := i; k < len(bars); k++ {
		if k > i && (bars[k].RepeatStart || bars[k].Ending != 0) {
			return false
		}
		if bars[k].RepeatEnd != 0 {
			return n == 1 || k+1 < len(bars) && bars[k+1].Ending == n+1
		}
	}
	return false
}

// vampAt reports whether the start at bar i, inside the open repeat, closes before any ending, start
// or section mark, and an end repeat of the open one follows it.
func (m *repeatMatcher) vampAt(i int) bool {
	k := i
	for ; k < len(m.bars) && m.bars[k].RepeatEnd == 0; k++ {
		if m.bars[k].Ending != 0 || k > i && (m.bars[k].RepeatStart || m.sectionStart[k]) {
			return false
		}
	}
	if k == len(m.bars) {
		return false
	}
	for k++; k < len(m.bars) && !m.bars[k].RepeatStart; k++ {
		if m.bars[k].RepeatEnd != 0 {
			return true
		}
	}
	return false
}

// leaveOutStart leaves out the open repeat's start, which never ends.
func (m *repeatMatcher) leaveOutStart() {
	m.bars[m.start].RepeatStart = false
	m.r.note("repeat_start_left_out", "the start repeat at bar %d never ends: it was left out", "bar", m.start+1)
}

// begin opens, at m.from, the repeat that the end repeat or first ending at bar i closes.
func (m *repeatMatcher) begin(i int) {
	if m.from < 0 || m.from > i || m.bars[m.from].RepeatStart {
		return
	}
	m.bars[m.from].RepeatStart = true
	m.open, m.start, m.endings = true, m.from, false
	m.r.note("repeat_from", "the repeat sign at bar %d has no start repeat: the repeat was read from bar %d, as musicians read it", "bar", i+1, "from", m.from+1)
}

// fineInLaterEnding keeps the al Fine jump at bar j to ending n, which ends at bar last, when the chart's
// own Fine (bar k) stands in a later ending of the same repeat (Coquette: N1 … } N2 … <Fine> ] … <D.C.
// al 1st End.>): the band plays the repeat again from ending n and ends at that Fine.
func (r *songReader) fineInLaterEnding(flat []*board.Bar, j, last, k, n int) bool {
	for i := last + 1; i <= k; i++ {
		if flat[i].RepeatStart {
			return false
		}
	}
	later := 0
	for i := k; i > last && later == 0; i-- {
		later = flat[i].Ending
	}
	if later <= n {
		return false
	}
	words := jumpWords(flat[j].Mark)
	r.note("al_ending_later_fine", "%s al ending %d was read as al Fine: the chart's Fine stands in ending %d (bar %d), which follows it",
		"jump", words, "ending", n, "later", later, "bar", k+1)
	return true
}

// toCodaInEnding reads the jump at bar j to ending n (bars e to last) as al Coda when that ending holds
// To Coda and a coda follows the jump (Douce Ambience: N2 … Q ] … <D.S. al 2nd End.> … ] Q …): the band
// goes back, takes ending n and leaves there for the coda.
func (r *songReader) toCodaInEnding(flat []*board.Bar, j, e, last, n int) bool {
	if !slices.ContainsFunc(flat[e:last+1], func(b *board.Bar) bool { return b.Mark == board.MarkToCoda || b.ToCoda }) ||
		!slices.ContainsFunc(flat[j+1:], func(b *board.Bar) bool { return b.Mark == board.MarkCoda }) {
		return false
	}
	al := board.MarkDCAlCoda
	if toSegno(flat[j].Mark) {
		al = board.MarkDSAlCoda
	}
	flat[j].Mark = al
	r.note("al_ending_coda", "%s al ending %d was read as %s: that ending holds To Coda, and the coda follows the jump", "jump", jumpWords(al), "ending", n, "read", string(al))
	return true
}

// firstJumpToSectionEnd reads the first of two jumps, written over a bar before the last of its section,
// at that last bar: the head ends with its section (Artillerie Lourde: "G7 <D.C. al Fine> | x ]", the D.C.
// over the turnaround's first bar). It is moved only when the bars after it in the section carry no
// sign, repeat or ending, which would be cut off by the jump where it is written.
func (r *songReader) firstJumpToSectionEnd(c *board.Content) {
	flat, sectionStart := flatBars(c)
	var jumps []int
	for i, b := range flat {
		if endSign(b.Mark) && b.Mark != board.MarkFine {
			jumps = append(jumps, i)
		}
	}
	if len(jumps) != 2 {
		return
	}
	j := jumps[0]
	if flat[j].RepeatEnd != 0 || flat[j].ToCoda {
		return
	}
	last := j
	for last+1 < len(flat) && !sectionStart[last+1] {
		b := flat[last+1]
		if b.Mark != "" || b.ToCoda || b.RepeatStart || b.RepeatEnd != 0 || b.Ending != 0 {
			return
		}
		last++
	}
	if last == j || last >= jumps[1] {
		return
	}
	m := flat[j].Mark
	flat[last].Mark, flat[j].Mark = m, ""
	r.note("jump_moved_section", "the %s written over bar %d was read at bar %d, the last bar of its section, where the head ends before the chart's other jump", "sign", string(m), "from", j+1, "to", last+1)
}
