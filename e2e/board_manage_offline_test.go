package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestBoardManageDeletedWhileOffline: a page whose stream was down when its board was deleted (it
// missed the `deleted` event) learns of the deletion when the connection comes back, and says so in
// its language. The tab goes offline by CDP network emulation, which ends its stream; the board is
// deleted through the API meanwhile.
func TestBoardManageDeletedWhileOffline(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	b := newBrowser(t)
	capability := apiCreateBoard(t, s, "missed", sampleContent("Missed"))
	p := b.newPage(t, phone(), browserLanguage("zh-CN"))
	openBoard(p, s, "missed", "")

	p.do(offline(true))
	p.waitJS(`document.getElementById('conn').dataset.state === 'offline'`, "the page knows its stream is down")
	if status := apiJSON(t, "DELETE", s.URL+"/api/boards/missed",
		map[string]string{"Authorization": "Bearer " + capability, "If-Match": `"1"`}, nil, nil); status != 204 && status != 200 {
		t.Fatalf("DELETE: status %d", status)
	}
	if evalJS[bool](p, `!document.getElementById('board-gone').hidden`) {
		t.Fatal("the page says the board is gone while it cannot know")
	}

	p.do(offline(false))
	p.waitJS(`!document.getElementById('board-gone').hidden`, "the page learns the board was deleted")
	if got := evalJS[string](p, `document.getElementById('board-gone').innerText`); !strings.Contains(got, "这个和弦谱已被删除。") || !strings.Contains(got, "前往全部和弦谱") {
		t.Errorf("the page shows %q", got)
	}
	if evalJS[bool](p, `!document.getElementById('board-body').hidden`) {
		t.Error("the deleted board is still shown")
	}
	p.screenshot("board", "manage-deleted-while-offline-phone-zh")
	if pr := problemsExcept(p, "404", "ERR_INTERNET_DISCONNECTED", "events"); len(pr) > 0 {
		t.Errorf("problems: %v", pr)
	}
}

// offline takes the tab off the network (every request fails, open ones too, and navigator.onLine is
// false) or puts it back.
func offline(off bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		conditions := []*network.Conditions{}
		if off {
			conditions = append(conditions, &network.Conditions{Offline: true, DownloadThroughput: -1, UploadThroughput: -1})
		}
		if _, err := cdp.Call(ctx, t, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: conditions}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: off, DownloadThroughput: -1, UploadThroughput: -1})
		return err
	})
}
