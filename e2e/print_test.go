package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	teleboard "tele/board"
)

// Paper sizes in inches, as Page.printToPDF takes them.
var papers = []struct {
	name          string
	width, height float64
}{{"a4", 8.27, 11.69}, {"letter", 8.5, 11}}

// TestPrint prints boards with Chromium's own printing (Page.printToPDF, which runs the page's
// beforeprint and afterprint as a print does) on A4 and Letter and reads the PDFs (issue 13 item 4): an
// ordinary song is one page; a 512-bar chart spans pages with no bar and no row split between two; in
// print media the page shows only the chart (title, key, tempo, meter, sections, bars), none of its
// controls or notes, black on white in a dark scheme too. PDFs and screenshots go to .audit/board/.
func TestPrint(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	capability := apiCreateBoard(t, s, "print-song", ordinarySong())
	apiCreateBoard(t, s, "print-long", longChart(4))
	apiCreateBoard(t, s, "print-long-7", longChart(7))

	t.Run("an ordinary song is one page of A4 and of Letter, the chart only", func(t *testing.T) {
		for _, mode := range []string{"readonly", "edit"} {
			p := b.newPage(t)
			capa := ""
			if mode == "edit" {
				capa = capability
			}
			openBoard(p, s, "print-song", capa)
			labels := controlLabels(p)
			if len(labels) < 8 {
				t.Fatalf("%s: found only %d control labels to look for: %q", mode, len(labels), labels)
			}
			for _, paper := range papers {
				name := "print-" + paper.name
				if mode == "edit" {
					name += "-edit"
				}
				doc := parsePDF(t, printPDF(p, paper.width, paper.height, name))
				if len(doc.pages) != 1 || doc.pageObjects() != 1 {
					t.Errorf("%s on %s: %d pages (%d page objects), want 1", mode, paper.name, len(doc.pages), doc.pageObjects())
				}
				if bars := doc.structTree(t).find("LI"); len(bars) != 40 {
					t.Errorf("%s on %s: %d bars tagged in the PDF, want 40", mode, paper.name, len(bars))
				}
			}
			// The same page in print media: only the chart shows, and no control's words.
			printMedia(p)
			checkOnlyChart(t, p, labels, mode)
			checkChordsWhole(t, p, mode+" print")
			p.screenshot("board", "print-emulated-"+mode+"-desktop-en")
			emulateMedia(p, "")
			p.waitJS(`!('printing' in document.documentElement.dataset)`, "the screen layout is back")
			p.requireClean(mode + " printing")
		}
	})

	t.Run("a dark page prints black on white; 简体中文 on a phone", func(t *testing.T) {
		p := b.newPage(t, phone(), darkScheme(), browserLanguage("zh-CN"))
		openBoard(p, s, "print-song", capability)
		labels := controlLabels(p)
		doc := parsePDF(t, printPDF(p, 8.27, 11.69, "print-a4-phone-zh-dark"))
		if len(doc.pages) != 1 {
			t.Errorf("printed from a phone: %d pages, want 1", len(doc.pages))
		}
		printMedia(p, &emulation.MediaFeature{Name: "prefers-color-scheme", Value: "dark"})
		colours := evalJS[map[string]string](p, `({
			page: getComputedStyle(document.body).backgroundColor,
			chord: getComputedStyle(document.querySelector('.chord')).color,
			title: getComputedStyle(document.getElementById('title')).color,
		})`)
		if colours["page"] != "rgb(255, 255, 255)" || colours["chord"] != "rgb(0, 0, 0)" || colours["title"] != "rgb(0, 0, 0)" {
			t.Errorf("printing a dark page: %v, want black on white", colours)
		}
		checkOnlyChart(t, p, labels, "phone zh")
		if txt := evalJS[string](p, `document.body.innerText`); !strings.Contains(txt, "每分钟 132 拍") || !strings.Contains(txt, "B♭ 调") {
			t.Errorf("the printed head in Chinese lacks the tempo or the key: %q", txt[:min(len(txt), 200)])
		}
		p.screenshot("board", "print-emulated-phone-zh-dark")
		emulateMedia(p, "")
		p.requireClean("phone printing")

		// The Print control asks the browser to print, and the page lays itself out for paper
		// (beforeprint). Headless Chromium keeps a print asked for by the page open (no dialog to close),
		// so this comes last, in a tab of its own.
		q := b.newPage(t, phone(), browserLanguage("zh-CN"))
		openBoard(q, s, "print-song", "")
		evalJS[chromedp.Void](q, `window.__printed = []; addEventListener('beforeprint', () => window.__printed.push('printing' in document.documentElement.dataset))`)
		q.do(chromedp.Click(chromedp.ID("print")))
		q.waitJS(`window.__printed[0] === true`, "a print asked for by the Print control, in the paper layout")
		q.requireClean("the Print control")
	})

	t.Run("the key as shown, the capo and the description on paper; chords of 16 pt and more", func(t *testing.T) {
		// Issue 23, defect 4: a transposed or capo view printed the board's key above the shown chords and
		// no capo line, the description was never printed, and chord roots were 10.8 pt. The head writes
		// keys with ♭ and ♯ as the grid writes chords (it said "Key Bb" over B♭ chords).
		for _, c := range []struct {
			name, view, lang, key, line string
			opts                        []PageOption
		}{
			{"plain-en", `{}`, "en", "Key B♭", "", nil},
			{"transposed-en", `{"toKey":"G"}`, "en", "Key G", "Transposed from B♭", nil},
			{"capo-en-dark", `{"capo":3}`, "en", "Key G", "Capo 3 (sounds in B♭)", []PageOption{darkScheme()}},
			{"capo-transposed-zh-phone", `{"capo":2,"toKey":"C"}`, "zh-CN", "B♭ 调", "变调夹 2（实际为 C 调） · 由 B♭ 调移调", []PageOption{phone()}},
		} {
			p := b.newPage(t, c.opts...)
			openBoard(p, s, "print-song", "")
			evalJS[chromedp.Void](p, fmt.Sprintf(`localStorage.setItem('tele.view:print-song', %s)`, jsString(c.view)))
			openBoard(p, s, "print-song", "")
			switchLanguageScripted(p, c.lang)
			for _, paper := range papers {
				doc := parsePDF(t, printPDF(p, paper.width, paper.height, "print-view-"+c.name+"-"+paper.name))
				if len(doc.pages) != 1 {
					t.Errorf("%s on %s: %d pages, want 1", c.name, paper.name, len(doc.pages))
				}
				checkPrinted(t, doc, c.name+" on "+paper.name, []string{c.key, c.line, "Medium swing."}, chordCounts(ordinarySong()))
			}
			printMedia(p)
			got := evalJS[map[string]any](p, `(() => {
				const el = (id) => document.getElementById(id);
				const roots = [...document.querySelectorAll('.chords:is([data-n="1"], [data-n="2"]) .chord:not(.nc) .root')].map((r) => parseFloat(getComputedStyle(r).fontSize));
				return {
					key: el('meta-key').textContent,
					line: el('meta-view')?.checkVisibility() ? el('meta-view').textContent : '',
					description: el('description').checkVisibility() ? el('description').textContent : '',
					smallest: Math.min(...roots) * 72 / 96,
					bottom: Math.max(...[...document.querySelectorAll('.bar')].map((b) => b.getBoundingClientRect().bottom)),
				};
			})()`)
			if got["key"] != c.key || got["line"] != c.line {
				t.Errorf("%s: the printed head says %q and %q, want %q and %q", c.name, got["key"], got["line"], c.key, c.line)
			}
			if got["description"] != "Medium swing." {
				t.Errorf("%s: the printed description is %q", c.name, got["description"])
			}
			if pt := got["smallest"].(float64); pt < 16 {
				t.Errorf("%s: a chord of one or two in its bar is printed at %.1f pt, want 16 pt or more", c.name, pt)
			}
			checkChordsWhole(t, p, c.name+" print")
			p.screenshot("board", "print-view-"+c.name)
			t.Logf("%s: smallest root of a one- or two-chord bar %.1f pt; the chart ends %.0f px down the page", c.name, got["smallest"], got["bottom"])
			emulateMedia(p, "")
			p.waitJS(`!('printing' in document.documentElement.dataset)`, "the screen layout is back")
			p.requireClean("printing " + c.name)
		}
	})

	t.Run("the richest chart and a transposed capo view, read from the PDFs", func(t *testing.T) {
		// Issue 23, item 3: the print checked on the PDF itself, not on the page's print rendering:
		// every form feature, on A4 and Letter, as shown and transposed with a capo; the head says the
		// key of the chords shown and the capo, the description is printed, every sign is whole, the
		// chords are 16 pt or more, and the song is one page.
		rich := strings.Replace(richChart, `{"chords":["C7","Bb7"],"ending":2,"repeatEnd":3}`, `{"chords":["C7","Bb7"],"ending":2,"repeatEnd":3,"durations":[3,1]}`, 1)
		apiCreateBoard(t, s, "print-rich", json.RawMessage(rich))
		var content teleboard.Content
		if err := json.Unmarshal([]byte(rich), &content); err != nil {
			t.Fatal(err)
		}
		counts := make([]int, 0, 9)
		for _, sec := range content.Sections {
			for _, bar := range sec.Bars {
				n := len(bar.Chords)
				if bar.Simile || n == 1 && bar.Chords[0] == teleboard.NoChord {
					n = 0
				}
				counts = append(counts, n)
			}
		}
		for _, c := range []struct{ name, view, lang, key, line string }{
			{"as-written", `{}`, "en", "Key F", ""},
			{"capo-transposed", `{"capo":2,"toKey":"G"}`, "en", "Key F", "Capo 2 (sounds in G) · Transposed from F"},
			{"capo-transposed-zh", `{"capo":2,"toKey":"G"}`, "zh-CN", "F 调", "变调夹 2（实际为 G 调） · 由 F 调移调"},
		} {
			p := b.newPage(t)
			openBoard(p, s, "print-rich", "")
			evalJS[chromedp.Void](p, fmt.Sprintf(`localStorage.setItem('tele.view:print-rich', %s)`, jsString(c.view)))
			openBoard(p, s, "print-rich", "")
			switchLanguageScripted(p, c.lang)
			signs := []string{"D.S. al Coda", "To Coda ⊕", "×3"} // the same in both languages, as on any chart
			for _, paper := range papers {
				data := printPDF(p, paper.width, paper.height, "print-rich-"+c.name+"-"+paper.name)
				doc := parsePDF(t, data)
				if len(doc.pages) != 1 {
					t.Errorf("%s on %s: %d pages, want 1", c.name, paper.name, len(doc.pages))
				}
				want := append([]string{c.key, c.line, "Capo 3 for acoustic. Verse twice."}, signs...)
				checkPrinted(t, doc, c.name+" on "+paper.name, want, counts)
			}
			p.requireClean("printing the rich chart " + c.name)
		}
	})

	t.Run("a 512-bar chart: pages break between rows, never inside one", func(t *testing.T) {
		for _, c := range []struct {
			id   string
			cols int
		}{{"print-long", 4}, {"print-long-7", 4}} {
			p := b.newPage(t)
			openBoard(p, s, c.id, "")
			printMedia(p)
			if cols := evalJS[int](p, `getComputedStyle(document.querySelector('.bars')).gridTemplateColumns.split(' ').length`); cols != c.cols {
				t.Errorf("%s: %d bars a row on paper, want %d", c.id, cols, c.cols)
			}
			checkChordsWhole(t, p, c.id+" print")
			emulateMedia(p, "")
			for _, paper := range papers {
				doc := parsePDF(t, printPDF(p, paper.width, paper.height, fmt.Sprintf("print-%s-%s", strings.TrimPrefix(c.id, "print-"), paper.name)))
				if len(doc.pages) < 2 {
					t.Errorf("%s on %s: %d page, want several", c.id, paper.name, len(doc.pages))
				}
				checkRowsWhole(t, doc, c.cols, c.id+" on "+paper.name)
			}
			p.requireClean(c.id)
		}
	})
}

