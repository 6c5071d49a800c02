package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"tele/board"
	"tele/board/store"
	"tele/chordpro"
	"tele/ireal"
)

const importChart = `{title: Autumn Leaves}
{key: Em}
{tempo: 132}
{start_of_grid label="A"}
|: Am7 . . . | D7 . . . | Gmaj7 . . . | Cmaj7 . . . |
|  F#m7b5 . . . | B7 . . . |1 Em . . . | Em . . . :|
|2 Em . . . | Em . . . ||
{end_of_grid}
{start_of_grid label="B"}
|| F#m7b5 . . . | B7 . . . | Em . . . | Em . . . |.
{end_of_grid}
`

var linkRe = regexp.MustCompile(`^http://127\.0\.0\.1:(\d+)/b/([A-Za-z0-9_-]+)#cap=([A-Za-z0-9_-]{43})\n$`)

// TestCLIImportExport: `tele board import` makes a board from a ChordPro file without a server (the
// store, with its lock), prints its edit link and the notes; `tele board export` gives it back as
// ChordPro and as JSON; a second import of the same title gets the next id.
func TestCLIImportExport(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	file := filepath.Join(t.TempDir(), "autumn.cho")
	os.WriteFile(file, []byte(importChart), 0o600)
	env := cleanEnv(t)

	r := runTele(t, env, "board", "import", file, "--data", data, "--port", "4999")
	m := linkRe.FindStringSubmatch(r.stdout)
	if r.code != 0 || m == nil || m[1] != "4999" || m[2] != "autumn-leaves" {
		t.Fatalf("import: %d %q %q", r.code, r.stdout, r.stderr)
	}
	b, err := store.ReadBoard(data, "autumn-leaves")
	if err != nil || b.Content.Title != "Autumn Leaves" || !b.Content.Sections[0].Bars[0].RepeatStart || b.Content.Sections[0].Bars[6].Ending != 1 {
		t.Fatalf("stored %+v, %v", b.Content, err)
	}
	if cap, _ := store.ReadCapability(data, "autumn-leaves"); cap != m[3] {
		t.Fatal("the printed link does not carry the board's capability")
	}

	r = runTele(t, env, "board", "export", "autumn-leaves", "--data", data)
	if r.code != 0 || r.stdout != string(chordpro.Write(b.Content)) {
		t.Fatalf("export: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = runTele(t, env, "board", "export", "autumn-leaves", "--format", "json", "--data", data)
	if c, err := board.ParseContent([]byte(r.stdout)); r.code != 0 || err != nil || !reflect.DeepEqual(c, b.Content) {
		t.Fatalf("export json: %d %v %q", r.code, err, r.stderr)
	}
	// As an iReal Pro link: what the link cannot hold is said (the board has no description to lose, but
	// its sections' labels are words); the link imports back as a board.
	r = runTele(t, env, "board", "export", "autumn-leaves", "--format", "ireal", "--data", data)
	if r.code != 0 || r.stdout != string(ireal.Write(b.Content))+"\n" {
		t.Fatalf("export ireal: %d %q %q", r.code, r.stdout, r.stderr)
	}
	for _, l := range ireal.Lost(b.Content) {
		if !strings.Contains(r.stderr, "cannot hold "+l) {
			t.Errorf("export ireal: stderr %q lacks %q", r.stderr, l)
		}
	}
	// The JSON imports as a board too; the title's id is taken, so the next one is used.
	jsonFile := filepath.Join(t.TempDir(), "board.json")
	os.WriteFile(jsonFile, []byte(r.stdout), 0o600)
	r = runTele(t, env, "board", "import", jsonFile, "--data", data)
	if m := linkRe.FindStringSubmatch(r.stdout); r.code != 0 || m == nil || m[2] != "autumn-leaves-2" {
		t.Fatalf("second import: %d %q %q", r.code, r.stdout, r.stderr)
	}

	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"board", "export", "nope", "--data", data}, 1, `no board "nope"`},
		{[]string{"board", "export", "autumn-leaves", "--format", "pdf", "--data", data}, 2, `bad --format "pdf"`},
		{[]string{"board", "import", file, "--id", "autumn-leaves", "--data", data}, 1, `a board "autumn-leaves" already exists`},
		{[]string{"board", "import", file, "--id", "bad id", "--data", data}, 1, `bad --id "bad id"`},
		{[]string{"board", "import", filepath.Join(t.TempDir(), "missing.cho"), "--data", data}, 1, "cannot read"},
	} {
		r := runTele(t, env, tt.args...)
		assertOneLine(t, r, tt.code, tt.want)
	}
	lyrics := filepath.Join(t.TempDir(), "song.cho")
	os.WriteFile(lyrics, []byte("{title: Song}\n{key: C}\n"), 0o600)
	r = runTele(t, env, "board", "import", lyrics, "--data", data)
	assertOneLine(t, r, 1, "no ChordPro grid")
}

