package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"tele/board"
	"tele/board/store"
)

// TestCLIBoardDelete: `tele board delete <id> --yes` deletes a board and its history. While a server owns
// the data directory it goes through that server (which then answers 404 for the board); with no
// server it deletes in the store under the lock. Without --yes, or for a board that does not exist, it
// is one line naming the fix, and nothing changes.
func TestCLIBoardDelete(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	port := freePort(t)
	srv := startServe(t, port, data, true)

	r := runTele(t, cleanEnv(t), "board", "delete", "welcome", "--data", data)
	assertOneLine(t, r, 2, "cannot be undone", "tele board delete welcome --yes")
	assertOneLine(t, runTele(t, cleanEnv(t), "board", "delete", "nosuch", "--yes", "--data", data), 1, `no board "nosuch"`)
	assertOneLine(t, runTele(t, cleanEnv(t), "board", "delete", "bad id", "--yes", "--data", data), 1, `bad board id "bad id"`)
	assertOneLine(t, runTele(t, cleanEnv(t), "board", "delete", "--yes", "--data", data), 2, "needs a board id")
	if res, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/api/boards/welcome", port)); err != nil || res.StatusCode != 200 {
		t.Fatalf("after refused deletions: %v %v", res.StatusCode, err)
	} else {
		res.Body.Close()
	}

	// Through the running server, whatever port the command itself was given.
	r = runTele(t, cleanEnv(t), "board", "delete", "welcome", "--yes", "--data", data, "--port", "4317")
	if r.code != 0 || r.stderr != "" || r.stdout != "deleted board welcome and its history\n" {
		t.Fatalf("board delete with a server: %+v", r)
	}
	if res, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/api/boards/welcome", port)); err != nil || res.StatusCode != 404 {
		t.Fatalf("the server after the deletion: %v %v", res.StatusCode, err)
	} else {
		res.Body.Close()
	}
	gone(t, data, "welcome")
	if code := srv.stop(t, syscall.SIGTERM); code != 0 {
		t.Fatalf("SIGTERM: %d", code)
	}

	// No server: in the store, under the lock.
	s, err := store.Open(data, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Create("offline", board.Example(), store.AuthorTele); err != nil {
		t.Fatal(err)
	}
	s.Close()
	r = runTele(t, cleanEnv(t), "board", "delete", "offline", "--yes", "--data", data)
	if r.code != 0 || r.stderr != "" || r.stdout != "deleted board offline and its history\n" {
		t.Fatalf("board delete without a server: %+v", r)
	}
	gone(t, data, "offline")
}

// gone fails the test unless board id has no directory and no capability in data.
func gone(t *testing.T, data, id string) {
	t.Helper()
	for _, p := range []string{filepath.Join(data, "boards", id), filepath.Join(data, "caps", id)} {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s after the deletion: %v", p, err)
		}
	}
}