// checkRowsWhole reads the PDF's structure: each section is a list of bars (L of LI); every bar, and
// every row of cols bars, is drawn on one page, and a section's label on the page of its first row.
func checkRowsWhole(t *testing.T, doc *pdfDoc, cols int, what string) {
	t.Helper()
	tree := doc.structTree(t)
	lists := tree.find("L")
	if len(lists) != 8 {
		t.Fatalf("%s: %d sections tagged, want 8", what, len(lists))
	}
	bars, rows, used := 0, 0, map[int]bool{}
	for si, l := range lists {
		items := l.find("LI")
		for i := 0; i < len(items); i += cols {
			row := items[i:min(i+cols, len(items))]
			pages := map[int]bool{}
			for _, li := range row {
				if len(li.Pages) != 1 {
					t.Errorf("%s: section %d, bar %d is drawn on pages %v", what, si+1, i+1, li.Pages)
				}
				for _, pg := range li.Pages {
					pages[pg] = true
					used[pg] = true
				}
			}
			if len(pages) != 1 {
				t.Errorf("%s: section %d, the row from bar %d is split over pages %v", what, si+1, i+1, pages)
			}
			rows++
		}
		bars += len(items)
	}
	heads := tree.find("H2")
	for i, h := range heads {
		if i < len(lists) && len(h.Pages) == 1 && len(lists[i].find("LI")) > 0 {
			first := lists[i].find("LI")[0]
			if len(first.Pages) == 1 && first.Pages[0] != h.Pages[0] {
				t.Errorf("%s: section %d's label is on page %d, its first row on page %d", what, i+1, h.Pages[0]+1, first.Pages[0]+1)
			}
		}
	}
	if bars != 512 {
		t.Errorf("%s: %d bars tagged, want 512", what, bars)
	}
	if len(used) < 2 {
		t.Errorf("%s: every row on one page (%v): the check saw no page break", what, used)
	}
	t.Logf("%s: %d pages, %d rows, none split", what, len(doc.pages), rows)
}

