package projection

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"tele/utf16count"
)

// ---- builders of crafted entries, in Pi 0.73.1's shape and field order ----

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

// checkView asserts the invariants of every view: valid items, limits, ItemsJSON = json.Marshal.
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
		t.Fatalf("ItemsJSON differs from json.Marshal(Items):\n%s\n%s", js, want)
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

// ---- the real branch ----

var pjSampleWant = []Item{
	iUser("73fd7e6d", "hello"),
	iAsst("281d659a", "SCRIPTED_REPLY to: hello"),
	iUser("2a1a0888", "please CALL_TOOL"),
	iTool("b81a371e.t0", "tele_board", ToolCompleted),
	iAsst("0ec47749", "TOOL_RESULT_SEEN: # demo board\nhello from the child"),
	iUser("38ac0d80", "please CALL_BASH"),
	iTool("6980e32e.t0", "bash", ToolFailed),
	iAsst("3310107a", "TOOL_RESULT_SEEN: Tool bash not found"),
	iUser("49f2fad1", "from browser while idle"),
	iAsst("44e03748", "SCRIPTED_REPLY to: from browser while idle"),
	iUser("9d68a24a", "/tele off"),
	iAsst("d8dff385", "SCRIPTED_REPLY to: /tele off"),
	iUser("22f4021d", "SLOW streaming test"),
	iAsst("10540dd9", "slow0 slow1 slow2 slow3 slow4 slow5 slow6 slow7 slow8 slow9 slow10 slow11 slow12 slow13 slow14 slow15 slow16 slow17 slow18 slow19 "),
	iUser("c96f1e4e", "browser followUp"),
	iAsst("bba40397", "SCRIPTED_REPLY to: browser followUp"),
	iUser("78f63313", "SLOW abort test"),
	iAsst("c91c78d2", "slow0 "),
	iNotice("c91c78d2.n", CodeReplyAborted),
	iUser("73a851bb", "ABORT_AT_BAS test"),
	iAsst("a888d178", "SCRIPTED_REPLY to: ABORT_AT_BAS test"),
	iUser("da409c90", "ABORT_AT_AGENT_START test"),
	iNotice("f4ec83d5.n", CodeReplyAborted),
	iUser("d99d5e5a", "THINK ADD_CUSTOM please"),
	iAsst("ea16c602", "SCRIPTED_REPLY to: THINK ADD_CUSTOM please"),
	iUser("43e82ca9", "FAIL_400 please"),
	iNotice("6e9b76f2.n", CodeModelFailed),
	iUser("40de1c76", "after off"),
	iAsst("1f63e115", "SCRIPTED_REPLY to: after off"),
	iNotice("ca9f28e4", CodeContextCompacted),
	iUser("c258738d", "after compaction"),
	iAsst("629dd532", "SCRIPTED_REPLY to: after compaction"),
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

func TestProjectionSample(t *testing.T) {
	p, items, trunc := pjProject(t, pjSample(t))
	pjSame(t, items, pjSampleWant)
	if trunc || p.skipped != 0 {
		t.Fatalf("truncated %v, skipped %d", trunc, p.skipped)
	}
	js, _ := itemsJSON(p)
	for _, private := range []string{
		"Let me think", "reasoning_content", `"action"`, "echo hi", "call_2", "toolCallId", `"details"`,
		"Request was aborted", "400 scripted failure", "tele-state", "custom entry example",
		"custom_message injected", "bash-entry", "The messages above", "fake-model", "openai", "chatcmpl",
	} {
		if bytes.Contains(js, []byte(private)) {
			t.Errorf("view contains %q", private)
		}
	}
}

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

// ---- crafted branches ----

func TestProjectionCrafted(t *testing.T) {
	for _, tc := range []struct {
		name    string
		notes   [][]byte
		resets  []int // notes after the first that are resets
		want    []Item
		skipped int
	}{
		{
			name: "pre-compaction history is still shown",
			notes: [][]byte{pjBranch(
				pjUser("u1", "before"), pjAsst("a1", "stop", pjText("old answer")),
				pjCompaction("c1", "SUMMARY"), pjUser("u2", "after"), pjAsst("a2", "stop", pjText("new answer")))},
			want: []Item{iUser("u1", "before"), iAsst("a1", "old answer"), iNotice("c1", CodeContextCompacted), iUser("u2", "after"), iAsst("a2", "new answer")},
		},
		{
			name: "a reset drops what is no longer on the branch (abandoned branch)",
			notes: [][]byte{
				pjBranch(pjUser("u1", "root"), pjAsst("a1", "stop", pjText("one")), pjUser("u2", "abandoned question")),
				pjBranch(pjAsst("a2", "stop", pjText("abandoned answer"))),
				pjBranch(pjUser("u1", "root"), pjAsst("a1", "stop", pjText("one")), pjUser("u3", "new path")),
			},
			resets: []int{2},
			want:   []Item{iUser("u1", "root"), iAsst("a1", "one"), iUser("u3", "new path")},
		},
		{
			name: "tool status: calling, completed, failed, unknown result ignored, repeated call id",
			notes: [][]byte{
				pjBranch(pjUser("u1", "go"), pjAsst("a1", "toolUse", pjToolCall("c1", "read", `{}`), pjToolCall("c2", "bash", `{}`), pjToolCall("c3", "edit", `{}`))),
				pjBranch(pjResult("r1", "c1", false, "x"), pjResult("r2", "c2", true, "y"), pjResult("r9", "nope", false, "z")),
				pjBranch(pjAsst("a2", "toolUse", pjToolCall("c1", "read", `{}`))), // a provider reusing call ids
				pjBranch(pjResult("r3", "c1", true, "w")),
			},
			want: []Item{iUser("u1", "go"), iTool("a1.t0", "read", ToolCompleted), iTool("a1.t1", "bash", ToolFailed),
				iTool("a1.t2", "edit", ToolCalling), iTool("a2.t0", "read", ToolFailed)},
		},
		{
			name: "isError absent means completed",
			notes: [][]byte{pjBranch(pjAsst("a1", "toolUse", pjToolCall("c1", "read", `{}`)),
				pjEntry("message", "r1", `"message":{"role":"toolResult","toolCallId":"c1","content":[]}`))},
			want: []Item{iTool("a1.t0", "read", ToolCompleted)},
		},
		{
			name: "assistant blocks in order: text runs, tools, thinking never, notice last",
			notes: [][]byte{pjBranch(pjAsst("a1", "error",
				pjThink("THINK"), pjText("first"), pjThink("THINK"), pjText("second"), pjToolCall("c1", "read", `{"path":"ARG"}`),
				pjText("third"), pjText(""), pjToolCall("c2", "grep", `{}`), pjText("")))},
			want: []Item{iAsst("a1", "first\n\nsecond"), iTool("a1.t4", "read", ToolCalling), iAsst("a1.x5", "third"),
				iTool("a1.t7", "grep", ToolCalling), iNotice("a1.n", CodeModelFailed)},
		},
		{
			name: "several multi-block runs in one message",
			notes: [][]byte{pjBranch(pjAsst("a1", "stop", pjText("a"), pjText("b"), pjToolCall("c1", "read", `{}`),
				pjText("c"), pjThink("T"), pjText(""), pjText("dé"), pjToolCall("c2", "read", `{}`), pjText("e"), pjText("f")))},
			want: []Item{iAsst("a1", "a\n\nb"), iTool("a1.t2", "read", ToolCalling), iAsst("a1.x3", "c\n\ndé"),
				iTool("a1.t7", "read", ToolCalling), iAsst("a1.x8", "e\n\nf")},
		},
		{
			name:  "aborted with no content, length and unknown stop reasons",
			notes: [][]byte{pjBranch(pjAsst("a1", "aborted"), pjAsst("a2", "length", pjText("cut")), pjAsst("a3", "weird", pjText("w")))},
			want:  []Item{iNotice("a1.n", CodeReplyAborted), iAsst("a2", "cut"), iAsst("a3", "w")},
		},
		{
			name: "user content: string, blocks joined with newline, images skipped, empty dropped",
			notes: [][]byte{pjBranch(
				pjUserRaw("u1", pjQuote("plain string")),
				pjUserRaw("u2", `[{"type":"text","text":"one"},{"type":"image","data":"IMAGEDATA","mimeType":"image/png"},{"type":"text","text":"two"}]`),
				pjUserRaw("u3", `[{"type":"image","data":"IMAGEDATA","mimeType":"image/png"}]`),
				pjUserRaw("u4", `""`),
				pjUserRaw("u5", `[]`))},
			want: []Item{iUser("u1", "plain string"), iUser("u2", "one\ntwo")},
		},
		{
			name:  "escapes, HTML characters and non-ASCII survive",
			notes: [][]byte{pjBranch(pjUser("u1", "<b>&amp;</b> \"q\" \\ \t\n é 中文 😀 \u2028 \x01"))},
			want:  []Item{iUser("u1", "<b>&amp;</b> \"q\" \\ \t\n é 中文 😀 \u2028 \x01")},
		},
		{
			name:  "invalid UTF-8 becomes U+FFFD",
			notes: [][]byte{[]byte(`[{"type":"message","id":"u1","message":{"role":"user","content":"a` + "\xff" + `b"}}]`)},
			want:  []Item{iUser("u1", "a\uFFFDb")},
		},
		{
			name: "field order does not matter; escaped keys are keys",
			notes: [][]byte{[]byte(`[{"message":{"content":[{"text":"late role","type":"text"}],"role":"assistant"},"id":"a1","type":"message"},
				{"t\u0079pe":"message","id":"u1","message":{"r\u006fle":"user","content":"escaped keys"}}]`)},
			want: []Item{iAsst("a1", "late role"), iUser("u1", "escaped keys")},
		},
		{
			name: "never projected entries and roles",
			notes: [][]byte{pjBranch(
				pjEntry("model_change", "m1", `"provider":"fake","modelId":"MODEL"`),
				pjEntry("thinking_level_change", "t1", `"thinkingLevel":"high"`),
				pjEntry("custom", "x1", `"customType":"ext","data":{"secret":"S"}`),
				pjEntry("custom_message", "x2", `"customType":"ext","content":"CM","display":true`),
				pjEntry("branch_summary", "x3", `"fromId":"a","summary":"BS"`),
				pjEntry("label", "x4", `"targetId":"a","label":"L"`),
				pjEntry("session_info", "x5", `"name":"N"`),
				pjEntry("message", "x6", `"message":{"role":"bashExecution","command":"ls","output":"O","exitCode":0}`),
				pjEntry("message", "x7", `"message":{"role":"custom","customType":"ext","content":"C","display":true}`),
				pjEntry("message", "x8", `"message":{"role":"branchSummary","summary":"BS"}`),
				pjEntry("message", "x9", `"message":{"role":"compactionSummary","summary":"CS"}`),
				pjEntry("future_type", "x10", `"message":{"role":"user","content":"FUTURE"}`),
				pjEntry("future_type", "x11", `"message":"not an object"`),
				`{"message":"first","type":"other","id":"x12"}`,
				pjUser("u1", "visible"))},
			want: []Item{iUser("u1", "visible")},
		},
		{
			name: "malformed entries are skipped and counted",
			notes: [][]byte{pjBranch(
				`42`, `"str"`, `null`, `[]`, `{}`,
				`{"type":"message","message":{"role":"user","content":"no id"}}`,
				`{"id":"n1","message":{"role":"user","content":"no type"}}`,
				`{"type":7,"id":"n2"}`,
				`{"type":"message","id":7,"message":{"role":"user","content":"numeric id"}}`,
				`{"type":"message","id":"","message":{"role":"user","content":"empty id"}}`,
				`{"type":"message","id":"has.dot","message":{"role":"user","content":"dot"}}`,
				`{"type":"message","id":"`+strings.Repeat("i", 129)+`","message":{"role":"user","content":"long"}}`,
				`{"type":"message","id":"n3"}`,
				`{"type":"message","id":"n4","message":"not an object"}`,
				`{"type":"message","id":"n5","message":{"content":"no role"}}`,
				`{"type":"message","id":"n6","message":{"role":"user"}}`,
				`{"type":"message","id":"n7","message":{"role":"user","content":42}}`,
				`{"type":"message","id":"n8","message":{"role":"assistant","content":"string content"}}`,
				`{"type":"message","id":"n9","message":{"role":"assistant","content":[{"type":"text","text":7}]}}`,
				`{"type":"message","id":"n10","message":{"role":"assistant","content":[{"type":"toolCall","name":"x"}]}}`,
				`{"type":"message","id":"n11","message":{"role":"assistant","content":[{"type":"toolCall","id":"c","name":""}]}}`,
				`{"type":"message","id":"n12","message":{"role":"assistant","content":[{"text":"no type"}]}}`,
				`{"type":"message","id":"n13","message":{"role":"assistant","content":["bare"]}}`,
				`{"type":"message","id":"n14","message":{"role":"assistant","content":[],"stopReason":5}}`,
				`{"type":"message","id":"n15","message":{"role":"toolResult","content":[]}}`,
				`{"type":"message","id":"n16","message":{"role":"toolResult","toolCallId":"c","isError":"yes"}}`,
				`{"type":"message","id":"n17","type":"message","message":{"role":"user","content":"dup key"}}`,
				`{"type":"message","id":"n18","message":{"role":"user","role":"user","content":"dup role"}}`,
				`{"type":"message","id":"n19","message":{"role":"user","content":"a","content":"b"}}`,
				`{"message":"first","type":"message","id":"n20"}`,
				`{"type":"message","id":"n21","message":{"role":"user","content":"x"},"message":{"role":"user","content":"y"}}`,
				pjUser("ok1", "first"),
				pjUser("ok1", "duplicate id"),
				pjUser("ok2", "second"))},
			want:    []Item{iUser("ok1", "first"), iUser("ok2", "second")},
			skipped: 32,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, items, _ := pjProject(t, tc.notes[0])
			for k, n := range tc.notes[1:] {
				if err := p.ApplyBranch(slices.Contains(tc.resets, k+1), n); err != nil {
					t.Fatal(err)
				}
				items, _ = p.Items()
				pjCheckView(t, p, items)
			}
			pjSame(t, items, tc.want)
			if p.skipped != tc.skipped {
				t.Fatalf("skipped %d, want %d", p.skipped, tc.skipped)
			}
		})
	}
}

