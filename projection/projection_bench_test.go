package projection

import (
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// Issue 4 targets, on the same generated 5,000-entry ~20 MB branch (projection_gen_test.go):
//
//	BenchmarkProjectFull ≥ 0.5× the MB/s of BenchmarkGjsonBareWalk (a naive gjson path-query
//	projection reaches ~0.2×; performance-anchors.md 4b), allocations independent of tool-result size;
//	BenchmarkAppendOneTo10000 ≤ 1.5× BenchmarkAppendOneTo100.
//
//	go test -run '^$' -bench 'Project|Gjson|Append' -benchmem -count 5 ./chat/
//
// On a shared, noisy host compare the ratios of BenchmarkProjectVsGjsonWalk and
// BenchmarkAppendOne100Vs10000: each times both sides in one loop.

// BenchmarkProjectFull: a reset with the whole branch, as the host receives it, then the view.
func BenchmarkProjectFull(b *testing.B) {
	buf := bigBranch()
	p := NewProjector()
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if err := p.ApplyBranch(true, buf); err != nil {
			b.Fatal(err)
		}
		if items, _ := p.Items(); len(items) == 0 {
			b.Fatal("no items")
		}
	}
}

// BenchmarkGjsonBareWalk: gjson's own walk over the same bytes, iterating the entries without reading
// fields (the floor of performance-anchors.md 4b). ParseBytes copies the input into a string.
func BenchmarkGjsonBareWalk(b *testing.B) {
	buf := bigBranch()
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		gjson.ParseBytes(buf).ForEach(func(_, _ gjson.Result) bool {
			n++
			return true
		})
		if n != 5000 {
			b.Fatal(n)
		}
	}
}

// BenchmarkGjsonBareWalkString: the same walk over input that is already a string (no copy), the
// stricter floor.
func BenchmarkGjsonBareWalkString(b *testing.B) {
	s := string(bigBranch())
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		gjson.Parse(s).ForEach(func(_, _ gjson.Result) bool {
			n++
			return true
		})
		if n != 5000 {
			b.Fatal(n)
		}
	}
}

// BenchmarkProjectVsGjsonWalk runs the full projection and gjson's bare walk (ParseBytes + ForEach)
// alternately in the same loop, so both see the same machine load, and reports both speeds and their
// ratio (target ≥ 0.5).
func BenchmarkProjectVsGjsonWalk(b *testing.B) {
	buf := bigBranch()
	p := NewProjector()
	var proj, walk time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := p.ApplyBranch(true, buf); err != nil {
			b.Fatal(err)
		}
		p.Items()
		t1 := time.Now()
		n := 0
		gjson.ParseBytes(buf).ForEach(func(_, _ gjson.Result) bool {
			n++
			return true
		})
		walk += time.Since(t1)
		proj += t1.Sub(t0)
	}
	mb := float64(len(buf)) * float64(b.N) / 1e6
	b.ReportMetric(mb/proj.Seconds(), "project-MB/s")
	b.ReportMetric(mb/walk.Seconds(), "walk-MB/s")
	b.ReportMetric(walk.Seconds()/proj.Seconds(), "ratio")
}

// BenchmarkProjectNaiveGjson: the naive path-query projection of performance-anchors.md 4b, for
// reference in the same run (not a product path; it ignores most rules).
func BenchmarkProjectNaiveGjson(b *testing.B) {
	buf := bigBranch()
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		var items []Item
		gjson.ParseBytes(buf).ForEach(func(_, e gjson.Result) bool {
			if e.Get("type").String() != "message" {
				return true
			}
			m := e.Get("message")
			switch m.Get("role").String() {
			case "user", "assistant":
				m.Get("content").ForEach(func(_, c gjson.Result) bool {
					switch c.Get("type").String() {
					case "text":
						items = append(items, Item{ID: e.Get("id").String(), Role: m.Get("role").String(), Text: c.Get("text").String()})
					case "toolCall":
						items = append(items, Item{ID: e.Get("id").String(), Role: RoleTool, Name: c.Get("name").String(), Status: ToolCalling})
					}
					return true
				})
			case "toolResult":
				_ = m.Get("toolCallId").String()
				_ = m.Get("isError").Bool()
			}
			return true
		})
		if len(items) == 0 {
			b.Fatal("no items")
		}
	}
}

// appendFeed produces distinct entries to append, one per call, without allocating: a cycle of a
// user message, an assistant tool call, its ~7 KB tool result and an assistant reply, with fresh ids.
type appendFeed struct {
	tmpl [4][]byte
	pos  [4][]int // offsets of the 8-digit id placeholders (entry id, call id)
	i    int
}

