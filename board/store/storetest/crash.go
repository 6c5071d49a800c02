package storetest

import (
	"bufio"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// KillChild is one run of a crash test (the store's, the sets'): it runs this test binary again as a
// child with env=dir in its environment, whose TestMain then runs the workload on dir, prints "ready",
// and prints one line for each write it acknowledges. KillChild waits for ready and for a random
// number (under maxAcks) of those lines, so the child is inside its write loop whatever the machine's
// load, then kills it with SIGKILL after a random moment under maxDelay (a random kill point, not a
// wait), and gives ack every line the child printed after ready, in order. It returns what the child
// wrote to stderr. It fails t when the child says anything but ready first, is silent for 20 s, or
// ends by itself.
func KillChild(t testing.TB, run int, env, dir string, rng *rand.Rand, maxAcks int, maxDelay time.Duration, ack func(line string)) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), env+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		io.Copy(io.Discard, stdout)
		close(lines)
	}()
	next := func(what string) string {
		select {
		case l, ok := <-lines:
			if !ok {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("run %d: child ended while waiting for %s; stderr: %s", run, what, stderr.String())
			}
			return l
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("run %d: no %s within 20s; stderr: %s", run, what, stderr.String())
		}
		return ""
	}
	if l := next("ready"); l != "ready" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("run %d: child said %q; stderr: %s", run, l, stderr.String())
	}
	for range rng.IntN(maxAcks) {
		ack(next("an acknowledged write"))
	}
	time.Sleep(time.Duration(rng.Int64N(int64(maxDelay)))) // a random kill point, not a wait
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for l := range lines {
		ack(l)
	}
	err = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("run %d: child ended with %v (not by our SIGKILL); stderr: %s", run, err, stderr.String())
	}
	return stderr.String()
}

// Kills is how many runs a crash test makes: TELE_CRASH_KILLS when set, else def. It skips the test
// under -short, since every run re-executes the test binary.
func Kills(t testing.TB, def int) int {
	t.Helper()
	if testing.Short() {
		t.Skip("the crash test re-executes the test binary many times")
	}
	v := os.Getenv("TELE_CRASH_KILLS")
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("TELE_CRASH_KILLS=%q: want a number of runs, like 500", v)
	}
	return n
}