// printPDF prints the page with Chromium's printing on paper of the given size (inches), tagged, and
// saves it as .audit/board/<name>.pdf.
func printPDF(p *Page, width, height float64, name string) []byte {
	p.t.Helper()
	var data []byte
	tagged := true
	// Laying out and printing a 512-bar chart takes long on a loaded machine: a longer bound than p.do's.
	ctx, cancel := context.WithTimeout(p.ctx, 2*time.Minute)
	defer cancel()
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		res, err := cdp.Call(ctx, tg, page.PrintToPDF, page.PrintToPDFParams{PaperWidth: width, PaperHeight: height, GenerateTaggedPDF: &tagged})
		if err != nil {
			return err
		}
		data = res.Data
		return nil
	}))
	if err != nil {
		p.t.Fatalf("printing %s: %v", name, err)
	}
	dir := filepath.Join(repoRoot(p.t), ".audit", "board")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".pdf"), data, 0o644); err != nil {
		p.t.Fatal(err)
	}
	return data
}

// emulateMedia sets the CSS media type ("print", or "" for the screen) and media features of the tab.
func emulateMedia(p *Page, media string, features ...*emulation.MediaFeature) {
	p.t.Helper()
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: media, Features: features})
		return err
	}))
}

// printMedia puts the tab in print media (with features) and waits for the page to take its paper
// layout and fit its chords in it.
func printMedia(p *Page, features ...*emulation.MediaFeature) {
	p.t.Helper()
	before := evalJS[string](p, fitPassesJS)
	emulateMedia(p, "print", features...)
	p.waitJS(`matchMedia('print').matches && 'printing' in document.documentElement.dataset`, "the paper layout")
	p.waitJS(fitPassesJS+` !== `+jsString(before), "the chords fitted on paper")
}

