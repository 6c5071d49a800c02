package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

func testBoardList(t *testing.T, s *Server, b *Browser) {
	p := b.newPage(t)
	p.do(chromedp.Navigate(s.URL + "/"))
	p.waitJS(`document.documentElement.dataset.ready === "true"`, "the list page is ready")
	p.waitJS(`document.querySelector('#board-list a[href="/b/welcome"]')`, "the welcome board is listed")
	card := evalJS[string](p, `document.querySelector('#board-list .card').textContent`)
	for _, want := range []string{"Welcome to Tele", "welcome", "revision 1", "changed "} {
		if !strings.Contains(card, want) {
			t.Errorf("board card %q lacks %q", card, want)
		}
	}
	// The import panel's strings come with its module, after the page was first translated.
	if got := text(p, "import-heading"); got != "Import a chart" {
		t.Errorf("the import panel's heading says %q", got)
	}
	p.requireClean("board list loaded")
	p.screenshot("board", "list-desktop-en")

	// A new board shows its edit link at once (issue 13 item 5), then opens in edit mode, with its
	// capability in this tab's sessionStorage only.
	p.do(
		chromedp.SendKeys(chromedp.ID("new-id"), "friday-set"),
		chromedp.SendKeys(chromedp.ID("new-title"), "Friday set"),
		chromedp.Click(chromedp.ID("new-create")),
	)
	p.waitJS(`!document.getElementById('created').hidden`, "the new board's edit link is shown")
	// The link shown carries a one-time code, which opens the board's key (issue 26, finding 6).
	shown := evalJS[string](p, `document.getElementById('created-url').value`)
	code, ok := strings.CutPrefix(shown, s.URL+"/b/friday-set#claim=")
	var claimed struct{ Capability string }
	if !ok || apiJSON(t, "POST", s.URL+"/api/boards/friday-set/claim", nil, map[string]string{"claim": code}, &claimed) != 200 || claimed.Capability != readCapability(t, s, "friday-set") {
		t.Errorf("the edit link shown is %q, want a claim link that opens the board's key", shown)
	}
	p.do(chromedp.Click(chromedp.ID("created-open")))
	p.waitJS(`location.pathname === "/b/friday-set"`, "the new board opens")
	waitBoardReady(p)
	if v := evalJS[string](p, `document.getElementById('f-title').value`); v != "Friday set" {
		t.Errorf("new board title input = %q", v)
	}
	if !evalJS[bool](p, `!document.getElementById('meta-form').hidden && !document.getElementById('save-bar').hidden`) {
		t.Error("the new board did not open in edit mode")
	}
	capability := readCapability(t, s, "friday-set")
	checkCapabilityPlacement(t, p, "friday-set", capability)
	p.requireClean("new board opened")
	p.screenshot("board", "new-board-edit-desktop-en")
}

func testCapability(t *testing.T, s *Server, b *Browser) {
	p := b.newPage(t)
	p.do(chromedp.Navigate(s.EditLink))
	waitBoardReady(p)
	p.requireClean("the welcome board loaded from its edit link")
	capability := s.EditLink[strings.Index(s.EditLink, "#cap=")+len("#cap="):]
	checkCapabilityPlacement(t, p, "welcome", capability)
	if !evalJS[bool](p, `!document.getElementById('meta-form').hidden`) {
		t.Error("the edit link did not open the board in edit mode")
	}
	p.screenshot("board", "welcome-edit-desktop-en")

	// A reload of the tab keeps edit mode (sessionStorage) and still shows no fragment.
	p.do(chromedp.Reload())
	waitBoardReady(p)
	if !evalJS[bool](p, `!document.getElementById('meta-form').hidden`) {
		t.Error("after a reload the board is no longer editable")
	}
	checkCapabilityPlacement(t, p, "welcome", capability)
	p.requireClean("after a reload")

	// Without the capability the page is read-only and says how to get an edit link.
	r := b.newPage(t)
	openBoard(r, s, "welcome", "")
	note := evalJS[string](r, `(() => { const n = document.getElementById('readonly-note'); return n.hidden ? '' : n.textContent.replace(/\s+/g, ' ').trim(); })()`)
	if !strings.Contains(note, "tele board link welcome") {
		t.Errorf("read-only note = %q, want it to name `tele board link welcome`", note)
	}
	if evalJS[bool](r, `!document.getElementById('meta-form').hidden || !document.getElementById('save-bar').hidden || !!document.querySelector('.bar-btn, .add-bar, .add-section')`) {
		t.Error("the read-only page shows edit controls")
	}
	r.requireClean("read-only board loaded")
	r.screenshot("board", "welcome-readonly-desktop-en")
}

