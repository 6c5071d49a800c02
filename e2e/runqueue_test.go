package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The Long Tasks API reports a task's wall time, which counts the time its thread was ready to run
// but waited for a core. Linux keeps both for every thread: /proc/<pid>/task/<tid>/schedstat holds its
// time on a core and its time waiting in a run queue, in ns. A renderer's main thread has its process's
// id. Other systems have no such files, and the benchmark reports nothing of it there.

// threadTimes is a thread's time on a core and its time ready to run without one.
type threadTimes struct{ run, wait time.Duration }

// rendererMainThreads reads the main thread of every Chromium renderer process running now, by pid.
func rendererMainThreads() map[int]threadTimes {
	threads := map[int]threadTimes{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range dirs {
		cmdline, err := os.ReadFile(filepath.Join(dir, "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte("--type=renderer")) {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(dir))
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(dir, "task", filepath.Base(dir), "schedstat"))
		if err != nil {
			continue
		}
		fields := strings.Fields(string(stat))
		if len(fields) < 2 {
			continue
		}
		run, err1 := strconv.ParseInt(fields[0], 10, 64)
		wait, err2 := strconv.ParseInt(fields[1], 10, 64)
		if err1 == nil && err2 == nil {
			threads[pid] = threadTimes{time.Duration(run), time.Duration(wait)}
		}
	}
	return threads
}

// pageThreadBetween is what the page's main thread did between two readings: the renderer main thread
// that ran the most in between is the page's (the benchmark's browser has one tab at work). ok is false
// where there is nothing to read.
func pageThreadBetween(before, after map[int]threadTimes) (busiest threadTimes, ok bool) {
	for pid, a := range after {
		b := before[pid] // zero for a renderer started in between
		d := threadTimes{a.run - b.run, a.wait - b.wait}
		if !ok || d.run > busiest.run {
			busiest, ok = d, true
		}
	}
	return busiest, ok
}