// ---- privacy: every private field is absent from the serialized view ----

func TestProjectionPrivateFieldsAbsent(t *testing.T) {
	const c = "CANARY"
	notes := [][]byte{
		pjBranch(
			pjEntry("model_change", "m1", `"provider":"`+c+`p","modelId":"`+c+`m"`),
			pjEntry("thinking_level_change", "t1", `"thinkingLevel":"`+c+`tl"`),
			pjEntry("session_info", "s1", `"name":"`+c+`session"`),
			pjEntry("custom", "x1", `"customType":"`+c+`ct","data":{"k":"`+c+`data"}`),
			pjUserRaw("u1", `[{"type":"text","text":"hello"},{"type":"image","data":"`+c+`img","mimeType":"image/png"}]`),
			pjEntry("custom_message", "x2", `"customType":"x","content":"`+c+`cm","display":true,"details":{"d":"`+c+`cmd"}`),
			pjAsstExtra("a1", "toolUse", `"errorMessage":"`+c+`err0","systemPrompt":"`+c+`sys"`,
				pjThink(c+"think"), pjText("visible"), pjToolCall("call1", "bash", `{"command":"`+c+`arg","nested":{"x":["`+c+`deep"]}}`)),
			pjResult("r1", "call1", false, c+"result\n\"quoted\" \\ 中文 😀"),
			pjAsstExtra("a2", "error", `"errorMessage":"`+c+`err"`),
			pjAsstExtra("a3", "aborted", `"errorMessage":"`+c+`abort"`, pjText("partial")),
			pjEntry("message", "b1", `"message":{"role":"bashExecution","command":"`+c+`cmd","output":"`+c+`out","exitCode":0,"cancelled":false,"truncated":false,"fullOutputPath":"/tmp/`+c+`"}`),
			pjEntry("message", "b2", `"message":{"role":"custom","customType":"x","content":"`+c+`custommsg","display":true}`),
			pjEntry("message", "b3", `"message":{"role":"system","content":"`+c+`system prompt"}`),
			pjCompaction("k1", c+"summary"),
			pjEntry("branch_summary", "k2", `"fromId":"a1","summary":"`+c+`branchsummary"`),
			pjEntry("label", "k3", `"targetId":"a1","label":"`+c+`label"`),
			pjEntry("message", "k4", `"message":{"role":"compactionSummary","summary":"`+c+`cs","tokensBefore":1}`),
			pjEntry("message", "k5", `"message":{"role":"branchSummary","summary":"`+c+`bs","fromId":"a1"}`),
			pjEntry("`+c+`ext", "k6", `"message":{"role":"user","content":"`+c+`ext"}`),
		),
	}
	p, _, _ := pjProject(t, notes...)
	if err := p.SetStreaming([]byte(`{"role":"assistant","content":[{"type":"thinking","thinking":"` + c + `st"},` +
		`{"type":"text","text":"streamed"},{"type":"toolCall","id":"s1","name":"read","arguments":{"p":"` + c + `sa"}}],` +
		`"stopReason":"error","errorMessage":"` + c + `se"}`)); err != nil {
		t.Fatal(err)
	}
	items, _ := p.Items()
	pjCheckView(t, p, items)
	js, _ := itemsJSON(p)
	js2, _ := json.Marshal(items)
	for _, out := range [][]byte{js, js2} {
		if bytes.Contains(out, []byte(c)) {
			t.Fatalf("a private field reached the view: %s", out)
		}
	}
	pjSame(t, items, []Item{
		iUser("u1", "hello"), iAsst("a1", "visible"), iTool("a1.t2", "bash", ToolCompleted), iNotice("a2.n", CodeModelFailed),
		iAsst("a3", "partial"), iNotice("a3.n", CodeReplyAborted), iNotice("k1", CodeContextCompacted),
		iAsst("stream.live", "streamed"), iTool("stream.live.t2", "read", ToolCalling), iNotice("stream.live.n", CodeModelFailed),
	})
}

