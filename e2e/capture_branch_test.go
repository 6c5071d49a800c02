//go:build capture

package e2e

// The capture of projection/testdata/pi-branch-1.6.0.json: a real Pi 1.x branch with every kind of entry
// the projection must handle — tool calls (one refused), messages sent by an extension and queued as a
// follow-up, replies aborted mid-stream, before the model is called and at agent_start, a custom entry
// and a custom message, thinking, a failed request, the system messages Pi 1.x writes when the tool set
// changes, a bash execution and a compaction. Not part of make test:
//
//	go test -tags capture -run TestCapturePiBranch -v ./e2e              # capture, compare the shape
//	go test -tags capture -run TestCapturePiBranch -v ./e2e -args -write # and replace the fixture
//
// The shape (each entry's type, role, stop reason, custom type, content kinds and the system message's
// tool changes) must equal the committed fixture's; ids, timestamps and durations differ on every run,
// so after -write projection's expected items (pjSample16Want) need the new ids.

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

var captureWrite = flag.Bool("write", false, "replace projection/testdata/pi-branch-1.6.0.json with the capture")

const captureFixture = "../projection/testdata/pi-branch-1.6.0.json"

// captureExtension stands in for a bridge: a tele_board tool with a fixed answer, inactive until /cap gate
// makes it the only one (as /tele does), /cap commands to gate the tools, send as an extension, queue a follow-up and dump the branch, and the hooks that abort a run
// or add a custom entry and message.
const captureExtension = `import { writeFileSync } from "node:fs";
export default function (pi) {
	let saved = null;
	pi.registerTool({
		name: "tele_board", label: "Tele board", description: "capture stand-in",
		parameters: { type: "object", properties: { action: { type: "string" }, board: { type: "string" } }, required: ["action"] },
		async execute() { return { content: [{ type: "text", text: "# demo board\nhello from the child" }], details: {} }; },
	});
	pi.registerCommand("cap", {
		description: "capture controls (tests only)",
		handler: async (args, ctx) => {
			const [verb, ...rest] = String(args).trim().split(" ");
			const text = rest.join(" ");
			if (verb === "gate") { saved = pi.getActiveTools(); pi.setActiveTools(["tele_board"]); }
			else if (verb === "ungate") pi.setActiveTools(saved);
			else if (verb === "send") pi.sendUserMessage(text);
			else if (verb === "followup") pi.sendUserMessage(text, { deliverAs: "followUp" });
			else if (verb === "dump") writeFileSync(text, JSON.stringify(ctx.sessionManager.getBranch(), null, 2));
			ctx.ui.notify("cap: " + verb + " done", "info");
		},
	});
	let abortAtStart = false;
	pi.on("session_start", () => pi.setActiveTools(pi.getActiveTools().filter((n) => n !== "tele_board")));
	pi.on("before_agent_start", (event, ctx) => {
		if (event.prompt.includes("ABORT_AT_BAS")) ctx.abort();
		abortAtStart = event.prompt.includes("ABORT_AT_AGENT_START");
		if (!event.prompt.includes("ADD_CUSTOM")) return;
		pi.appendEntry("tele-state", { board: "demo", note: "custom entry example" });
		return { message: { customType: "tele", content: "custom_message injected by before_agent_start", display: true } };
	});
	pi.on("agent_start", (_event, ctx) => abortAtStart && ctx.abort());
}
`

// captureModel answers like the fake model of the original capture.
func captureModel(hold <-chan struct{}) func(*ModelRequest) Reply {
	return func(r *ModelRequest) Reply {
		user := r.LastUser()
		var tool string
		if last := r.Last(); last.Role == "tool" {
			tool = last.Text()
		}
		users := r.UserTexts()
		thinking := strings.Contains(user, "THINK") || // or the custom message sent after that prompt
			(strings.HasPrefix(user, "custom_message") && len(users) > 1 && strings.Contains(users[len(users)-2], "THINK"))
		switch {
		case strings.HasPrefix(user, "<conversation>"): // the compaction's summary request
			return Reply{Text: "SCRIPTED_REPLY to: " + user}
		case tool != "":
			return Reply{Text: "TOOL_RESULT_SEEN: " + tool}
		case strings.Contains(user, "CALL_TOOL"):
			return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: `{"action":"get","board":"demo"}`}}}
		case strings.Contains(user, "CALL_BASH"):
			return Reply{ToolCalls: []ToolCall{{Name: "bash", Arguments: `{"command":"echo hi"}`}}}
		case strings.Contains(user, "SLOW"):
			var words []string
			for i := range 20 {
				words = append(words, fmt.Sprintf("slow%d ", i))
			}
			return Reply{Text: strings.Join(words, ""), Chunks: 20, Hold: hold}
		case strings.Contains(user, "FAIL_400"):
			return Reply{Status: 400, Error: "scripted failure"}
		case thinking:
			return Reply{Thinking: "Let me think about this.", Text: "SCRIPTED_REPLY to: " + user}
		}
		return Reply{Text: "SCRIPTED_REPLY to: " + user}
	}
}

