package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// iRealPage is the page an iReal Pro chart fills (testdata/ireal-page.json): bars a row and rows a
// page, from the layout of its documented chart format.
type iRealPage struct {
	BarsPerRow  int `json:"barsPerRow"`
	RowsPerPage int `json:"rowsPerPage"`
	Tolerance   struct {
		RowsPerPage int `json:"rowsPerPage"`
	} `json:"tolerance"`
}

// printedBar is where a bar's largest text (its chord roots) stands on paper.
type printedBar struct {
	Page       int
	X, Y, Size float64 // points from the page's left and bottom; the size in points
}

// printedRow is one row of bars: its baseline and how many bars stand on it.
type printedRow struct {
	Page int
	Y    float64
	Bars int
}

// TestPrintProportions prints a chart of a full iReal Pro page (12 rows of 4 bars) on A4 and Letter, in
// English and Chinese, and compares the printout's proportions with that page: as many bars a row, the
// 12 rows on one page (within the stated tolerance), and the rows filling the page rather than leaving
// half of it empty. The numbers measured are logged and written in docs/content.md.
func TestPrintProportions(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	raw, err := os.ReadFile(filepath.Join("testdata", "ireal-page.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref iRealPage
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	s := startServe(t)
	b := newBrowser(t)
	apiCreateBoard(t, s, "print-ireal-page", fullIRealPage())
	for _, lang := range []string{"en", "zh-CN"} {
		p := b.newPage(t)
		openBoard(p, s, "print-ireal-page", "")
		switchLanguageScripted(p, lang)
		for _, paper := range papers {
			what := fmt.Sprintf("a chart of 12 rows of 4 bars (%s, %s)", paper.name, lang)
			doc := parsePDF(t, printPDF(p, paper.width, paper.height, "print-ireal-page-"+paper.name+"-"+lang))
			checkProportions(t, doc, ref, paper.height*72, what)
		}
		p.requireClean("printing a full iReal Pro page in " + lang)
	}
}

// checkProportions compares a printed chart with an iReal Pro page.
func checkProportions(t *testing.T, doc *pdfDoc, ref iRealPage, pageHeight float64, what string) {
	t.Helper()
	bars := printedBars(t, doc)
	rows := printedRows(bars)
	if len(rows) == 0 {
		t.Fatalf("%s: no bar found in the PDF", what)
	}
	for i, r := range rows {
		if r.Bars != ref.BarsPerRow {
			t.Errorf("%s: row %d has %d bars; an iReal Pro page has %d a row", what, i+1, r.Bars, ref.BarsPerRow)
		}
	}
	first := 0
	for _, r := range rows {
		if r.Page == 0 {
			first++
		}
	}
	if first < ref.RowsPerPage-ref.Tolerance.RowsPerPage {
		t.Errorf("%s: the first page holds %d rows; an iReal Pro page holds %d (%d fewer at most)", what, first, ref.RowsPerPage, ref.Tolerance.RowsPerPage)
	}
	// The rows of the first page, from the top of the page to the last row's baseline: an iReal Pro
	// page of 12 rows is filled to its foot.
	lastY := rows[first-1].Y
	used := (pageHeight - lastY) / pageHeight
	if used < 0.6 {
		t.Errorf("%s: the 12 rows end %.0f%% of the way down the page, leaving the rest empty; an iReal Pro page is filled", what, used*100)
	}
	var gaps []float64
	for i := 1; i < first; i++ {
		gaps = append(gaps, rows[i-1].Y-rows[i].Y)
	}
	sort.Float64s(gaps)
	pitch := 0.0
	if len(gaps) > 0 {
		pitch = gaps[len(gaps)/2]
	}
	sizes := make([]float64, 0, len(bars))
	left := math.Inf(1)
	for _, b := range bars {
		sizes = append(sizes, b.Size)
		left = math.Min(left, b.X)
	}
	sort.Float64s(sizes)
	const mm = 25.4 / 72
	t.Logf("%s: %d page(s), %d rows on the first, %d bars a row; the first row's chords %.0f mm below the page's top edge, the last row's %.0f%% of the way down; row pitch %.1f mm; chords %.1f pt (median), %.0f%% of the row pitch; the first bar's chord %.0f mm from the left edge",
		what, len(doc.pages), first, rows[0].Bars, (pageHeight-rows[0].Y)*mm, used*100, pitch*mm, sizes[len(sizes)/2], sizes[len(sizes)/2]/pitch*100, left*mm)
}

// printedBars reads, for each bar of the structure tree (an LI, in order), its largest text.
func printedBars(t *testing.T, doc *pdfDoc) []printedBar {
	t.Helper()
	byMark := map[pdfMark][]pdfRun{}
	for pg := range doc.pages {
		for _, r := range doc.pageText(t, pg) {
			if r.Mark >= 0 && strings.TrimSpace(r.Text) != "" {
				byMark[pdfMark{pg, r.Mark}] = append(byMark[pdfMark{pg, r.Mark}], r)
			}
		}
	}
	var out []printedBar
	for _, li := range doc.structTree(t).find("LI") {
		best := printedBar{Page: -1}
		var walk func(e *pdfStructElem)
		walk = func(e *pdfStructElem) {
			for _, m := range e.Marks {
				for _, r := range byMark[m] {
					if r.Size > best.Size {
						best = printedBar{Page: m.Page, X: r.X, Y: r.Y, Size: r.Size}
					}
				}
			}
			for _, k := range e.Kids {
				walk(k)
			}
		}
		walk(li)
		if best.Page >= 0 {
			out = append(out, best)
		}
	}
	return out
}

// printedRows groups bars into rows: a bar in order on the same page, to the right of the one before
// and with its chords at about the same height, is on that one's row.
func printedRows(bars []printedBar) []printedRow {
	var rows []printedRow
	var last printedBar
	for i, b := range bars {
		if n := len(rows); i > 0 && b.Page == last.Page && b.X > last.X && math.Abs(last.Y-b.Y) < b.Size/2 {
			rows[n-1].Bars++
			rows[n-1].Y = math.Min(rows[n-1].Y, b.Y)
		} else {
			rows = append(rows, printedRow{Page: b.Page, Y: b.Y, Bars: 1})
		}
		last = b
	}
	return rows
}

// fullIRealPage is a chart of the size of a full iReal Pro page: three sections of 16 bars, 12 rows of
// 4 bars, one or two chords a bar as a jazz standard has them.
func fullIRealPage() boardContent {
	bars := [][]string{
		{"Cm7"}, {"F7"}, {"Bbmaj7"}, {"Ebmaj7"}, {"Am7b5"}, {"D7b9"}, {"Gm6"}, {"Gm6"},
		{"Cm7"}, {"F7"}, {"Bbmaj7"}, {"Ebmaj7"}, {"Am7b5"}, {"D7b9"}, {"Gm7", "C7"}, {"Fm7", "Bb7"},
	}
	c := boardContent{Title: "A full page", Description: "Medium swing.", Key: "Bb", Tempo: 140, BeatsPerBar: 4}
	for _, label := range []string{"A", "B", "C"} {
		c.Sections = append(c.Sections, boardSection{Label: label, Bars: bars})
	}
	return c
}