// checkCapabilityPlacement: the fragment is gone, the capability is in sessionStorage under
// tele.cap:<board> and in this device's key ring (localStorage tele.keyring, under the board: issue 23
// item 7), and nowhere else in localStorage, the URL, the navigation entry or the DOM.
func checkCapabilityPlacement(t *testing.T, p *Page, board, capability string) {
	t.Helper()
	got := evalJS[map[string]any](p, fmt.Sprintf(`(() => {
		const cap = %s;
		const local = [];
		for (let i = 0; i < localStorage.length; i++) { const k = localStorage.key(i); local.push(k + '=' + localStorage.getItem(k)); }
		return {
			hash: location.hash,
			inURL: location.href.includes(cap) || location.href.includes('cap='),
			inSession: sessionStorage.getItem('tele.cap:' + %s) === cap,
			inLocal: local.some((kv) => kv.includes(cap) && !kv.startsWith('tele.keyring=')),
			inRing: JSON.parse(localStorage.getItem('tele.keyring') || '{}')[%s]?.cap === cap,
			inDOM: document.documentElement.outerHTML.includes(cap),
		};
	})()`, jsString(capability), jsString(board), jsString(board)))
	if got["hash"] != "" || got["inURL"] != false {
		t.Errorf("the fragment was not erased: hash %q", got["hash"])
	}
	if got["inSession"] != true {
		t.Error("the capability is not in sessionStorage under tele.cap:" + board)
	}
	if got["inLocal"] != false {
		t.Error("the capability was written to localStorage outside the key ring")
	}
	if got["inRing"] != true {
		t.Error("the capability is not in this device's key ring under " + board)
	}
	if got["inDOM"] != false {
		t.Error("the capability appears in the page's DOM")
	}
}

// readCapability reads <data>/caps/<id>.
func readCapability(t *testing.T, s *Server, id string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(s.DataDir, "caps", id))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(data))
}

// testListForms: on the list page each label stands above its box and each hint under the box it is
// about, on a phone as on a desktop. The new board form's hint ("Letters, digits, …: it becomes part of
// the link") is said of the board id, and stood under the title's box on a phone, where that box wraps
// under the id's; the import panel's file button stood beside its label on a desktop.
func testListForms(t *testing.T, s *Server, b *Browser) {
	for _, tc := range []struct {
		name string
		opts []PageOption
	}{{"phone-zh-dark", []PageOption{phone(), browserLanguage("zh-CN"), darkScheme()}}, {"desktop-en", []PageOption{desktop()}}} {
		p := b.newPage(t, tc.opts...)
		p.do(chromedp.Navigate(s.URL + "/"))
		p.waitJS(`document.documentElement.dataset.ready === "true"`, "the list page is ready")
		got := evalJS[map[string]float64](p, `(() => {
			const id = document.getElementById('new-id').getBoundingClientRect();
			const hint = document.getElementById('new-id-hint').getBoundingClientRect();
			return { gap: hint.top - id.bottom, dx: hint.left - id.left };
		})()`)
		if got["gap"] < 0 || got["gap"] > 16 || got["dx"] < -1 || got["dx"] > 1 {
			t.Errorf("%s: the board id's hint is %.0f px below and %.0f px right of the id's box, want right under it", tc.name, got["gap"], got["dx"])
		}
		for _, id := range []string{"import-file", "import-text"} {
			above := evalJS[bool](p, fmt.Sprintf(`(() => {
				const box = document.getElementById(%s);
				const label = box.closest('label').querySelector('.field-label').getBoundingClientRect();
				return box.getBoundingClientRect().top >= label.bottom - 1;
			})()`, jsString(id)))
			if !above {
				t.Errorf("%s: the label of #%s is not above its box", tc.name, id)
			}
		}
		evalJS[chromedp.Void](p, `document.getElementById('new-form').scrollIntoView({ block: 'center' })`)
		p.screenshot("board", "list-new-form-"+tc.name)
		p.requireClean("the new board form")
	}
}