// ---- limits ----

func TestProjectionCut100Items(t *testing.T) {
	var es []string
	for k := 0; k < 150; k++ {
		es = append(es, pjUser(fmt.Sprintf("u%d", k), fmt.Sprintf("message %d", k)))
	}
	p, items, trunc := pjProject(t, pjBranch(es[:99]...))
	if trunc || len(items) != 99 {
		t.Fatalf("99 items: got %d, truncated %v", len(items), trunc)
	}
	if err := p.ApplyBranch(false, pjBranch(es[99])); err != nil {
		t.Fatal(err)
	}
	items, trunc = p.Items()
	if trunc || len(items) != 100 {
		t.Fatalf("100 items: got %d, truncated %v", len(items), trunc)
	}
	if err := p.ApplyBranch(false, pjBranch(es[100:]...)); err != nil {
		t.Fatal(err)
	}
	items, trunc = p.Items()
	pjCheckView(t, p, items)
	if !trunc || len(items) != 100 || items[0].ID != "u50" || items[99].ID != "u149" {
		t.Fatalf("150 items: got %d (%s..%s), truncated %v", len(items), items[0].ID, items[len(items)-1].ID, trunc)
	}
	// The streamed items count too: one more pushes the oldest out.
	if err := p.SetStreaming([]byte(`{"role":"assistant","content":[{"type":"text","text":"live"}]}`)); err != nil {
		t.Fatal(err)
	}
	items, trunc = p.Items()
	if !trunc || len(items) != 100 || items[0].ID != "u51" || items[99].ID != "stream.live" {
		t.Fatalf("with streaming: %d items (%s..%s), truncated %v", len(items), items[0].ID, items[len(items)-1].ID, trunc)
	}
	// A short branch with a streamed message: not truncated.
	p, _, _ = pjProject(t, pjBranch(es[:3]...))
	p.SetStreaming([]byte(`{"role":"assistant","content":[{"type":"text","text":"live"}]}`))
	if items, trunc = p.Items(); trunc || len(items) != 4 {
		t.Fatalf("3+1 items: %d, truncated %v", len(items), trunc)
	}
}

