package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"tele/cmd/tele/teletest"
	"tele/server/servertest"
)

// These tests run the real binary, built once per test process.

// -buildvcs=true, as `make build`: stamp the revision whatever GOFLAGS say.
var builtBinary = teletest.NewBuilder(".", "-buildvcs=true")

func TestMain(m *testing.M) {
	code := m.Run()
	builtBinary.Remove()
	os.Exit(code)
}

func teleBin(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	return builtBinary.Binary(t)
}

// cleanEnv is the test process's environment without TELE_* and with HOME set to a fresh directory.
func cleanEnv(t *testing.T, extra ...string) []string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TELE_") || strings.HasPrefix(kv, "HOME=") {
			continue
		}
		env = append(env, kv)
	}
	return append(append(env, "HOME="+t.TempDir()), extra...)
}

type result struct {
	code           int
	stdout, stderr string
}

// runTele runs the binary to completion (bounded by a timeout).
func runTele(t *testing.T, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(teleBin(t), args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("tele %q did not finish", args)
	}
	return result{cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()}
}

func freePort(t *testing.T) int { return teletest.FreePort(t) }

// serveProc is a running `tele serve`.
type serveProc struct {
	cmd      *exec.Cmd
	lines    chan string // stdout lines
	stderr   *servertest.LogBuffer
	done     chan struct{}
	waitErr  error
	editLink string
}

var servingRe = regexp.MustCompile(`^tele: serving http://127\.0\.0\.1:(\d+) \(data (.+)\)$`)

// startServe starts `tele serve` and waits for its serving line (and, with wantLink, the edit link line).
func startServe(t *testing.T, port int, data string, wantLink bool) *serveProc {
	t.Helper()
	cmd := exec.Command(teleBin(t), "serve", "--port", fmt.Sprint(port), "--data", data)
	cmd.Env = cleanEnv(t)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &serveProc{cmd: cmd, lines: make(chan string, 16), stderr: &servertest.LogBuffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-p.done
		}
	})

	line := p.next(t)
	m := servingRe.FindStringSubmatch(line)
	if m == nil || m[1] != fmt.Sprint(port) || m[2] != data {
		t.Fatalf("first line %q, want the serving line for port %d and data %s", line, port, data)
	}
	if wantLink {
		line := p.next(t)
		const prefix = "tele: edit the example board: "
		if !strings.HasPrefix(line, prefix) {
			t.Fatalf("second line %q, want the edit link", line)
		}
		p.editLink = strings.TrimPrefix(line, prefix)
	}
	return p
}

func (p *serveProc) next(t *testing.T) string {
	t.Helper()
	select {
	case line, ok := <-p.lines:
		if !ok {
			<-p.done
			t.Fatalf("tele serve exited (%v); stderr:\n%s", p.waitErr, p.stderr)
		}
		return line
	case <-time.After(30 * time.Second):
		t.Fatalf("tele serve printed nothing within 30s; stderr:\n%s", p.stderr)
	}
	return ""
}

// stop sends sig and waits for the process to exit, returning its exit status.
func (p *serveProc) stop(t *testing.T, sig os.Signal) int {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("tele serve ignored %v for 30s", sig)
	}
	return p.cmd.ProcessState.ExitCode()
}

// assertOneLine checks a refusal: the exit status, one line on stderr containing every want, no stdout.
func assertOneLine(t *testing.T, r result, code int, want ...string) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit status %d, want %d (stderr %q)", r.code, code, r.stderr)
	}
	if strings.Count(r.stderr, "\n") != 1 || !strings.HasSuffix(r.stderr, "\n") || !strings.HasPrefix(r.stderr, "tele: ") {
		t.Errorf("stderr %q, want one line starting with \"tele: \"", r.stderr)
	}
	for _, w := range want {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr %q lacks %q", r.stderr, w)
		}
	}
	if r.stdout != "" {
		t.Errorf("stdout %q, want nothing", r.stdout)
	}
}

func TestCLIBadPort(t *testing.T) {
	for _, tt := range []struct {
		args []string
		env  []string
		want string
	}{
		{[]string{"serve", "--port", "70000"}, nil, `tele: bad port "70000" (from --port): use a number from 1 to 65535` + "\n"},
		{[]string{"serve", "--port=0"}, nil, `tele: bad port "0" (from --port): port 0 is for tele host only; use a number from 1 to 65535` + "\n"},
		{[]string{"serve"}, []string{"TELE_PORT=abc"}, `tele: bad port "abc" (from TELE_PORT): use a number from 1 to 65535` + "\n"},
		{[]string{"board", "link", "welcome", "--port", "-1"}, nil, `tele: bad port "-1" (from --port): use a number from 1 to 65535` + "\n"},
	} {
		env := cleanEnv(t, tt.env...)
		r := runTele(t, env, tt.args...)
		assertOneLine(t, r, 2)
		if r.stderr != tt.want {
			t.Errorf("%q: stderr %q, want %q", tt.args, r.stderr, tt.want)
		}
		home := strings.TrimPrefix(env[slicesIndexPrefix(env, "HOME=")], "HOME=")
		if entries, _ := os.ReadDir(home); len(entries) != 0 {
			t.Errorf("%q: HOME holds %v after a refusal", tt.args, entries)
		}
	}
}

