// Package firstview draws a board's chart into the board page as the server sends it: the page's
// first view. A browser with nothing cached otherwise shows the chart only once it has fetched and
// compiled the page's modules, asked for the board and drawn it, about twice as late as a chart sent as
// HTML; with the first view it paints the chart as it parses the page.
//
// The first view is the chart as the page draws it for a reader on a device with no view of its own
// (board-view.js, form-view.js, notation.js): the same elements, classes and text in the page's grid,
// so it looks the same and sits in the same place. The page shows it only on such a device
// (first-view.js), hides what it has not written or translated yet, and then takes the grid as its own
// drawing (board-view.js adopt), patching only what the server does not write: the labels a screen
// reader reads, in the page's language.
package firstview

import (
	"html"
	"strconv"
	"strings"

	"tele/board"
)

// longMeter is the most beats a bar of a short meter has (stage.js LONG_METER).
const longMeter = 6

// Eligible reports whether c is drawn by the first view: a song with words (a section with lines, or
// one recalling a chorus) is laid out by the page, which measures its lines.
func Eligible(c board.Content) bool {
	for _, s := range c.Sections {
		if len(s.Lines) > 0 || s.Recall != "" {
			return false
		}
	}
	return true
}

// Slots are the board page's slots (assets.PageWith) for c: its title, its description, and its grid's
// meter and sections.
func Slots(c board.Content) map[string]string {
	// The page's grid has fewer bars a row on a phone for a long meter (stage.js).
	meter := ` data-meter="short"`
	if c.BeatsPerBar > longMeter {
		meter = ` data-meter="long"`
	}
	return map[string]string{
		"title":       html.EscapeString(c.Title),
		"description": html.EscapeString(c.Description),
		"grid-meter":  meter,
		"grid":        Sections(c),
	}
}

// Sections are c's sections as the page's grid holds them.
func Sections(c board.Content) string {
	var b strings.Builder
	in, al := c.Endings()
	n := 0
	for s, sec := range c.Sections {
		writeSection(&b, c, s, sec, n, in[s], al[s])
		n += len(sec.Bars)
	}
	return b.String()
}

// writeSection writes a section as board-view.js's createSection and patchSection draw it for a reader;
// first is the number of bars before it.
func writeSection(b *strings.Builder, c board.Content, s int, sec board.Section, first int, in, al []int) {
	path := "sections[" + strconv.Itoa(s) + "]"
	b.WriteString(`<section class="section" data-path="` + path + `" data-bars="`)
	b.WriteString(strconv.Itoa(len(sec.Bars)))
	b.WriteString(`"><div class="section-head"><h2 class="mark"`)
	if sec.Label == "" {
		b.WriteString(` hidden`)
	}
	b.WriteString(`>`)
	b.WriteString(html.EscapeString(sec.Label))
	b.WriteString(`</h2>`)
	// The role's name is in the page's language: the page writes it (the first view hides words it has
	// not translated, app.css), the span holds its place.
	if sec.Role != "" {
		b.WriteString(`<span class="role-name" data-i18n="role.`)
		b.WriteString(html.EscapeString(string(sec.Role)))
		b.WriteString(`"></span>`)
	} else {
		b.WriteString(`<span class="role-name" hidden></span>`)
	}
	b.WriteString(`</div><ol class="bars"`)
	if len(sec.Bars) == 0 {
		b.WriteString(` hidden`)
	}
	b.WriteString(`>`)
	for j, bar := range sec.Bars {
		writeBar(b, bar, path+".bars["+strconv.Itoa(j)+"]", first+j+1, c.BeatsPerBar, in[j], al[j])
	}
	// The section's words go under its bars (a chart has none: the page's lyrics-view.js hides them).
	b.WriteString(`</ol><div class="lyrics" hidden></div></section>`)
}