func TestProjectionCut256KiB(t *testing.T) {
	big := strings.Repeat("x", MaxItemTextUnits) // 32 KiB of JSON per item
	var es []string
	for k := 0; k < 20; k++ {
		es = append(es, pjAsst(fmt.Sprintf("a%d", k), "stop", pjText(big)))
	}
	p, items, trunc := pjProject(t, pjBranch(es...))
	js, _ := itemsJSON(p)
	if !trunc || len(items) != 7 || items[6].ID != "a19" || len(js) > MaxViewBytes {
		t.Fatalf("got %d items, %d bytes, truncated %v", len(items), len(js), trunc)
	}
	// Escaped text costs its escaped size: control characters are 6 bytes each on the wire.
	ctl := strings.Repeat("\x01", MaxItemTextUnits)
	p, items, trunc = pjProject(t, pjBranch(pjAsst("a1", "stop", pjText(ctl)), pjAsst("a2", "stop", pjText(ctl))))
	js, _ = itemsJSON(p)
	if !trunc || len(items) != 1 || items[0].ID != "a2" || len(js) < 6*MaxItemTextUnits {
		t.Fatalf("escaped: %d items, %d bytes, truncated %v", len(items), len(js), trunc)
	}
	// Exactly at the limit: 8 items whose array is MaxViewBytes long all fit; one byte more cuts the oldest.
	for _, extra := range []int{0, 1} {
		var es []string
		size := 2 + 7*(35+MaxItemTextUnits+1) // brackets, 7 newest items and their commas
		first := MaxViewBytes - size - 35 + extra
		es = append(es, pjUser("b7", strings.Repeat("y", first)))
		for k := 6; k >= 0; k-- {
			es = append(es, pjUser(fmt.Sprint("b", k), strings.Repeat("x", MaxItemTextUnits)))
		}
		p, items, trunc = pjProject(t, pjBranch(es...))
		js, _ = itemsJSON(p)
		if extra == 0 && (trunc || len(items) != 8 || len(js) != MaxViewBytes) {
			t.Fatalf("at the limit: %d items, %d bytes, truncated %v", len(items), len(js), trunc)
		}
		if extra == 1 && (!trunc || len(items) != 7) {
			t.Fatalf("one byte over: %d items, %d bytes, truncated %v", len(items), len(js), trunc)
		}
	}
}