const fitPassesJS = `(document.getElementById('grid').dataset.fitPasses || '0')`

// controlLabels collects, on the screen page, the words of every control and note that must not be
// printed: buttons, the view panel's summary, the player's options, the read-only note, the header.
func controlLabels(p *Page) []string {
	p.t.Helper()
	labels := evalJS[[]string](p, `(() => {
		const chart = document.querySelectorAll('.grid-wrap, .board-head.view-only');
		const inChart = (el) => [...chart].some((c) => c.contains(el));
		const els = document.querySelectorAll('button, summary, .check, #readonly-note, .skip-link, .nav-link, #conn-text, .brand, #chat-heading');
		const out = new Set();
		for (const el of els) {
			if (inChart(el)) continue;
			const text = el.textContent.replace(/\s+/g, ' ').trim();
			if (text.length >= 3) out.add(text);
		}
		return [...out];
	})()`)
	return labels
}

// checkOnlyChart asserts, in print media, that every element with a visible box is the chart or holds
// it, and that no control's words are in the page's rendered text.
func checkOnlyChart(t *testing.T, p *Page, labels []string, what string) {
	t.Helper()
	outside := evalJS[[]string](p, `(() => {
		const chart = [...document.querySelectorAll('.grid-wrap, .board-head.view-only')];
		const out = [];
		for (const el of document.body.querySelectorAll('*')) {
			if (chart.some((c) => c.contains(el) || el.contains(c))) continue;
			const r = el.getBoundingClientRect();
			if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden' || r.width <= 1 || r.height <= 1) continue;
			out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className ? '.' + String(el.className).replace(/ /g, '.') : ''));
		}
		return out;
	})()`)
	if len(outside) > 0 {
		t.Errorf("%s: printed outside the chart: %v", what, outside)
	}
	shown := evalJS[map[string]bool](p, `({
		title: document.getElementById('title').checkVisibility(),
		key: document.getElementById('meta-key').checkVisibility(),
		tempo: document.getElementById('meta-tempo').checkVisibility(),
		meter: document.getElementById('meta-beats').checkVisibility(),
		sections: [...document.querySelectorAll('.section .mark')].every((m) => m.checkVisibility()),
		bars: [...document.querySelectorAll('.bar')].every((b) => b.checkVisibility()),
	})`)
	for k, v := range shown {
		if !v {
			t.Errorf("%s: the printed chart does not show its %s", what, k)
		}
	}
	text := evalJS[string](p, `document.body.innerText`)
	for _, l := range labels {
		if regexp.MustCompile(`(^|\W)` + regexp.QuoteMeta(l) + `($|\W)`).MatchString(text) {
			t.Errorf("%s: the printed page says %q, a control's or a note's words", what, l)
		}
	}
}

