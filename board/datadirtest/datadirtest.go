// Package datadirtest is for tests only: it takes a snapshot of a data directory, so that a test can
// prove a refused or failed write left every file and directory as it was. It imports nothing of
// Tele's, so that the board package's own tests can use it as well as the HTTP tests.
package datadirtest

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Snapshot returns everything under dir but the lock file (whose content is its owner's pid), by
// relative path: a directory as "path/" with its mode, a file with its mode and bytes.
func Snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	state := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == ".lock" {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			state[filepath.ToSlash(rel)+"/"] = info.Mode().String()
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		state[filepath.ToSlash(rel)] = info.Mode().String() + "\x00" + string(b)
		return nil
	})
	if err != nil {
		t.Fatalf("snapshot of %s: %v", dir, err)
	}
	return state
}

// Same fails the test when two snapshots differ, naming what changed, was added or went missing.
func Same(t testing.TB, what string, before, after map[string]string) {
	t.Helper()
	if maps.Equal(before, after) {
		return
	}
	var diff []string
	for k, v := range before {
		switch w, ok := after[k]; {
		case !ok:
			diff = append(diff, k+" (gone)")
		case w != v:
			diff = append(diff, k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			diff = append(diff, k+" (new)")
		}
	}
	slices.Sort(diff)
	t.Errorf("%s changed the data directory: %v", what, diff)
}
