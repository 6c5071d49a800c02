//go:build !linux

package e2e

import (
	"testing"
	"time"
)

// The Pi probes find and await tele host through /proc and a pidfd: Linux only.

func waitExit(t testing.TB, pid int, _ time.Duration, what string) {
	t.Helper()
	t.Fatalf("waiting for %s (pid %d) needs Linux (pidfd)", what, pid)
}

func childrenOf(int, string) []int     { return nil }
func processesMentioning(string) []int { return nil }
