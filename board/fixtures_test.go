package board

import (
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// What the store tests share: a store in a temporary directory, contents, and looks at the files.

func openT(t *testing.T, dir string, opts Options) *Store {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = quiet
	}
	s, err := Open(dir, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func content(title string) Content {
	c := Example()
	c.Title = title
	return c
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// tempFiles lists leftover temporary files under dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && isTemp(d.Name()) {
			out = append(out, path)
		}
		return nil
	})
	return out
}

// revFile is the path of revision rev of board id in data directory dir.
func revFile(dir, id string, rev int64) string {
	return filepath.Join(dir, "boards", id, fmt.Sprintf("%d.json", rev))
}

// dirState is every file under dir but the lock file, with its mode and bytes, by relative path: what
// a refused or failed write must leave as it was.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
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
			files[rel+"/"] = info.Mode().String()
			return nil
		}
		files[rel] = info.Mode().String() + "\x00" + string(readFile(t, p))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func sameState(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	if !maps.Equal(before, after) {
		var diff []string
		for k := range before {
			if after[k] != before[k] {
				diff = append(diff, k)
			}
		}
		for k := range after {
			if _, ok := before[k]; !ok {
				diff = append(diff, k+" (new)")
			}
		}
		slices.Sort(diff)
		t.Fatalf("%s changed the data directory: %v", what, diff)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// quiet is a logger for tests that expect warnings.
var quiet = slog.New(slog.DiscardHandler)
