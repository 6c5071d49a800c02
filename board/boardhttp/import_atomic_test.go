package boardhttp_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"tele/board"
	"tele/board/boardhttp"
	"tele/board/datadirtest"
	"tele/board/store"
	"tele/server/servertest"
)

func twoSongs() string {
	return "irealbook://" + url.PathEscape(`One=Tele=Swing=F=n=T44*A{F7 |Bb7 |F7 |F7 }===Two=Tele=Ballad=Bb=n=T44[Bb^7 |G-7 Z===My List`)
}

// TestImportChecksEverythingFirst: a playlist whose second song's id would be too long (the id given is
// 64 characters, the second song's is the id and "-2") is refused before anything is made, with the id
// at fault, and spends no creation. Security review 2026-12-03 L2: the first board was made, its key
// never returned, and the answer was 422.
func TestImportChecksEverythingFirst(t *testing.T) {
	e := servertest.New(t)
	before := e.Snapshot()
	body, _ := json.Marshal(map[string]string{"format": "ireal", "text": twoSongs(), "id": strings.Repeat("a", 64)})
	w := e.Do(servertest.Request{Method: "POST", Path: "/api/import", Body: string(body), Header: http.Header{"Content-Type": {"application/json"}}})
	if w.Code != 422 || servertest.Code(w.Body.Bytes()) != "invalid_content" || !strings.Contains(w.Body.String(), "-2") {
		t.Fatalf("import: %d %s", w.Code, w.Body)
	}
	datadirtest.Same(t, "a refused import", before, e.Snapshot())
	for i := range boardhttp.CreateBurst { // the budget is whole
		e.Create(fmt.Sprintf("b%d", i), "")
	}
}

// TestCreateAllIsAllOrNone: the store makes the boards of one call all or none: an id taken (ignoring
// case) or repeated within the call refuses the whole call; two calls racing for the same ids end with
// one call's boards, never a mix.
func TestCreateAllIsAllOrNone(t *testing.T) {
	e := servertest.New(t)
	e.Create("Taken", "")
	before := e.Snapshot()
	for _, items := range [][]store.NewBoard{
		{{ID: "fresh", Content: board.Example()}, {ID: "taken", Content: board.Example()}},
		{{ID: "x1", Content: board.Example()}, {ID: "X1", Content: board.Example()}},
	} {
		if _, err := e.Store.CreateAll(items, store.AuthorBrowser); !errors.Is(err, store.ErrExists) {
			t.Fatalf("CreateAll(%s, %s): %v, want ErrExists", items[0].ID, items[1].ID, err)
		}
	}
	datadirtest.Same(t, "refused calls", before, e.Snapshot())

	for round := range 20 {
		ids := []string{fmt.Sprintf("r%d-a", round), fmt.Sprintf("r%d-b", round), fmt.Sprintf("r%d-c", round)}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for k := range 2 {
			wg.Go(func() {
				items := []store.NewBoard{{ID: ids[0]}, {ID: ids[1+k]}, {ID: ids[2-k]}}
				for i := range items {
					items[i].Content = board.Example()
					items[i].Content.Title = fmt.Sprintf("call %d", k)
				}
				_, errs[k] = e.Store.CreateAll(items, store.AuthorBrowser)
			})
		}
		wg.Wait()
		if (errs[0] == nil) == (errs[1] == nil) {
			t.Fatalf("round %d: %v, %v; want exactly one call to make its boards", round, errs[0], errs[1])
		}
		winner := 0
		if errs[0] != nil {
			winner = 1
		}
		for _, id := range ids {
			b, err := e.Store.Get(id)
			if err != nil || b.Content.Title != fmt.Sprintf("call %d", winner) {
				t.Fatalf("round %d: %s is %q, %v; want call %d's", round, id, b.Content.Title, err, winner)
			}
		}
	}
}

// TestQuotaOverHTTP: a creation or an import past the server's quota is 507 quota_exceeded with the
// limit met, and makes nothing.
func TestQuotaOverHTTP(t *testing.T) {
	e := servertest.New(t)
	e.Create("one", "")
	if err := e.Store.SetQuota(store.Quota{MaxBoards: 2, MaxBytes: store.DefaultMaxBytes}); err != nil {
		t.Fatal(err)
	}
	before := e.Snapshot()
	hdr := http.Header{"Content-Type": {"application/json"}}
	body, _ := json.Marshal(map[string]string{"format": "ireal", "text": twoSongs(), "id": "set"})
	w := e.Do(servertest.Request{Method: "POST", Path: "/api/import", Body: string(body), Header: hdr})
	if w.Code != http.StatusInsufficientStorage || servertest.Code(w.Body.Bytes()) != "quota_exceeded" || !strings.Contains(w.Body.String(), `"quota":"boards"`) {
		t.Fatalf("import past the quota: %d %s", w.Code, w.Body)
	}
	datadirtest.Same(t, "an import past the quota", before, e.Snapshot())
	e.Create("two", "")
	w = e.Do(servertest.Request{Method: "POST", Path: "/api/boards", Body: `{"id":"three"}`, Header: hdr})
	if w.Code != http.StatusInsufficientStorage || servertest.Code(w.Body.Bytes()) != "quota_exceeded" {
		t.Fatalf("create past the quota: %d %s", w.Code, w.Body)
	}
}
