package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Helpers for browser tests of the board UI: boards made and changed through the real HTTP API (as Pi
// or another tab would), the board file read from disk, and pages opened on a board.

// boardContent is the content schema of docs/content.md.
type boardContent struct {
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Key         string         `json:"key,omitempty"`
	Tempo       int            `json:"tempo"`
	BeatsPerBar int            `json:"beatsPerBar"`
	Sections    []boardSection `json:"sections"`
}

type boardSection struct {
	Label string     `json:"label"`
	Bars  [][]string `json:"bars"`
}

// boardDoc is a board as the API returns it and as it is stored on disk.
type boardDoc struct {
	ID         string       `json:"id"`
	Revision   int64        `json:"revision"`
	Content    boardContent `json:"content"`
	UpdatedAt  string       `json:"updatedAt"`
	Capability string       `json:"capability,omitempty"` // create only
}

// apiCreateBoard creates a board through POST /api/boards and returns its capability; c is a
// boardContent, or the content's JSON as a json.RawMessage for a board boardContent cannot express.
func apiCreateBoard(t testing.TB, s *Server, id string, c any) string {
	t.Helper()
	var doc struct{ Capability string }
	status := apiJSON(t, "POST", s.URL+"/api/boards", nil, map[string]any{"id": id, "content": c}, &doc)
	if status != http.StatusCreated || doc.Capability == "" {
		t.Fatalf("creating board %s: status %d", id, status)
	}
	return doc.Capability
}

// apiPutBoard saves content over revision rev, as another client would; it returns the new board.
func apiPutBoard(t testing.TB, s *Server, id, capability string, rev int64, c boardContent) boardDoc {
	t.Helper()
	var doc boardDoc
	status := apiJSON(t, "PUT", s.URL+"/api/boards/"+id,
		map[string]string{"Authorization": "Bearer " + capability, "If-Match": fmt.Sprintf(`"%d"`, rev)}, c, &doc)
	if status != http.StatusOK {
		t.Fatalf("saving board %s over revision %d: status %d", id, rev, status)
	}
	return doc
}

func apiJSON(t testing.TB, method, url string, header map[string]string, body, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode < 300 && out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %v", method, url, err)
		}
	}
	return res.StatusCode
}

// boardFile reads the committed board on disk: the newest revision file, <data>/boards/<id>/<rev>.json.
func boardFile(t testing.TB, s *Server, id string) boardDoc {
	t.Helper()
	data, err := os.ReadFile(newestRevisionFile(t, s.DataDir, id))
	if err != nil {
		t.Fatal(err)
	}
	var doc boardDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("board file %s: %v", id, err)
	}
	return doc
}

// newestRevisionFile is the path of board id's newest revision file in data directory dir: the board
// as it is committed on disk.
func newestRevisionFile(t testing.TB, dir, id string) string {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, "boards", id))
	if err != nil {
		t.Fatal(err)
	}
	newest := int64(0)
	for _, e := range ents {
		if n, err := strconv.ParseInt(strings.TrimSuffix(e.Name(), ".json"), 10, 64); err == nil && strings.HasSuffix(e.Name(), ".json") && n > newest {
			newest = n
		}
	}
	if newest == 0 {
		t.Fatalf("board %s has no revision file in %s", id, dir)
	}
	return filepath.Join(dir, "boards", id, strconv.FormatInt(newest, 10)+".json")
}

// openBoard navigates p to a board, with its edit link when capability is not "", and waits until the
// board is shown and its live stream is connected.
func openBoard(p *Page, s *Server, id, capability string) {
	p.t.Helper()
	url := s.URL + "/b/" + id
	if capability != "" {
		url += "#cap=" + capability
	}
	p.do(chromedp.Navigate(url))
	waitBoardReady(p)
}

// waitBoardReady waits for the board page to have rendered a board and connected its stream.
func waitBoardReady(p *Page) {
	p.t.Helper()
	p.waitJS(`document.documentElement.dataset.ready === "true" && !document.getElementById('board-body').hidden`, "the board is shown")
	p.waitJS(`document.getElementById('conn').dataset.state === 'live'`, "the live stream is connected")
}

// sampleContent is a board with two sections of eight bars, one- and two-chord bars.
func sampleContent(title string) boardContent {
	return boardContent{
		Title: title, Description: "Two-five-one practice.", Key: "G", Tempo: 120, BeatsPerBar: 4,
		Sections: []boardSection{
			{Label: "A", Bars: [][]string{{"Am7"}, {"D7"}, {"Gmaj7"}, {"Cmaj7"}, {"F#m7b5"}, {"B7"}, {"Em"}, {"Em"}}},
			{Label: "B", Bars: [][]string{{"F#m7b5"}, {"B7"}, {"Em", "Em/D"}, {"C#m7b5", "F#7"}, {"Am7"}, {"D7"}, {"Gmaj7"}, {"Gmaj7"}}},
		},
	}
}
