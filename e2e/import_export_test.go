package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	teleboard "tele/board"
	"tele/chordpro"
	"tele/ireal"
)

// importPlaylist is an iReal Pro playlist of two songs, as iReal Pro shares it (percent-encoded).
var importPlaylist = "irealbook://" + url.PathEscape("Blue Form=Tele=Swing=F=n=T44*A{F7 |Bb7 |F7 |F7 }"+
	"===Spell=Tele=Ballad=Bb=n=T44[Bb^7b9 |G-7 |C-9 F13#5 |Bb6 Z===Gig")

// TestImportExportPage imports from the board list page, a ChordPro file through the file picker and
// an iReal Pro playlist pasted by keyboard, and checks each new board against Tele's own reading of the
// same text, its edit link (which opens the board for editing) with Copy, and the summary of what was
// changed; then the board page's export links download exactly what the export API gives.
func TestImportExportPage(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	p := b.newPage(t)
	p.do(chromedp.Navigate(s.URL + "/"))
	p.waitJS(`document.documentElement.dataset.ready === "true"`, "the board list is ready")

	// A ChordPro file, chosen with the file picker.
	file, err := filepath.Abs("../chordpro/testdata/blues-ds.cho")
	if err != nil {
		t.Fatal(err)
	}
	p.do(chromedp.SetUploadFiles(chromedp.ID("import-file"), []string{file}))
	p.waitJS(`document.getElementById('import-text').value.includes('Road Sign Blues')`, "the file's text in the paste area")
	p.do(chromedp.Click(chromedp.ID("import-go")))
	p.waitJS(`document.querySelectorAll('#import-result .import-board').length === 1`, "one board imported")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := chordpro.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	first := importedBoards(p)
	checkImported(t, s, first[0], want)
	p.waitJS(fmt.Sprintf(`!!document.querySelector('#board-list a[href="/b/%s"]')`, first[0].ID), "the board list shows the imported board")
	if first[0].Summary != "Imported as written." {
		t.Errorf("summary of the ChordPro import: %q", first[0].Summary)
	}
	p.do(chromedp.Click(chromedp.CSS(`.import-board .import-copy`)))
	p.waitJS(`document.querySelector('.import-copy-status').textContent !== ''`, "Copy says what it did")

	// An iReal Pro playlist, pasted (typed) into the text area.
	p.do(chromedp.Focus(chromedp.ID("import-text")))
	evalJS[chromedp.Void](p, `document.getElementById('import-text').select()`)
	p.do(chromedp.KeyEvent(kb.Delete), chromedp.KeyEvent(importPlaylist))
	switchLanguageScripted(p, "zh-CN")
	p.do(chromedp.Click(chromedp.ID("import-go")))
	p.waitJS(`document.querySelectorAll('#import-result .import-board').length === 2`, "two boards imported")
	if st := evalJS[string](p, `document.getElementById('import-status').textContent`); !strings.Contains(st, "已导入 2 个和弦谱") {
		t.Errorf("zh status %q", st)
	}
	p.screenshot("board", "import-zh")
	switchLanguageScripted(p, "en")
	songs, err := ireal.Parse([]byte(importPlaylist))
	if err != nil || len(songs) != 2 {
		t.Fatalf("ireal.Parse: %d songs, %v", len(songs), err)
	}
	got := importedBoards(p)
	for i, song := range songs {
		checkImported(t, s, got[i], song.Content)
	}
	if !strings.Contains(got[1].Summary, "2 things were changed") || !strings.Contains(got[1].Notes, "Bb^7b9 became Bbmaj7") {
		t.Errorf("summary of Spell: %q / %q", got[1].Summary, got[1].Notes)
	}
	p.screenshot("board", "import-en")
	p.requireClean("import")

	// The board's title opens it for editing (its edit link's code is spent above), the key kept out of
	// the address; its export links download what the API exports.
	p.do(chromedp.Click(chromedp.CSS(`#import-result .import-board .import-open`)))
	p.waitJS(fmt.Sprintf(`location.pathname === %s`, jsString("/b/"+got[0].ID)), "the imported board opens")
	waitBoardReady(p)
	if evalJS[bool](p, `document.getElementById('save-bar').hidden`) {
		t.Fatal("the imported board opened read-only")
	}
	checkCapabilityPlacement(t, p, got[0].ID, readCapability(t, s, got[0].ID))
	for _, format := range []string{"chordpro", "ireal", "json"} {
		res := evalJS[map[string]string](p, fmt.Sprintf(`(async () => {
			const a = document.querySelector('#export-links a[data-format=%q]');
			const r = await fetch(a.href);
			return { body: await r.text(), disposition: r.headers.get('Content-Disposition'), download: String(a.hasAttribute('download')) };
		})()`, format))
		api := httpGet(t, s.URL+"/api/boards/"+got[0].ID+"/export?format="+format)
		if res["body"] != api || res["download"] != "true" || !strings.HasPrefix(res["disposition"], `attachment; filename="`+got[0].ID+".") {
			t.Errorf("export %s: download=%s disposition=%q, %d bytes vs the API's %d", format, res["download"], res["disposition"], len(res["body"]), len(api))
		}
	}
	p.requireClean("export")
}

type importedItem struct {
	ID, Link, Summary, Notes string
}

func importedBoards(p *Page) []importedItem {
	p.t.Helper()
	p.waitJS(`[...document.querySelectorAll('#import-result .import-link')].every((i) => i.value !== '')`, "every imported board's edit link is shown")
	return evalJS[[]importedItem](p, `[...document.querySelectorAll('#import-result .import-board')].map(li => ({
		ID: li.dataset.board,
		Link: li.querySelector('.import-link').value,
		Summary: (li.querySelector('.import-notes summary') || li.querySelector('.hint'))?.textContent || '',
		Notes: [...li.querySelectorAll('.import-notes li')].map(n => n.textContent).join('\n'),
	}))`)
}

// checkImported: the board the page names holds want, and its link is an edit link for it.
func checkImported(t *testing.T, s *Server, it importedItem, want teleboard.Content) {
	t.Helper()
	var doc struct {
		Content teleboard.Content `json:"content"`
	}
	if status := apiJSON(t, "GET", s.URL+"/api/boards/"+it.ID, nil, nil, &doc); status != 200 {
		t.Fatalf("GET %s: %d", it.ID, status)
	}
	if !reflect.DeepEqual(doc.Content, want) {
		got, _ := json.Marshal(doc.Content)
		exp, _ := json.Marshal(want)
		t.Errorf("board %s:\n%s\nwant\n%s", it.ID, got, exp)
	}
	checkClaimLink(t, s, it.ID, it.Link, "import")
}

func httpGet(t *testing.T, u string) string {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v", u, res.StatusCode, err)
	}
	return string(body)
}
