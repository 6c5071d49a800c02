package e2e

// The real-Pi probe: the pinned Pi in RPC mode, the bridge printed or installed by the built tele binary,
// `tele host` started by the bridge, and the fake model. Every probe runs isolated (temporary HOME,
// agent dir and data dir, port 0), stops every process it started, and writes a secret-free report to
// .audit/chat/probe.json. Its steps live beside this file, one file per idea: probe_board_test.go (the
// tool and the board), probe_chat_test.go (the browser side) and probe_revoke_test.go (ending a binding).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// probeSteps are the probe's checks, in order; each one starts from where the one before left off.
var probeSteps = []struct {
	name string
	run  func(p *probe, t *testing.T) string
}{
	{"commands-and-flags", (*probe).commandsAndFlags},
	{"busy-refused", (*probe).busyRefused},
	{"connect", (*probe).connectStep},
	{"tool-gate-and-round-trip", (*probe).toolGateAndRoundTrip},
	{"blocked-tool", (*probe).blockedTool},
	{"conflict-is-a-tool-error", (*probe).conflictIsAToolError},
	{"catalogue-and-new-quality", (*probe).catalogueAndNewQuality},
	{"lyric-line-chord", (*probe).lyricLineChord},
	{"form-with-endings", (*probe).formWithEndings},
	{"pair", (*probe).pairStep},
	{"browser-send", (*probe).browserSend},
	{"browser-abort", (*probe).browserAbort},
	{"model-failure", (*probe).modelFailure},
	{"terminal-prompt", (*probe).terminalPrompt},
	{"settled-source", (*probe).settledSource},
	{"late-input-and-off", (*probe).lateInputAndOff},
	{"reconnect-old-cookie", (*probe).reconnectOldCookie},
	{"late-input-second-line", (*probe).lateInputSecondLine},
	{"session-replacement-revokes", (*probe).sessionReplacementRevokes},
	{"host-death", (*probe).hostDeath},
	{"bad-board-fatal", (*probe).badBoardFatal},
	{"quit-revokes", (*probe).quitRevokes},
}

// runPiProbe starts Pi with start and runs every probe step on it.
func runPiProbe(t *testing.T, line piLine, mode string, start func(p *probe) *Pi) {
	p := newProbe(t, line, mode)
	defer p.finish()
	p.fm.Script(p.model)
	p.pi = start(p)
	p.firstSession = p.pi.SessionFile()
	t.Cleanup(p.releaseHold)
	for _, s := range probeSteps {
		if s.name == "late-input-second-line" && !p.secondLine {
			continue
		}
		p.step(s.name, func(t *testing.T) string { return s.run(p, t) })
	}
	if !p.pi.Exited() {
		p.pi.Quit()
	}
	if errs := p.pi.ExtensionErrors(0); len(errs) > 0 {
		t.Errorf("extension errors: %v", errs)
	}
}

// TestPiProbeExtensionFlag: the bridge from `tele pi print`, loaded with -e, on each Pi line.
func TestPiProbeExtensionFlag(t *testing.T) {
	forEachPi(t, func(t *testing.T, line piLine) {
		requirePi(t, line)
		runPiProbe(t, line, "extension-flag", func(p *probe) *Pi {
			home := t.TempDir()
			bridge := filepath.Join(home, "bridge", "tele.js")
			p.writeBridge(bridge, teleCmd(t, home, []string{"HOME=" + home}, "pi", "print"))
			// The probe extension loads first, so its input hook runs before the bridge's; the second one after.
			after := filepath.Join(home, "probe-after.js")
			if err := os.WriteFile(after, []byte(probeAfterExtension), 0o644); err != nil {
				t.Fatal(err)
			}
			p.secondLine = true
			return StartPi(t, p.fm, PiOptions{Line: line, Home: home, Extensions: []string{writeProbeExtension(t, home), bridge, after}})
		})
	})
}

// TestPiProbeProjectInstall: the bridge installed by `tele pi install --project` and discovered by Pi in
// the project's .pi/extensions, on each Pi line (Pi 1.x loads it only in a trusted project: --approve).
func TestPiProbeProjectInstall(t *testing.T) {
	forEachPi(t, func(t *testing.T, line piLine) {
		requirePi(t, line)
		runPiProbe(t, line, "project-install", func(p *probe) *Pi {
			home := t.TempDir()
			project := filepath.Join(home, "project")
			if err := os.MkdirAll(project, 0o700); err != nil {
				t.Fatal(err)
			}
			out := teleCmd(t, project, []string{"HOME=" + home}, "pi", "install", "--project")
			want := filepath.Join(project, ".pi", "extensions", "tele.js")
			if strings.TrimSpace(string(out)) != want {
				t.Fatalf("tele pi install --project printed %q, want %q", out, want)
			}
			p.logInstalledBridge(want)
			// What the install's hint says: untrusted, Pi 1.x skips the project's extensions in RPC mode
			// (it cannot ask); 0.73.1 has no trust and loads them.
			// (Without the bridge loaded, Pi 1.x refuses the --tele-* flags and exits: none are given here.)
			untrusted := StartPi(t, p.fm, PiOptions{Line: line, Home: home, Cwd: project, NoTeleArgs: true})
			if n, want := teleCommands(untrusted), map[bool]int{true: 0, false: 1}[line.Approve != ""]; n != want {
				t.Fatalf("%s in an untrusted project: %d /tele commands, want %d", line.Name(), n, want)
			}
			if err := untrusted.Quit(); err != nil {
				t.Fatal(err)
			}
			return StartPi(t, p.fm, PiOptions{Line: line, Home: home, Cwd: project, Trust: true, Extensions: []string{writeProbeExtension(t, home)}})
		})
	})
}