// checkChordsWhole asserts that no chord symbol is broken over two lines and none sticks out of its bar.
func checkChordsWhole(t *testing.T, p *Page, what string) {
	t.Helper()
	bad := evalJS[[]string](p, chordsWholeJS)
	if len(bad) > 0 {
		t.Errorf("%s: %d chords broken or sticking out, e.g. %v", what, len(bad), bad[:min(len(bad), 5)])
	}
}

// chordsWholeJS lists every chord drawn on more than one line or outside its bar. A chord is a box of
// inline parts (root, quality, bass, and inside them the accidentals' glyphs and a number's raised
// quality, notation.js): broken, a piece of it sits on a line that does not overlap its first piece's.
// (A part holding an accidental has a rect for its text and one for the glyph, on one line; the
// accidental's ASCII letter, drawn at no size, has an empty rect and is not a piece.)
const chordsWholeJS = `(() => {
	const bad = [];
	for (const c of document.querySelectorAll('.grid .chord')) {
		const bar = c.closest('.bar').getBoundingClientRect();
		const text = c.closest('.bar').dataset.path + ' ' + c.textContent;
		const parts = c.querySelectorAll('span');
		const rects = [...parts].flatMap((s) => [...s.getClientRects()]).filter((r) => r.width > 0 || r.height > 0);
		const first = rects[0];
		if (rects.some((r) => r.top >= first.bottom || r.bottom <= first.top)) {
			bad.push(text + ': on ' + rects.length + ' line pieces');
		}
		const ink = document.createRange();
		ink.selectNodeContents(c);
		const r = ink.getBoundingClientRect();
		if (r.right > bar.right + 0.5 || r.left < bar.left - 0.5) bad.push(text + ': outside its bar');
	}
	return bad;
})()`

