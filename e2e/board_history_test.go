package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// linkHost is a real `tele host` driven over its link (stdin/stdout JSON lines) by this test standing
// in for the Pi bridge: the one way to make a revision by Pi without a model. Its HTTP server is the
// board server the page talks to.
type linkHost struct {
	t      testing.TB
	stdin  io.WriteCloser
	frames chan map[string]json.RawMessage
	nextID int
	*Server
}

func startLinkHost(t testing.TB, board string) *linkHost {
	t.Helper()
	data := t.TempDir()
	cmd := exec.Command(teleBinary(t), "host", "--port", "0", "--data", data)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "TELE_NO_BROWSER=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &linkHost{t: t, stdin: stdin, frames: make(chan map[string]json.RawMessage, 64), Server: &Server{DataDir: data}}
	t.Cleanup(func() {
		stdin.Close() // the host revokes everything and exits when its stdin closes
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var f map[string]json.RawMessage
			if json.Unmarshal(sc.Bytes(), &f) == nil {
				h.frames <- f
			}
		}
		close(h.frames)
	}()
	h.send(map[string]any{"note": "hello", "protocol": 1, "bridge": "e2e", "pi": "0.73.1", "board": board,
		"session": map[string]any{"id": "e2e-history"}})
	ready := h.wait(func(f map[string]json.RawMessage) bool { return string(f["note"]) == `"ready"` }, "the ready note")
	var page string
	json.Unmarshal(ready["url"], &page)
	u, err := url.Parse(page)
	if err != nil {
		t.Fatal(err)
	}
	h.URL = "http://" + u.Host
	return h
}

func (h *linkHost) send(v any) {
	h.t.Helper()
	b, _ := json.Marshal(v)
	if _, err := h.stdin.Write(append(b, '\n')); err != nil {
		h.t.Fatal(err)
	}
}

func (h *linkHost) wait(match func(map[string]json.RawMessage) bool, what string) map[string]json.RawMessage {
	h.t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case f, ok := <-h.frames:
			if !ok {
				h.t.Fatalf("tele host exited while waiting for %s", what)
			}
			if match(f) {
				return f
			}
		case <-timeout:
			h.t.Fatalf("no %s from tele host within 30s", what)
		}
	}
}

// toolPut is Pi's tele_board put: content over revision rev, written by Pi.
func (h *linkHost) toolPut(rev int64, c boardContent) boardDoc {
	h.t.Helper()
	h.nextID++
	id := h.nextID
	h.send(map[string]any{"id": id, "call": "tool", "args": map[string]any{"action": "put", "expectedRevision": rev, "content": c}})
	reply := h.wait(func(f map[string]json.RawMessage) bool { return string(f["id"]) == fmt.Sprint(id) }, "the tool reply")
	var doc boardDoc
	if err := json.Unmarshal(reply["ok"], &doc); err != nil || doc.Revision != rev+1 {
		h.t.Fatalf("tool put: %s %s", reply["ok"], reply["err"])
	}
	return doc
}

type revisionRow struct {
	Revision     int64  `json:"revision"`
	Author       string `json:"author"`
	Title        string `json:"title"`
	RestoredFrom *int64 `json:"restoredFrom"`
}