func slicesIndexPrefix(s []string, prefix string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if strings.HasPrefix(s[i], prefix) {
			return i
		}
	}
	return -1
}

func TestCLIBadDataDir(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "not-a-dir")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, data := range []string{file, "/etc/passwd/x", filepath.Join(file, "sub", "dir")} {
		r := runTele(t, cleanEnv(t), "serve", "--port", fmt.Sprint(freePort(t)), "--data", data)
		assertOneLine(t, r, 2, `bad data directory "`+data+`" (from --data)`, "not a directory")
		r = runTele(t, cleanEnv(t, "TELE_DATA="+data), "serve", "--port", fmt.Sprint(freePort(t)))
		assertOneLine(t, r, 2, `bad data directory "`+data+`" (from TELE_DATA)`)
	}
	entries, _ := os.ReadDir(base)
	if len(entries) != 1 {
		t.Errorf("the directory holds %v after refusals, want only the file", entries)
	}
	if b, _ := os.ReadFile(file); string(b) != "x" {
		t.Errorf("the file was changed")
	}
}

func TestCLIPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	data := filepath.Join(t.TempDir(), "data")
	r := runTele(t, cleanEnv(t), "serve", "--port", fmt.Sprint(port), "--data", data)
	assertOneLine(t, r, 1, fmt.Sprintf("port %d is in use", port), "--port")
	if _, err := os.Stat(data); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("data directory created after a refusal: %v", err)
	}
}

