package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// putStatus sends a board write over revision rev to the server on port with capability and returns
// the status.
func putStatus(t *testing.T, port int, id, capability string, rev int) int {
	t.Helper()
	body := `{"title":"Rotated","description":"","tempo":100,"beatsPerBar":4,"sections":[{"label":"A","bars":[["C"]]}]}`
	req, _ := http.NewRequest("PUT", fmt.Sprintf("http://127.0.0.1:%d/api/boards/%s", port, id), strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+capability)
	req.Header.Set("If-Match", fmt.Sprintf(`"%d"`, rev))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// capOf is the key an edit link opens: the one it carries (#cap=), or the one its one-time code
// (#claim=) is traded for at the server it names, as the page does.
func capOf(t *testing.T, link string) string {
	t.Helper()
	link = strings.TrimSpace(link)
	if _, c, ok := strings.Cut(link, "#cap="); ok && len(c) == 43 {
		return c
	}
	page, code, ok := strings.Cut(link, "#claim=")
	base, id, _ := strings.Cut(page, "/b/")
	if !ok || len(code) != 43 {
		t.Fatalf("not an edit link: %q", link)
	}
	req, _ := http.NewRequest("POST", base+"/api/boards/"+id+"/claim", strings.NewReader(`{"claim":"`+code+`"}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var answer struct{ Capability string }
	if json.NewDecoder(res.Body).Decode(&answer); res.StatusCode != 200 || len(answer.Capability) != 43 {
		t.Fatalf("claiming %q: %s", link, res.Status)
	}
	return answer.Capability
}

// TestCLIBoardLinkNew (issue 11, finding 2): `tele board link <id> --new` makes a new capability. While
// a server owns the data directory it goes through that server (which then refuses the old key and
// accepts the new one at once, without a restart); with no server it rotates in the store under the
// lock. Either way the printed link holds the key now on disk.
func TestCLIBoardLinkNew(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	port := freePort(t)
	srv := startServe(t, port, data, true)
	old := capOf(t, srv.editLink)

	// Through the running server, whatever port the command itself was given.
	r := runTele(t, cleanEnv(t), "board", "link", "welcome", "--new", "--data", data, "--port", "4317")
	if r.code != 0 || r.stderr != "" || !strings.HasPrefix(r.stdout, fmt.Sprintf("http://127.0.0.1:%d/b/welcome#claim=", port)) {
		t.Fatalf("board link --new with a server: %+v", r)
	}
	fresh := capOf(t, r.stdout)
	if fresh == old {
		t.Fatal("--new printed the old key")
	}
	if onDisk, _ := os.ReadFile(filepath.Join(data, "caps", "welcome")); string(onDisk) != fresh {
		t.Fatal("the key on disk is not the printed one")
	}
	if code := putStatus(t, port, "welcome", old, 1); code != 403 {
		t.Fatalf("the server took the old key: %d", code)
	}
	if code := putStatus(t, port, "welcome", fresh, 1); code != 200 {
		t.Fatalf("the server refused the new key: %d", code)
	}
	// A plain board link prints the new key too.
	if r := runTele(t, cleanEnv(t), "board", "link", "welcome", "--data", data, "--port", fmt.Sprint(port)); capOf(t, r.stdout) != fresh {
		t.Fatalf("board link after --new: %+v", r)
	}
	r = runTele(t, cleanEnv(t), "board", "link", "nosuch", "--new", "--data", data)
	assertOneLine(t, r, 1, `no board "nosuch"`)

	if code := srv.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("SIGTERM: %d", code)
	}

	// No server: in the store, under the lock.
	r = runTele(t, cleanEnv(t), "board", "link", "welcome", "--new", "--data", data, "--port", "5555")
	if r.code != 0 || r.stderr != "" || !strings.HasPrefix(r.stdout, "http://127.0.0.1:5555/b/welcome#cap=") {
		t.Fatalf("board link --new without a server: %+v", r)
	}
	offline := capOf(t, r.stdout)
	if offline == fresh {
		t.Fatal("--new without a server printed the old key")
	}
	if onDisk, _ := os.ReadFile(filepath.Join(data, "caps", "welcome")); string(onDisk) != offline {
		t.Fatal("the key on disk is not the printed one")
	}
	if fi, err := os.Stat(filepath.Join(data, "caps", "welcome")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("capability file: %v %v", fi, err)
	}
	// The next server takes the new key and refuses the one before.
	port2 := freePort(t)
	startServe(t, port2, data, false)
	if code := putStatus(t, port2, "welcome", fresh, 2); code != 403 {
		t.Fatalf("the restarted server took the replaced key: %d", code)
	}
	if code := putStatus(t, port2, "welcome", offline, 2); code != 200 {
		t.Fatalf("the restarted server refused the new key: %d", code)
	}
}
