package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestMusicianMessages covers the defects of issue 13 item 6 that a musician reads, each of which failed
// before its fix: a refused save said in the page's language and a musician's words (it was the
// server's English, "must be an integer from 30 to 300", even in 简体中文); "Too many bars" said before
// anything is added (it named bar 513 and focused the last bar of the last section); and a change
// that could not be re-applied names its section as the page does ("Section Verse", it said "Section 2").
func TestMusicianMessages(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)

	t.Run("a refused save in 简体中文 and in musicians' words", func(t *testing.T) {
		capability := apiCreateBoard(t, s, "words", sampleContent("Words"))
		p := b.newPage(t, storageDisabled(), browserLanguage("zh-CN"), darkScheme())
		openBoard(p, s, "words", capability)
		typeInto(p, "#f-tempo", "999")
		p.do(chromedp.Click(chromedp.ID("save")))
		p.waitJS(`!document.getElementById('message').hidden`, "the refusal is shown")
		if msg := text(p, "message"); msg != "未保存。速度（BPM）：请填写 30 到 300 之间的整数（每分钟拍数）。" {
			t.Errorf("Chinese refusal %q", msg)
		}
		p.screenshot("board", "refused-tempo-desktop-zh-dark")
		q := b.newPage(t, storageDisabled())
		openBoard(q, s, "words", capability)
		typeInto(q, "#f-tempo", "")
		q.do(chromedp.Click(chromedp.ID("save")))
		q.waitJS(`!document.getElementById('message').hidden`, "the refusal is shown")
		if msg := text(q, "message"); msg != "Not saved. Tempo (BPM): use a whole number of beats per minute from 30 to 300." {
			t.Errorf("empty tempo refusal %q", msg)
		}
	})

	t.Run("too many bars is said before a bar is added", func(t *testing.T) {
		full := boardContent{Title: "Full", Tempo: 120, BeatsPerBar: 4}
		for i := range 8 {
			sec := boardSection{Label: string(rune('A' + i))}
			for range 64 {
				sec.Bars = append(sec.Bars, []string{"C"})
			}
			full.Sections = append(full.Sections, sec)
		}
		capability := apiCreateBoard(t, s, "full", full)
		p := b.newPage(t, phone())
		openBoard(p, s, "full", capability)
		add := `document.querySelectorAll('.add-bar')[1]`
		p.do(chromedp.Focus(chromedp.CSS(`section.section:nth-of-type(2) .add-bar`)), chromedp.KeyEvent("\r"))
		p.waitJS(`!document.getElementById('refused').hidden`, "the limit is said")
		if msg := text(p, "refused-text"); msg != "A board holds at most 512 bars, and this one is full. Remove a bar first." {
			t.Errorf("message %q", msg)
		}
		// Said where the musician is: the board's own message is screens above section B's Add bar.
		requireInWindow(t, p, "refused", "the limit's words")
		if n := evalJS[int](p, `document.querySelectorAll('#grid .bar').length`); n != 512 {
			t.Errorf("%d bars on the page", n)
		}
		if !evalJS[bool](p, `document.getElementById('save').disabled && document.activeElement === `+add) {
			t.Error("a change was recorded, or focus left the Add bar button")
		}
		p.screenshot("board", "too-many-bars-phone-en")
		p.do(chromedp.Click(chromedp.ID("refused-close")))
		p.waitJS(`document.getElementById('refused').hidden`, "the refusal is dismissed")
	})

	t.Run("a change that could not be re-applied names its section", func(t *testing.T) {
		c := sampleContent("Sections")
		c.Sections[1].Label = "Verse"
		capability := apiCreateBoard(t, s, "named", c)
		p := b.newPage(t)
		openBoard(p, s, "named", capability)
		editBar(p, 1, 2, "Am")
		theirs := c
		theirs.Sections = theirs.Sections[:1]
		apiPutBoard(t, s, "named", capability, 1, theirs)
		p.waitJS(`!document.getElementById('dropped').hidden`, "the change that no longer fits is reported")
		if got := text(p, "dropped-list"); !strings.Contains(got, "Section Verse, bar 3 → Am") {
			t.Errorf("dropped list %q", got)
		}
		p.screenshot("board", "dropped-named-section-desktop-en")
	})
}
