package e2e

// The probe's scripted model and the small test extensions loaded beside the bridge.

import (
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"
)

// probeExtension is the small test extension loaded before the bridge. `/probe release` lets go of
// inputs it holds (any input containing PROBE_HOLD waits in its `input` hook); `/probe prompt open|close`
// says a terminal dialog opened or closed on the shared bus; `/probe tree` moves the session tree leaf.
const probeExtension = `export default function (pi) {
	const held = [];
	pi.registerCommand("probe", {
		description: "probe controls (tests only)",
		handler: async (args, ctx) => {
			const [verb, arg] = String(args).trim().split(/\s+/);
			if (verb === "release") {
				const n = held.length;
				held.splice(0).forEach((release) => release());
				ctx.ui.notify("probe: released " + n, "info");
			} else if (verb === "prompt") {
				pi.events.emit("tele:terminal-prompt", { open: arg === "open" });
				ctx.ui.notify("probe: prompt " + arg, "info");
			} else if (verb === "tree") {
				const branch = ctx.sessionManager.getBranch();
				const target = branch[Math.max(0, branch.length - 3)].id;
				const r = await ctx.navigateTree(target, { summarize: false });
				ctx.ui.notify("probe: tree moved " + !r.cancelled, "info");
			}
		},
	});
	pi.on("input", async (event, ctx) => {
		if (!String(event.text).includes("PROBE_HOLD")) return;
		ctx.ui.notify("probe: holding input", "info");
		await new Promise((resolve) => held.push(resolve));
	});
}
`

// probeAfterExtension is loaded after the bridge (only with -e): its input hook runs after the bridge's, so
// a browser input it holds has already passed the bridge's generation check. Released after /tele off,
// it reaches agent_start, where the bridge's second line must abort it.
const probeAfterExtension = `export default function (pi) {
	const held = [];
	pi.registerCommand("probe-after", {
		description: "probe controls (tests only)",
		handler: async (_args, ctx) => {
			const n = held.length;
			held.splice(0).forEach((release) => release());
			ctx.ui.notify("probe-after: released " + n, "info");
		},
	});
	pi.on("input", async (event, ctx) => {
		if (!String(event.text).includes("PROBE_AFTERHOLD")) return;
		ctx.ui.notify("probe-after: holding input", "info");
		await new Promise((resolve) => held.push(resolve));
	});
}
`

// model scripts the fake model by markers in the last user message.
func (p *probe) model(r *ModelRequest) Reply {
	user := r.LastUser()
	var tools []ModelMessage // tool results after the last user message
	for i := len(r.Messages) - 1; i >= 0 && r.Messages[i].Role != "user"; i-- {
		if r.Messages[i].Role == "tool" {
			tools = append([]ModelMessage{r.Messages[i]}, tools...)
		}
	}
	switch {
	case strings.HasPrefix(user, "PROBE_EDIT"):
		switch len(tools) {
		case 0:
			return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: `{"action":"get"}`}}}
		case 1:
			got := gjson.Parse(tools[0].Text())
			p.mu.Lock()
			p.boardRead = got.Get("content")
			p.mu.Unlock()
			content := map[string]any{}
			_ = json.Unmarshal([]byte(got.Get("content").Raw), &content)
			content["title"] = "Probe Title"
			args, _ := json.Marshal(map[string]any{"action": "put", "expectedRevision": got.Get("revision").Int(), "content": content})
			return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: string(args)}}}
		}
		return Reply{Text: "edited"}
	case strings.HasPrefix(user, "PROBE_CONFLICT"):
		if len(tools) == 0 {
			p.mu.Lock()
			content := p.boardRead.Raw
			p.mu.Unlock()
			return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: `{"action":"put","expectedRevision":1,"content":` + content + `}`}}}
		}
		return Reply{Text: "conflict seen"}
	case strings.HasPrefix(user, "PROBE_CATALOGUE"):
		return p.catalogueReply(tools)
	case strings.HasPrefix(user, "PROBE_LYRIC"):
		return p.lyricReply(tools)
	case strings.HasPrefix(user, "PROBE_FORM"):
		return p.formReply(tools)
	case strings.HasPrefix(user, "PROBE_BASH"):
		if len(tools) == 0 {
			return Reply{ToolCalls: []ToolCall{{Name: "bash", Arguments: `{"command":"echo hi"}`}}}
		}
		return Reply{Text: "bash result seen"}
	case strings.HasPrefix(user, "PROBE_FAIL"):
		return Reply{Status: 400, Error: "scripted failure"}
	case strings.HasPrefix(user, "PROBE_SLOW"):
		return Reply{Text: "a slow reply that streams for a while", Chunks: 4, Hold: p.currentHold()}
	case strings.HasPrefix(user, "PROBE_BROWSER"):
		return Reply{Thinking: "private thoughts", Text: "browser reply text", Chunks: 2, Hold: p.currentHold()}
	}
	return Reply{Text: "reply to " + user}
}
