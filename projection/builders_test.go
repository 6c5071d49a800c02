package projection

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// Builders of Pi branch entries (pj…) and of the items they should project to (i…), and the checks every
// projection test makes of a view.

func pjQuote(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func pjEntry(typ, id, rest string) string {
	e := `{"type":` + pjQuote(typ) + `,"id":` + pjQuote(id) + `,"parentId":null,"timestamp":"2026-11-30T08:44:08.078Z"`
	if rest != "" {
		e += "," + rest
	}
	return e + "}"
}

func pjUser(id, text string) string {
	return pjEntry("message", id, `"message":{"role":"user","content":[{"type":"text","text":`+pjQuote(text)+`}],"timestamp":1}`)
}

func pjUserRaw(id, content string) string {
	return pjEntry("message", id, `"message":{"role":"user","content":`+content+`,"timestamp":1}`)
}

func pjText(t string) string { return `{"type":"text","text":` + pjQuote(t) + `}` }

func pjThink(t string) string {
	return `{"type":"thinking","thinking":` + pjQuote(t) + `,"thinkingSignature":"reasoning_content"}`
}

func pjToolCall(callID, name, args string) string {
	return `{"type":"toolCall","id":` + pjQuote(callID) + `,"name":` + pjQuote(name) + `,"arguments":` + args + `}`
}

func pjAsst(id, stop string, blocks ...string) string {
	return pjAsstExtra(id, stop, "", blocks...)
}

func pjAsstExtra(id, stop, extra string, blocks ...string) string {
	m := `"message":{"role":"assistant","content":[` + strings.Join(blocks, ",") + `],"api":"openai-completions",` +
		`"provider":"fake","model":"fake-model","usage":{"input":10,"output":5,"totalTokens":15},"stopReason":` + pjQuote(stop) +
		`,"timestamp":1`
	if extra != "" {
		m += "," + extra
	}
	return pjEntry("message", id, m+"}")
}

func pjResult(id, callID string, isError bool, body string) string {
	return pjEntry("message", id, `"message":{"role":"toolResult","toolCallId":`+pjQuote(callID)+`,"toolName":"bash",`+
		`"content":[{"type":"text","text":`+pjQuote(body)+`}],"details":{"stdout":`+pjQuote(body)+`},"isError":`+fmt.Sprint(isError)+`,"timestamp":1}`)
}

func pjCompaction(id, summary string) string {
	return pjEntry("compaction", id, `"summary":`+pjQuote(summary)+`,"firstKeptEntryId":"e0","tokensBefore":22,"details":{"readFiles":[],"modifiedFiles":[]},"fromHook":false`)
}

func pjBranch(entries ...string) []byte { return []byte("[" + strings.Join(entries, ",\n") + "]") }

func iUser(id, text string) Item { return Item{ID: id, Role: RoleUser, Text: text} }

func iAsst(id, text string) Item { return Item{ID: id, Role: RoleAssistant, Text: text} }

func iTool(id, name, status string) Item {
	return Item{ID: id, Role: RoleTool, Name: name, Status: status}
}

func iNotice(id, code string) Item { return Item{ID: id, Role: RoleNotice, Code: code} }

// project applies the notes (reset first) and returns the view; it fails the test on an error.
func pjProject(t testing.TB, notes ...[]byte) (*Projector, []Item, bool) {
	t.Helper()
	p := NewProjector()
	for k, n := range notes {
		if err := p.ApplyBranch(k == 0, n); err != nil {
			t.Fatalf("note %d: %v", k, err)
		}
	}
	items, trunc := p.Items()
	pjCheckView(t, p, items)
	return p, items, trunc
}

// checkView asserts the invariants of every view: valid items, limits, the joined encodings = json.Marshal.
func pjCheckView(t testing.TB, p *Projector, items []Item) {
	t.Helper()
	if len(items) > MaxViewItems {
		t.Fatalf("%d items", len(items))
	}
	ids := map[string]bool{}
	for _, it := range items {
		if err := it.Validate(); err != nil {
			t.Fatalf("invalid item %+v: %v", it, err)
		}
		if ids[it.ID] {
			t.Fatalf("duplicate id %q", it.ID)
		}
		ids[it.ID] = true
	}
	js, _ := itemsJSON(p)
	if len(js) > MaxViewBytes {
		t.Fatalf("view is %d bytes", len(js))
	}
	if items == nil {
		items = []Item{}
	}
	want, err := json.Marshal(items)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(js, want) {
		t.Fatalf("the joined encodings differ from json.Marshal(Items):\n%s\n%s", js, want)
	}
}

func pjSame(t *testing.T, got, want []Item) {
	t.Helper()
	if len(want) == 0 && len(got) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		var b strings.Builder
		for k := 0; k < max(len(got), len(want)); k++ {
			var g, w Item
			if k < len(got) {
				g = got[k]
			}
			if k < len(want) {
				w = want[k]
			}
			mark := "  "
			if g != w {
				mark = "≠ "
			}
			fmt.Fprintf(&b, "%s%d got %+v\n   want %+v\n", mark, k, g, w)
		}
		t.Fatalf("items differ:\n%s", b.String())
	}
}

func pjSample(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/pi-branch-example.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sampleEntries splits the sample into its entries' raw JSON.
func pjSampleEntries(t testing.TB) []json.RawMessage {
	var es []json.RawMessage
	if err := json.Unmarshal(pjSample(t), &es); err != nil {
		t.Fatal(err)
	}
	return es
}

func encodings2(p *Projector) [][]byte {
	parts, _, _ := p.AppendItemEncodings(nil)
	return parts
}

// itemsJSON is the view as the gateway sends it: the items' encodings joined into one JSON array. It
// panics when the size AppendItemEncodings reports is not the array's.
func itemsJSON(p *Projector) ([]byte, bool) {
	parts, size, truncated := p.AppendItemEncodings(nil)
	b := append([]byte{'['}, bytes.Join(parts, []byte{','})...)
	b = append(b, ']')
	if len(b) != size {
		panic(fmt.Sprintf("AppendItemEncodings reports %d bytes, the array has %d", size, len(b)))
	}
	return b, truncated
}
