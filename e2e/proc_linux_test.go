package e2e

// Processes the probes did not start themselves (tele host is Pi's child): found in /proc, awaited
// through a pidfd, which becomes readable when the process exits. Linux only, like the Pi probes.

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// waitExit blocks until pid has exited (every descriptor it held, its listening port too, is closed
// then) or fails the test after timeout.
func waitExit(t testing.TB, pid int, timeout time.Duration, what string) {
	t.Helper()
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return // gone and reaped already
	}
	if err != nil {
		t.Fatalf("pidfd_open %d: %v", pid, err)
	}
	defer unix.Close(fd)
	deadline := time.Now().Add(timeout)
	for {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(time.Until(deadline).Milliseconds())+1)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			t.Fatalf("poll on the pidfd of %d: %v", pid, err)
		case n == 0:
			t.Fatalf("timed out after %v waiting for %s (pid %d)", timeout, what, pid)
		}
		return
	}
}

// childrenOf lists the live (not zombie) children of pid whose argv[0] is exe.
func childrenOf(pid int, exe string) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ppid, state, ok := procStat(child)
		if !ok || ppid != pid || state == "Z" {
			continue
		}
		argv := procCmdline(child)
		if len(argv) > 0 && argv[0] == exe {
			out = append(out, child)
		}
	}
	return out
}

// processesMentioning lists live processes with an argument containing s.
func processesMentioning(s string) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		if _, state, ok := procStat(pid); !ok || state == "Z" {
			continue
		}
		for _, a := range procCmdline(pid) {
			if strings.Contains(a, s) {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

func procStat(pid int) (ppid int, state string, ok bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, "", false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, "", false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0, "", false
	}
	ppid, _ = strconv.Atoi(f[1])
	return ppid, f[0], true
}

func procCmdline(pid int) []string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}
