package projection

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzApplyBranch: whatever the bridge sends, the projector never panics, every item keeps the rules of
// docs/projection.md, the view stays within its limits and marshals to the same JSON as its joined encodings; valid JSON arrays
// are always accepted (malformed entries are skipped, not errors); a refused note changes nothing; and
// re-sending the same entries changes nothing (their ids are already on the branch).
//
//	go test -run '^$' -fuzz FuzzApplyBranch -fuzztime 60s ./chat/
func FuzzApplyBranch(f *testing.F) {
	f.Add(pjSample(f), []byte(`{"role":"assistant","content":[{"type":"text","text":"live"}]}`))
	for _, seed := range [][]byte{
		pjBranch(pjUser("u1", "before"), pjAsst("a1", "toolUse", pjThink("T"), pjText("x"), pjToolCall("c1", "bash", `{"c":"ls"}`)),
			pjResult("r1", "c1", true, "out\n\"q\" 中文 😀"), pjCompaction("k1", "S"), pjAsst("a2", "error"), pjAsst("a3", "aborted", pjText("p"))),
		pjBranch(pjUserRaw("u1", `"plain"`), pjUserRaw("u2", `[{"type":"image","data":"x"},{"type":"text","text":"t"}]`),
			pjEntry("custom", "x1", `"customType":"c","data":{}`), pjEntry("message", "b1", `"message":{"role":"bashExecution","command":"c","output":"o"}`)),
		[]byte(`[{"message":{"content":[{"text":"late","type":"text"}],"role":"assistant"},"id":"a1","type":"message"},{"t\u0079pe":"compaction","id":"k"}]`),
		[]byte(`[42,"s",null,[],{},{"type":"message","id":"x.y"},{"type":"message","id":"n","message":{"role":"user","content":7}}]`),
		[]byte(`[{"type":"message","id":"u1","message":{"role":"user","content":"a` + "\xff\xfe" + `b \ud83d\ude00 \ud800"}}]`),
		[]byte(`[`), []byte(`[{"a":[1}]}]`), []byte(`[1,]`), []byte(` [ ] `), []byte(`null`),
	} {
		f.Add(seed, []byte(nil))
	}
	f.Add([]byte(`[]`), []byte(`{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"n","arguments":{}}],"stopReason":"aborted"}`))
	f.Add([]byte(`[]`), []byte(`{"role":"assistant","content":"x"}`))

	f.Fuzz(func(t *testing.T, data, stream []byte) {
		p := NewProjector()
		if err := p.ApplyBranch(true, data); err != nil {
			if json.Valid(data) && bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("[")) && nesting(data) < maxNesting {
				t.Fatalf("valid JSON array refused: %v", err)
			}
			items, trunc := p.Items()
			if len(items) != 0 || trunc || p.Version() != 0 {
				t.Fatal("a refused reset changed the view")
			}
		}
		before := fuzzView(t, p)

		p.ApplyBranch(false, data)
		if after := fuzzView(t, p); !bytes.Equal(after, before) {
			t.Fatalf("re-sent entries changed the view:\n%s\n%s", before, after)
		}
		if err := p.SetStreaming(stream); err != nil {
			if after := fuzzView(t, p); !bytes.Equal(after, before) {
				t.Fatal("a refused stream changed the view")
			}
		}
		fuzzView(t, p)
		p.SetStreaming(nil)
		if after := fuzzView(t, p); !bytes.Equal(after, before) {
			t.Fatal("clearing the stream did not restore the view")
		}
	})
}

// fuzzView checks the view's invariants and returns its JSON.
func fuzzView(t *testing.T, p *Projector) []byte {
	t.Helper()
	items, _ := p.Items()
	pjCheckView(t, p, items)
	js, _ := itemsJSON(p)
	if !json.Valid(js) {
		t.Fatalf("invalid view JSON %s", js)
	}
	if bytes.ContainsAny(js, "\r\n") { // the snapshot is framed as one SSE data line
		t.Fatalf("raw line break in the view JSON %q", js)
	}
	return bytes.Clone(js)
}

// nesting returns the maximum bracket depth of valid JSON.
func nesting(data []byte) int {
	depth, most, str, esc := 0, 0, false, false
	for _, c := range data {
		switch {
		case esc:
			esc = false
		case str && c == '\\':
			esc = true
		case c == '"':
			str = !str
		case str:
		case c == '[' || c == '{':
			depth++
			most = max(most, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return most
}