// TestCLIImportThroughServer: with a server owning the data directory, import creates the board
// through it (the lock is never gone around) and the page sees it at once; the printed edit link
// carries a one-time code of that server, which opens the board's key (issue 26, finding 6).
func TestCLIImportThroughServer(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	port := freePort(t)
	srv := startServe(t, port, data, true)
	file := filepath.Join(t.TempDir(), "autumn.cho")
	os.WriteFile(file, []byte(importChart), 0o600)

	r := runTele(t, cleanEnv(t), "board", "import", file, "--id", "leaves", "--data", data)
	m := regexp.MustCompile(`^http://127\.0\.0\.1:(\d+)/b/([A-Za-z0-9_-]+)#claim=([A-Za-z0-9_-]{43})\n$`).FindStringSubmatch(r.stdout)
	if r.code != 0 || m == nil || m[2] != "leaves" {
		t.Fatalf("import: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if key, _ := os.ReadFile(filepath.Join(data, "caps", "leaves")); capOf(t, r.stdout) != string(key) {
		t.Fatal("the printed link does not open the board's key")
	}
	resp, err := http.Get("http://127.0.0.1:" + m[1] + "/api/boards/leaves")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"repeatStart":true`) {
		t.Fatalf("GET: %d %s", resp.StatusCode, body)
	}
	r = runTele(t, cleanEnv(t), "board", "export", "leaves", "--data", data)
	if r.code != 0 || !strings.Contains(r.stdout, "|1 Em") {
		t.Fatalf("export while serving: %d %q %q", r.code, r.stdout, r.stderr)
	}
	if code := srv.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("serve exited %d", code)
	}
}

// TestCLIImportIRealPlaylist: a file holding an iReal Pro playlist makes one board per song, prints an
// edit link after each song's title, lists what it changed, and says how many songs came in.
func TestCLIImportIRealPlaylist(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	file := filepath.Join(t.TempDir(), "playlist.html")
	songs := "Blue Form=Tele=Swing=F=n=T44*A{F7 |Bb7 |F7 |F7 |Bb7 |Bo7 |F7 |D7 |G-7 |C7 |N1F7 D7 |G-7 C7 }N2F7 Bb7 |F7 Z" +
		"===Spell=Tele=Ballad=Bb=n=T44[Bb^7b9 |G-7 |C-9 F7 |Bb6 Z" +
		"===Broken=Tele=Ballad=C=n=T44x |D Z" +
		"===My Playlist"
	os.WriteFile(file, []byte(`<a href="irealbook://`+strings.ReplaceAll(songs, " ", "%20")+`">playlist</a>`), 0o600)
	r := runTele(t, cleanEnv(t), "board", "import", file, "--data", data)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(lines) != 2 || !strings.HasPrefix(lines[0], "Blue Form: http://127.0.0.1:") || !strings.HasPrefix(lines[1], "Spell: ") {
		t.Fatalf("import: %d %q %q", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"tele: Spell: note: Bb^7b9 became Bbmaj7", "tele: Broken: not imported:", "tele: imported 2 of 3 songs"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q lacks %q", r.stderr, want)
		}
	}
	b, err := store.ReadBoard(data, "blue-form")
	if err != nil || b.Content.Sections[0].Bars[11].RepeatEnd != 2 || b.Content.Sections[0].Bars[12].Ending != 2 {
		t.Fatalf("blue-form: %+v %v", b.Content, err)
	}
}

// TestCLIImportCheck: `tele board import --check` prints what each chart of a playlist would become,
// with every note and the charts that cannot be imported, and writes nothing (no data directory is made).
func TestCLIImportCheck(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	file := filepath.Join(t.TempDir(), "playlist.html")
	songs := "Blue Form=Tele=Swing=F=n=T44*A{F7 |Bb7 |F7 |F7 |Bb7 |Bo7 |F7 |D7 |G-7 |C7 |N1F7 D7 |G-7 C7 }N2F7 Bb7 |F7 Z" +
		"===Spell=Tele=Ballad=Bb=n=T44[Bb^7b9 |G-7 |C-9 F7 |Bb6 Z" +
		"===Broken=Tele=Ballad=C=n=T44x |D Z" +
		"===My Playlist"
	os.WriteFile(file, []byte(`<a href="irealbook://`+strings.ReplaceAll(songs, " ", "%20")+`">playlist</a>`), 0o600)
	r := runTele(t, cleanEnv(t), "board", "import", "--check", file, "--data", data)
	want := "Blue Form: a board of 1 section, 14 bars, playing 24 bars\n" +
		"Spell: a board of 1 section, 4 bars\n" +
		"  note: Bb^7b9 became Bbmaj7, the nearest chord in Tele's catalogue\n" +
		"Broken: cannot be imported: \"Broken\" does not make a board Tele can play: invalid content: sections[0].bars[0].chords: the first bar cannot be % (\"as the bar before\"): there is no bar before it\n" +
		"2 of 3 charts would be imported; nothing was written\n"
	if r.code != 0 || r.stdout != want || r.stderr != "" {
		t.Fatalf("check: %d\n%s\nwant\n%s\nstderr %q", r.code, r.stdout, want, r.stderr)
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Fatalf("the data directory was made: %v", err)
	}
	os.WriteFile(file, []byte("irealbook://Broken=Tele=Ballad=C=n=T44x%20|D%20Z"), 0o600)
	if r := runTele(t, cleanEnv(t), "board", "import", file, "--check", "--data", data); r.code == 0 || !strings.Contains(r.stderr, "no chart of") {
		t.Fatalf("check of a file with nothing to import: %d %q %q", r.code, r.stdout, r.stderr)
	}
}