func TestCapturePiBranch(t *testing.T) {
	var line piLine
	for _, l := range piLines {
		if l.Dir == "1.x" {
			line = l
		}
	}
	requirePi(t, line)
	fm := StartFakeModel(t)
	home := t.TempDir()
	ext := filepath.Join(home, "capture.js")
	if err := os.WriteFile(ext, []byte(captureExtension), 0o644); err != nil {
		t.Fatal(err)
	}
	// Keep no recent tokens, or Pi finds this short session too small to compact.
	agent := filepath.Join(home, "agent")
	if err := fm.WriteModelsJSON(agent); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(agent, "settings.json"), []byte(`{"compaction":{"keepRecentTokens":1}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	pi := StartPi(t, fm, PiOptions{Line: line, Home: home, AgentDir: agent, Extensions: []string{ext}, NoTeleArgs: true})
	run := func(what string, start func()) { // start something, then wait for its run to end
		t.Helper()
		from := pi.Mark()
		start()
		pi.Wait(from, time.Minute, "the end of "+what, func(l gjson.Result) bool { return l.Get("type").String() == "agent_end" })
	}
	prompt := func(text string) { run(text, func() { pi.Prompt(text) }) }
	held := func(text string, during func()) { // a slow reply held after its first word
		hold := make(chan struct{})
		fm.Script(captureModel(hold))
		run(text, func() {
			from := pi.Mark()
			pi.Prompt(text)
			pi.WaitType(from, "message_update")
			during()
			close(hold)
		})
	}
	fm.Script(captureModel(nil))

	prompt("hello")
	pi.Prompt("/cap gate") // the tool set changes: Pi 1.x writes a system message before the next prompt
	prompt("please CALL_TOOL")
	prompt("please CALL_BASH")
	run("an extension's message", func() { pi.Prompt("/cap send from browser while idle") })
	run("a slash command sent as text", func() { pi.Prompt("/cap send /tele off") })
	held("SLOW streaming test", func() { pi.Prompt("/cap followup browser followUp") })
	held("SLOW abort test", func() { pi.Command(map[string]any{"type": "abort"}) })
	prompt("ABORT_AT_BAS test")
	prompt("ABORT_AT_AGENT_START test")
	prompt("THINK ADD_CUSTOM please")
	prompt("FAIL_400 please")
	pi.Prompt("/cap ungate")
	prompt("after off")
	pi.Command(map[string]any{"type": "bash", "command": "echo bash-entry"})
	pi.Command(map[string]any{"type": "compact"})
	prompt("after compaction")

	out := filepath.Join(home, "branch.json")
	from := pi.Mark()
	pi.Prompt("/cap dump " + out)
	pi.WaitNotify(from, "cap: dump done")
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(captureFixture)
	if err != nil {
		t.Fatal(err)
	}
	gs, ws := branchShape(got), branchShape(want)
	if !slices.Equal(gs, ws) {
		t.Errorf("the captured branch's shape differs from the fixture's:\ncaptured:\n  %s\nfixture:\n  %s",
			strings.Join(gs, "\n  "), strings.Join(ws, "\n  "))
	}
	if *captureWrite {
		if err := os.WriteFile(captureFixture, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d entries); update pjSample16Want's ids in projection", captureFixture, len(gs))
	}
	if err := pi.Quit(); err != nil {
		t.Fatal(err)
	}
}

// branchShape is one line per entry: what the projection reads, without ids, times or texts.
func branchShape(branch []byte) []string {
	var out []string
	for _, e := range gjson.ParseBytes(branch).Array() {
		m := e.Get("message")
		s := e.Get("type").String()
		if c := e.Get("customType").String(); c != "" {
			s += " customType=" + c
		}
		if m.Exists() {
			s += " role=" + m.Get("role").String()
			if r := m.Get("stopReason").String(); r != "" {
				s += " stop=" + r
			}
			var kinds []string
			for _, b := range m.Get("content").Array() {
				kinds = append(kinds, b.Get("type").String())
			}
			if len(kinds) > 0 {
				s += " content=" + strings.Join(kinds, ",")
			}
			for _, k := range []string{"toolsAdded", "toolsRemoved"} {
				if m.Get(k).Exists() {
					s += " " + k
				}
			}
		}
		out = append(out, s)
	}
	return out
}
