package projection

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// ---- builders of crafted entries, in Pi 0.73.1's shape and field order ----

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