// The whole life of a data directory: first start prints the edit link, board link agrees with it,
// a second owner is refused, SIGTERM exits 0 and releases the lock, and the next start prints no link.
func TestCLIServeLifecycle(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	port := freePort(t)
	first := startServe(t, port, data, true)
	// The start line's link carries a one-time code (issue 26, finding 6), which the server trades once
	// for the key on disk.
	claimPrefix := fmt.Sprintf("http://127.0.0.1:%d/b/welcome#claim=", port)
	if !strings.HasPrefix(first.editLink, claimPrefix) || !regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`).MatchString(strings.TrimPrefix(first.editLink, claimPrefix)) {
		t.Fatalf("edit link %q, want prefix %q and a code of 32 bytes of base64url", first.editLink, claimPrefix)
	}
	onDisk, err := os.ReadFile(filepath.Join(data, "caps", "welcome"))
	if err != nil {
		t.Fatal(err)
	}
	capability := strings.TrimSpace(string(onDisk))
	if got := capOf(t, first.editLink); got != capability {
		t.Fatalf("the start line's code opens %q, caps/welcome holds %q", got, capability)
	}
	keyLink := fmt.Sprintf("http://127.0.0.1:%d/b/welcome#cap=%s\n", port, capability)
	if fi, err := os.Stat(data); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("data directory: %v, mode %v, want 0700", err, fi.Mode().Perm())
	}

	t.Run("board-link", func(t *testing.T) {
		// While the server runs: a fresh one-time code of that server, good once.
		r := runTele(t, cleanEnv(t), "board", "link", "welcome", "--port", fmt.Sprint(port), "--data", data)
		if r.code != 0 || !strings.HasPrefix(r.stdout, claimPrefix) || r.stdout == first.editLink+"\n" || r.stderr != "" {
			t.Fatalf("board link: %+v, want a new link with prefix %q", r, claimPrefix)
		}
		if capOf(t, r.stdout) != capability {
			t.Fatal("the printed link does not open the board's key")
		}
		// --show-key prints the key itself, for scripts.
		r = runTele(t, cleanEnv(t), "board", "link", "welcome", "--show-key", "--port", fmt.Sprint(port), "--data", data)
		if r.code != 0 || r.stdout != keyLink || r.stderr != "" {
			t.Fatalf("board link --show-key: %+v, want %q", r, keyLink)
		}
		// TELE_DATA works too.
		r = runTele(t, cleanEnv(t, "TELE_DATA="+data), "board", "link", "welcome", "--port", fmt.Sprint(port))
		if r.code != 0 || capOf(t, r.stdout) != capability {
			t.Fatalf("board link via env: %+v", r)
		}
	})

	// Issue 11 finding 9: the link names the port of the server that runs, not the default 4317 or
	// another port given, which would not work.
	t.Run("board-link-names-the-running-port", func(t *testing.T) {
		for _, env := range [][]string{cleanEnv(t, "TELE_DATA="+data), cleanEnv(t, "TELE_DATA="+data, "TELE_PORT=5555")} {
			r := runTele(t, env, "board", "link", "welcome", "--show-key")
			if r.code != 0 || r.stdout != keyLink || r.stderr != "" {
				t.Fatalf("board link while the server runs on %d: %+v, want %q", port, r, keyLink)
			}
			r = runTele(t, env, "board", "link", "welcome")
			if r.code != 0 || !strings.HasPrefix(r.stdout, claimPrefix) || r.stderr != "" {
				t.Fatalf("board link while the server runs on %d: %+v, want prefix %q", port, r, claimPrefix)
			}
		}
	})

	t.Run("board-link-refusals", func(t *testing.T) {
		r := runTele(t, cleanEnv(t), "board", "link", "nosuch", "--data", data)
		assertOneLine(t, r, 1, `no board "nosuch"`, data)
		r = runTele(t, cleanEnv(t), "board", "link", "../etc", "--data", data)
		assertOneLine(t, r, 1, `bad board id "../etc"`)
	})

	// board history reads the revision files while the server owns the directory: the example by tele,
	// then a write over HTTP by the browser, newest first.
	t.Run("board-history", func(t *testing.T) {
		r := runTele(t, cleanEnv(t), "board", "history", "welcome", "--data", data)
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("board history: %+v", r)
		}
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		if len(lines) != 2 || !regexp.MustCompile(`^REVISION +AUTHOR +TIME \(UTC\) +TITLE$`).MatchString(lines[0]) ||
			!regexp.MustCompile(`^1 +tele +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +Welcome to Tele$`).MatchString(lines[1]) {
			t.Fatalf("board history printed:\n%s", r.stdout)
		}
		content := `{"title":"Edited\nover HTTP","description":"","tempo":100,"beatsPerBar":4,"sections":[{"label":"A","bars":[["C"],["G7"]]}]}`
		req, _ := http.NewRequest("PUT", fmt.Sprintf("http://127.0.0.1:%d/api/boards/welcome", port), strings.NewReader(content))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+capability)
		req.Header.Set("If-Match", `"1"`)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("PUT: %d", res.StatusCode)
		}
		r = runTele(t, cleanEnv(t, "TELE_DATA="+data), "board", "history", "welcome")
		lines = strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		if r.code != 0 || len(lines) != 3 || !regexp.MustCompile(`^2 +browser +\S+ \S+ +Edited over HTTP$`).MatchString(lines[1]) ||
			!strings.HasPrefix(lines[2], "1 ") {
			t.Fatalf("board history after a PUT:\n%s", r.stdout)
		}
		r = runTele(t, cleanEnv(t), "board", "history", "welcome", "--limit", "1", "--data", data)
		if lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n"); r.code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[1], "2 ") {
			t.Fatalf("--limit 1:\n%s", r.stdout)
		}
		r = runTele(t, cleanEnv(t), "board", "history", "nosuch", "--data", data)
		assertOneLine(t, r, 1, `no board "nosuch"`, data)
		r = runTele(t, cleanEnv(t), "board", "history", "../etc", "--data", data)
		assertOneLine(t, r, 1, `bad board id "../etc"`)
		r = runTele(t, cleanEnv(t), "board", "history", "welcome", "--data", filepath.Join(data, "missing"))
		assertOneLine(t, r, 1, `no board "welcome"`, filepath.Join(data, "missing"))
	})

	t.Run("second-owner", func(t *testing.T) {
		r := runTele(t, cleanEnv(t), "serve", "--port", fmt.Sprint(freePort(t)), "--data", data)
		assertOneLine(t, r, 1, data, fmt.Sprintf("pid %d", first.cmd.Process.Pid), fmt.Sprintf("port %d", port))
	})

	if code := first.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("SIGTERM: exit status %d, want 0; stderr:\n%s", code, first.stderr)
	}
	// With no server running, the link names the port given, where the next server will run.
	r := runTele(t, cleanEnv(t, "TELE_DATA="+data, "TELE_PORT=5555"), "board", "link", "welcome")
	if r.code != 0 || r.stdout != "http://127.0.0.1:5555/b/welcome#cap="+capability+"\n" {
		t.Fatalf("board link with no server running: %+v", r)
	}
	// The lock is released: a new server takes the same directory; the example exists, so no link.
	second := startServe(t, freePort(t), data, false)
	if code := second.stop(t, os.Interrupt); code != 0 {
		t.Fatalf("SIGINT: exit status %d, want 0; stderr:\n%s", code, second.stderr)
	}
	for line := range second.lines {
		t.Errorf("second start printed %q after the serving line, want nothing (not a first start)", line)
	}
}
