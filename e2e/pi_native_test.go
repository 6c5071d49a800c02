package e2e

// The bridge takes from each Pi what it has (issue 10): on Pi 1.x `settled` comes from agent_settled
// (no idle check is ever started) and Pi's own dialogs (ui_prompt_start/end) refuse browser sends; on
// 0.73.1 both are imitated. `tele host` decides which from the Pi version in the hello, tells the bridge
// in ready, and logs it; each settled note says where it came from, and the host logs that too.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// nativeExtension is loaded before the bridge. `/native confirm` opens a dialog through Pi's own UI
// (ctx.ui.confirm); an input containing HOLD_SETTLED makes its agent_settled handler, which runs before
// the bridge's, open one too, so the run cannot settle until the test answers it.
const nativeExtension = `export default function (pi) {
	let holdNext = false;
	pi.registerCommand("native", {
		description: "native events probe (tests only)",
		handler: async (_args, ctx) => {
			const ok = await ctx.ui.confirm("Tele probe", "a terminal dialog");
			ctx.ui.notify("native: confirm closed " + ok, "info");
		},
	});
	pi.on("input", (event) => {
		if (String(event.text).includes("HOLD_SETTLED")) holdNext = true;
	});
	pi.on("agent_settled", async (_event, ctx) => {
		if (!holdNext) return;
		holdNext = false;
		await ctx.ui.confirm("Tele probe", "holding agent_settled");
	});
}
`

func TestPiNativeEvents(t *testing.T) {
	forEachPi(t, func(t *testing.T, line piLine) {
		requirePi(t, line)
		p := newProbe(t, line, "native-events")
		defer p.finish()
		p.fm.Script(func(r *ModelRequest) Reply { return Reply{Text: "reply to " + r.LastUser()} })
		home := t.TempDir()
		bridge := filepath.Join(home, "bridge", "tele.js")
		p.writeBridge(bridge, teleCmd(t, home, []string{"HOME=" + home}, "pi", "print"))
		ext := filepath.Join(home, "native.js")
		if err := os.WriteFile(ext, []byte(nativeExtension), 0o644); err != nil {
			t.Fatal(err)
		}
		p.pi = StartPi(t, p.fm, PiOptions{Line: line, Home: home, Extensions: []string{ext, bridge}})
		pi := p.pi
		c := p.connect(t)
		p.pair(t, c)

		// The host decided from Pi's version which events are native and logged it with the version.
		h, ok := p.hostLog.hello()
		if !ok {
			t.Fatalf("tele host logged no hello line:\n%s", p.hostLog.text())
		}
		if h.pi != line.Version() {
			t.Errorf("tele host logged pi=%s, want %s", h.pi, line.Version())
		}
		if want := nonNil(line.Native); !slices.Equal(h.native, want) {
			t.Errorf("tele host logged native=%q, want %q", h.native, want)
		}
		t.Logf("%s on Node %s: native events %q, imitated %q", line.Name(), line.NodeVersion(), h.native, h.imitated)

		t.Run("settled", func(t *testing.T) {
			before := c.status(t).Get("idleVersion").Int()
			if code, v := c.send(t, "a plain browser message"); code != 202 {
				t.Fatalf("send: %d %s", code, v.Raw)
			}
			c.waitView(t, "the settled reply", func(v gjson.Result) bool {
				return v.Get("status").String() == "idle" && v.Get("idleVersion").Int() == before+1 &&
					slices.Contains(assistantTexts(v), "reply to a plain browser message")
			})
		})
		if !line.Has("ui_prompt") {
			t.Run("settled-source", func(t *testing.T) { t.Log(p.hostLog.checkSettled(t, line)) })
			return // Pi 0.73.1: dialogs only through the pi.events convention (the bridge probe's terminal-prompt step)
		}

		t.Run("pi-dialog-refuses-sends", func(t *testing.T) {
			from := pi.Mark()
			pi.Send(map[string]any{"type": "prompt", "message": "/native confirm"})
			req := pi.Wait(from, 30*time.Second, "the confirm dialog", func(l gjson.Result) bool {
				return l.Get("type").String() == "extension_ui_request" && l.Get("method").String() == "confirm"
			})
			c.waitView(t, "terminal-prompt", func(v gjson.Result) bool { return v.Get("status").String() == "terminal-prompt" })
			if code, v := c.send(t, "while Pi asks in the terminal"); code != 409 || v.Get("error.code").String() != "terminal_prompt" {
				t.Fatalf("send during Pi's own dialog: %d %s", code, v.Raw)
			}
			answerDialog(t, pi, req)
			pi.WaitNotify(from, "native: confirm closed true")
			c.waitView(t, "idle after the dialog", func(v gjson.Result) bool { return v.Get("status").String() == "idle" })
			if code, v := c.send(t, "after the dialog"); code != 202 {
				t.Fatalf("send after the dialog closed: %d %s", code, v.Raw)
			}
			c.waitView(t, "the reply", func(v gjson.Result) bool {
				return v.Get("status").String() == "idle" && slices.Contains(assistantTexts(v), "reply to after the dialog")
			})
		})

		t.Run("settled-from-agent_settled", func(t *testing.T) {
			before := c.status(t).Get("idleVersion").Int()
			from := pi.Mark()
			if code, v := c.send(t, "HOLD_SETTLED please"); code != 202 {
				t.Fatalf("send: %d %s", code, v.Raw)
			}
			// The extension before the bridge holds agent_settled open with a dialog: the reply is done and
			// Pi is idle, but the bridge's agent_settled handler has not run, so the run is not settled.
			req := pi.Wait(from, 30*time.Second, "the dialog inside agent_settled", func(l gjson.Result) bool {
				return l.Get("type").String() == "extension_ui_request" && l.Get("method").String() == "confirm"
			})
			v := c.waitView(t, "terminal-prompt", func(v gjson.Result) bool { return v.Get("status").String() == "terminal-prompt" })
			if !slices.Contains(assistantTexts(v), "reply to HOLD_SETTLED please") || v.Get("idleVersion").Int() != before {
				t.Fatalf("while agent_settled is held: want the reply shown and idleVersion %d, got %s", before, v.Raw)
			}
			answerDialog(t, pi, req)
			c.waitView(t, "settled after agent_settled", func(v gjson.Result) bool {
				return v.Get("status").String() == "idle" && v.Get("idleVersion").Int() == before+1
			})
		})

		t.Run("settled-source", func(t *testing.T) { t.Log(p.hostLog.checkSettled(t, line)) })
		if err := pi.Quit(); err != nil {
			t.Fatal(err)
		}
		if errs := pi.ExtensionErrors(0); len(errs) > 0 {
			t.Errorf("extension errors: %v", errs)
		}
	})
}

// answerDialog confirms the dialog of an extension_ui_request (the answer carries the request's id, so it
// is written as is rather than through Send, which numbers commands).
func answerDialog(t *testing.T, pi *Pi, req gjson.Result) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"type": "extension_ui_response", "id": req.Get("id").String(), "confirmed": true})
	if _, err := pi.stdin.Write(append(b, '\n')); err != nil {
		t.Fatalf("write to pi: %v", err)
	}
}
