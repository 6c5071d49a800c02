package ireal

import (
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

// alEndings reads "D.C. al 2nd ending" (and D.S.): back to the start, then play to that ending and end
// there. When the ending is its repeat's last, that is D.C. al Fine with Fine on the ending's last bar
// (the bar before its ] or Z, or its section's last); otherwise the jump is left out and said.
//
// Its cognitive complexity is over the lint gate of 30, and accepted: a reader of iReal Pro's music
// string: one case per sign, each named by a row of its table tests.
//
//gocognit:ignore
func (r *songReader) alEndings(c *board.Content, als []alEnding, closed map[int]bool) {
	var flat []*board.Bar
	sectionStart := map[int]bool{}
	for s := range c.Sections {
		sectionStart[len(flat)] = true
		for b := range c.Sections[s].Bars {
			flat = append(flat, &c.Sections[s].Bars[b])
		}
	}
	for _, al := range als {
		j := al.at
		if j >= len(flat) || !alFine(flat[j].Mark) {
			j--
		}
		if j < 0 || !alFine(flat[j].Mark) {
			continue
		}
		jump := flat[j].Mark
		words := map[board.Mark]string{board.MarkDCAlFine: "D.C.", board.MarkDSAlFine: "D.S."}[jump]
		fine := -1
		for e := range flat {
			if flat[e].Ending != al.ending {
				continue
			}
			fine = e
			for k := e + 1; k < len(flat) && !flat[k].RepeatStart && !sectionStart[k]; k++ {
				if flat[k].Ending > al.ending {
					fine = -1 // not the last ending: after the jump the band takes the last
					break
				}
				if !closed[fine] {
					fine = k
				}
			}
			break
		}
		taken := false
		for _, b := range flat {
			taken = taken || b.Mark == board.MarkFine
		}
		if fine < 0 || taken || flat[fine].Mark != "" {
			r.note("al_ending_left_out", "%s al ending %d was left out: the board plays the last ending after a jump, and ends at Fine", "jump", words, "ending", al.ending)
			flat[j].Mark = ""
			continue
		}
		flat[fine].Mark = board.MarkFine
		r.note("al_ending_fine", "%s al ending %d was read as %s al Fine, with Fine at the end of ending %d (bar %d)", "jump", words, "ending", al.ending, "fine", words, "ending2", al.ending, "bar", fine+1)
	}
}

func alFine(m board.Mark) bool { return m == board.MarkDCAlFine || m == board.MarkDSAlFine }

// oneOfEachSign keeps the first of each kind of sign (segno, coda, Fine, To Coda, jump), as a chart has
// one of each, and says what it left out: what is left then takes a few checks, not one per sign.
func (r *songReader) oneOfEachSign(c *board.Content) {
	seen := map[board.Mark]bool{}
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
			if seen[kind] {
				r.note("sign_repeated", "the sign %s at bar %d was left out: a chart has one", "sign", string(bar.Mark), "bar", n)
				bar.Mark = ""
				continue
			}
			seen[kind] = true
		}
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
	}
	if jump < 0 {
		return
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
	r.note("jump_moved", "the %s written over bar %d was read at bar %d, the end of the form, where iReal Pro plays it", "sign", string(m), "from", jump+1, "to", to+1)
}

// repeatsAsMusiciansRead reads the repeat signs a chart leaves unmatched as a musician does, where the
// form would otherwise refuse the chart: an end repeat (or a first ending) with no start repeats from
// the bar after the last repeat before it (after its last ending, which ends where a section starts), or
// from the top (Freddie Freeloader, Lover Man: N1 … } with no {); a start that never ends is left out
// (Prism, They All Laughed). Each is said in a note. It follows the bars once, as the form's check does
// (board/form.go), and leaves every other fault of the form to the validation that follows.
//
// Its cognitive complexity is over the lint gate of 30, and accepted: a reader of iReal Pro's music
// string: one case per sign, each named by a row of its table tests.
//
//gocognit:ignore
func (r *songReader) repeatsAsMusiciansRead(c *board.Content) {
	var bars []*board.Bar
	var sectionStart []bool
	for s := range c.Sections {
		for b := range c.Sections[s].Bars {
			bars = append(bars, &c.Sections[s].Bars[b])
			sectionStart = append(sectionStart, b == 0)
		}
	}
	open, start, endings, await := false, 0, false, false
	from := 0 // where a repeat with no start begins; -1 while a last ending may still run
	begin := func(i int) {
		if from < 0 || from > i || bars[from].RepeatStart {
			return
		}
		bars[from].RepeatStart = true
		open, start, endings = true, from, false
		r.note("repeat_from", "the repeat sign at bar %d has no start repeat: the repeat was read from bar %d, as musicians read it", "bar", i+1, "from", from+1)
	}
	for i, bar := range bars {
		if i > 0 && sectionStart[i] && open && endings && !await {
			open = false // the last ending ends where a section starts
			from = i
		}
		if await && bar.Ending == 0 {
			return // not an ending where one is due: the validation says so
		}
		if bar.RepeatStart {
			if open {
				return
			}
			open, start, endings = true, i, false
		}
		if bar.Ending != 0 {
			if !open && bar.Ending == 1 {
				begin(i)
			}
			if !open {
				return
			}
			endings, await = true, false
		}
		if bar.RepeatEnd != 0 {
			if !open {
				begin(i)
				if !open {
					return
				}
			}
			if endings {
				await = true
			} else {
				open, from = false, i+1
			}
		}
	}
	if open && !endings {
		bars[start].RepeatStart = false
		r.note("repeat_start_left_out", "the start repeat at bar %d never ends: it was left out", "bar", start+1)
	}
}