func TestProjectionIDsAtMost160Units(t *testing.T) {
	long := strings.Repeat("f", 128)
	blocks := []string{pjText("a")}
	for k := 0; k < 1500; k++ {
		blocks = append(blocks, pjToolCall(fmt.Sprint("c", k), "t", `{}`), pjText("b"))
	}
	p, items, _ := pjProject(t, pjBranch(pjAsst(long, "aborted", blocks...), pjCompaction(strings.Repeat("g", 128), "s")))
	if len(items) != 100 {
		t.Fatalf("%d items", len(items))
	}
	for _, it := range items {
		if n := utf16count.Of(it.ID); n > MaxItemIDUnits || !strings.HasPrefix(it.ID, long[:100]) && !strings.HasPrefix(it.ID, "ggg") {
			t.Fatalf("id %q: %d units", it.ID, n)
		}
	}
	if p.skipped != 0 {
		t.Fatalf("skipped %d", p.skipped)
	}
	if got := items[len(items)-2].ID; got != long+".n" {
		t.Fatalf("notice id %q", got)
	}
	if got := items[len(items)-3].ID; got != long+".x3000" {
		t.Fatalf("last run id %q", got)
	}
}

func TestProjectionTextUTF16Limit(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		want string
	}{
		{"ascii over", strings.Repeat("a", MaxItemTextUnits+10), strings.Repeat("a", MaxItemTextUnits)},
		{"ascii exact", strings.Repeat("a", MaxItemTextUnits), strings.Repeat("a", MaxItemTextUnits)},
		{"CJK over", strings.Repeat("中", MaxItemTextUnits+1), strings.Repeat("中", MaxItemTextUnits)},
		{"emoji over", strings.Repeat("😀", MaxItemTextUnits), strings.Repeat("😀", MaxItemTextUnits/2)},
		{"pair on the boundary", strings.Repeat("a", MaxItemTextUnits-1) + "😀", strings.Repeat("a", MaxItemTextUnits-1)},
		{"emoji exact", "a" + strings.Repeat("😀", MaxItemTextUnits/2-1) + "b", "a" + strings.Repeat("😀", MaxItemTextUnits/2-1) + "b"},
		// 32,768 CJK characters are 98,304 bytes: the limit counts units, not bytes.
		{"CJK exact", strings.Repeat("字", MaxItemTextUnits), strings.Repeat("字", MaxItemTextUnits)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Both as a single block and as two joined blocks (the join is cut too).
			_, items, _ := pjProject(t, pjBranch(pjUser("u1", tc.text)))
			if len(items) != 1 || items[0].Text != tc.want {
				t.Fatalf("got %d units (%d bytes), want %d units", utf16count.Of(items[0].Text), len(items[0].Text), utf16count.Of(tc.want))
			}
			_, items, _ = pjProject(t, pjBranch(pjAsst("a1", "stop", pjText(tc.text), pjText("tail"))))
			if !utf8.ValidString(items[0].Text) || utf16count.Of(items[0].Text) > MaxItemTextUnits ||
				!strings.HasPrefix(tc.text+"\n\ntail", items[0].Text) {
				t.Fatalf("joined: %d units", utf16count.Of(items[0].Text))
			}
		})
	}
	// Tool names: at most 100 units.
	_, items, _ := pjProject(t, pjBranch(pjAsst("a1", "toolUse", pjToolCall("c", strings.Repeat("名", 150), `{}`))))
	if items[0].Name != strings.Repeat("名", 100) {
		t.Fatalf("name cut to %d units", utf16count.Of(items[0].Name))
	}
}

