package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// entries lists dir's names, failing the test when a temporary file is among them.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		if IsTemp(de.Name()) {
			t.Fatalf("a temporary file stayed behind: %s", de.Name())
		}
		names = append(names, de.Name())
	}
	return names
}

func wantFile(t *testing.T, path, data string, perm fs.FileMode) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil || string(got) != data {
		t.Fatalf("%s holds %q (%v), want %q", path, got, err, data)
	}
	if fi, _ := os.Stat(path); runtime.GOOS != "windows" && fi.Mode().Perm() != perm {
		t.Fatalf("%s has mode %v, want %v", path, fi.Mode().Perm(), perm)
	}
}

func TestReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "key")
	for _, tc := range []struct {
		data string
		perm fs.FileMode
	}{{"first", 0o600}, {"second, longer than the first", 0o644}, {"", 0o600}} {
		if err := Replace(path, []byte(tc.data), tc.perm); err != nil {
			t.Fatalf("Replace(%q) = %v", tc.data, err)
		}
		wantFile(t, path, tc.data, tc.perm)
		if names := entries(t, dir); len(names) != 1 {
			t.Fatalf("the directory holds %v", names)
		}
	}
}

// TestReplaceFailsCleanly: a rename that cannot happen (the target is a directory with a file in it)
// leaves the target and the directory as they were.
func TestReplaceFailsCleanly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "taken")
	if err := os.MkdirAll(filepath.Join(path, "inside"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := Replace(path, []byte("x"), 0o600); err == nil {
		t.Fatal("Replace over a directory with a file in it succeeded")
	}
	if errors.As(Replace(path, []byte("x"), 0o600), new(*NotDurableError)) {
		t.Fatal("a failed rename is reported as not durable, as if the target held the new bytes")
	}
	if names := entries(t, dir); len(names) != 1 || names[0] != "taken" {
		t.Fatalf("the directory holds %v", names)
	}
	if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
		t.Fatalf("the target changed: %v %v", fi, err)
	}
}

func TestCreate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "1.json")
	if err := Create(path, []byte("one\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	wantFile(t, path, "one\n", 0o600)
	// A second revision of the same number is refused and the first stays as it was.
	if err := Create(path, []byte("other\n"), 0o600); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("Create over an existing file = %v, want fs.ErrExist", err)
	}
	wantFile(t, path, "one\n", 0o600)
	if names := entries(t, dir); len(names) != 1 {
		t.Fatalf("the directory holds %v", names)
	}
}

func TestWriteInMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "f")
	for name, write := range map[string]func(string, []byte, fs.FileMode) error{"Replace": Replace, "Create": Create} {
		if err := write(path, []byte("x"), 0o600); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s in a missing directory = %v, want fs.ErrNotExist", name, err)
		}
	}
}

func TestIsTemp(t *testing.T) {
	for name, want := range map[string]bool{
		".1.json.tmp-123456": true, ".key.tmp-9": true,
		"1.json": false, "key": false, ".hidden": false, "a.tmp-1": false,
	} {
		if IsTemp(name) != want {
			t.Errorf("IsTemp(%q) = %v, want %v", name, !want, want)
		}
	}
}
