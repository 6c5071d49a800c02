package store

import (
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"tele/atomicfile"
	"tele/board"
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

func content(title string) board.Content {
	c := board.Example()
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
		if err == nil && atomicfile.IsTemp(d.Name()) {
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
