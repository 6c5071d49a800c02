package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestInstrumentView checks issue 23 item 6 in a real Chromium: the view panel's instrument, chosen by
// keyboard, writes the chords for a B♭, E♭ or F instrument (transposed as a transposition is, the head
// naming the instrument and the concert key), and this device remembers it for every board; 简体中文 on
// a phone in dark. (That the player sounds concert pitch is jstest instrument's.)
func TestInstrumentView(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	blues := boardContent{Title: "Blues in Bb", Key: "Bb", Tempo: 120, BeatsPerBar: 4, Sections: []boardSection{
		{Label: "A", Bars: [][]string{{"Bb7"}, {"Eb7"}, {"F7", "Gm7/D"}, {"N.C."}}},
	}}
	apiCreateBoard(t, s, "blues", blues)
	other := blues
	other.Title, other.Key = "Tune in C", "C"
	other.Sections = []boardSection{{Label: "A", Bars: [][]string{{"C"}, {"G7"}}}}
	apiCreateBoard(t, s, "tune", other)

	p := b.newPage(t)
	openBoard(p, s, "blues", "")
	openViewPanel(p)
	// concert → B♭ → E♭, by keyboard.
	p.do(chromedp.Focus(chromedp.ID("view-instrument")), chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowDown))
	p.waitJS(`document.getElementById('view-instrument').value === 'Eb'`, "the E♭ instrument is chosen")
	if got := gridText(p); got != "G7 | C7 | D7 Em7/B | N.C." {
		t.Errorf("E♭ part %q", got)
	}
	if k, m := text(p, "meta-key"), text(p, "meta-view"); k != "Key G" || m != "E♭ instrument (concert B♭)" {
		t.Errorf("head %q · %q", k, m)
	}
	if st := text(p, "view-status"); !strings.Contains(st, "Written for E♭ instruments: key of G; it sounds in Bb.") {
		t.Errorf("status %q", st)
	}
	p.screenshot("board", "instrument-eb-desktop-en")
	p.requireClean("instrument")

	// Another board on this device opens written for the same instrument.
	q := b.newPage(t, phone(), darkScheme())
	openBoard(q, s, "tune", "")
	if got := gridText(q); got != "A | E7" {
		t.Errorf("another board on this device shows %q, want its E♭ part", got)
	}
	switchLanguage(q, kb.ArrowDown, "zh-CN")
	if m := text(q, "meta-view"); m != "E♭ 调乐器（实际音高 C 调）" {
		t.Errorf("zh head %q", m)
	}
	openViewPanel(q)
	if o := evalJS[string](q, `document.querySelector('#view-instrument option:checked').textContent`); o != "E♭ 调乐器" {
		t.Errorf("zh option %q", o)
	}
	q.screenshot("board", "instrument-eb-phone-zh-dark")
	// Reset view goes back to concert pitch, for this device.
	q.do(chromedp.Click(chromedp.ID("view-reset")))
	q.waitJS(`document.getElementById('view-instrument').value === ''`, "concert pitch again")
	if got := gridText(q); got != "C | G7" {
		t.Errorf("after reset %q", got)
	}
	q.requireClean("instrument zh")
}
