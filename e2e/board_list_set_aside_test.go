package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	teleboard "tele/board"
	"tele/board/store"
)

// TestBoardListSetAside: a board the server cannot read does not stop it; the list page shows every
// other board and says, in the page's language, which board was set aside and how to learn why.
// Security review 2026-12-03 M1: one unreadable board stopped every start.
func TestBoardListSetAside(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	data := t.TempDir()
	st, err := store.Open(data, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"welcome", "broken"} {
		if _, _, err := st.Create(id, teleboard.Example(), store.AuthorTele); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	if err := os.WriteFile(filepath.Join(data, "boards", "broken", "1.json"), []byte(`{"id":"broken"`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServeIn(t, data, false)
	b := newBrowser(t)
	for _, tc := range []struct {
		name string
		opts []PageOption
		want []string
	}{
		{"en", []PageOption{desktop()}, []string{"board broken", "put aside, not deleted", "tele board check"}},
		{"zh", []PageOption{phone(), browserLanguage("zh-CN")}, []string{"和弦谱 broken", "没有删除", "tele board check"}},
	} {
		p := b.newPage(t, tc.opts...)
		p.do(chromedp.Navigate(s.URL + "/"))
		p.waitJS(`document.documentElement.dataset.ready === "true"`, "the list page is ready")
		p.waitJS(`document.querySelector('#board-list a[href="/b/welcome"]')`, "the good board is listed")
		p.waitJS(`!document.getElementById('set-aside').hidden`, "the set-aside note is shown")
		note := text(p, "set-aside")
		for _, w := range tc.want {
			if !strings.Contains(note, w) {
				t.Errorf("%s: the note %q lacks %q", tc.name, note, w)
			}
		}
		if evalJS[bool](p, `!!document.querySelector('#board-list a[href="/b/broken"]')`) {
			t.Errorf("%s: the set-aside board is listed", tc.name)
		}
		p.requireClean("the list with a board set aside")
		p.screenshot("board", "list-set-aside-"+tc.name)
	}
}