// ordinarySong is a 40-bar song in six sections, with the long symbols charts carry.
func ordinarySong() boardContent {
	row := func(bars ...[]string) [][]string { return bars }
	return boardContent{
		Title: "Blue Moonlight", Description: "Medium swing.", Key: "Bb", Tempo: 132, BeatsPerBar: 4,
		Sections: []boardSection{
			{Label: "Intro", Bars: row([]string{"Bbmaj7"}, []string{"G7b9"}, []string{"Cm7", "F7"}, []string{"Bb6", "F7sus4"})},
			{Label: "A", Bars: row([]string{"Bbmaj7/D"}, []string{"Db7"}, []string{"Cm7"}, []string{"F7"}, []string{"Dm7b5"}, []string{"G7b9"}, []string{"Cm7", "F7"}, []string{"Bb6"})},
			{Label: "A", Bars: row([]string{"Bbmaj7"}, []string{"C7b9b13/Bb"}, []string{"Cm7"}, []string{"F7#11"}, []string{"Dm7b5", "G7alt"}, []string{"Cm(maj7)", "Cm7/Bb"}, []string{"Cm7", "F7", "Bb6", "F7sus4"}, []string{"Bb6"})},
			{Label: "B", Bars: row([]string{"Fm7"}, []string{"Bb7"}, []string{"Ebmaj7"}, []string{"Ab13sus4"}, []string{"Am7b5"}, []string{"D7b9"}, []string{"Gm7"}, []string{"C7b9b13/Bb", "F7"})},
			{Label: "A", Bars: row([]string{"Bbmaj7"}, []string{"Db7"}, []string{"Cm7"}, []string{"F7"}, []string{"Dm7b5"}, []string{"G7b9"}, []string{"Cm7", "F7"}, []string{"Bb6"})},
			{Label: "Tag", Bars: row([]string{"Cm7"}, []string{"F7"}, []string{"Bb6"}, []string{"N.C."})},
		},
	}
}

// longChart is the largest chart the schema allows: 8 sections of 64 bars, four chords a bar.
func longChart(beats int) boardContent {
	chords := []string{"Cmaj7", "Am7", "Dm7", "G7", "Ebmaj7/G", "C7b9b13/Bb", "F#m7b5", "B7alt"}
	c := boardContent{Title: fmt.Sprintf("The longest chart (%d beats)", beats), Key: "C", Tempo: 160, BeatsPerBar: beats}
	for s := range 8 {
		sec := boardSection{Label: fmt.Sprintf("Part %d", s+1)}
		for b := range 64 {
			bar := make([]string, 4)
			for i := range bar {
				bar[i] = chords[(s+b+i)%len(chords)]
			}
			sec.Bars = append(sec.Bars, bar)
		}
		c.Sections = append(c.Sections, sec)
	}
	return c
}

// checkPrinted reads a printed chart from its PDF: each of want ("" for none) is on a line of it, whole,
// and every bar of one or two chords (counts, a bar's chords in order; 0 for a % or N.C. bar) draws them
// at 16 pt or more.
func checkPrinted(t *testing.T, doc *pdfDoc, what string, want []string, counts []int) {
	t.Helper()
	printed := readPrinted(t, doc)
	for _, w := range want {
		if w != "" && !printed.has(w) {
			t.Errorf("%s: the PDF does not say %q; its lines: %q", what, w, printed.lines[:min(len(printed.lines), 6)])
		}
	}
	if len(printed.barSizes) != len(counts) {
		t.Fatalf("%s: %d bars in the PDF, want %d", what, len(printed.barSizes), len(counts))
	}
	smallest := math.Inf(1)
	for i, n := range counts {
		if n == 0 || n > 2 {
			continue
		}
		smallest = math.Min(smallest, printed.barSizes[i])
		if printed.barSizes[i] < 16 {
			t.Errorf("%s: bar %d (%d chords) is printed at %.1f pt, want 16 pt or more", what, i+1, n, printed.barSizes[i])
		}
	}
	t.Logf("%s: the smallest chord root of a one- or two-chord bar is %.1f pt in the PDF", what, smallest)
}

// chordCounts lists the chords of each bar of c, 0 for an N.C. bar.
func chordCounts(c boardContent) []int {
	var out []int
	for _, s := range c.Sections {
		for _, bar := range s.Bars {
			n := len(bar)
			if n == 1 && bar[0] == "N.C." {
				n = 0
			}
			out = append(out, n)
		}
	}
	return out
}
