package firstview

import (
	"html"
	"strconv"
	"strings"

	"tele/board"
)

// writeBar writes bar number n, at JSON path path, as board-view.js's createBar, patchBar and
// form-view.js's paintForm draw it for a reader; in is the ending the bar is in, al the ending a plain
// jump on it leads to (board.Endings).
func writeBar(b *strings.Builder, bar board.Bar, path string, n, beatsPerBar, in, al int) {
	chords, durations := bar.Chords, bar.Durations
	if bar.Simile {
		chords, durations = []string{board.Simile}, nil
	}
	b.WriteString(`<li class="bar" data-path="` + path + `"`)
	if len(chords) >= 3 {
		b.WriteString(` data-busy=""`)
	}
	// A bar of chords alone outside an ending has no form to draw.
	if !bar.Plain() || in != 0 {
		writeFormData(b, bar, in)
	}
	b.WriteString(`><span class="bar-num" aria-hidden="true">`)
	b.WriteString(strconv.Itoa(n))
	b.WriteString(`</span><span class="chords" data-n="`)
	b.WriteString(strconv.Itoa(len(chords)))
	b.WriteString(`"`)
	timed := len(durations) > 0 && len(durations) == len(chords)
	if timed {
		sum := 0
		words := make([]string, len(durations))
		for k, d := range durations {
			sum += d
			words[k] = strconv.Itoa(d)
		}
		b.WriteString(` data-timed="`)
		b.WriteString(strings.Join(words, " "))
		b.WriteString(`" data-beats="`)
		b.WriteString(strconv.Itoa(sum))
		b.WriteString(`"`)
	}
	b.WriteString(`>`)
	for k, symbol := range chords {
		beats := 0
		if timed {
			beats = durations[k]
		}
		writeChord(b, symbol, beats)
	}
	b.WriteString(`</span>`)
	if words := formWords(bar, beatsPerBar, al); words != "" {
		b.WriteString(`<span class="form-text">`)
		b.WriteString(html.EscapeString(words))
		b.WriteString(`</span>`)
	}
	b.WriteString(`</li>`)
}

// writeFormData writes the data attributes app.css and form.css draw a bar's form from.
func writeFormData(b *strings.Builder, bar board.Bar, in int) {
	attr := func(name, value string) {
		b.WriteString(` data-`)
		b.WriteString(name)
		b.WriteString(`="`)
		b.WriteString(html.EscapeString(value))
		b.WriteString(`"`)
	}
	if bar.RepeatStart {
		attr("repeat-start", "")
	}
	if bar.RepeatEnd != 0 {
		attr("repeat-end", strconv.Itoa(bar.RepeatEnd))
	}
	if bar.Ending != 0 {
		attr("ending", strconv.Itoa(bar.Ending))
	} else if in != 0 {
		attr("in-ending", strconv.Itoa(in))
	}
	if bar.Mark != "" {
		attr("mark", string(bar.Mark))
	}
	if bar.ToCoda {
		attr("to-coda", "")
	}
}

// markText is how a chart writes each sign: Italian words, and § and ⊕ for segno and coda, the same in
// every language (form-view.js).
var markText = map[board.Mark]string{
	board.MarkSegno: "§", board.MarkCoda: "⊕", board.MarkFine: "Fine", board.MarkDC: "D.C.", board.MarkDS: "D.S.",
	board.MarkDCAlFine: "D.C. al Fine", board.MarkDCAlCoda: "D.C. al Coda", board.MarkDSAlFine: "D.S. al Fine",
	board.MarkDSAlCoda: "D.S. al Coda", board.MarkToCoda: "To Coda ⊕",
}

// formWords are the words a chart writes beside a bar's chords: the volta number, the bar's meter when
// it is not the board's, the sign (with the ending a plain jump leads to), To Coda, and the repeat count
// when it is not 2.
func formWords(bar board.Bar, beatsPerBar, al int) string {
	var words []string
	if bar.Ending != 0 {
		words = append(words, strconv.Itoa(bar.Ending)+".")
	}
	if bar.Beats != 0 && bar.Beats != beatsPerBar {
		words = append(words, strconv.Itoa(bar.Beats)+"/4")
	}
	if bar.Mark != "" {
		w := markText[bar.Mark]
		if al != 0 {
			w += " al " + strconv.Itoa(al) + ordinal(al) + " ending"
		}
		words = append(words, w)
	}
	if bar.ToCoda {
		words = append(words, markText[board.MarkToCoda])
	}
	if bar.RepeatEnd > 2 {
		words = append(words, "×"+strconv.Itoa(bar.RepeatEnd))
	}
	return strings.Join(words, " ")
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "st"
	case 2:
		return "nd"
	case 3:
		return "rd"
	}
	return "th"
}
