package e2e

// What tele host logged, for the Pi probes: the bridge names a wrapper script that execs the real binary
// with its stderr (the host's log) appended to a file. Same process, same arguments; only stderr moves.
// The probes read the file after the event the log line goes with (the host logs a settled note before
// the chat view changes), never by waiting on it.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

type hostLog struct {
	path    string // the log file
	wrapper string // the script the bridge names
	teleBin string // the binary it execs
}

func newHostLog(t testing.TB, teleBin string) *hostLog {
	t.Helper()
	dir := t.TempDir()
	l := &hostLog{path: filepath.Join(dir, "host.log"), wrapper: filepath.Join(dir, "tele-logged"), teleBin: teleBin}
	script := fmt.Sprintf("#!/bin/sh\nexec %q \"$@\" 2>>%q\n", teleBin, l.path)
	if err := os.WriteFile(l.wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return l
}

// bridge is the bridge source src with the binary's path replaced by the wrapper's.
func (l *hostLog) bridge(t testing.TB, src []byte) []byte {
	t.Helper()
	lit, _ := json.Marshal(l.teleBin)
	wlit, _ := json.Marshal(l.wrapper)
	if strings.Count(string(src), string(lit)) != 1 {
		t.Fatalf("the bridge does not name %s once", l.teleBin)
	}
	return []byte(strings.Replace(string(src), string(lit), string(wlit), 1))
}

func (l *hostLog) text() string {
	b, _ := os.ReadFile(l.path)
	return string(b)
}

var (
	helloLogRe   = regexp.MustCompile(`msg="host: hello" bridge=\S+ pi=(\S+) native=(\S*) imitated=(\S*) `)
	settledLogRe = regexp.MustCompile(`msg="host: settled" source=(\S+) idleChecks=(\d+)`)
)

type helloLine struct {
	pi               string
	native, imitated []string
}

// hello is the first hello line: the Pi version and the events the host told the bridge to take from Pi
// as they are (native) or to imitate.
func (l *hostLog) hello() (helloLine, bool) {
	m := helloLogRe.FindStringSubmatch(l.text())
	if m == nil {
		return helloLine{}, false
	}
	list := func(s string) []string {
		s = strings.Trim(s, `"`)
		if s == "" {
			return []string{}
		}
		return strings.Split(s, ",")
	}
	return helloLine{pi: m[1], native: list(m[2]), imitated: list(m[3])}, true
}

type settledLine struct {
	source     string // agent_settled or idle_check
	idleChecks int    // idle checks the bridge had started on that connection
}

// settled lists every settled the host was told, in order.
func (l *hostLog) settled() []settledLine {
	var out []settledLine
	for _, m := range settledLogRe.FindAllStringSubmatch(l.text(), -1) {
		n, _ := strconv.Atoi(m[2])
		out = append(out, settledLine{source: m[1], idleChecks: n})
	}
	return out
}

// checkSettled asserts where the settled lines came from: on a Pi with agent_settled every one came
// from it and the bridge never started an idle check; elsewhere every one came from an idle check.
func (l *hostLog) checkSettled(t testing.TB, line piLine) string {
	t.Helper()
	lines := l.settled()
	if len(lines) == 0 {
		t.Fatalf("tele host logged no settled:\n%s", tail(l.text(), 3000))
	}
	h, ok := l.hello()
	if !ok {
		t.Fatalf("tele host logged no hello:\n%s", tail(l.text(), 3000))
	}
	if h.pi != line.Version() {
		t.Errorf("tele host logged pi=%s, want %s", h.pi, line.Version())
	}
	want, polls := "idle_check", "at least one"
	if line.Has("agent_settled") {
		want, polls = "agent_settled", "none"
	}
	for i, s := range lines {
		if s.source != want || (want == "agent_settled") != (s.idleChecks == 0) {
			t.Errorf("settled %d of %d: source=%s idleChecks=%d; on %s want source=%s and %s idle checks",
				i+1, len(lines), s.source, s.idleChecks, line.Name(), want, polls)
		}
	}
	return fmt.Sprintf("%d settled, every one from %s (%s idle checks); native %q, imitated %q",
		len(lines), want, polls, h.native, h.imitated)
}
