package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"tele/board"
	"tele/board/store"
)

// TestCLIStartSetsAsideAnUnreadableBoard: a data directory holding one board that cannot be read (the
// 70,782-byte content of the security review's M1, 2026-12-03, and a damaged revision file) still
// starts: tele serve says so in one line on stderr and serves the other boards; tele board history and
// export work on them; tele board check lists each thing set aside, one a line, with why. Before, every
// start and every tele board command refused the whole directory.
func TestCLIStartSetsAsideAnUnreadableBoard(t *testing.T) {
	teleBin(t)
	data := t.TempDir()
	st, err := store.Open(data, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"welcome", "bloat2", "torn"} {
		if _, _, err := st.Create(id, board.Example(), store.AuthorTele); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	// What the store wrote for the review's create: aliases in the catalogue's spelling, over the limit.
	bar := `{"chords":["C#m(maj7)/G#","C#m(maj7)/G#","C#m(maj7)/G#","C#m(maj7)/G#"],"beats":12,"repeatStart":true,"repeatEnd":2}`
	section := `{"label":"` + strings.Repeat(`\u003c`, 40) + `","bars":[` + strings.Repeat(bar+",", 15) + bar + `]}`
	big := `{"id":"bloat2","revision":1,"content":{"title":"` + strings.Repeat(`\u003c`, 120) + `","description":"` + strings.Repeat(`\u003c`, 2000) +
		`","tempo":100,"beatsPerBar":4,"sections":[` + strings.Repeat(section+",", 31) + section + `]},"updatedAt":"2026-12-03T10:00:00.000Z","author":"browser","restoredFrom":null}` + "\n"
	os.WriteFile(filepath.Join(data, "boards", "bloat2", "1.json"), []byte(big), 0o600)
	os.WriteFile(filepath.Join(data, "boards", "torn", "1.json"), []byte(`{"id":"torn","rev`), 0o600)

	p := startServe(t, freePort(t), data, false)
	if code := p.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("tele serve exited %d; stderr:\n%s", code, p.stderr)
	}
	if n := strings.Count(p.stderr.String(), "set aside"); n != 1 || !strings.Contains(p.stderr.String(), "bloat2") || !strings.Contains(p.stderr.String(), "torn") {
		t.Errorf("stderr of the start, want one line naming both boards set aside:\n%s", p.stderr)
	}
	if r := runTele(t, cleanEnv(t), "board", "history", "welcome", "--data", data); r.code != 0 {
		t.Errorf("board history of a good board: %d %s", r.code, r.stderr)
	}
	if r := runTele(t, cleanEnv(t), "board", "export", "welcome", "--data", data); r.code != 0 {
		t.Errorf("board export of a good board: %d %s", r.code, r.stderr)
	}
	r := runTele(t, cleanEnv(t), "board", "check", "--data", data)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if r.code != 0 || r.stderr != "" || len(lines) != 2 {
		t.Fatalf("board check: %d, stdout %q, stderr %q; want two lines", r.code, r.stdout, r.stderr)
	}
	for _, want := range [][]string{{"board bloat2", "65,536 bytes", filepath.Join(data, "quarantine")}, {"board torn", "damaged"}} {
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, want[0]+":") {
				found = true
				for _, w := range want[1:] {
					if !strings.Contains(l, w) {
						t.Errorf("board check line %q lacks %q", l, w)
					}
				}
			}
		}
		if !found {
			t.Errorf("board check does not list %s: %q", want[0], r.stdout)
		}
	}
	if r := runTele(t, cleanEnv(t), "board", "check", "--data", t.TempDir()); r.code != 0 || !strings.Contains(r.stdout, "nothing is set aside") {
		t.Errorf("board check of a clean directory: %d %q %q", r.code, r.stdout, r.stderr)
	}
}
