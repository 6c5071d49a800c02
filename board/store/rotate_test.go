package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestRotate (issue 11, finding 2): a new key, durable and 0600 on disk, at once the only one that
// works; the old one is refused; it survives a reopen; unknown boards and closed stores are refused.
func TestRotate(t *testing.T) {
	dir := t.TempDir()
	s := openT(t, dir, Options{})
	_, old, err := s.Create("a", content("One"), AuthorBrowser)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := s.Rotate("a")
	if err != nil {
		t.Fatal(err)
	}
	if fresh == old || len(fresh) != len(old) {
		t.Fatalf("Rotate gave %d characters, equal to the old key: %v", len(fresh), fresh == old)
	}
	if err := s.Authorize("a", old); !errors.Is(err, ErrBadCapability) {
		t.Fatalf("the old key after rotation: %v", err)
	}
	if err := s.Authorize("a", fresh); err != nil {
		t.Fatalf("the new key: %v", err)
	}
	if got, _ := s.Capability("a"); got != fresh {
		t.Fatal("Capability does not return the new key")
	}
	path := filepath.Join(dir, "caps", "a")
	if got := readFile(t, path); string(got) != fresh {
		t.Fatal("the capability file does not hold the new key")
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("capability file mode: %v %v", fi, err)
	}
	if got, err := ReadCapability(dir, "a"); err != nil || got != fresh {
		t.Fatalf("ReadCapability = %v", err)
	}
	if b, _ := s.Get("a"); b.Revision != 1 {
		t.Fatalf("a rotation changed the board: revision %d", b.Revision)
	}
	if _, err := s.Rotate("nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Rotate of an unknown board: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Rotate("a"); !errors.Is(err, ErrClosed) {
		t.Fatalf("Rotate on a closed store: %v", err)
	}
	s2 := openT(t, dir, Options{})
	if err := s2.Authorize("a", fresh); err != nil {
		t.Fatalf("the new key after reopening: %v", err)
	}
	if err := s2.Authorize("a", old); !errors.Is(err, ErrBadCapability) {
		t.Fatalf("the old key after reopening: %v", err)
	}
}
