package e2e

import (
	"bytes"
	"compress/zlib"
	"encoding/hex"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

// The text a printed PDF draws, read the way a PDF reader does, enough for Chromium's (Skia's) PDFs: each
// shown string with the size its font is drawn at on paper, in points, where it stands and the marked
// content it is in, so a test reads what is on the page and how big, not what the page's CSS asked for.
// Skia writes each page's content as one Flate stream of q/Q, cm, BT/ET, Tf, Tm, Td and Tj (one glyph or a
// run of them), fonts of Type0 (two-byte codes) and Type3 (one-byte), each with a ToUnicode CMap, and
// /ActualText spans where a glyph stands for other text. No library of the module list reads text with
// its size; this reader is small and checked by the tests that use it (TestPrint) against what the page
// shows.

// pdfRun is one string a page shows.
type pdfRun struct {
	Text string
	Size float64 // points on paper: the font size through the text and graphics matrices
	X, Y float64 // its origin, in points from the page's left and bottom
	Mark int     // the MCID of the marked content it is in, -1 outside any
}

var (
	pdfContentsRe = regexp.MustCompile(`/Contents\s*(\[[^\]]*\]|\d+ 0 R)`)
	pdfFontsRe    = regexp.MustCompile(`/Font\s*<<([^>]*)>>`)
	pdfNamedRefRe = regexp.MustCompile(`/([^\s/<>\[\]]+)\s+(\d+) 0 R`)
	pdfToUniRe    = regexp.MustCompile(`/ToUnicode\s+(\d+) 0 R`)
	pdfLengthRe   = regexp.MustCompile(`/Length\s+(\d+)(\s+0 R)?`)
	pdfHexRe      = regexp.MustCompile(`<([0-9A-Fa-f]*)>`)
	pdfActualRe   = regexp.MustCompile(`/ActualText\s*<([0-9A-Fa-f]*)>`)
)

// stream is the decoded data of stream object n.
func (d *pdfDoc) stream(t testing.TB, n int) []byte {
	t.Helper()
	at := bytes.Index(d.raw, []byte("\n"+strconv.Itoa(n)+" 0 obj"))
	if at < 0 {
		t.Fatalf("PDF: no object %d", n)
	}
	rest := d.raw[at:]
	s := bytes.Index(rest, []byte("stream"))
	if s < 0 {
		t.Fatalf("PDF: object %d is not a stream", n)
	}
	dict := string(rest[:s])
	body := rest[s+len("stream"):]
	body = bytes.TrimPrefix(bytes.TrimPrefix(body, []byte("\r")), []byte("\n"))
	m := pdfLengthRe.FindStringSubmatch(dict)
	if m == nil {
		t.Fatalf("PDF: stream %d without /Length", n)
	}
	length := pdfInt(m[1])
	if m[2] != "" { // an indirect length
		length = pdfInt(strings.TrimSpace(d.objects[length]))
	}
	body = body[:length]
	if !strings.Contains(dict, "/FlateDecode") {
		return body
	}
	r, err := zlib.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("PDF: stream %d: %v", n, err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("PDF: stream %d: %v", n, err)
	}
	return out
}

// pdfFont maps a font's codes to text.
type pdfFont struct {
	width int               // bytes a code takes: 2 for Type0, 1 otherwise
	text  map[uint32]string // code → text, from its ToUnicode CMap
}

func (d *pdfDoc) font(t testing.TB, n int) *pdfFont {
	body := d.objects[n]
	f := &pdfFont{width: 1, text: map[uint32]string{}}
	if strings.Contains(body, "/Subtype /Type0") {
		f.width = 2
	}
	m := pdfToUniRe.FindStringSubmatch(body)
	if m == nil {
		return f
	}
	cmap := string(d.stream(t, pdfInt(m[1])))
	for _, block := range regexp.MustCompile(`(?s)beginbfchar(.*?)endbfchar`).FindAllStringSubmatch(cmap, -1) {
		hs := pdfHexRe.FindAllStringSubmatch(block[1], -1)
		for i := 0; i+1 < len(hs); i += 2 {
			f.text[pdfHexInt(hs[i][1])] = pdfUTF16(hs[i+1][1])
		}
	}
	for _, block := range regexp.MustCompile(`(?s)beginbfrange(.*?)endbfrange`).FindAllStringSubmatch(cmap, -1) {
		for _, line := range strings.Split(block[1], "\n") {
			hs := pdfHexRe.FindAllStringSubmatch(line, -1)
			if len(hs) < 3 {
				continue
			}
			lo, hi := pdfHexInt(hs[0][1]), pdfHexInt(hs[1][1])
			if strings.Contains(line, "[") { // <lo> <hi> [<text> <text> …]
				for i := lo; i <= hi && int(i-lo)+2 < len(hs); i++ {
					f.text[i] = pdfUTF16(hs[int(i-lo)+2][1])
				}
				continue
			}
			first := []rune(pdfUTF16(hs[2][1]))
			for i := lo; i <= hi && len(first) > 0; i++ {
				r := append([]rune(nil), first...)
				r[len(r)-1] += rune(i - lo)
				f.text[i] = string(r)
			}
		}
	}
	return f
}

func (f *pdfFont) decode(code []byte) string {
	var b strings.Builder
	for i := 0; i+f.width <= len(code); i += f.width {
		c := uint32(0)
		for _, x := range code[i : i+f.width] {
			c = c<<8 | uint32(x)
		}
		b.WriteString(f.text[c])
	}
	return b.String()
}

func pdfHexInt(h string) uint32 {
	n, _ := strconv.ParseUint(h, 16, 32)
	return uint32(n)
}

func pdfUTF16(h string) string {
	b, _ := hex.DecodeString(h)
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
	}
	if len(u) > 0 && u[0] == 0xFEFF {
		u = u[1:]
	}
	return string(utf16.Decode(u))
}

