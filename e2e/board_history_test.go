package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
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
	t          testing.TB
	stdin      io.WriteCloser
	frames     chan map[string]json.RawMessage
	nextID     int
	pid        int    // of tele host
	inviteLink string // the ready note's invitation link
	*Server
}

func startLinkHost(t testing.TB, board string, hello ...map[string]any) *linkHost {
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
	h := &linkHost{t: t, stdin: stdin, frames: make(chan map[string]json.RawMessage, 64), pid: cmd.Process.Pid, Server: &Server{DataDir: data}}
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
	first := map[string]any{"note": "hello", "protocol": 1, "bridge": "e2e", "pi": "0.73.1", "board": board,
		"session": map[string]any{"id": "e2e-history"}}
	for _, more := range hello { // e.g. {"edits": "propose"}: the binding starts in review mode
		maps.Copy(first, more)
	}
	h.send(first)
	ready := h.wait(func(f map[string]json.RawMessage) bool { return string(f["note"]) == `"ready"` }, "the ready note")
	var page string
	json.Unmarshal(ready["url"], &page)
	json.Unmarshal(ready["invite"], &h.inviteLink)
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
func (h *linkHost) toolPut(rev int64, c any) {
	h.t.Helper()
	h.nextID++
	id := h.nextID
	h.send(map[string]any{"id": id, "call": "tool", "args": map[string]any{"action": "put", "expectedRevision": rev, "content": c}})
	reply := h.wait(func(f map[string]json.RawMessage) bool { return string(f["id"]) == fmt.Sprint(id) }, "the tool reply")
	var doc struct{ Revision int64 }
	if err := json.Unmarshal(reply["ok"], &doc); err != nil || doc.Revision != rev+1 {
		h.t.Fatalf("tool put: %s %s", reply["ok"], reply["err"])
	}
}

type revisionRow struct {
	Revision     int64  `json:"revision"`
	Author       string `json:"author"`
	Title        string `json:"title"`
	RestoredFrom *int64 `json:"restoredFrom"`
	Proposal     string `json:"proposal"`
}

// richChart is the richest board content version 2 allows, for every history test to run on as well as
// on plain bars: a description, a key, section roles, a repeat with three endings (the second played
// ×3), a segno, a % bar, To Coda, a meter change, a four-chord bar, D.S. al Coda, and a coda with its
// own repeat. Issue 23, defect 1: on such a board the revision view threw "mine.join is not a function"
// and nothing could be viewed or restored.
const richChart = `{"title":"Form blues","description":"Capo 3 for acoustic. Verse twice.","key":"F","tempo":132,"beatsPerBar":4,"sections":[
 {"label":"A","role":"verse","bars":[{"chords":["F7"],"repeatStart":true,"mark":"segno"},{"chords":"%"},{"chords":["Bb7"],"ending":1,"repeatEnd":2},{"chords":["C7","Bb7"],"ending":2,"repeatEnd":3},{"chords":["F"],"ending":3,"mark":"to-coda"}]},
 {"label":"B","role":"bridge","bars":[{"chords":["Gm7"],"beats":3},{"chords":["Gm7","C7","F","D7"],"mark":"ds-al-coda"}]},
 {"label":"Coda","role":"outro","bars":[{"chords":["F"],"mark":"coda","repeatStart":true},{"chords":["Gb7","N.C."],"repeatEnd":3}]}]}`

// richChartLines is how the revision view writes section A of richChart, its form in a chart's signs.
var richChartLines = []string{"|: F7 §", "%", "1. Bb7 :|", "2. C7 Bb7 :| ×3", "3. F To Coda ⊕"}

// histContent is board content with bars as written (a chord array, or an object with form).
type histContent struct {
	Title       string        `json:"title"`
	Description string        `json:"description"`
	Key         string        `json:"key,omitempty"`
	Tempo       int           `json:"tempo"`
	BeatsPerBar int           `json:"beatsPerBar"`
	Sections    []histSection `json:"sections"`
}

type histSection struct {
	Label string            `json:"label"`
	Role  string            `json:"role,omitempty"`
	Bars  []json.RawMessage `json:"bars"`
}

type histDoc struct {
	Revision int64       `json:"revision"`
	Content  histContent `json:"content"`
}

// withChords is bar (as written) with other chords and the same form.
func withChords(t testing.TB, bar json.RawMessage, chords ...string) json.RawMessage {
	t.Helper()
	if strings.HasPrefix(strings.TrimSpace(string(bar)), "[") {
		return mustJSON(chords)
	}
	var o map[string]any
	if err := json.Unmarshal(bar, &o); err != nil {
		t.Fatal(err)
	}
	o["chords"] = chords
	return mustJSON(o)
}

// TestBoardHistory: Pi changes two bars through tele_board; the page shows the banner without taking
// focus from the description being typed in; Undo brings the old chord back in the grid and in GET
// /api/boards/:board; the History panel lists the revisions by Tele, (You,) Pi and You, the newest
// "restored from" the one before Pi's; a revision shows what differs, its form drawn; Restore works;
// both languages, 390 px and desktop, light and dark. It runs on the teaching example (plain bars) and
// on richChart (every form feature of content version 2).
func TestBoardHistory(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	for _, tc := range []struct {
		name  string
		chart string // "" keeps the teaching example the host makes
	}{
		{"plain", ""},
		{"form", richChart},
	} {
		t.Run(tc.name, func(t *testing.T) { boardHistory(t, tc.name, tc.chart) })
	}
}

func boardHistory(t *testing.T, name, chart string) {
	h := startLinkHost(t, "hist")
	b := newBrowser(t)
	// Pi edits only the bound board, which the host made from the teaching example (revision 1, by Tele).
	capBytes, err := os.ReadFile(filepath.Join(h.DataDir, "caps", "hist"))
	if err != nil {
		t.Fatal(err)
	}
	capability := strings.TrimSpace(string(capBytes))
	base := int64(1) // the revision Pi's change goes over
	if chart != "" {
		var doc histDoc
		if status := apiJSON(t, "PUT", h.URL+"/api/boards/hist", map[string]string{"Authorization": "Bearer " + capability, "If-Match": `"1"`},
			json.RawMessage(chart), &doc); status != 200 {
			t.Fatalf("saving the chart: status %d", status)
		}
		base = 2
	}
	shot := func(p *Page, what string) { p.screenshot("board", "history-"+name+"-"+what) }

	p := b.newPage(t)
	openBoard(p, h.Server, "hist", capability)
	before := barText(p, 1, 0)

	// The musician is typing in the description when Pi's change arrives.
	typeInto(p, "#f-description", " Slowly")
	var cur histDoc
	apiJSON(t, "GET", h.URL+"/api/boards/hist", nil, nil, &cur)
	orig := mustJSON(cur.Content)
	c := cur.Content
	chorus := c.Sections[1].Label
	c.Sections[1].Bars[0] = withChords(t, c.Sections[1].Bars[0], "Bb7")
	c.Sections[1].Bars[1] = withChords(t, c.Sections[1].Bars[1], "Eb")
	h.toolPut(base, c)

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
	shot(p, "pi-banner-desktop-en")

	// Discard the description edit, so Undo's restore is the only change; then Undo.
	p.do(chromedp.Click(chromedp.ID("discard")))
	p.do(chromedp.Click(chromedp.ID("pi-undo")))
	p.waitJS(barTextJS(1, 0)+` === `+jsString(before), "the old chord is back in the grid")
	var doc histDoc
	if status := apiJSON(t, "GET", h.URL+"/api/boards/hist", nil, nil, &doc); status != 200 || doc.Revision != base+2 || !sameJSON(string(mustJSON(doc.Content)), string(orig)) {
		t.Fatalf("GET after Undo: %d, revision %d, content\n%s\nwant\n%s", status, doc.Revision, mustJSON(doc.Content), orig)
	}

	var page struct{ Revisions []revisionRow }
	apiJSON(t, "GET", h.URL+"/api/boards/hist/revisions", nil, nil, &page)
	wantAuthors := "browser pi tele"
	wantRows := "3 You restored from 1|2 Pi |1 Tele "
	if chart != "" {
		wantAuthors = "browser pi browser tele"
		wantRows = "4 You restored from 2|3 Pi |2 You |1 Tele "
	}
	var authors []string
	for _, r := range page.Revisions {
		authors = append(authors, r.Author)
	}
	if strings.Join(authors, " ") != wantAuthors || page.Revisions[0].RestoredFrom == nil || *page.Revisions[0].RestoredFrom != base {
		t.Fatalf("history over HTTP: %+v", page.Revisions)
	}

	// The History panel: a row each, authors in the page's words, "restored from" on the newest.
	p.do(chromedp.Click(chromedp.ID("history-toggle")))
	p.waitJS(fmt.Sprintf(`document.querySelectorAll('#history-list .history-row').length === %d`, base+2), "a row per revision in the History panel")
	rows := evalJS[[]string](p, `[...document.querySelectorAll('#history-list .history-row')].map((r) => r.dataset.rev + ' ' + r.querySelector('.history-author').textContent + ' ' + (r.querySelector('.history-restored')?.textContent || ''))`)
	if strings.Join(rows, "|") != wantRows {
		t.Errorf("rows %q, want %q", rows, wantRows)
	}
	// Choosing Pi's revision shows it read-only, marked against the current board.
	p.do(chromedp.Click(fmt.Sprintf(`#history-list [data-rev="%d"]`, base+1)))
	p.waitJS(`!document.getElementById('history-view').hidden && document.getElementById('history-summary').textContent === `+jsString("2 bars changed in "+chorus), "the revision view with its count")
	if n := evalJS[float64](p, `document.querySelectorAll('#history-view [data-mark="changed"]').length`); n != 2 {
		t.Errorf("%v bars marked changed, want 2", n)
	}
	if focus := evalJS[string](p, `document.activeElement.id`); focus != "history-view-heading" {
		t.Errorf("focus after choosing a revision: %q", focus)
	}
	if chart != "" {
		lines := evalJS[[]string](p, `[...document.querySelectorAll('#history-view .history-section:first-child .history-bar .chords')].map((e) => e.textContent)`)
		if strings.Join(lines, " | ") != strings.Join(richChartLines, " | ") {
			t.Errorf("the revision view writes section A as %q, want %q", lines, richChartLines)
		}
	}
	shot(p, "panel-desktop-en")

	// Restore this version (Pi's) from the panel: a new revision, restored from Pi's.
	// By keyboard, as a keyboard user restores: a mouse click computed its point while the full-page
	// screenshot's layout settled and, now and then, landed beside the button (no request was sent).
	p.do(chromedp.Focus(chromedp.ID("history-restore")), chromedp.KeyEvent(kb.Enter))
	p.waitJS(barTextJS(1, 0)+` === "Bb7"`, "the restored chord in the grid")
	p.waitJS(fmt.Sprintf(`document.querySelector('#history-list .history-row').dataset.rev === '%d'`, base+3), "the new revision listed live")
	apiJSON(t, "GET", h.URL+"/api/boards/hist", nil, nil, &doc)
	if !sameJSON(string(mustJSON(doc.Content)), string(mustJSON(c))) {
		t.Errorf("the restored content is\n%s\nwant Pi's\n%s", mustJSON(doc.Content), mustJSON(c))
	}

	// 简体中文, then a phone in dark mode: no horizontal overflow, the panel and a revision still usable.
	switchLanguageScripted(p, "zh-CN")
	p.waitJS(`document.getElementById('history-toggle').textContent === '历史'`, "the History control in Chinese")
	if a := evalJS[string](p, fmt.Sprintf(`document.querySelector('#history-list [data-rev="%d"] .history-author').textContent`, base+1)); a != "Pi" {
		t.Errorf("author in Chinese: %q", a)
	}
	shot(p, "panel-desktop-zh")
	phone := b.newPage(t, viewport(390, 844), darkScheme())
	openBoard(phone, h.Server, "hist", capability)
	switchLanguageScripted(phone, "zh-CN")
	// On a phone the chat panel docked at the bottom covers the lower part of the window, where the
	// toolbar sits after the page loads; a musician scrolls the control up before tapping it.
	evalJS[chromedp.Void](phone, `document.getElementById('history-toggle').scrollIntoView({block: 'center'})`)
	phone.do(chromedp.Click(chromedp.ID("history-toggle")))
	phone.waitJS(fmt.Sprintf(`document.querySelectorAll('#history-list .history-row').length === %d`, base+3), "every row on the phone")
	evalJS[chromedp.Void](phone, fmt.Sprintf(`document.querySelector('#history-list [data-rev="%d"]').click()`, base))
	phone.waitJS(`!document.getElementById('history-view').hidden && document.getElementById('history-summary').textContent === `+jsString("“"+chorus+"”中有 2 个小节改动"), "the revision view in Chinese on the phone")
	if w := evalJS[float64](phone, `document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
		t.Errorf("the phone page overflows by %v px", w)
	}
	shot(phone, "panel-phone-zh-dark")
	c.Title = "Welcome, by Pi"
	h.toolPut(base+3, c)
	phone.waitJS(`!document.getElementById('pi-banner').hidden && document.getElementById('pi-banner-text').textContent.startsWith('Pi 修改了和弦谱')`, "the Pi banner in Chinese")
	shot(phone, "pi-banner-phone-zh-dark")
	p.requireClean("history")
	phone.requireClean("history on a phone")
}
