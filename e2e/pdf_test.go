package e2e

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A small reader of the PDFs Chromium prints (Skia, PDF 1.4, tagged): enough to count pages and to
// say on which page each element of the document's structure was drawn. Skia writes every object
// whole, uncompressed except for streams, so the structure tree is readable as it stands.

// pdfDoc is a printed PDF: its objects by number and its pages in order.
type pdfDoc struct {
	objects map[int]string // object number → body between "obj" and "endobj"
	pages   []int          // page object numbers in page order
	raw     []byte         // the file, for the streams (pdf_text_test.go)
}

// pdfStructElem is one element of the structure tree: its type (/S), the pages its content is on, and
// its child elements in order.
type pdfStructElem struct {
	Type  string
	Pages []int // page indexes (0-based), each once, in order of first appearance
	Kids  []*pdfStructElem
	Marks []pdfMark // its marked content, in order: what it draws (pdf_text_test.go)
}

// pdfMark names a piece of marked content: its page (index) and its MCID there.
type pdfMark struct{ Page, MCID int }

var (
	pdfObjRe  = regexp.MustCompile(`(?s)(\d+) 0 obj\s*(.*?)endobj`)
	pdfRefRe  = regexp.MustCompile(`(\d+) 0 R`)
	pdfKidsRe = regexp.MustCompile(`/Kids\s*\[([^\]]*)\]`)
	pdfTypeRe = regexp.MustCompile(`/Type\s*/(\w+)`)
	pdfSRe    = regexp.MustCompile(`/S\s*/(\w+)`)
	pdfPgRe   = regexp.MustCompile(`/Pg\s+(\d+) 0 R`)
	pdfRootRe = regexp.MustCompile(`/Root\s+(\d+) 0 R`)
	pdfTreeRe = regexp.MustCompile(`/StructTreeRoot\s+(\d+) 0 R`)
	pdfMCIDRe = regexp.MustCompile(`/MCID\s+(\d+)`)
	pdfKidRe  = regexp.MustCompile(`(\d+) 0 R|(\d+)`) // a kid in /K: a reference, or an MCID
)

func parsePDF(t testing.TB, data []byte) *pdfDoc {
	t.Helper()
	if !strings.HasPrefix(string(data), "%PDF-") {
		t.Fatalf("not a PDF: %q", data[:min(len(data), 16)])
	}
	d := &pdfDoc{objects: map[int]string{}, raw: data}
	for _, m := range pdfObjRe.FindAllStringSubmatch(string(data), -1) {
		n, _ := strconv.Atoi(m[1])
		body := m[2]
		if i := strings.Index(body, "stream"); i >= 0 {
			body = body[:i] // the dictionary of a stream; its bytes are not needed here
		}
		d.objects[n] = body
	}
	root := pdfRootRe.FindStringSubmatch(string(data))
	if root == nil {
		t.Fatal("PDF without /Root")
	}
	catalog := d.objects[pdfInt(root[1])]
	pagesRef := regexp.MustCompile(`/Pages\s+(\d+) 0 R`).FindStringSubmatch(catalog)
	if pagesRef == nil {
		t.Fatalf("PDF catalog without /Pages: %q", catalog)
	}
	d.walkPages(pdfInt(pagesRef[1]), 0)
	return d
}

// walkPages lists the leaves of the page tree in order.
func (d *pdfDoc) walkPages(n, depth int) {
	if depth > 32 {
		return
	}
	body := d.objects[n]
	switch pdfType(body) {
	case "Page":
		d.pages = append(d.pages, n)
	case "Pages":
		if m := pdfKidsRe.FindStringSubmatch(body); m != nil {
			for _, r := range pdfRefRe.FindAllStringSubmatch(m[1], -1) {
				d.walkPages(pdfInt(r[1]), depth+1)
			}
		}
	}
}

// pageObjects counts the objects of /Type /Page (never /Pages): the pages as a reader counts them.
func (d *pdfDoc) pageObjects() int {
	n := 0
	for _, body := range d.objects {
		if pdfType(body) == "Page" {
			n++
		}
	}
	return n
}