func newAppendFeed() *appendFeed {
	f := &appendFeed{}
	big := make([]byte, 0, 8<<10)
	for len(big) < 7000 {
		big = append(big, `line of tool output with \"quotes\", a tab\t, é 中文 😀 and a path C:\\dev\n`...)
	}
	tmpl := [4]string{
		`[{"type":"message","id":"ID######","parentId":"00000000","timestamp":"2026-11-30T08:44:08.078Z","message":{"role":"user","content":[{"type":"text","text":"please run the tests"}],"timestamp":1}}]`,
		`[{"type":"message","id":"ID######","parentId":"00000000","timestamp":"2026-11-30T08:44:08.078Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"I should run them.","thinkingSignature":"reasoning_content"},{"type":"toolCall","id":"CA######","name":"bash","arguments":{"command":"go test ./..."}}],"api":"openai-completions","provider":"fake","model":"fake-model","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"toolUse","timestamp":1,"responseId":"chatcmpl-1"}}]`,
		`[{"type":"message","id":"ID######","parentId":"00000000","timestamp":"2026-11-30T08:44:08.078Z","message":{"role":"toolResult","toolCallId":"CA######","toolName":"bash","content":[{"type":"text","text":"` + string(big) + `"}],"details":{},"isError":false,"timestamp":1}}]`,
		`[{"type":"message","id":"ID######","parentId":"00000000","timestamp":"2026-11-30T08:44:08.078Z","message":{"role":"assistant","content":[{"type":"text","text":"All tests pass."}],"api":"openai-completions","provider":"fake","model":"fake-model","usage":{"input":10,"output":5,"cacheRead":0,"cacheWrite":0,"totalTokens":15,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1,"responseId":"chatcmpl-2"}}]`,
	}
	for k, t := range tmpl {
		f.tmpl[k] = []byte(t)
		for _, ph := range []string{"ID######", "CA######"} {
			for j := 0; j+8 <= len(t); j++ {
				if t[j:j+8] == ph {
					f.pos[k] = append(f.pos[k], j)
				}
			}
		}
	}
	return f
}

// next returns the next entry note. The bytes are reused by the following call.
func (f *appendFeed) next() []byte {
	k := f.i % 4
	t := f.tmpl[k]
	for n, at := range f.pos[k] {
		v := f.i
		if n > 0 && k == 2 { // the result names the previous entry's call
			v = f.i - 1
		}
		hex8(t[at:at+8], uint32(v)|0x80000000)
	}
	f.i++
	return t
}

func hex8(dst []byte, v uint32) {
	for k := 7; k >= 0; k-- {
		dst[k] = hexDigits[v&0xF]
		v >>= 4
	}
}

func benchAppend(b *testing.B, history int) {
	p := NewProjector()
	if err := p.ApplyBranch(true, genBranch(history, 42)); err != nil {
		b.Fatal(err)
	}
	f := newAppendFeed()
	b.ReportAllocs()
	for b.Loop() {
		if err := p.ApplyBranch(false, f.next()); err != nil {
			b.Fatal(err)
		}
		if items, _ := p.Items(); len(items) == 0 {
			b.Fatal("no items")
		}
	}
	if p.skipped != 0 {
		b.Fatalf("skipped %d", p.skipped)
	}
}

// BenchmarkAppendOneTo100 / To10000: one appended entry plus the new view, on a projector that holds a
// 100-entry and a 10,000-entry branch.
func BenchmarkAppendOneTo100(b *testing.B)   { benchAppend(b, 100) }
func BenchmarkAppendOneTo10000(b *testing.B) { benchAppend(b, 10000) }

// BenchmarkAppendOne100Vs10000 appends one entry to each of the two projectors in turn, in the same
// loop, and reports both costs and their ratio (target ≤ 1.5) under the same machine load.
func BenchmarkAppendOne100Vs10000(b *testing.B) {
	var ps [2]*Projector
	var fs [2]*appendFeed
	for k, n := range []int{100, 10000} {
		ps[k], fs[k] = NewProjector(), newAppendFeed()
		if err := ps[k].ApplyBranch(true, genBranch(n, 42)); err != nil {
			b.Fatal(err)
		}
	}
	var took [2]time.Duration
	for b.Loop() {
		for k := range ps {
			t0 := time.Now()
			if err := ps[k].ApplyBranch(false, fs[k].next()); err != nil {
				b.Fatal(err)
			}
			ps[k].Items()
			took[k] += time.Since(t0)
		}
	}
	b.ReportMetric(float64(took[0].Nanoseconds())/float64(b.N), "ns/append-100")
	b.ReportMetric(float64(took[1].Nanoseconds())/float64(b.N), "ns/append-10000")
	b.ReportMetric(took[1].Seconds()/took[0].Seconds(), "ratio")
}

// The append feed makes valid, distinct entries whose tool results find their calls.
func TestAppendFeed(t *testing.T) {
	p := NewProjector()
	f := newAppendFeed()
	for k := 0; k < 8; k++ {
		if err := p.ApplyBranch(k == 0, f.next()); err != nil {
			t.Fatal(err)
		}
	}
	items, _ := p.Items()
	pjCheckView(t, p, items)
	if len(items) != 6 || p.skipped != 0 || items[1].Status != ToolCompleted || items[4].Status != ToolCompleted {
		t.Fatalf("%d items, skipped %d: %+v", len(items), p.skipped, items)
	}
}