// ---- streaming ----

func TestProjectionStreaming(t *testing.T) {
	p, _, _ := pjProject(t, pjBranch(pjUser("u1", "question")))
	v0 := p.Version()
	for _, step := range []struct {
		msg  string
		want []Item
	}{
		{`{"role":"assistant","content":[{"type":"thinking","thinking":"hmm"}]}`, []Item{iUser("u1", "question")}},
		{`{"role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"Hel"}]}`,
			[]Item{iUser("u1", "question"), iAsst("stream.live", "Hel")}},
		{`{"role":"assistant","content":[{"type":"text","text":"Hello"},{"type":"toolCall","id":"c1","name":"read","arguments":{}}],"stopReason":"toolUse"}`,
			[]Item{iUser("u1", "question"), iAsst("stream.live", "Hello"), iTool("stream.live.t1", "read", ToolCalling)}},
	} {
		if err := p.SetStreaming([]byte(step.msg)); err != nil {
			t.Fatal(err)
		}
		items, _ := p.Items()
		pjCheckView(t, p, items)
		pjSame(t, items, step.want)
	}
	if p.Version() == v0 {
		t.Fatal("version did not move")
	}
	// The persisted message arrives; the streamed one is still shown until the gateway clears it.
	if err := p.ApplyBranch(false, pjBranch(pjAsst("a1", "toolUse", pjText("Hello"), pjToolCall("c1", "read", `{}`)))); err != nil {
		t.Fatal(err)
	}
	for _, clear := range [][]byte{nil, []byte("null"), []byte(" null\n"), {}} {
		if err := p.SetStreaming([]byte(`{"role":"assistant","content":[{"type":"text","text":"x"}]}`)); err != nil {
			t.Fatal(err)
		}
		if err := p.SetStreaming(clear); err != nil {
			t.Fatal(err)
		}
		items, _ := p.Items()
		pjSame(t, items, []Item{iUser("u1", "question"), iAsst("a1", "Hello"), iTool("a1.t1", "read", ToolCalling)})
	}
	// Bad streamed messages are refused and change nothing.
	p.SetStreaming([]byte(`{"role":"assistant","content":[{"type":"text","text":"kept"}]}`))
	for _, bad := range []string{`[]`, `"x"`, `{"role":"user","content":"u"}`, `{"content":[]}`, `{"role":"assistant","content":[`,
		`{"role":"assistant","content":[{"type":"text","text":1}]}`, `{"role":"assistant","content":[]} x`, `nullx`} {
		if err := p.SetStreaming([]byte(bad)); err == nil {
			t.Errorf("SetStreaming(%s) accepted", bad)
		}
		items, _ := p.Items()
		if items[len(items)-1] != iAsst("stream.live", "kept") {
			t.Fatalf("after %s: %+v", bad, items)
		}
	}
	// A reset keeps the streamed message (the gateway decides when it ends).
	p.ApplyBranch(true, pjBranch(pjUser("u9", "other")))
	items, _ := p.Items()
	pjSame(t, items, []Item{iUser("u9", "other"), iAsst("stream.live", "kept")})
}

