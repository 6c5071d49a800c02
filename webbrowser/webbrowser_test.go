package webbrowser

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

func TestCommand(t *testing.T) {
	system := map[string][]string{
		"darwin":  {"open"},
		"windows": {"rundll32", "url.dll,FileProtocolHandler"},
	}[runtime.GOOS]
	if system == nil {
		system = []string{"xdg-open"}
	}
	sep := string(os.PathListSeparator)
	cases := []struct {
		env  string
		want []string
	}{
		{"", system},
		{"   ", system},
		{"firefox", []string{"firefox"}},
		{"chromium --new-window", []string{"chromium", "--new-window"}},
		{"w3m %s" + sep + "lynx", []string{"w3m", "%s"}},
		{sep + "lynx", system}, // an empty first entry: the system's opener, as Python's webbrowser
	}
	for _, c := range cases {
		if got := Command(c.env); !slices.Equal(got, c.want) {
			t.Errorf("Command(%q) = %q, want %q", c.env, got, c.want)
		}
	}
}

func TestRemoveLeftovers(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"open-1.html", "open-2.html", "keep.txt"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := (Opener{Dir: dir}).RemoveLeftovers(); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(left) != 1 || filepath.Base(left[0]) != "keep.txt" {
		t.Fatalf("left: %q", left)
	}
}
