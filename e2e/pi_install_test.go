package e2e

// Where each Pi line finds the bridge: `tele pi install` into the agent dir, and two copies at once.

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// teleCommands counts the /tele commands Pi has.
func teleCommands(pi *Pi) int {
	n := 0
	for _, c := range pi.Command(map[string]any{"type": "get_commands"}).Get("data.commands").Array() {
		if c.Get("name").String() == "tele" {
			n++
		}
	}
	return n
}

// TestPiGlobalInstall: `tele pi install` puts the bridge in <agent dir>/extensions, the agent dir named by
// PI_CODING_AGENT_DIR as Pi reads it; each Pi line discovers it there (no -e) and /tele connects.
func TestPiGlobalInstall(t *testing.T) {
	forEachPi(t, func(t *testing.T, line piLine) {
		requirePi(t, line)
		p := newProbe(t, line, "global-install")
		defer p.finish()
		home := t.TempDir()
		agent := filepath.Join(home, "agent") // where StartPi points PI_CODING_AGENT_DIR
		out := teleCmd(t, home, []string{"HOME=" + home, "PI_CODING_AGENT_DIR=" + agent}, "pi", "install")
		want := filepath.Join(agent, "extensions", "tele.js")
		if strings.TrimSpace(string(out)) != want {
			t.Fatalf("tele pi install printed %q, want %q", out, want)
		}
		p.logInstalledBridge(want)
		p.pi = StartPi(t, p.fm, PiOptions{Line: line, Home: home})
		p.step("discovered-in-the-agent-dir", func(t *testing.T) string {
			if n := teleCommands(p.pi); n != 1 {
				t.Fatalf("%d /tele commands", n)
			}
			c := p.connect(t)
			if err := p.pi.Quit(); err != nil {
				t.Fatal(err)
			}
			waitExit(t, c.hostPID, 10*time.Second, "the host to exit")
			return "one /tele from $PI_CODING_AGENT_DIR/extensions/tele.js; /tele demo connected; quit stopped the host"
		})
	})
}

// TestPiBridgeLoadedTwice: two copies of the bridge in one Pi — one registers, the other says so once.
func TestPiBridgeLoadedTwice(t *testing.T) {
	forEachPi(t, func(t *testing.T, line piLine) {
		requirePi(t, line)
		p := newProbe(t, line, "loaded-twice")
		defer p.finish()
		home := t.TempDir()
		src := teleCmd(t, home, []string{"HOME=" + home}, "pi", "print")
		var paths []string
		for _, d := range []string{"a", "b"} {
			path := filepath.Join(home, d, "tele.js")
			p.writeBridge(path, src)
			paths = append(paths, path)
		}
		p.pi = StartPi(t, p.fm, PiOptions{Line: line, Home: home, Extensions: paths})
		p.step("second-copy-refused", func(t *testing.T) string {
			msgs := p.pi.Notifies(0)
			if len(msgs) != 1 || !strings.Contains(msgs[0], "loaded twice") {
				t.Fatalf("startup notifies %q, want one saying the bridge is loaded twice", msgs)
			}
			if n := teleCommands(p.pi); n != 1 {
				t.Fatalf("%d /tele commands", n)
			}
			c := p.connect(t)
			if err := p.pi.Quit(); err != nil {
				t.Fatal(err)
			}
			waitExit(t, c.hostPID, 10*time.Second, "the host to exit")
			return "one notify at session_start; one /tele command; connecting works"
		})
	})
}
