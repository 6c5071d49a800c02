package projection

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// The same branch fed entry by entry, or in two notes, gives the same items.
func TestProjectionSampleIncremental(t *testing.T) {
	es := pjSampleEntries(t)
	notes := [][]byte{[]byte("[]")}
	for _, e := range es {
		notes = append(notes, append(append([]byte("[\n  "), e...), ']'))
	}
	_, items, _ := pjProject(t, notes...)
	pjSame(t, items, pjSampleWant)

	half := len(es) / 2
	join := func(es []json.RawMessage) []byte {
		parts := make([][]byte, len(es))
		for k, e := range es {
			parts[k] = e
		}
		return append(append([]byte("["), bytes.Join(parts, []byte(","))...), ']')
	}
	_, items, _ = pjProject(t, join(es[:half]), join(es[half:]))
	pjSame(t, items, pjSampleWant)

	// A reset replaces everything, even after appends.
	p, _, _ := pjProject(t, join(es[:half]), join(es[half:]))
	if err := p.ApplyBranch(true, join(es[:5])); err != nil {
		t.Fatal(err)
	}
	items, _ = p.Items()
	pjSame(t, items, pjSampleWant[:3])
}

// Each item is encoded once: an append encodes the new item only, a tool result the changed tool item
// only, and the view is joined from the kept encodings. A refused note leaves them as they were.
func TestProjectionEncodesChangedItemsOnly(t *testing.T) {
	var es []string
	for k := 0; k < 99; k++ {
		es = append(es, pjUser(fmt.Sprint("u", k), fmt.Sprint("line <", k, ">\n")))
	}
	es = append(es, pjAsst("a1", "toolUse", pjText("calling"), pjToolCall("c1", "bash", `{}`)))
	p, _, _ := pjProject(t, pjBranch(es...))
	encodings := func() [][]byte {
		parts, size, _ := p.AppendItemEncodings(nil)
		js, _ := itemsJSON(p)
		if want := len(parts) + 1 + len(bytes.Join(parts, nil)); size != want || len(js) != want {
			t.Fatalf("size %d, the joined view %d bytes, joined again %d", size, len(js), want)
		}
		return parts
	}
	same := func(a, b []byte) bool { return len(a) > 0 && len(b) > 0 && &a[0] == &b[0] }
	before := encodings()
	if len(before) != 100 {
		t.Fatalf("%d items", len(before))
	}

	// One appended entry: the oldest item leaves the window, the others keep their bytes.
	if err := p.ApplyBranch(false, pjBranch(pjUser("u99", "new"))); err != nil {
		t.Fatal(err)
	}
	after := encodings()
	for k := 1; k < 100; k++ {
		if !same(after[k-1], before[k]) {
			t.Fatalf("item %d was encoded again", k)
		}
	}
	if string(after[99]) != `{"id":"u99","role":"user","text":"new"}` {
		t.Fatalf("new item %s", after[99])
	}
	items, _ := p.Items()
	pjCheckView(t, p, items)

	// A tool result: only the tool item changes; the bytes the old view held stay as they were.
	tool := after[98]
	if err := p.ApplyBranch(false, pjBranch(pjResult("r1", "c1", true, "x"))); err != nil {
		t.Fatal(err)
	}
	res := encodings()
	if string(tool) != `{"id":"a1.t1","role":"tool","name":"bash","status":"calling"}` ||
		string(res[98]) != `{"id":"a1.t1","role":"tool","name":"bash","status":"failed"}` {
		t.Fatalf("tool item %s, then %s", tool, res[98])
	}
	for k := 0; k < 100; k++ {
		if k != 98 && !same(res[k], after[k]) {
			t.Fatalf("item %d was encoded again", k)
		}
	}
	items, _ = p.Items()
	pjCheckView(t, p, items)

	// Refused notes (an append that resolves a tool and adds items, a reset) change no encoding.
	p2, _, _ := pjProject(t, pjBranch(es...))
	want := encodings2(p2)
	wantJSON, _ := itemsJSON(p2)
	wantJSON = bytes.Clone(wantJSON)
	for _, reset := range []bool{false, true} {
		if err := p2.ApplyBranch(reset, []byte(`[`+pjResult("r1", "c1", false, "x")+`,`+pjUser("u200", "x")+`,{"type":`)); err == nil {
			t.Fatal("accepted")
		}
		p2.version++ // a new window, joined again from the kept encodings
		got := encodings2(p2)
		for k := range want {
			if !same(got[k], want[k]) || !bytes.Equal(got[k], want[k]) {
				t.Fatalf("reset %v: item %d: %s, want %s", reset, k, got[k], want[k])
			}
		}
		if js, _ := itemsJSON(p2); !bytes.Equal(js, wantJSON) {
			t.Fatalf("reset %v: view changed:\n%s\n%s", reset, js, wantJSON)
		}
	}
}

