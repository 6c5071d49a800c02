package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCLIImportIsAllOrNone (issue 26, finding 4): the boards of a playlist are made all or none, without
// a server (Store.CreateAll) and through one (POST /api/import): a playlist whose second board cannot be
// made (its id would be longer than 64 characters, or is taken) leaves no board made, and the one line
// says why and what to do. Before, the first song's board was made and the import said "1 of 2".
func TestCLIImportIsAllOrNone(t *testing.T) {
	songs := "Blue Form=Tele=Swing=F=n=T44*A{F7 |Bb7 |F7 |F7 }" +
		"===Spell=Tele=Ballad=Bb=n=T44[Bb^7 |G-7 |C-9 F7 |Bb6 Z" +
		"===My Playlist"
	playlist := `<a href="irealbook://` + strings.ReplaceAll(songs, " ", "%20") + `">playlist</a>`
	long := strings.Repeat("x", 63)
	for _, tc := range []struct {
		name    string
		serve   bool
		id      string
		taken   string // a board made before the import
		wantErr string
		absent  []string
	}{
		{"id too long for the second song", false, long, "", `would be "` + long + `-2", longer than 64 characters: use an --id of at most 62 characters`, []string{long}},
		{"second id taken", false, "set", "set-2", `no board was imported: a board "set-2" already exists`, []string{"set"}},
		{"second title id taken", false, "", "blue-form-2", "", []string{"blue-form"}},
		{"second id taken, through the server", true, "set", "set-2", `no board was imported: a board "set-2" already exists`, []string{"set"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "data")
			file := filepath.Join(t.TempDir(), "playlist.html")
			if err := os.WriteFile(file, []byte(playlist), 0o600); err != nil {
				t.Fatal(err)
			}
			if tc.taken != "" {
				one := filepath.Join(t.TempDir(), "one.cho")
				os.WriteFile(one, []byte(importChart), 0o600)
				if r := runTele(t, cleanEnv(t), "board", "import", one, "--id", tc.taken, "--data", data); r.code != 0 {
					t.Fatalf("the board taken first: %d %q", r.code, r.stderr)
				}
			}
			var srv *serveProc
			if tc.serve {
				srv = startServe(t, freePort(t), data, false)
			}
			args := []string{"board", "import", file, "--data", data}
			if tc.id != "" {
				args = append(args, "--id", tc.id)
			}
			r := runTele(t, cleanEnv(t), args...)
			if srv != nil {
				srv.stop(t, syscall.SIGTERM)
			}
			if tc.wantErr == "" {
				// Without --id the boards are named after a title whose every id is free.
				if r.code != 0 || !strings.Contains(r.stdout, "/b/blue-form-3#") || !strings.Contains(r.stdout, "/b/blue-form-3-2#") {
					t.Fatalf("import: %d %q %q", r.code, r.stdout, r.stderr)
				}
				tc.absent = nil
			} else if r.code == 0 || r.stdout != "" || !strings.Contains(r.stderr, tc.wantErr) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Fatalf("import: %d, stdout %q, stderr %q; want a refusal saying %q in one line", r.code, r.stdout, r.stderr, tc.wantErr)
			}
			for _, id := range tc.absent {
				if _, err := os.Stat(filepath.Join(data, "caps", id)); !os.IsNotExist(err) {
					t.Errorf("board %q was made (%v)", id, err)
				}
			}
		})
	}
}