// pdfMatrix is [a b c d e f], as cm and Tm take it.
type pdfMatrix [6]float64

var pdfIdentity = pdfMatrix{1, 0, 0, 1, 0, 0}

// times is m × n (m applied first).
func (m pdfMatrix) times(n pdfMatrix) pdfMatrix {
	return pdfMatrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

// pageText reads what page (index) shows.
func (d *pdfDoc) pageText(t testing.TB, page int) []pdfRun {
	t.Helper()
	body := d.objects[d.pages[page]]
	fonts := map[string]*pdfFont{}
	if m := pdfFontsRe.FindStringSubmatch(body); m != nil {
		for _, f := range pdfNamedRefRe.FindAllStringSubmatch(m[1], -1) {
			fonts[f[1]] = d.font(t, pdfInt(f[2]))
		}
	}
	c := pdfContentsRe.FindStringSubmatch(body)
	if c == nil {
		return nil
	}
	var content []byte
	for _, r := range pdfRefRe.FindAllStringSubmatch(c[1], -1) {
		content = append(content, d.stream(t, pdfInt(r[1]))...)
		content = append(content, '\n')
	}
	return readContent(content, fonts)
}

// pdfMarked is an open BDC: its MCID (-1 for none) and its /ActualText, with whether it was shown.
type pdfMarked struct {
	mcid   int
	actual *string
}

// readContent interprets a content stream's text and graphics-state operators.
//
//gocognit:ignore
func readContent(content []byte, fonts map[string]*pdfFont) []pdfRun {
	var runs []pdfRun
	ctm, tm, tlm := pdfIdentity, pdfIdentity, pdfIdentity
	var saved []pdfMatrix
	var marks []pdfMarked
	var font *pdfFont
	size := 0.0
	var ops []string // operands since the last operator
	num := func(i int) float64 {
		if i < 0 || i >= len(ops) {
			return 0
		}
		v, _ := strconv.ParseFloat(ops[i], 64)
		return v
	}
	matrix := func() pdfMatrix {
		n := len(ops)
		return pdfMatrix{num(n - 6), num(n - 5), num(n - 4), num(n - 3), num(n - 2), num(n - 1)}
	}
	show := func(codes []byte) {
		if font == nil {
			return
		}
		text := font.decode(codes)
		mark := -1
		for i := len(marks) - 1; i >= 0; i-- {
			if marks[i].actual != nil {
				text, *marks[i].actual = *marks[i].actual, "" // the span's text once, for all its glyphs
				break
			}
		}
		for i := len(marks) - 1; i >= 0; i-- {
			if marks[i].mcid >= 0 {
				mark = marks[i].mcid
				break
			}
		}
		trm := tm.times(ctm)
		runs = append(runs, pdfRun{Text: text, Size: size * math.Sqrt(math.Abs(trm[0]*trm[3]-trm[1]*trm[2])), X: trm[4], Y: trm[5], Mark: mark})
	}
	for i := 0; i < len(content); {
		ch := content[i]
		switch {
		case ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t':
			i++
		case ch == '%':
			for i < len(content) && content[i] != '\n' {
				i++
			}
		case ch == '<' && i+1 < len(content) && content[i+1] == '<':
			// A dictionary operand (BDC's): kept whole, as text.
			depth, j := 0, i
			for ; j+1 < len(content); j++ {
				if content[j] == '<' && content[j+1] == '<' {
					depth++
					j++
				} else if content[j] == '>' && content[j+1] == '>' {
					depth--
					j++
					if depth == 0 {
						break
					}
				}
			}
			ops = append(ops, string(content[i:min(j+1, len(content))]))
			i = j + 1
		case ch == '<':
			j := bytes.IndexByte(content[i:], '>')
			if j < 0 {
				return runs
			}
			ops = append(ops, string(content[i:i+j+1]))
			i += j + 1
		case ch == '(':
			depth, j := 0, i
			for ; j < len(content); j++ {
				if content[j] == '\\' {
					j++
					continue
				}
				if content[j] == '(' {
					depth++
				} else if content[j] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			ops = append(ops, string(content[i:min(j+1, len(content))]))
			i = j + 1
		case ch == '[' || ch == ']':
			ops = append(ops, string(ch))
			i++
		default:
			j := i
			for j < len(content) && !strings.ContainsRune(" \n\r\t<>[]()/%", rune(content[j])) {
				j++
			}
			if ch == '/' {
				j = i + 1
				for j < len(content) && !strings.ContainsRune(" \n\r\t<>[]()/%", rune(content[j])) {
					j++
				}
			}
			if j == i {
				j++
			}
			tok := string(content[i:j])
			i = j
			if c := tok[0]; c == '/' || c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9' {
				ops = append(ops, tok)
				continue
			}
			switch tok {
			case "q":
				saved = append(saved, ctm)
			case "Q":
				if len(saved) > 0 {
					ctm, saved = saved[len(saved)-1], saved[:len(saved)-1]
				}
			case "cm":
				ctm = matrix().times(ctm)
			case "BT":
				tm, tlm = pdfIdentity, pdfIdentity
			case "Tf":
				if len(ops) >= 2 {
					font = fonts[strings.TrimPrefix(ops[len(ops)-2], "/")]
					size = num(len(ops) - 1)
				}
			case "Tm":
				tm = matrix()
				tlm = tm
			case "Td", "TD":
				tlm = pdfMatrix{1, 0, 0, 1, num(len(ops) - 2), num(len(ops) - 1)}.times(tlm)
				tm = tlm
			case "Tj", "'", "\"":
				if len(ops) > 0 {
					show(pdfStringBytes(ops[len(ops)-1]))
				}
			case "TJ":
				var codes []byte
				for _, o := range ops {
					if strings.HasPrefix(o, "<") || strings.HasPrefix(o, "(") {
						codes = append(codes, pdfStringBytes(o)...)
					}
				}
				show(codes)
			case "BMC":
				marks = append(marks, pdfMarked{mcid: -1})
			case "BDC":
				m := pdfMarked{mcid: -1}
				if len(ops) > 0 {
					if id := pdfMCIDRe.FindStringSubmatch(ops[len(ops)-1]); id != nil {
						m.mcid = pdfInt(id[1])
					}
					if a := pdfActualRe.FindStringSubmatch(ops[len(ops)-1]); a != nil {
						text := pdfUTF16(a[1])
						m.actual = &text
					}
				}
				marks = append(marks, m)
			case "EMC":
				if len(marks) > 0 {
					marks = marks[:len(marks)-1]
				}
			}
			ops = ops[:0]
		}
	}
	return runs
}

// pdfStringBytes is the bytes of a string operand: <hex> or (literal).
func pdfStringBytes(s string) []byte {
	if strings.HasPrefix(s, "<") {
		b, _ := hex.DecodeString(strings.Trim(s, "<>"))
		return b
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "("), ")")
	var out []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			default:
				if s[i] >= '0' && s[i] <= '7' {
					j := i
					for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
						j++
					}
					n, _ := strconv.ParseUint(s[i:j], 8, 8)
					out = append(out, byte(n))
					i = j - 1
				} else {
					out = append(out, s[i])
				}
			}
			continue
		}
		out = append(out, s[i])
	}
	return out
}

