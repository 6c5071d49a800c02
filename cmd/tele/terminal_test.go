package main

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"tele/board/store"
)

// Escape sequences a chart can carry (issue 26, finding 5): an OSC 8 hyperlink that makes the printed
// edit link open elsewhere, a window title, and line erasers that hide or rewrite earlier output.
const (
	osc8        = "\x1b]8;;http://evil.example/\x1b\\CLICK\x1b]8;;\x1b\\"
	windowTitle = "\x1b]0;owned\x07"
	eraseLine   = "\x1b[2K\x1b[1A"
	c1CSI       = "\u009b2K"
	rtlOverride = "\u202e"
)

// terminalActs reports the first rune of s a terminal would act on instead of showing, if any.
func terminalActs(s string) (rune, bool) {
	for _, r := range s {
		if r == '\n' || r == '\t' {
			continue
		}
		if unicode.IsControl(r) || r == '\u202e' || r == '\u2066' || r == '\u200f' {
			return r, true
		}
	}
	return 0, false
}

func TestPrintable(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Autumn Leaves", "Autumn Leaves"},
		{"秋叶 — Les feuilles mortes", "秋叶 — Les feuilles mortes"},
		{"a\nb\r\nc", "a b c"},
		{windowTitle + "x", `\u{1b}]0;owned\u{7}x`},
		{"x" + eraseLine, `x\u{1b}[2K\u{1b}[1A`},
		{c1CSI, `\u{9b}2K`},
		{"abc" + rtlOverride + "fdp.exe", `abc\u{202e}fdp.exe`},
		{"\u2067isolate\u2069", `\u{2067}isolate\u{2069}`},
		{"bad \x9b byte", "bad \uFFFD byte"},
		{"tab\there", `tab\u{9}here`},
	}
	for _, tt := range tests {
		if got := printable(tt.in); got != tt.want {
			t.Errorf("printable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestCLIPrintsBoardTextSafely: `tele board import`, `export` (ChordPro, JSON, iReal Pro) and `history`
// print nothing a terminal would act on, whatever the chart's title, labels and cells hold, and the
// edit link stays whole on its line. The ChordPro export still reads back to the same title. Before,
// import printed the OSC 8 link and the window title before the edit link, and export the raw title.
func TestCLIPrintsBoardTextSafely(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	dir := t.TempDir()
	env := cleanEnv(t)
	title := "Evil " + osc8 + windowTitle + rtlOverride + " Tune"
	cho := filepath.Join(dir, "evil.cho")
	os.WriteFile(cho, []byte("{title: "+title+"}\n{key: C}\n{start_of_grid label=\"A"+eraseLine+"\"}\n| C . . . | G"+eraseLine+" . . . |.\n{end_of_grid}\n"), 0o600)
	playlist := filepath.Join(dir, "evil.txt")
	song := func(name string) string {
		return url.PathEscape(name) + "=Tele=Swing=F=n=T44[F7%20|Bb7%20Z"
	}
	os.WriteFile(playlist, []byte("irealbook://"+song("One "+osc8)+"==="+song("Two"+windowTitle+eraseLine)+"==="+song("Three")+"===List"), 0o600)

	check := func(what string, r result) {
		t.Helper()
		for name, out := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
			if c, bad := terminalActs(out); bad {
				t.Errorf("%s: %s carries %U: %q", what, name, c, out)
			}
		}
	}
	r := runTele(t, env, "board", "import", cho, "--data", data, "--id", "evil", "--port", "4999")
	check("import ChordPro", r)
	if r.code != 0 || !linkRe.MatchString(r.stdout) {
		t.Fatalf("import: %d %q %q", r.code, r.stdout, r.stderr)
	}
	b, err := store.ReadBoard(data, "evil")
	if err != nil {
		t.Fatal(err)
	}
	r = runTele(t, env, "board", "import", playlist, "--data", data, "--port", "4999")
	check("import playlist", r)
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		if _, link, ok := strings.Cut(line, ": http://"); !ok || !linkRe.MatchString("http://"+link+"\n") {
			t.Errorf("playlist line %q does not end in a whole edit link", line)
		}
	}
	for _, format := range []string{"chordpro", "json", "ireal"} {
		r = runTele(t, env, "board", "export", "evil", "--format", format, "--data", data)
		check("export "+format, r)
		if r.code != 0 {
			t.Fatalf("export %s: %d %q", format, r.code, r.stderr)
		}
		if format == "chordpro" {
			back := filepath.Join(dir, "back.cho")
			os.WriteFile(back, []byte(r.stdout), 0o600)
			r = runTele(t, env, "board", "import", back, "--data", data, "--id", "back", "--port", "4999")
			check("import the export", r)
			if got, err := store.ReadBoard(data, "back"); err != nil || got.Content.Title != b.Content.Title {
				t.Errorf("the exported title reads back as %q (%v), want %q", got.Content.Title, err, b.Content.Title)
			}
		}
	}
	r = runTele(t, env, "board", "history", "evil", "--data", data)
	check("history", r)
	if r.code != 0 || !strings.Contains(r.stdout, `\u{1b}]0;owned\u{7}`) {
		t.Fatalf("history: %d %q %q", r.code, r.stdout, r.stderr)
	}
}

func TestErrorLine(t *testing.T) {
	if got, want := errorLine("cannot read\nline 2: "+windowTitle), `cannot read; line 2: \u{1b}]0;owned\u{7}`; got != want {
		t.Errorf("errorLine = %q, want %q", got, want)
	}
}

// TestCLIBoardCheckPrintsSafely: `tele board check` prints what is set aside through the same function:
// a set-aside folder's name and its note's reason cannot reach the terminal raw.
func TestCLIBoardCheckPrintsSafely(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	folder := filepath.Join(data, store.QuarantineDir, "x"+windowTitle)
	if err := os.MkdirAll(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	note := `{"board":"song","what":"board","reason":"bad title \u001b]8;;http://evil.example/\u001b\\CLICK","at":"2026-12-03T17:00:00Z"}`
	if err := os.WriteFile(filepath.Join(folder, "note.json"), []byte(note), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runTele(t, cleanEnv(t), "board", "check", "--data", data)
	if c, bad := terminalActs(r.stdout + r.stderr); bad || r.code != 0 || !strings.Contains(r.stdout, `x\u{1b}]0;owned\u{7}`) {
		t.Fatalf("board check: %d, %U (%v) in %q %q", r.code, c, bad, r.stdout, r.stderr)
	}
}