// TestBoardHistory: Pi changes two bars through tele_board; the page shows the banner without taking
// focus from the description being typed in; Undo brings the old chord back in the grid and in GET
// /api/boards/:board; the History panel lists the three revisions by Tele, Pi and You, the last
// "restored from 1"; a revision shows what differs; both languages, 390 px, light and dark.
func TestBoardHistory(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	h := startLinkHost(t, "hist")
	b := newBrowser(t)
	// Pi edits only the bound board, which the host made from the teaching example (revision 1, by Tele).
	capBytes, err := os.ReadFile(filepath.Join(h.DataDir, "caps", "hist"))
	if err != nil {
		t.Fatal(err)
	}
	capability := strings.TrimSpace(string(capBytes))

	p := b.newPage(t)
	openBoard(p, h.Server, "hist", capability)
	before := barText(p, 1, 0)

	// The musician is typing in the description when Pi's change arrives.
	typeInto(p, "#f-description", " Slowly")
	var cur boardDoc
	apiJSON(t, "GET", h.URL+"/api/boards/hist", nil, nil, &cur)
	c := cur.Content
	c.Sections[1].Bars[0] = []string{"Bb7"}
	c.Sections[1].Bars[1] = []string{"Eb"}
	h.toolPut(1, c)

	p.waitJS(`!document.getElementById('pi-banner').hidden && document.getElementById('pi-banner-text').textContent.includes('2 bars changed in')`, "the Pi banner")
	got := evalJS[map[string]any](p, `(() => ({
		focus: document.activeElement && document.activeElement.id,
		role: document.getElementById('pi-banner').getAttribute('role'),
		live: document.getElementById('pi-banner').getAttribute('aria-live'),
		bar: `+barTextJS(1, 0)+`,
		draft: document.getElementById('f-description').value,
	}))()`)
	if got["focus"] != "f-description" || got["role"] != "status" || got["live"] != "polite" || got["bar"] != "Bb7" {
		t.Fatalf("after Pi's change: %v", got)
	}
	if !strings.HasSuffix(got["draft"].(string), " Slowly") {
		t.Errorf("the draft in the description was lost: %q", got["draft"])
	}
	p.screenshot("board", "history-pi-banner-desktop-en")

	// Discard the description edit, so Undo's restore is the only change; then Undo.
	p.do(chromedp.Click(chromedp.ID("discard")))
	p.do(chromedp.Click(chromedp.ID("pi-undo")))
	p.waitJS(barTextJS(1, 0)+` === `+jsString(before), "the old chord is back in the grid")
	var doc boardDoc
	if status := apiJSON(t, "GET", h.URL+"/api/boards/hist", nil, nil, &doc); status != 200 || doc.Revision != 3 || doc.Content.Sections[1].Bars[0][0] != before {
		t.Fatalf("GET after Undo: %d, revision %d, bar %v", status, doc.Revision, doc.Content.Sections[1].Bars[0])
	}

	var page struct{ Revisions []revisionRow }
	apiJSON(t, "GET", h.URL+"/api/boards/hist/revisions", nil, nil, &page)
	if len(page.Revisions) != 3 || page.Revisions[0].Author != "browser" || page.Revisions[1].Author != "pi" || page.Revisions[2].Author != "tele" ||
		page.Revisions[0].RestoredFrom == nil || *page.Revisions[0].RestoredFrom != 1 {
		t.Fatalf("history over HTTP: %+v", page.Revisions)
	}

	// The History panel: three rows, authors in the page's words, restored from 1 on the newest.
	p.do(chromedp.Click(chromedp.ID("history-toggle")))
	p.waitJS(`document.querySelectorAll('#history-list .history-row').length === 3`, "three rows in the History panel")
	rows := evalJS[[]string](p, `[...document.querySelectorAll('#history-list .history-row')].map((r) => r.dataset.rev + ' ' + r.querySelector('.history-author').textContent + ' ' + (r.querySelector('.history-restored')?.textContent || ''))`)
	if strings.Join(rows, "|") != "3 You restored from 1|2 Pi |1 Tele " {
		t.Errorf("rows %q", rows)
	}
	// Choosing Pi's revision shows it read-only, marked against the current board.
	p.do(chromedp.Click(`#history-list [data-rev="2"]`))
	p.waitJS(`!document.getElementById('history-view').hidden && document.getElementById('history-summary').textContent === '2 bars changed in Chorus'`, "the revision view with its count")
	if n := evalJS[float64](p, `document.querySelectorAll('#history-view [data-mark="changed"]').length`); n != 2 {
		t.Errorf("%v bars marked changed, want 2", n)
	}
	if focus := evalJS[string](p, `document.activeElement.id`); focus != "history-view-heading" {
		t.Errorf("focus after choosing a revision: %q", focus)
	}
	p.screenshot("board", "history-panel-desktop-en")

	// Restore this version (Pi's) from the panel: revision 4, restored from 2.
	// By keyboard, as a keyboard user restores: a mouse click computed its point while the full-page
	// screenshot's layout settled and, now and then, landed beside the button (no request was sent).
	p.do(chromedp.Focus(chromedp.ID("history-restore")), chromedp.KeyEvent(kb.Enter))
	p.waitJS(barTextJS(1, 0)+` === "Bb7"`, "the restored chord in the grid")
	p.waitJS(`document.querySelector('#history-list .history-row').dataset.rev === '4'`, "the new revision listed live")

	// 简体中文, then a phone in dark mode: no horizontal overflow, the panel still usable.
	switchLanguageScripted(p, "zh-CN")
	p.waitJS(`document.getElementById('history-toggle').textContent === '历史'`, "the History control in Chinese")
	if a := evalJS[string](p, `document.querySelector('#history-list [data-rev="2"] .history-author').textContent`); a != "Pi" {
		t.Errorf("author in Chinese: %q", a)
	}
	p.screenshot("board", "history-panel-desktop-zh")
	phone := b.newPage(t, viewport(390, 844), darkScheme())
	openBoard(phone, h.Server, "hist", capability)
	switchLanguageScripted(phone, "zh-CN")
	// On a phone the chat panel docked at the bottom covers the lower part of the window, where the
	// toolbar sits after the page loads; a musician scrolls the control up before tapping it.
	evalJS[chromedp.Void](phone, `document.getElementById('history-toggle').scrollIntoView({block: 'center'})`)
	phone.do(chromedp.Click(chromedp.ID("history-toggle")))
	phone.waitJS(`document.querySelectorAll('#history-list .history-row').length === 4`, "four rows on the phone")
	if w := evalJS[float64](phone, `document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
		t.Errorf("the phone page overflows by %v px", w)
	}
	phone.screenshot("board", "history-panel-phone-zh-dark")
	c.Title = "Welcome, by Pi"
	h.toolPut(4, c)
	phone.waitJS(`!document.getElementById('pi-banner').hidden && document.getElementById('pi-banner-text').textContent.startsWith('Pi 修改了和弦谱')`, "the Pi banner in Chinese")
	phone.screenshot("board", "history-pi-banner-phone-zh-dark")
	p.requireClean("history")
	phone.requireClean("history on a phone")
}
