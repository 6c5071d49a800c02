package e2e

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestImportNotesInChinese imports an iReal Pro playlist on a Chinese page (a phone in dark mode, by
// keyboard): the notes of what was changed on the way in and the song that could not be read are said
// in Chinese from their codes (issue 23 defect 10: they were the reader's English), the reader's own
// English words kept folded away under the refusal; switching to English says them in English.
func TestImportNotesInChinese(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	p := b.newPage(t, phone(), darkScheme(), browserLanguage("zh-CN"))
	p.do(chromedp.Navigate(s.URL + "/"))
	p.waitJS(`document.documentElement.dataset.ready === "true"`, "the board list is ready")
	playlist := "irealbook://" + url.PathEscape("Spell=Tele=Ballad=Bb=n=T44[Bb^7b9 |G-7 |<fade out>C-9 F13#5 |Bb6 Z"+
		"===Broken=Tele=Swing===Gig")
	evalJS[chromedp.Void](p, `document.getElementById('import-text').value = `+jsString(playlist))
	p.do(chromedp.Focus(chromedp.ID("import-go")), chromedp.KeyEvent(kb.Enter))
	p.waitJS(`document.querySelectorAll('#import-result .import-board').length === 1 && !!document.querySelector('.import-failed')`, "one board and one refusal")
	p.do(chromedp.Click(chromedp.CSS(`.import-notes summary`)))
	notes := evalJS[[]string](p, `[...document.querySelectorAll('.import-notes li')].map(li => li.textContent)`)
	failed := evalJS[string](p, `document.querySelector('.import-failed > span').textContent`)
	p.screenshot("board", "import-notes-zh-phone-dark")
	if len(notes) < 2 {
		t.Fatalf("notes %q", notes)
	}
	han := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return r >= 0x4e00 && r <= 0x9fff })
	}
	for _, n := range notes {
		if !han(n) || strings.Contains(n, "became") || strings.Contains(n, "left out") {
			t.Errorf("a note on the Chinese page is not Chinese: %q", n)
		}
	}
	if !strings.Contains(strings.Join(notes, "\n"), "Bb^7b9 改成了 Bbmaj7") || !strings.Contains(strings.Join(notes, "\n"), "文字“fade out”没有导入") {
		t.Errorf("notes %q", notes)
	}
	if failed != "Broken：未导入（无法读取这份和弦谱）" {
		t.Errorf("the refused song on the Chinese page: %q", failed)
	}
	if !evalJS[bool](p, `document.querySelector('.import-failed .import-detail').checkVisibility()`) {
		t.Error("the reader's English words are not kept under the refusal")
	}
	switchLanguageScripted(p, "en")
	notes = evalJS[[]string](p, `[...document.querySelectorAll('.import-notes li')].map(li => li.textContent)`)
	if !strings.Contains(strings.Join(notes, "\n"), "Bb^7b9 became Bbmaj7, the nearest chord in Tele’s catalogue") {
		t.Errorf("English notes %q", notes)
	}
	if got := evalJS[string](p, `document.querySelector('.import-failed > span').textContent`); !strings.HasPrefix(got, "Broken: not imported (the chart could not be read: ") ||
		evalJS[bool](p, `document.querySelector('.import-failed .import-detail').checkVisibility()`) {
		t.Errorf("the refused song on the English page: %q, with the detail shown twice", got)
	}
	p.screenshot("board", "import-notes-en-phone-dark")
	p.requireClean("import notes")

	// A whole import refused: the Chinese page says why in Chinese, the reader's words folded away.
	d := b.newPage(t, desktop())
	d.do(chromedp.Navigate(s.URL + "/"))
	d.waitJS(`document.documentElement.dataset.ready === "true"`, "the board list is ready")
	switchLanguageScripted(d, "zh-CN")
	evalJS[chromedp.Void](d, `document.getElementById('import-text').value = "irealbook://Broken=Tele=Swing"`)
	d.do(chromedp.Focus(chromedp.ID("import-go")), chromedp.KeyEvent(kb.Enter))
	d.waitJS(`document.getElementById('import-status').dataset.i18n === 'import.error.unreadable_chart'`, "the import is refused")
	if st := evalJS[string](d, `document.getElementById('import-status').textContent`); st != "没有导入任何内容：无法读取这份和弦谱。" {
		t.Errorf("zh refusal %q", st)
	}
	d.screenshot("board", "import-refused-zh")
}
