package server_test

import (
	"encoding/hex"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// listening returns the TCP sockets this process listens on, as <ip>:<port>, from the kernel's own
// tables (/proc/net/tcp and tcp6, matched to this process's descriptors by inode): what a port scan of
// this machine would find, not what the code believes it opened.
func listening(t *testing.T) []string {
	t.Helper()
	inodes := map[string]bool{}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, fd := range fds {
		l, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if ino, ok := strings.CutPrefix(l, "socket:["); err == nil && ok {
			inodes[strings.TrimSuffix(ino, "]")] = true
		}
	}
	var out []string
	for _, table := range []string{"/proc/self/net/tcp", "/proc/self/net/tcp6"} {
		data, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 10 || f[3] != "0A" || !inodes[f[9]] { // 0A: LISTEN
				continue
			}
			host, port, _ := strings.Cut(f[1], ":")
			raw, _ := hex.DecodeString(host)
			for i := 0; i+4 <= len(raw); i += 4 { // each 32-bit word is in host (little-endian) order
				raw[i], raw[i+1], raw[i+2], raw[i+3] = raw[i+3], raw[i+2], raw[i+1], raw[i]
			}
			ip, _ := netip.AddrFromSlice(raw)
			p, _ := strconv.ParseUint(port, 16, 16)
			out = append(out, netip.AddrPortFrom(ip.Unmap(), uint16(p)).String())
		}
	}
	slices.Sort(out)
	return out
}

// TestOnlyLoopbackListensWithoutShare: without --share the server listens on 127.0.0.1 and nowhere
// else; with it, on 127.0.0.1 and the share address only.
func TestOnlyLoopbackListensWithoutShare(t *testing.T) {
	before := listening(t)
	s := startShared(t, false)
	got := slices.DeleteFunc(listening(t), func(a string) bool { return slices.Contains(before, a) })
	if want := []string{s.loop}; !slices.Equal(got, want) {
		t.Fatalf("without --share the process listens on %v more, want %v", got, want)
	}
	before = listening(t)
	sh := startShared(t, true)
	got = slices.DeleteFunc(listening(t), func(a string) bool { return slices.Contains(before, a) })
	want := []string{sh.loop, sh.share}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("with --share the process listens on %v more, want %v", got, want)
	}
}
