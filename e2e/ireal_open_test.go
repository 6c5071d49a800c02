package e2e

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	teleboard "tele/board"
	"tele/ireal"
)

// irealChart holds every form feature an iReal Pro chart can: a composer and a style, Intro and Verse
// with their roles, labels the section letter cannot say (Pre-Chorus, Coda), a repeat with three
// endings (the second played ×3), a segno, a % bar, To Coda, a meter change, beat positions, a
// four-chord bar, N.C., D.S. al Coda, a coda with its own repeat, and a second jump (content schema
// version 4): the D.C. al Fine at the coda's end, to the Fine on the intro's last bar.
const irealChart = `{"title":"Open Form","description":"","composer":"Kosma","style":"Bossa Nova","key":"Gm","tempo":138,"beatsPerBar":4,"sections":[
 {"label":"Intro","role":"intro","bars":[["Gm7"],{"chords":["D7b9"],"beats":2,"mark":"fine"}]},
 {"label":"Verse","role":"verse","bars":[{"chords":["Cm7"],"repeatStart":true,"mark":"segno"},{"chords":"%"},{"chords":["F7","Bbmaj7"],"durations":[3,1]},{"chords":["Ebmaj7"],"ending":1,"repeatEnd":2},{"chords":["Am7b5","D7"],"ending":2,"repeatEnd":3},{"chords":["Gm6"],"ending":3,"mark":"to-coda"}]},
 {"label":"Pre-Chorus","bars":[{"chords":["Cm7","F7","Bbmaj7","Ebmaj7"]},{"chords":["N.C."],"mark":"ds-al-coda"}]},
 {"label":"Coda","bars":[{"chords":["Gm"],"mark":"coda","repeatStart":true},{"chords":["Ab7","D7alt"],"repeatEnd":3,"mark":"dc-al-fine"}]}]}`

// TestOpenInIrealPro: the board page's export offers the board as a link iReal Pro opens ("Open in
// iReal Pro", issue 23 item 8), not only a .txt download: the link's address is an irealb:// link that
// Tele's iReal Pro reader reads back to the board, with the full section labels; it follows a save made
// elsewhere; keyboard reaches it; it is named in both languages.
func TestOpenInIrealPro(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	capability := apiCreateBoard(t, s, "open-form", json.RawMessage(irealChart))
	p := b.newPage(t)
	openBoard(p, s, "open-form", "")

	saved := func() teleboard.Content {
		var doc struct {
			Revision int64
			Content  teleboard.Content
		}
		if status := apiJSON(t, "GET", s.URL+"/api/boards/open-form", nil, nil, &doc); status != 200 {
			t.Fatalf("GET: %d", status)
		}
		return doc.Content
	}
	// checkLink reads the link's address with Tele's iReal Pro reader: one song, no notes, the board.
	checkLink := func(want teleboard.Content, what string) string {
		t.Helper()
		p.waitJS(`(() => { const a = document.getElementById('export-ireal-open'); return a.checkVisibility() && a.href.startsWith('irealb://'); })()`, "the Open in iReal Pro link")
		href := evalJS[string](p, `document.getElementById('export-ireal-open').href`)
		songs, err := ireal.Parse([]byte(href))
		if err != nil || len(songs) != 1 || songs[0].Err != nil {
			t.Fatalf("%s: the link reads as %d songs, %v: %.120s", what, len(songs), err, href)
		}
		if len(songs[0].Notes) > 0 {
			t.Errorf("%s: reading the link gave notes %q", what, songs[0].Notes)
		}
		if lost := ireal.Lost(want); len(lost) > 0 {
			t.Fatalf("%s: the board holds what iReal Pro cannot: %q", what, lost)
		}
		if got := songs[0].Content; !reflect.DeepEqual(got, want) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			t.Errorf("%s: the link reads back as\n%s\nwant\n%s", what, g, w)
		}
		return href
	}
	first := saved()
	before := checkLink(first, "the board as created")
	labels := []string{}
	for _, sec := range first.Sections {
		labels = append(labels, sec.Label)
	}
	if strings.Join(labels, ",") != "Intro,Verse,Pre-Chorus,Coda" {
		t.Fatalf("labels %q", labels)
	}
	if dl := evalJS[string](p, `document.querySelector('#export-links a[data-format=ireal]').getAttribute('download')`); dl != "" {
		t.Errorf("the .txt download is gone or changed: download=%q", dl)
	}

	// Keyboard: Shift+Tab from the first download reaches the link, which has no download attribute
	// (following it opens the app, not a file).
	p.do(chromedp.Focus(chromedp.CSS(`#export-links a[data-format=chordpro]`)))
	p.do(chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
	if got := evalJS[string](p, `document.activeElement.id + ' ' + document.activeElement.hasAttribute('download')`); got != "export-ireal-open false" {
		t.Errorf("Shift+Tab from the ChordPro download focuses %q, want the Open in iReal Pro link", got)
	}
	if text := evalJS[string](p, `document.getElementById('export-ireal-open').textContent`); text != "Open in iReal Pro" {
		t.Errorf("the link says %q", text)
	}
	p.screenshot("board", "ireal-open-en")

	// A save made elsewhere: the link follows the new revision.
	var edited teleboard.Content
	if err := json.Unmarshal([]byte(irealChart), &edited); err != nil {
		t.Fatal(err)
	}
	edited.Title = "Open Form, again"
	edited.Sections[0].Bars[0] = teleboard.PlainBar("G7sus4")
	var doc map[string]any
	if status := apiJSON(t, "PUT", s.URL+"/api/boards/open-form",
		map[string]string{"Authorization": "Bearer " + capability, "If-Match": `"1"`}, edited, &doc); status != 200 {
		t.Fatalf("PUT: %d", status)
	}
	p.waitJS(fmt.Sprintf(`document.getElementById('export-ireal-open').href !== %s`, jsString(before)), "the link follows the save")
	checkLink(saved(), "the board after a save elsewhere")

	switchLanguageScripted(p, "zh-CN")
	if text := evalJS[string](p, `document.getElementById('export-ireal-open').textContent + ' | ' + document.getElementById('export-ireal-open').title`); !strings.HasPrefix(text, "在 iReal Pro 中打开 | ") || !strings.Contains(text, "iReal Pro 应用") {
		t.Errorf("in Chinese the link says %q", text)
	}
	p.screenshot("board", "ireal-open-zh")
	p.requireClean("open in iReal Pro")
}