func pdfType(body string) string {
	if m := pdfTypeRe.FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return ""
}

// structTree reads the document's structure tree (Chromium's tagged PDF).
func (d *pdfDoc) structTree(t testing.TB) *pdfStructElem {
	t.Helper()
	var rootBody string
	for _, body := range d.objects {
		if pdfType(body) == "Catalog" {
			rootBody = body
		}
	}
	m := pdfTreeRe.FindStringSubmatch(rootBody)
	if m == nil {
		t.Fatal("the PDF is not tagged: no /StructTreeRoot")
	}
	pageIndex := map[int]int{}
	for i, n := range d.pages {
		pageIndex[n] = i
	}
	seen := map[int]bool{}
	var read func(n int) *pdfStructElem
	read = func(n int) *pdfStructElem {
		if seen[n] {
			return nil
		}
		seen[n] = true
		body := d.objects[n]
		e := &pdfStructElem{}
		if s := pdfSRe.FindStringSubmatch(body); s != nil {
			e.Type = s[1]
		}
		addPage := func(p int) {
			for _, q := range e.Pages {
				if q == p {
					return
				}
			}
			e.Pages = append(e.Pages, p)
		}
		// The element's own page, and those of marked-content references written inline in /K.
		own := -1
		for _, pg := range pdfPgRe.FindAllStringSubmatch(body, -1) {
			addPage(pageIndex[pdfInt(pg[1])])
			own = pageIndex[pdfInt(pg[1])]
		}
		// Its marked content: bare MCIDs in /K (on its own page), and MCR objects.
		if pdfType(body) == "MCR" {
			if m := pdfMCIDRe.FindStringSubmatch(body); m != nil {
				e.Marks = append(e.Marks, pdfMark{own, pdfInt(m[1])})
			}
		}
		for _, k := range pdfKidRe.FindAllStringSubmatch(pdfKids(body), -1) {
			if k[2] != "" {
				e.Marks = append(e.Marks, pdfMark{own, pdfInt(k[2])})
			}
		}
		for _, r := range pdfRefRe.FindAllStringSubmatch(pdfKids(body), -1) {
			k := pdfInt(r[1])
			if kind := pdfType(d.objects[k]); kind != "" && kind != "StructElem" && kind != "MCR" {
				continue
			}
			kid := read(k)
			if kid == nil {
				continue
			}
			if pdfType(d.objects[k]) == "MCR" {
				for _, p := range kid.Pages {
					addPage(p)
				}
				e.Marks = append(e.Marks, kid.Marks...)
				continue
			}
			e.Kids = append(e.Kids, kid)
			for _, p := range kid.Pages {
				addPage(p)
			}
		}
		return e
	}
	return read(pdfInt(m[1]))
}

// pdfKids is the value of an object's /K entry (a reference, an array or a number).
func pdfKids(body string) string {
	i := strings.Index(body, "/K ")
	if i < 0 {
		i = strings.Index(body, "/K[")
	}
	if i < 0 {
		return ""
	}
	rest := strings.TrimSpace(body[i+2:])
	if strings.HasPrefix(rest, "[") {
		if j := strings.Index(rest, "]"); j >= 0 {
			return rest[:j+1]
		}
		return rest
	}
	if m := regexp.MustCompile(`^\d+( 0 R)?`).FindString(rest); m != "" {
		return m
	}
	return ""
}

// find lists the elements of type typ under e, in document order.
func (e *pdfStructElem) find(typ string) []*pdfStructElem {
	var out []*pdfStructElem
	var walk func(*pdfStructElem)
	walk = func(x *pdfStructElem) {
		if x.Type == typ {
			out = append(out, x)
		}
		for _, k := range x.Kids {
			walk(k)
		}
	}
	walk(e)
	return out
}

func pdfInt(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(fmt.Sprintf("pdf: %q is not a number", s))
	}
	return n
}
