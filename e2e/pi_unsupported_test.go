package e2e

// A Pi older than Tele supports (0.73): /tele refuses it in one line and starts nothing. Pi 0.72.1 is
// pinned in e2e/pi/0.72 for this probe only; the other probes run on the supported lines (piLines).

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

var piUnsupported = piLine{Dir: "0.72", Package: "@mariozechner/pi-coding-agent", Node: "node"}

func TestPiUnsupported(t *testing.T) {
	line := piUnsupported
	t.Run(line.Name(), func(t *testing.T) {
		requirePi(t, line)
		p := newProbe(t, line, "unsupported")
		defer p.finish()
		p.startWithBridge(t, line)
		p.step("one-line-refusal", func(t *testing.T) string {
			tools := p.lastRequestTools(t, "before /tele")
			from := p.pi.Mark()
			p.pi.Prompt("/tele " + board) // the response comes when the command's handler has returned
			msgs := p.pi.Notifies(from)
			if len(msgs) != 1 {
				t.Fatalf("notifies %q, want one", msgs)
			}
			msg := msgs[0]
			if strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "tele: Pi "+line.Version()+" is too old for Tele") ||
				!strings.Contains(msg, "@earendil-works/pi-coding-agent") || inviteRe.MatchString(msg) {
				t.Errorf("the refusal reads %q", msg)
			}
			if h, ok := p.hostLog.hello(); !ok || h.pi != line.Version() {
				t.Errorf("tele host logged no hello with pi=%s:\n%s", line.Version(), p.hostLog.text())
			}
			if _, err := os.Stat(p.pi.DataDir); !os.IsNotExist(err) {
				t.Errorf("the data directory was created (err %v)", err)
			}
			for _, pid := range processesMentioning(p.pi.DataDir) {
				waitExit(t, pid, 10*time.Second, "the refusing host to exit")
			}
			if after := p.lastRequestTools(t, "after /tele"); !slices.Equal(after, tools) {
				t.Errorf("tools after the refusal %v, want %v", after, tools)
			}
			if errs := p.pi.ExtensionErrors(0); len(errs) > 0 {
				t.Errorf("extension errors: %v", errs)
			}
			return "/tele on Pi " + line.Version() + ": one notify (" + msg + "); no data directory, no host left, tools untouched"
		})
		if err := p.pi.Quit(); err != nil {
			t.Error(err)
		}
	})
}
