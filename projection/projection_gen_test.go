package projection

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"
)

// genBranch writes a deterministic branch of n entries in the shape and field order of Pi 0.73.1's
// getBranch() (testdata/pi-branch-example.json; performance-anchors.md 4): turns of a user message,
// 1–6 tool rounds (assistant with optional thinking and text and one toolCall, then its toolResult)
// and a final assistant reply; now and then a compaction, custom entry, label or model change. About
// 70% of the bytes are tool results, with escapes (\n \t \" \\) and some non-ASCII. Compact JSON, as
// JSON.stringify sends it.
func genBranch(n int, seed uint64) []byte {
	g := &branchGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), parent: "null"}
	g.b = append(g.b, '[')
	for g.n < n {
		g.user()
		rounds := 1 + g.r.IntN(6)
		for k := 0; k < rounds && g.n < n; k++ {
			call := fmt.Sprintf("call_%d", g.n)
			g.assistant(g.r.IntN(10) < 6, g.r.IntN(10) < 4, call, "toolUse")
			if g.n < n {
				g.toolResult(call)
			}
		}
		if g.n < n {
			stop := "stop"
			switch x := g.r.IntN(40); {
			case x == 0:
				stop = "error"
			case x == 1:
				stop = "aborted"
			}
			g.assistant(false, stop != "error", "", stop)
		}
		if g.n < n && g.r.IntN(100) < 10 {
			g.other()
		}
	}
	return append(g.b, ']')
}

type branchGen struct {
	r      *rand.Rand
	b      []byte
	n      int
	parent string
	ts     int64
}

var genWords = strings.Fields(`the a of to and in is for on with func return if err nil := string int main package ` +
	`import struct type var const range map slice chan go defer select case default break continue ` +
	`café naïve résumé 中文 日本語 한국어 Ω≈ç√ 😀 🚀 ✓ → ` +
	`"quoted" path/to/file.go C:\Users\dev \t tab back\slash {"k":[1,2]} <tag> &amp; 0x1f 42 3.14`)

// text appends about size bytes of words, with newlines and tabs, as a JSON string.
func (g *branchGen) text(size int) {
	var sb strings.Builder
	for sb.Len() < size {
		w := genWords[g.r.IntN(len(genWords))]
		sb.WriteString(w)
		switch x := g.r.IntN(12); {
		case x == 0:
			sb.WriteString("\n")
		case x == 1:
			sb.WriteString("\n\t")
		default:
			sb.WriteByte(' ')
		}
	}
	g.b = AppendJSONString(g.b, sb.String())
}

// size draws a size around mean with a long tail.
func (g *branchGen) size(mean int) int {
	return int(float64(mean) * g.r.ExpFloat64() * 0.9)
}

func (g *branchGen) open(typ string) {
	if g.n > 0 {
		g.b = append(g.b, ',')
	}
	id := fmt.Sprintf("%08x", g.r.Uint32())
	g.ts += int64(1 + g.r.IntN(3000))
	g.b = append(g.b, `{"type":"`...)
	g.b = append(g.b, typ...)
	g.b = append(g.b, `","id":"`...)
	g.b = append(g.b, id...)
	g.b = append(g.b, `","parentId":`...)
	g.b = append(g.b, g.parent...)
	g.b = append(g.b, `,"timestamp":"2026-11-30T08:44:08.078Z"`...)
	g.parent = `"` + id + `"`
	g.n++
}

func (g *branchGen) user() {
	g.open("message")
	g.b = append(g.b, `,"message":{"role":"user","content":[{"type":"text","text":`...)
	g.text(60 + g.size(1800))
	g.b = append(g.b, `}],"timestamp":`...)
	g.b = strconv.AppendInt(g.b, 1796028248000+g.ts, 10)
	g.b = append(g.b, `}}`...)
}

