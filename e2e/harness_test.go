package e2e

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"tele/cmd/tele/teletest"
	"testing"
	"time"
)

// builtTele builds cmd/tele once per test process; every test that needs the binary shares it.
var builtTele = teletest.NewBuilder("../cmd/tele")

func TestMain(m *testing.M) {
	code := m.Run()
	builtTele.Remove()
	if piPackageRoot != "" {
		os.RemoveAll(piPackageRoot)
	}
	os.Exit(code)
}

// teleBinary returns the path of the freshly built tele binary.
func teleBinary(t testing.TB) string {
	t.Helper()
	return builtTele.Binary(t)
}

// requireTool skips the test loudly when a tool is missing, or fails it when TELE_E2E_REQUIRED=1.
func requireTool(t testing.TB, what, path string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		return
	}
	if _, err := exec.LookPath(path); err == nil {
		return
	}
	msg := fmt.Sprintf("E2E SKIPPED: %s not found at %q; install it (see .ci/run)", what, path)
	if os.Getenv("TELE_E2E_REQUIRED") == "1" {
		t.Fatalf("%s; TELE_E2E_REQUIRED=1 makes this a failure", msg)
	}
	fmt.Fprintln(os.Stderr, "!!! "+msg)
	t.Skip(msg)
}

// Server is a running `tele serve`.
type Server struct {
	URL       string // http://127.0.0.1:<port>
	Port      int
	DataDir   string
	EditLink  string // the welcome board's edit link with its key (#cap=), as tele board link --show-key prints it
	ClaimLink string // the edit link printed on first start: a one-time code (#claim=), good once
	cmd       *exec.Cmd
}

var serveLine = regexp.MustCompile(`^tele: serving (http://127\.0\.0\.1:\d+)`)
var claimLinkRe = regexp.MustCompile(`http://127\.0\.0\.1:\d+/b/[A-Za-z0-9_-]+#claim=[A-Za-z0-9_-]+`)

// startServe starts `tele serve` on a free port with a fresh data directory and waits until it prints
// its serving line (an event, not a sleep). The process is stopped by t.Cleanup. args are more
// arguments of `tele serve` (--share …).
func startServe(t testing.TB, args ...string) *Server {
	t.Helper()
	return startServeIn(t, t.TempDir(), true, args...)
}

// startServeIn is startServe on data directory data; fresh says it is a first start, after which the
// welcome board's edit link follows the serving line.
func startServeIn(t testing.TB, data string, fresh bool, args ...string) *Server {
	t.Helper()
	bin := teleBinary(t)
	port := teletest.FreePort(t)
	cmd := exec.Command(bin, append([]string{"serve", "--port", fmt.Sprint(port), "--data", data}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &Server{Port: port, DataDir: data, cmd: cmd}
	t.Cleanup(func() { s.Stop(t) })

	ready := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		var sent bool
		for sc.Scan() {
			line := sc.Text()
			if m := serveLine.FindStringSubmatch(line); m != nil {
				s.URL = m[1]
			}
			if l := claimLinkRe.FindString(line); l != "" {
				s.ClaimLink = l
			}
			// A fresh data directory is a first start: the welcome board's edit link follows the serving line.
			if !sent && s.URL != "" && (s.ClaimLink != "" || !fresh) {
				sent = true
				ready <- nil
			}
		}
		if !sent {
			ready <- fmt.Errorf("tele serve exited before printing its serving line and edit link")
		}
	}()
	select {
	case err := <-ready:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("tele serve did not print its serving line within 30s")
	}
	if fresh {
		// Most tests open the welcome board for editing more than once: the link with its key.
		key, err := os.ReadFile(filepath.Join(data, "caps", "welcome"))
		if err != nil {
			t.Fatal(err)
		}
		s.EditLink = s.URL + "/b/welcome#cap=" + string(key)
	}
	return s
}

// Stop sends SIGTERM and waits for a graceful exit (status 0).
func (s *Server) Stop(t testing.TB) {
	if s.cmd == nil || s.cmd.Process == nil || s.cmd.ProcessState != nil {
		return
	}
	_ = s.cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("tele serve did not exit cleanly: %v", err)
		}
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
		t.Errorf("tele serve ignored SIGINT for 10s; killed")
	}
}

// ctxFor returns a context bounded by the test deadline (or 2 minutes).
func ctxFor(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}