// ---- errors and ownership ----

func TestProjectionBadNotesChangeNothing(t *testing.T) {
	good := pjBranch(pjUser("u1", "one"), pjAsst("a1", "toolUse", pjToolCall("c1", "read", `{}`)))
	for _, bad := range []string{
		``, `null`, `{}`, `"x"`, `[`, `[{]`, `[{"type":"message"`, `[1,]`, `[,1]`, `[1 2]`, `[] []`, `[{"a" 1}]`,
		`[{"a":1,}]`, `[{"a":tru}]`, `[{"a":[1}]}]`, `[{"a":"\"}]`, `[` + strings.Repeat("[", maxNesting+1) + strings.Repeat("]", maxNesting+1) + `]`,
		// good entries first, then a broken one: the good ones are not applied either
		`[` + pjUser("u2", "two") + `,` + pjResult("r1", "c1", false, "x") + `,{"type":`,
	} {
		for _, reset := range []bool{false, true} {
			p, before, _ := pjProject(t, good)
			v := p.Version()
			if err := p.ApplyBranch(reset, []byte(bad)); err == nil {
				t.Fatalf("ApplyBranch(%v, %q) accepted", reset, bad)
			}
			after, _ := p.Items()
			pjSame(t, after, before)
			if p.Version() != v || p.skipped != 0 {
				t.Fatalf("version or skipped moved")
			}
			// The items' cached encodings are restored too: a view built from them again is the same.
			p.version++
			pjCheckView(t, p, after)
			p.version--
			// The ids of the refused note were not remembered.
			if err := p.ApplyBranch(false, pjBranch(pjUser("u2", "two"))); err != nil {
				t.Fatal(err)
			}
			if after, _ = p.Items(); after[len(after)-1] != iUser("u2", "two") {
				t.Fatalf("u2 lost after a refused note %q", bad)
			}
		}
	}
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
			t.Fatalf("size %d, ItemsJSON %d bytes, joined %d", size, len(js), want)
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

func encodings2(p *Projector) [][]byte {
	parts, _, _ := p.AppendItemEncodings(nil)
	return parts
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

func TestItemJSON(t *testing.T) {
	for _, tc := range []struct {
		it   Item
		want string
	}{
		{iUser("1", "hi"), `{"id":"1","role":"user","text":"hi"}`},
		{iAsst("2", ""), `{"id":"2","role":"assistant","text":""}`},
		{iTool("3", "bash", ToolFailed), `{"id":"3","role":"tool","name":"bash","status":"failed"}`},
		{iNotice("4", CodeContextCompacted), `{"id":"4","role":"notice","code":"context-compacted"}`},
		{iUser("5", "<&>\u2028\u2029\"\\\n\x00é😀"), `{"id":"5","role":"user","text":"\u003c\u0026\u003e\u2028\u2029\"\\\n\u0000é😀"}`},
	} {
		got, err := json.Marshal(tc.it)
		if err != nil || string(got) != tc.want {
			t.Errorf("Marshal(%+v) = %s, %v; want %s", tc.it, got, err, tc.want)
		}
		direct, _ := tc.it.MarshalJSON()
		if string(direct) != string(got) {
			t.Errorf("MarshalJSON %s differs from json.Marshal %s", direct, got)
		}
		var back Item
		if err := json.Unmarshal(got, &back); err != nil || back != tc.it {
			t.Errorf("round trip %+v: %+v %v", tc.it, back, err)
		}
	}
	for _, bad := range []Item{
		{}, {ID: "x"}, {ID: "x", Role: "system", Text: "t"}, {Role: RoleUser},
		{ID: strings.Repeat("i", MaxItemIDUnits+1), Role: RoleUser},
		{ID: "x", Role: RoleUser, Text: strings.Repeat("😀", MaxItemTextUnits/2+1)},
		{ID: "x", Role: RoleUser, Text: "\xff"},
		{ID: "x", Role: RoleUser, Name: "n"},
		{ID: "x", Role: RoleAssistant, Code: CodeModelFailed},
		{ID: "x", Role: RoleTool, Name: "", Status: ToolCalling},
		{ID: "x", Role: RoleTool, Name: strings.Repeat("n", MaxItemNameUnits+1), Status: ToolCalling},
		{ID: "x", Role: RoleTool, Name: "n", Status: "running"},
		{ID: "x", Role: RoleTool, Name: "n", Status: ToolCalling, Text: "args"},
		{ID: "x", Role: RoleNotice, Code: "input-submitted"},
		{ID: "x", Role: RoleNotice, Code: CodeModelFailed, Text: "details"},
	} {
		if _, err := json.Marshal(bad); err == nil {
			t.Errorf("Marshal(%+v) accepted", bad)
		}
	}
	// The exact limits are fine.
	ok := Item{ID: strings.Repeat("😀", MaxItemIDUnits/2), Role: RoleTool, Name: strings.Repeat("😀", MaxItemNameUnits/2), Status: ToolCalling}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
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