func (g *branchGen) assistant(thinking, text bool, call, stop string) {
	g.open("message")
	g.b = append(g.b, `,"message":{"role":"assistant","content":[`...)
	first := true
	sep := func() {
		if !first {
			g.b = append(g.b, ',')
		}
		first = false
	}
	if thinking {
		sep()
		g.b = append(g.b, `{"type":"thinking","thinking":`...)
		g.text(100 + g.size(1300))
		g.b = append(g.b, `,"thinkingSignature":"reasoning_content"}`...)
	}
	if text {
		sep()
		g.b = append(g.b, `{"type":"text","text":`...)
		if call == "" {
			g.text(100 + g.size(1600))
		} else {
			g.text(20 + g.size(300))
		}
		g.b = append(g.b, '}')
	}
	if call != "" {
		sep()
		g.b = append(g.b, `{"type":"toolCall","id":"`...)
		g.b = append(g.b, call...)
		g.b = append(g.b, `","name":"`...)
		g.b = append(g.b, [...]string{"bash", "read", "edit", "write", "grep"}[g.r.IntN(5)]...)
		g.b = append(g.b, `","arguments":{"command":`...)
		g.text(20 + g.size(300))
		g.b = append(g.b, `}}`...)
	}
	g.b = append(g.b, `],"api":"openai-completions","provider":"fake","model":"fake-model","usage":{"input":1234,"output":321,`+
		`"cacheRead":0,"cacheWrite":0,"totalTokens":1555,"cost":{"input":0.001,"output":0.002,"cacheRead":0,"cacheWrite":0,"total":0.003}},`+
		`"stopReason":"`...)
	g.b = append(g.b, stop...)
	g.b = append(g.b, `","timestamp":`...)
	g.b = strconv.AppendInt(g.b, 1796028248000+g.ts, 10)
	g.b = append(g.b, `,"responseId":"chatcmpl-`...)
	g.b = strconv.AppendInt(g.b, int64(g.n), 10)
	g.b = append(g.b, '"')
	switch stop {
	case "error":
		g.b = append(g.b, `,"errorMessage":"400 upstream failure"`...)
	case "aborted":
		g.b = append(g.b, `,"errorMessage":"Request was aborted"`...)
	}
	g.b = append(g.b, `}}`...)
}

func (g *branchGen) toolResult(call string) {
	g.open("message")
	g.b = append(g.b, `,"message":{"role":"toolResult","toolCallId":"`...)
	g.b = append(g.b, call...)
	g.b = append(g.b, `","toolName":"bash","content":[{"type":"text","text":`...)
	g.text(200 + g.size(6700))
	g.b = append(g.b, `}],"details":{"exitCode":0},"isError":`...)
	g.b = strconv.AppendBool(g.b, g.r.IntN(12) == 0)
	g.b = append(g.b, `,"timestamp":`...)
	g.b = strconv.AppendInt(g.b, 1796028248000+g.ts, 10)
	g.b = append(g.b, `}}`...)
}

func (g *branchGen) other() {
	switch g.r.IntN(4) {
	case 0:
		g.open("compaction")
		g.b = append(g.b, `,"summary":`...)
		g.text(500 + g.size(1500))
		g.b = append(g.b, `,"firstKeptEntryId":"00000000","tokensBefore":50000,"details":{"readFiles":[],"modifiedFiles":[]},"fromHook":false}`...)
	case 1:
		g.open("custom")
		g.b = append(g.b, `,"customType":"tele-state","data":{"board":"demo","note":`...)
		g.text(100)
		g.b = append(g.b, `}}`...)
	case 2:
		g.open("label")
		g.b = append(g.b, `,"targetId":"00000000","label":"checkpoint"}`...)
	default:
		g.open("model_change")
		g.b = append(g.b, `,"provider":"fake","modelId":"fake-model"}`...)
	}
}

var (
	bigBranchOnce sync.Once
	bigBranchData []byte
)

// bigBranch is the benchmark branch: 5,000 entries, about 20 MB.
func bigBranch() []byte {
	bigBranchOnce.Do(func() { bigBranchData = genBranch(5000, 42) })
	return bigBranchData
}

// The generated branch has the intended shape, and every entry projects without being skipped.
func TestGenBranchShape(t *testing.T) {
	if testing.Short() {
		t.Skip("20 MB branch")
	}
	b := bigBranch()
	counts := map[string]int{}
	var toolBytes, entries int
	gjson.ParseBytes(b).ForEach(func(_, e gjson.Result) bool {
		entries++
		role := e.Get("message.role").String()
		counts[e.Get("type").String()+"/"+role]++
		if role == "toolResult" {
			toolBytes += len(e.Raw)
		}
		return true
	})
	share := float64(toolBytes) / float64(len(b))
	t.Logf("%d entries, %d bytes, tool results %.1f%%, %v", entries, len(b), 100*share, counts)
	if entries != 5000 || len(b) < 18e6 || len(b) > 22e6 || share < 0.65 || share > 0.75 || !gjson.ValidBytes(b) {
		t.Fatalf("branch shape off: %d entries, %d bytes, %.2f tool share", entries, len(b), share)
	}
	p := NewProjector()
	if err := p.ApplyBranch(true, b); err != nil {
		t.Fatal(err)
	}
	items, trunc := p.Items()
	pjCheckView(t, p, items)
	if p.skipped != 0 || !trunc || len(items) == 0 {
		t.Fatalf("skipped %d, %d items, truncated %v", p.skipped, len(items), trunc)
	}
	js, _ := itemsJSON(p)
	t.Logf("view: %d items, %d bytes", len(items), len(js))
}
