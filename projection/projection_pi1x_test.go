package projection

// Pi 1.x branches (issue 10): a real branch of Pi 1.6.0 (testdata/pi-branch-1.6.0.json, captured with the
// fake model: tool calls, an aborted reply, a failed request, a compaction, and the system messages 1.x
// stores) projects like 0.73.1's. What the view shows of each entry kind new in 1.x: nothing of a system
// message (the system prompt and the tool declarations), of a usage entry or of a context_edit (it changes
// only what the model sees next, not the history), and of a compaction only the context-compacted notice,
// never its summary or its system-prompt checkpoint.

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

var pjSample16Want = []Item{
	iUser("36dc8b1c", "hello"),
	iAsst("eb600e57", "SCRIPTED_REPLY to: hello"),
	iUser("a5a8ba10", "please CALL_TOOL"),
	iTool("977f7dda.t0", "tele_board", ToolCompleted),
	iAsst("ef0ed187", "TOOL_RESULT_SEEN: # demo board\nhello from the child"),
	iUser("3ff39ad6", "please CALL_BASH"),
	iTool("fe8c3d6b.t0", "bash", ToolFailed),
	iAsst("0c127fc6", "TOOL_RESULT_SEEN: Tool bash not found"),
	iUser("2143d397", "from browser while idle"),
	iAsst("401a214d", "SCRIPTED_REPLY to: from browser while idle"),
	iUser("e900d066", "/tele off"),
	iAsst("48fedfb0", "SCRIPTED_REPLY to: /tele off"),
	iUser("9adcdc7f", "SLOW streaming test"),
	iAsst("9136787d", "slow0 slow1 slow2 slow3 slow4 slow5 slow6 slow7 slow8 slow9 slow10 slow11 slow12 slow13 slow14 slow15 slow16 slow17 slow18 slow19 "),
	iUser("449b9ef4", "browser followUp"),
	iAsst("8d4013e5", "SCRIPTED_REPLY to: browser followUp"),
	iUser("765dd869", "SLOW abort test"),
	iAsst("279028f0", "slow0 "),
	iNotice("279028f0.n", CodeReplyAborted),
	iUser("137a827a", "ABORT_AT_BAS test"),
	iNotice("16b6b6fe.n", CodeReplyAborted),
	iUser("5a97b629", "ABORT_AT_AGENT_START test"),
	iNotice("7057773c.n", CodeReplyAborted),
	iUser("c9d79b75", "THINK ADD_CUSTOM please"),
	iAsst("169738b6", "SCRIPTED_REPLY to: THINK ADD_CUSTOM please"),
	iUser("94079264", "FAIL_400 please"),
	iNotice("87d82201.n", CodeModelFailed),
	iUser("c888a734", "after off"),
	iAsst("7d9b10e0", "SCRIPTED_REPLY to: after off"),
	iNotice("8609d485", CodeContextCompacted),
	iUser("8e4c6845", "after compaction"),
	iAsst("c4a2cb5d", "SCRIPTED_REPLY to: after compaction"),
}

func pjSample16(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/pi-branch-1.6.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestProjectionSamplePi16(t *testing.T) {
	p, items, trunc := pjProject(t, pjSample16(t))
	pjSame(t, items, pjSample16Want)
	if trunc || p.skipped != 0 {
		t.Fatalf("truncated %v, skipped %d", trunc, p.skipped)
	}
	js, _ := itemsJSON(p)
	for _, private := range []string{
		"You are a coding assistant", "<tools>", "<rules>", "toolsAdded", "sections", "preamble", // system messages
		"<conversation>", "firstKeptEntryId", "systemMessage", // the compaction's summary and checkpoint
		"Let me think", `"action"`, "call_", "toolCallId", `"details"`, "thinkingLevel",
		"Request was aborted", "This operation was aborted", "scripted failure", "tele-state",
		"custom_message injected", "bash-entry", "fake-model", "openai", "chatcmpl", "/home/user",
	} {
		if bytes.Contains(js, []byte(private)) {
			t.Errorf("view contains %q", private)
		}
	}
}

// Entry by entry, the 1.6.0 branch gives the same items.
func TestProjectionSamplePi16Incremental(t *testing.T) {
	var es []json.RawMessage
	if err := json.Unmarshal(pjSample16(t), &es); err != nil {
		t.Fatal(err)
	}
	notes := [][]byte{[]byte("[]")}
	for _, e := range es {
		notes = append(notes, append(append([]byte("["), e...), ']'))
	}
	_, items, _ := pjProject(t, notes...)
	pjSame(t, items, pjSample16Want)
}

// Every private field of the entry kinds new in Pi 1.x holds a canary; none reaches the view.
func TestProjectionPrivateFieldsAbsentPi1x(t *testing.T) {
	const c = "CANARY"
	tool := `{"name":"` + c + `tool","description":"` + c + `desc","parameters":{"type":"object","properties":{"` + c + `p":{}}}}`
	system := `"message":{"role":"system","content":"` + c + `content","sections":{"preamble":"` + c + `preamble","tools":"` + c + `tools","gone":null},` +
		`"toolsAdded":[` + tool + `],"toolsRemoved":[{"name":"` + c + `removed"}],"timestamp":1}`
	usage := `"usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`
	p, items, _ := pjProject(t, pjBranch(
		pjEntry("message", "s1", system),
		pjUser("u1", "hello"),
		pjAsstExtra("a1", "stop", `"thinkingLevel":"`+c+`level"`, pjThink(c+"think"), pjText("visible")),
		pjEntry("usage", "g1", `"kind":"`+c+`kind","provider":"`+c+`prov","model":"`+c+`model",`+usage),
		pjEntry("context_edit", "e1", `"targetId":"a1","replacement":[{"type":"text","text":"`+c+`replacement"}]`),
		pjEntry("context_edit", "e2", `"targetId":"u1","replacement":null`),
		pjEntry("compaction", "k1", `"summary":"`+c+`summary","firstKeptEntryId":"u1","tokensBefore":9,"details":{"readFiles":["`+c+`r"],"modifiedFiles":[]},`+
			usage+`,"fromHook":false,"systemMessage":{"role":"system","content":"","sections":{"preamble":"`+c+`checkpoint"},"toolsAdded":[`+tool+`],"timestamp":2}`),
		pjEntry("message", "s2", system),
		pjUser("u2", "after"),
	))
	pjCheckView(t, p, items)
	js, _ := itemsJSON(p)
	if bytes.Contains(js, []byte(c)) {
		t.Fatalf("a private field reached the view: %s", js)
	}
	pjSame(t, items, []Item{iUser("u1", "hello"), iAsst("a1", "visible"), iNotice("k1", CodeContextCompacted), iUser("u2", "after")})
}
