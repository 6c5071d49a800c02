//go:build live

package e2e

// The live-model run (`make e2e-live TELE_TEST_MODEL=<provider/model>`): the three inputs of the chat
// panel probe against a model the user configured in their own Pi. Behind the `live` build tag, so
// `make test` never builds it.

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// liveAgentFiles are what Pi reads of the user's agent dir for a model: its credentials and custom
// providers. settings.json stays out: it loads the user's own extensions and packages, which could
// register a second bridge.
var liveAgentFiles = []string{"auth.json", "models.json"}

// liveWait bounds each wait for a real model (a reply, a tool round trip).
const liveWait = 3 * time.Minute

// TestLive runs history, a board change through tele_board and a stop while streaming against
// TELE_TEST_MODEL, with the user's Pi agent dir (PI_CODING_AGENT_DIR, else ~/.pi/agent). Without
// TELE_TEST_MODEL it proves itself: the fake model registered in a temporary agent dir exactly as a
// user registers a custom provider, taken through the same path.
func TestLive(t *testing.T) {
	model, userAgent := os.Getenv("TELE_TEST_MODEL"), os.Getenv("PI_CODING_AGENT_DIR")
	var fm *FakeModel
	if model == "" {
		fm = StartFakeModel(t)
		userAgent, model = t.TempDir(), "fake/fake-model"
		if err := fm.WriteModelsJSON(userAgent); err != nil {
			t.Fatal(err)
		}
	} else if userAgent == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Fatalf("TELE_TEST_MODEL=%s: no home directory to find Pi's agent dir; set PI_CODING_AGENT_DIR", model)
		}
		userAgent = filepath.Join(home, ".pi", "agent")
	}
	forEachPi(t, func(t *testing.T, line piLine) {
		// No report: .audit/chat/ holds the panel probe's, which make test writes.
		r := startLiveRig(t, line, fm, model, userAgent)
		r.run("pair-from-invitation", (*chatRig).pairFromInvitation)
		r.run("input-1-builds-history", (*chatRig).liveHistory)
		r.run("input-2-changes-the-board-from-history", (*chatRig).liveBoardChange)
		r.run("input-3-stop-while-streaming", (*chatRig).liveStop)
	})
}

// liveAgentDir is a fresh agent dir holding links to the user's credentials and custom providers: Pi
// reads them through the links, the test never opens them, and sessions go to the fresh dir, so no
// existing session file is read or written.
func liveAgentDir(t *testing.T, userAgent string) string {
	t.Helper()
	agent := filepath.Join(t.TempDir(), "agent")
	if err := os.MkdirAll(agent, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range liveAgentFiles {
		src := filepath.Join(userAgent, name)
		if _, err := os.Lstat(src); errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(src, filepath.Join(agent, name)); err != nil {
			t.Fatal(err)
		}
	}
	return agent
}

// startLiveRig is startChatRig with the chosen model and the user's agent dir; fm is the fake model
// of the self-test (scripted like the panel probe), nil for a real model.
func startLiveRig(t *testing.T, line piLine, fm *FakeModel, model, userAgent string) *chatRig {
	t.Helper()
	requirePi(t, line)
	requireTool(t, "Debian chromium", chromiumPath)
	r := &chatRig{t: t, line: line, start: time.Now(), report: chatReport{Board: chatBoardID}, fm: fm}
	if fm != nil {
		fm.Script(r.model)
	}
	home := t.TempDir()
	bridge := filepath.Join(home, "bridge", "tele.js")
	if err := os.MkdirAll(filepath.Dir(bridge), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bridge, teleCmd(t, home, []string{"HOME=" + home}, "pi", "print"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.pi = StartPi(t, nil, PiOptions{Line: line, Home: home, Extensions: []string{bridge},
		Model: model, AgentDir: liveAgentDir(t, userAgent)})
	from := r.pi.Mark()
	r.pi.Prompt("/tele " + chatBoardID)
	r.takeInvitation(t, r.pi.WaitNotify(from, "one-time link"))
	r.browser = newBrowser(t)
	r.tab = r.newChatTab(t, r.browser)
	return r
}

// liveHistory types input 1 and waits for a reply with text: what a model says is its own.
func (r *chatRig) liveHistory(t *testing.T) string {
	a := r.tab
	typeMessage(a, chatInput1)
	a.waitJSWithin(`[...document.querySelectorAll('#chat-items .chat-assistant .chat-text')].some((e) => e.textContent.trim() !== '')`, "a reply to input 1", liveWait)
	a.waitJSWithin(`document.getElementById('chat').dataset.status === 'idle'`, "the chat is idle after input 1", liveWait)
	if after := rowsAfter(chatRows(a), chatInput1); len(after) == 0 {
		t.Error("input 1 is not shown verbatim, or has no reply under it")
	}
	return "input 1 shown verbatim; the model replied"
}

// liveBoardChange types input 2: only the history names the chord, and the model must put it into bar 1
// through tele_board; the grid on the same page and the board over HTTP show it.
func (r *chatRig) liveBoardChange(t *testing.T) string {
	a := r.tab
	evalJS[chromedp.Void](a, `window.__samePage = 1`)
	typeMessage(a, chatInput2)
	a.waitJSWithin(barTextJS(0, 0)+` === 'Ebmaj7'`, "the grid shows Ebmaj7 in bar 1 without a reload", liveWait)
	a.waitJSWithin(`document.getElementById('chat').dataset.status === 'idle'`, "the chat is idle after input 2", liveWait)
	if !evalJS[bool](a, `window.__samePage === 1`) {
		t.Error("the page was reloaded")
	}
	doc := r.getBoard(t)
	if len(doc.Content.Sections) == 0 || len(doc.Content.Sections[0].Bars) == 0 || strings.Join(doc.Content.Sections[0].Bars[0], " ") != "Ebmaj7" {
		t.Errorf("bar 1 over HTTP is not Ebmaj7: %+v", doc.Content.Sections)
	}
	return "the chord from the history put into bar 1 through tele_board; the grid and the board over HTTP show it"
}

// liveStop types input 3 and stops the reply as soon as it streams: the panel says the reply stopped.
func (r *chatRig) liveStop(t *testing.T) string {
	a := r.tab
	typeMessage(a, chatInput3)
	a.waitJSWithin(`document.getElementById('chat').dataset.status === 'running' && !document.getElementById('chat-stop').disabled && [...document.querySelectorAll('#chat-items .chat-assistant .chat-text')].pop()?.textContent.trim() !== ''`, "the reply to input 3 streams", liveWait)
	a.do(chromedp.Click(chromedp.ID("chat-stop")))
	a.waitJSWithin(`[...document.querySelectorAll('#chat-items > li')].some((li) => li.dataset.code === 'reply-aborted')`, "the reply-aborted notice", liveWait)
	waitChatIdle(a)
	a.requireClean("after stop")
	return "Stop while the reply streamed → reply-aborted; the panel idle again"
}