// pdfLines joins runs into lines of text as a reader sees them: runs whose baselines are within a
// third of their size of each other, left to right, a space between two pieces of marked content (the
// key, the tempo and the meter of a head are each a piece).
func pdfLines(runs []pdfRun) []string {
	rs := append([]pdfRun(nil), runs...)
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Y > rs[j].Y })
	var lines [][]pdfRun
	for _, r := range rs {
		if r.Text == "" {
			continue
		}
		if n := len(lines); n > 0 {
			last := lines[n-1][0]
			if math.Abs(last.Y-r.Y) <= math.Max(1, last.Size/3) {
				lines[n-1] = append(lines[n-1], r)
				continue
			}
		}
		lines = append(lines, []pdfRun{r})
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		sort.SliceStable(l, func(a, b int) bool { return l[a].X < l[b].X })
		var b strings.Builder
		for k, r := range l {
			if k > 0 && r.Mark != l[k-1].Mark {
				b.WriteString(" ")
			}
			b.WriteString(r.Text)
		}
		out[i] = b.String()
	}
	return out
}

// printedChart is a printed chart as read from its PDF: the lines of text of every page, and for each
// bar (an LI of the structure tree, in order) the largest text it draws, in points: its chords' roots.
type printedChart struct {
	lines    []string
	barSizes []float64
}

func readPrinted(t testing.TB, doc *pdfDoc) printedChart {
	t.Helper()
	var out printedChart
	byMark := map[pdfMark][]pdfRun{}
	for pg := range doc.pages {
		runs := doc.pageText(t, pg)
		out.lines = append(out.lines, pdfLines(runs)...)
		for _, r := range runs {
			if r.Mark >= 0 {
				byMark[pdfMark{pg, r.Mark}] = append(byMark[pdfMark{pg, r.Mark}], r)
			}
		}
	}
	for _, li := range doc.structTree(t).find("LI") {
		size := 0.0
		var walk func(e *pdfStructElem)
		walk = func(e *pdfStructElem) {
			for _, m := range e.Marks {
				for _, r := range byMark[m] {
					if strings.TrimSpace(r.Text) != "" {
						size = math.Max(size, r.Size)
					}
				}
			}
			for _, k := range e.Kids {
				walk(k)
			}
		}
		walk(li)
		out.barSizes = append(out.barSizes, size)
	}
	return out
}

// has reports whether a line of the printout holds s.
func (p printedChart) has(s string) bool {
	for _, l := range p.lines {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}