// The projector keeps no reference to the caller's bytes.
func TestProjectionDoesNotAliasInput(t *testing.T) {
	buf := pjBranch(pjUser("u1", "plain"), pjAsst("a1", "toolUse", pjText("answer"), pjToolCall("c1", "read", `{}`)), pjCompaction("k1", "s"))
	p := NewProjector()
	if err := p.ApplyBranch(true, buf); err != nil {
		t.Fatal(err)
	}
	stream := []byte(`{"role":"assistant","content":[{"type":"text","text":"live"},{"type":"toolCall","id":"c2","name":"grep","arguments":{}}]}`)
	if err := p.SetStreaming(stream); err != nil {
		t.Fatal(err)
	}
	before, _ := p.Items()
	for k := range buf {
		buf[k] = 'Z'
	}
	for k := range stream {
		stream[k] = 'Z'
	}
	after, _ := p.Items()
	pjSame(t, after, before)
	p.version++ // force a new window from the kept items
	after, _ = p.Items()
	pjSame(t, after, before)
	// The pending call id is owned too: the result still finds it.
	if err := p.ApplyBranch(false, pjBranch(pjResult("r1", "c1", false, "x"))); err != nil {
		t.Fatal(err)
	}
	after, _ = p.Items()
	if after[2] != iTool("a1.t1", "read", ToolCompleted) {
		t.Fatalf("%+v", after[2])
	}
}

// Tool items older than the kept window are simply not found; items inside are.
func TestProjectionToolResultAcrossNotes(t *testing.T) {
	es := []string{pjAsst("a0", "toolUse", pjToolCall("old", "read", `{}`))}
	for k := 0; k < 120; k++ {
		es = append(es, pjUser(fmt.Sprint("u", k), "x"))
	}
	p, _, _ := pjProject(t, pjBranch(es...), pjBranch(pjResult("r1", "old", false, "")))
	items, trunc := p.Items()
	if !trunc || len(items) != 100 || items[0].ID != "u20" {
		t.Fatalf("%d items from %s", len(items), items[0].ID)
	}
}

// Allocations do not grow with the size of tool results (or of anything skipped unread).
func TestProjectionAllocsIndependentOfToolResults(t *testing.T) {
	mk := func(body int) []byte {
		var es []string
		for k := 0; k < 200; k++ {
			es = append(es, pjUser(fmt.Sprint("u", k), "run it"),
				pjAsst(fmt.Sprint("a", k), "toolUse", pjThink(strings.Repeat("t", body)), pjToolCall(fmt.Sprint("c", k), "bash", `{"command":`+pjQuote(strings.Repeat("c", body))+`}`)),
				pjResult(fmt.Sprint("r", k), fmt.Sprint("c", k), k%3 == 0, strings.Repeat("out \"x\" 中\n", body/10)))
		}
		return pjBranch(es...)
	}
	small, big := mk(100), mk(20_000)
	measure := func(b []byte) (allocs float64, bytes uint64) {
		p := NewProjector()
		p.ApplyBranch(true, b) // warm the scratch
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		allocs = testing.AllocsPerRun(5, func() {
			if err := p.ApplyBranch(true, b); err != nil {
				t.Fatal(err)
			}
			p.Items()
		})
		runtime.ReadMemStats(&m1)
		return allocs, (m1.TotalAlloc - m0.TotalAlloc) / 6
	}
	as, bs := measure(small)
	ab, bb := measure(big)
	t.Logf("%d-byte branch: %.0f allocs, %d B; %d-byte branch: %.0f allocs, %d B", len(small), as, bs, len(big), ab, bb)
	if ab > as || bb > bs+bs/2 {
		t.Fatalf("allocations grow with tool results: %.0f → %.0f allocs, %d → %d bytes", as, ab, bs, bb)
	}
}
