package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"tele/board"
	"tele/board/store"
	"tele/chordpro"
	"tele/ireal"
)

// TestCLISet: a set made through a running `tele serve` (POST /api/sets) is listed, shown and exported
// by `tele set` while the server runs, as a ChordPro songbook and as an iReal Pro playlist that reads
// back song by song; every bad command line is one line naming the fix.
func TestCLISet(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	port := freePort(t)
	srv := startServe(t, port, data, true)
	env := cleanEnv(t)
	file := filepath.Join(t.TempDir(), "autumn.cho")
	os.WriteFile(file, []byte(importChart), 0o600)
	if r := runTele(t, env, "board", "import", file, "--id", "leaves", "--data", data, "--port", strconv.Itoa(port)); r.code != 0 {
		t.Fatalf("import: %d %q", r.code, r.stderr)
	}
	resp, err := http.Post("http://127.0.0.1:"+strconv.Itoa(port)+"/api/sets", "application/json",
		strings.NewReader(`{"id":"friday","title":"Friday\u0007 gig","boards":["leaves","welcome","leaves"]}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var made struct{ Capability string }
	if resp.StatusCode != 422 {
		t.Fatalf("a title with a control character: %d %s", resp.StatusCode, body)
	}
	resp, err = http.Post("http://127.0.0.1:"+strconv.Itoa(port)+"/api/sets", "application/json",
		strings.NewReader(`{"id":"friday","title":"Friday gig","boards":["leaves","welcome","leaves"]}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 201 || json.Unmarshal(body, &made) != nil || made.Capability == "" {
		t.Fatalf("create a set: %d %s", resp.StatusCode, body)
	}

	r := runTele(t, env, "set", "list", "--data", data)
	if r.code != 0 || r.stdout != "SET     SONGS  TITLE\nfriday  3      Friday gig\n" || strings.Contains(r.stdout, made.Capability) {
		t.Fatalf("set list: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = runTele(t, env, "set", "show", "friday", "--data", data)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "Friday gig\n1  leaves   Autumn Leaves\n2  welcome  ") || !strings.Contains(r.stdout, "3  leaves   Autumn Leaves\n") {
		t.Fatalf("set show: %d %q %q", r.code, r.stdout, r.stderr)
	}
	leaves, _ := store.ReadBoard(data, "leaves")
	welcome, _ := store.ReadBoard(data, "welcome")
	r = runTele(t, env, "set", "export", "friday", "--data", data)
	if want := chordpro.WriteSongbook([]board.Content{leaves.Content, welcome.Content, leaves.Content}); r.code != 0 || r.stdout != string(want) {
		t.Fatalf("set export: %d %q %q", r.code, r.stdout, r.stderr)
	}
	// The songbook imports back as its three songs, each the board it was.
	book, other := filepath.Join(t.TempDir(), "friday.cho"), filepath.Join(t.TempDir(), "data")
	os.WriteFile(book, []byte(r.stdout), 0o600)
	r = runTele(t, env, "board", "import", book, "--data", other)
	links := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.code != 0 || len(links) != 3 {
		t.Fatalf("import the songbook: %d %q %q", r.code, r.stdout, r.stderr)
	}
	for i, want := range []board.Content{leaves.Content, welcome.Content, leaves.Content} {
		_, link, _ := strings.Cut(links[i], "/b/")
		id, _, _ := strings.Cut(link, "#")
		if b, err := store.ReadBoard(other, id); err != nil || !reflect.DeepEqual(b.Content, want) {
			t.Errorf("song %d (%s): %v\n%+v\nwant %+v", i+1, id, err, b.Content, want)
		}
	}
	r = runTele(t, env, "set", "export", "friday", "--format", "ireal", "--data", data)
	songs, err := ireal.Parse([]byte(r.stdout))
	if r.code != 0 || err != nil || len(songs) != 3 || songs[0].Content.Title != "Autumn Leaves" || songs[1].Content.Title != welcome.Content.Title {
		t.Fatalf("set export --format ireal: %d %q %q (%v)", r.code, r.stdout, r.stderr, err)
	}

	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"set"}, 2, "use tele set list, show <set> or export <set>"},
		{[]string{"set", "play", "friday"}, 2, `unknown set command "play"`},
		{[]string{"set", "show"}, 2, "set show needs a set id"},
		{[]string{"set", "show", "a", "b"}, 2, "takes one set id"},
		{[]string{"set", "show", "a.b"}, 1, `bad set id "a.b"`},
		{[]string{"set", "show", "nope"}, 1, `no set "nope" in ` + data},
		{[]string{"set", "export", "friday", "--format", "pdf"}, 2, `bad --format "pdf"`},
		{[]string{"set", "list", "extra"}, 2, `unexpected argument "extra"`},
	} {
		r := runTele(t, env, append(tt.args, "--data", data)...)
		assertOneLine(t, r, tt.code, tt.want)
	}
	if code := srv.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("serve exited %d", code)
	}
	// Without a server, a set that names a deleted board still shows, and its export names the board.
	if r := runTele(t, env, "board", "delete", "welcome", "--yes", "--data", data); r.code != 0 {
		t.Fatalf("board delete: %d %q", r.code, r.stderr)
	}
	r = runTele(t, env, "set", "show", "friday", "--data", data)
	if r.code != 0 || !strings.Contains(r.stdout, "2  welcome  (no such board: deleted since)") {
		t.Fatalf("set show with a deleted board: %d %q %q", r.code, r.stdout, r.stderr)
	}
	assertOneLine(t, runTele(t, env, "set", "export", "friday", "--data", data), 1, `names board "welcome"`)
}
