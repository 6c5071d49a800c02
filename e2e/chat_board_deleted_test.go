package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tele/board/store"
)

// TestChatPairBoardDeleted: the board a Pi session is bound to is deleted (with its edit link) and
// someone makes a new board under its id. An invitation Pi hands out after that pairs nothing: the
// page says, in its language, that the board Pi was connected to was deleted, and it gets no edit key,
// least of all the new board's.
func TestChatPairBoardDeleted(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	h := startLinkHost(t, "gone")
	capability, err := store.ReadCapability(h.DataDir, "gone")
	if err != nil {
		t.Fatal(err)
	}
	if status := apiJSON(t, "DELETE", h.URL+"/api/boards/gone",
		map[string]string{"Authorization": "Bearer " + capability, "If-Match": `"1"`}, nil, nil); status != 204 {
		t.Fatalf("DELETE: status %d", status)
	}
	apiCreateBoard(t, h.Server, "gone", sampleContent("Someone else's"))
	invite := h.invite()

	b := newBrowser(t)
	p := b.newPage(t, browserLanguage("zh-CN"))
	p.do(chromedp.Navigate(invite))
	p.waitJS(`document.getElementById('chat').dataset.paired === 'false' && !document.getElementById('chat-pair-reason').hidden`, "the page says why it is not paired")
	if reason := evalJS[string](p, `document.getElementById('chat-pair-reason').textContent`); !strings.Contains(reason, "Pi 连接的和弦谱已被删除") {
		t.Errorf("the reason shown is %q, want the board deleted, in Chinese", reason)
	}
	// How to pair again, in Chinese: the command, then the comma at once. A space before it (the
	// markup's, between the command and the words) let the line break there and start with the comma.
	if how := evalJS[string](p, `document.querySelector('#chat-pair p:last-child').textContent`); !strings.Contains(how, "/tele gone，然后") {
		t.Errorf("the how-to-pair text is %q, want the command followed by its comma", how)
	}
	if key := evalJS[string](p, `sessionStorage.getItem('tele.cap:gone') || ''`); key != "" {
		t.Error("the page got an edit key")
	}
	if pr := problemsExcept(p, "410"); len(pr) > 0 {
		t.Errorf("problems: %v", pr)
	}
}
