package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// probe is one run of probe steps against one Pi: the state the steps share.
type probe struct {
	t       *testing.T
	line    piLine
	mode    string
	fm      *FakeModel
	pi      *Pi
	teleBin string   // the binary as the bridge names it (symlinks resolved)
	hostLog *hostLog // where tele host logs, when the bridge names it through the logging wrapper
	start   time.Time
	run     probeRun
	secrets []string
	stopped bool // a step failed: the rest are skipped
	// secondLine: probeAfterExtension is loaded after the bridge
	secondLine   bool
	c            *teleConn // the current connection (connect sets it)
	firstSession string    // the session file Pi started with

	mu          sync.Mutex
	hold        chan struct{} // replies of PROBE_SLOW / PROBE_BROWSER wait on it
	boardRead   gjson.Result  // the content the model read in the edit step
	defaultTool []string      // the tool set before /tele
	catalogue   gjson.Result  // what the model read with the catalogue action
}

// newProbe starts the fake model and finds the built binary; the caller starts Pi.
func newProbe(t *testing.T, line piLine, mode string) *probe {
	t.Helper()
	real, err := filepath.EvalSymlinks(teleBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	return &probe{t: t, line: line, mode: mode, start: time.Now(), teleBin: real, fm: StartFakeModel(t)}
}

// step runs one check as a subtest and records it; after a failure the later steps are skipped.
func (p *probe) step(name string, fn func(t *testing.T) string) {
	if p.stopped {
		p.run.Checks = append(p.run.Checks, probeCheck{Name: name, Detail: "not run: an earlier step failed"})
		return
	}
	began := time.Now()
	var detail string
	ok := p.t.Run(name, func(t *testing.T) { detail = fn(t) })
	p.run.Checks = append(p.run.Checks, probeCheck{Name: name, OK: ok, Ms: time.Since(began).Milliseconds(), Detail: detail})
	if !ok {
		p.stopped = true
	}
}

func (p *probe) secret(s ...string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.secrets = append(p.secrets, s...)
}

func (p *probe) newHold() chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hold = make(chan struct{})
	return p.hold
}

func (p *probe) currentHold() chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hold
}

// releaseHold lets a held reply finish (a step that failed while holding one).
func (p *probe) releaseHold() {
	if h := p.currentHold(); h != nil {
		select {
		case <-h:
		default:
			close(h)
		}
	}
}

// writeBridge writes the bridge source to path, naming the logging wrapper instead of the binary, so the
// probe can read what tele host logged.
func (p *probe) writeBridge(path string, src []byte) {
	p.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		p.t.Fatal(err)
	}
	if p.hostLog == nil {
		p.hostLog = newHostLog(p.t, p.teleBin)
	}
	if err := os.WriteFile(path, p.hostLog.bridge(p.t, src), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// startWithBridge starts Pi of line for the probe with the Tele bridge as its extension (tele as
// `pi print` writes it, HOME a fresh directory) and Pi's arguments args.
func (p *probe) startWithBridge(t *testing.T, line piLine, args ...string) {
	t.Helper()
	home := t.TempDir()
	bridge := filepath.Join(home, "bridge", "tele.js")
	p.writeBridge(bridge, teleCmd(t, home, []string{"HOME=" + home}, "pi", "print"))
	p.pi = StartPi(t, p.fm, PiOptions{Line: line, Home: home, Extensions: []string{bridge}, Args: args})
}

// logInstalledBridge points a bridge `tele pi install` wrote at the logging wrapper (only the binary's
// path changes; where Pi finds the file is what the install probes check).
func (p *probe) logInstalledBridge(path string) {
	p.t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		p.t.Fatal(err)
	}
	p.writeBridge(path, src)
}

// teleCmd runs the built tele binary with a clean environment and returns its stdout.
func teleCmd(t *testing.T, dir string, env []string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(teleBinary(t), args...)
	cmd.Dir = dir
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tele %v: %v\n%s", args, err, stderr.String())
	}
	return out
}

// writeProbeExtension writes the test extension into dir and returns its path.
func writeProbeExtension(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "probe-ext.js")
	if err := os.WriteFile(path, []byte(probeExtension), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// ---- the report ----

type probeCheck struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Ms     int64  `json:"ms"`
	Detail string `json:"detail,omitempty"`
}

type probeRun struct {
	Mode string `json:"mode"`
	Pi   string `json:"pi"`   // package@version
	Node string `json:"node"` // node --version of the Node that ran it
	// What tele host logged (null when the run's bridge does not name the logging wrapper): the Pi
	// events the bridge took as they are and the ones it imitated, and where each settled came from.
	Native   []string       `json:"native"`
	Imitated []string       `json:"imitated"`
	Settled  *settledReport `json:"settled"`
	OK       bool           `json:"ok"`
	Seconds  float64        `json:"seconds"`
	Checks   []probeCheck   `json:"checks"`
}

// settledReport sums up the host's settled lines: how many came from each source, and the most idle
// checks (idle-polling timers) the bridge had started on one connection.
type settledReport struct {
	Sources    map[string]int `json:"sources"`
	IdleChecks int            `json:"idleChecks"`
}

var reportMu sync.Mutex

func (p *probe) finish() {
	p.run.Mode = p.mode
	p.run.Pi = p.line.Package + "@" + p.line.Version()
	p.run.Node = p.line.NodeVersion()
	if p.hostLog != nil {
		if h, ok := p.hostLog.hello(); ok {
			p.run.Native, p.run.Imitated = nonNil(h.native), nonNil(h.imitated)
		}
		if s := p.hostLog.settled(); len(s) > 0 {
			p.run.Settled = &settledReport{Sources: map[string]int{}}
			for _, l := range s {
				p.run.Settled.Sources[l.source]++
				p.run.Settled.IdleChecks = max(p.run.Settled.IdleChecks, l.idleChecks)
			}
		}
	}
	p.run.Seconds = time.Since(p.start).Round(time.Millisecond).Seconds()
	if p.run.Checks == nil {
		p.run.Checks = []probeCheck{}
	}
	p.run.OK = !p.t.Failed()
	for _, c := range p.run.Checks {
		p.run.OK = p.run.OK && c.OK
	}
	writeProbeReport(p.t, p.line.Name()+"/"+p.mode, p.run, p.secrets)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// writeProbeReport merges run into ../.audit/chat/probe.json, refusing to write anything that contains
// one of the secrets seen during the run.
func writeProbeReport(t *testing.T, name string, run probeRun, secrets []string) {
	t.Helper()
	reportMu.Lock()
	defer reportMu.Unlock()
	path := filepath.Join("..", ".audit", "chat", "probe.json")
	doc := struct {
		UpdatedAt string              `json:"updatedAt"`
		Runs      map[string]probeRun `json:"runs"`
	}{Runs: map[string]probeRun{}}
	if b, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(b, &doc)
		if doc.Runs == nil {
			doc.Runs = map[string]probeRun{}
		}
	}
	for k := range doc.Runs {
		if !strings.Contains(k, "/") {
			delete(doc.Runs, k) // a run from before the report was kept per Pi line
		}
	}
	doc.UpdatedAt = time.Now().UTC().Format(time.RFC3339)
	doc.Runs[name] = run
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range secrets {
		if s != "" && bytes.Contains(b, []byte(s)) {
			t.Fatalf("the probe report would contain a secret; not written")
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
}
