package e2e

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// refusedAndUncertainSends answers sends with refusals and lost answers: each says why and keeps the draft.
func (r *chatRig) refusedAndUncertainSends(t *testing.T) string {
	a := r.tab
	// The host's refusals and a lost answer, delivered to the page's real send path by the browser's
	// request interception (nothing reaches Pi): each shows its reason, keeps the draft, resends nothing.
	waitChatIdle(a)
	const draft = "Please double the tempo." // (the reload above dropped the earlier draft, as a refresh does)
	if got := evalJS[string](a, `document.getElementById('chat-input').value`); got != "" {
		t.Errorf("a draft survived the reload: %q", got)
	}
	a.do(chromedp.Click(chromedp.ID("chat-input")), chromedp.KeyEvent(draft))
	models := r.fm.Count()
	before := len(commandFetches(a))
	stop := intercept(t, a, "*/command", []fakeAnswer{
		{status: 409, code: "busy"}, {status: 409, code: "stale_idle_version"}, {status: 409, code: "terminal_prompt"},
		{status: 502, code: "submission_uncertain"}, {fail: true},
	})
	wants := []string{"Not sent: Pi is busy", "Not sent: the conversation moved on", "Not sent: needs terminal action",
		"No clear answer came back", "No clear answer came back"}
	for i, want := range wants {
		a.do(chromedp.Click(chromedp.ID("chat-input")), chromedp.KeyEvent(kb.Enter))
		// The send goes out (the button is disabled before the request), then its answer is handled.
		a.waitJS(fmt.Sprintf(`window.__chatRec.fetches.filter((f) => f.url.endsWith('/command')).length === %d`, before+i+1), "the send request")
		a.waitJS(`!document.getElementById('chat-send').disabled`, "the answer is handled")
		if got := evalJS[string](a, `(() => { const e = document.getElementById('chat-error'); return e.hidden ? '' : e.textContent; })()`); !strings.HasPrefix(got, want) {
			t.Errorf("answer %d: the panel says %q, want %q…", i+1, got, want)
		}
		if got := evalJS[string](a, `document.getElementById('chat-input').value`); got != draft {
			t.Errorf("answer %d: the draft became %q", i+1, got)
		}
		if n := len(commandFetches(a)) - before; n != i+1 {
			t.Errorf("answer %d: %d sends so far", i+1, n)
		}
	}
	stop()
	r.shot(a, "uncertain-desktop-en")
	switchLanguageScripted(a, "zh-CN")
	if got := evalJS[string](a, `document.getElementById('chat-error').textContent`); !strings.HasPrefix(got, "没有收到明确的答复") {
		t.Errorf("the uncertain message in Chinese reads %q", got)
	}
	r.shot(a, "uncertain-desktop-zh")
	switchLanguageScripted(a, "en")
	if n := len(commandFetches(a)) - before; n != len(wants) {
		t.Errorf("%d sends for %d presses of Enter: something was resent", n, len(wants))
	}
	if r.fm.Count() != models {
		t.Error("an intercepted send reached the model")
	}
	return "409 busy, 409 stale_idle_version, 409 terminal_prompt: the localized reason; 502 submission_uncertain and a dropped connection: “not certain … check the conversation and the Pi terminal … never resends”; the draft kept every time, one request per Enter, none repeated"
}

// offlineReconnect cuts the connection: the panel says offline; a visible tab reconnects at once to a fresh
// snapshot that holds what the terminal said meanwhile.
func (r *chatRig) offlineReconnect(t *testing.T) string {
	// A tab that reaches the host through a proxy the test can cut, as a network drop does.
	px := startCutProxy(t, r.base)
	from := r.pi.Mark()
	r.pi.Prompt("/tele " + chatBoardID)
	r.takeInvitation(t, r.pi.WaitNotify(from, "one-time link"))
	o := r.openChatPage(t, r.browser, strings.Replace(r.inviteTo, r.base, px.URL, 1))
	defer closePage(o)
	waitChatLive(o)
	rowsBefore := len(chatRows(o))
	px.setCut(true)
	o.waitJS(`document.getElementById('chat').dataset.conn === 'offline'`, "the panel says offline")
	run := evalJS[string](o, `document.getElementById('chat-run').textContent`)
	if !strings.HasPrefix(run, "The connection to Pi was lost") {
		t.Errorf("offline status reads %q", run)
	}
	if !evalJS[bool](o, `document.getElementById('chat-send').disabled && document.querySelector('.chat-status').getAttribute('aria-live') === 'polite' && document.getElementById('chat-conn-text').getAttribute('role') === 'status'`) {
		t.Error("offline: send enabled, or the state is not in a polite live region")
	}
	// The terminal talks while the page is cut off.
	const msg = "Said in the terminal while the page was offline."
	r.pi.PromptAndWait(msg)
	if got := len(chatRows(o)); got != rowsBefore {
		t.Errorf("offline: %d rows, had %d", got, rowsBefore)
	}
	// Let the backoff grow, then come back: a visible tab reconnects at once, not at the next retry.
	o.waitJS(`Number((document.getElementById('chat-conn-text').textContent.match(/(\d+) s/) || [])[1]) >= 4`, "a retry delay of 4 s or more")
	r.shot(o, "offline-desktop-en")
	px.setCut(false)
	began := time.Now()
	evalJS[chromedp.Void](o, `document.dispatchEvent(new Event('visibilitychange'))`)
	waitChatLive(o)
	took := time.Since(began)
	if took > 2500*time.Millisecond {
		t.Errorf("reconnecting on visibility took %v (the backoff was at least 3 s)", took)
	}
	o.waitJS(fmt.Sprintf(`[...document.querySelectorAll('#chat-items .chat-user .chat-text')].some((e) => e.textContent === %s)`, jsString(msg)), "the message said while offline, from the fresh snapshot")
	if pr := problemsExcept(o, "net::ERR_"); len(pr) > 0 {
		t.Errorf("problems: %v", pr)
	}
	return fmt.Sprintf("connection cut: “Connection to Pi was lost…” in polite live regions, send disabled, every row still readable, backoff grows; restored + tab visible: live again in %v with the fresh snapshot holding what the terminal said meanwhile", took.Round(time.Millisecond))
}

// cutProxy is a reverse proxy in front of the tele host (loopback only) whose connections the test can
// cut: while cut, open connections are closed and new ones are dropped without an answer.
type cutProxy struct {
	URL string
	srv *http.Server

	mu    sync.Mutex
	cut   bool
	conns map[net.Conn]struct{}
}

func startCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	to, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	px := &cutProxy{URL: "http://" + ln.Addr().String(), conns: map[net.Conn]struct{}{}}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(to) // also the Host header: the host checks it
			if pr.In.Header.Get("Origin") == px.URL {
				pr.Out.Header.Set("Origin", target)
			}
		},
		FlushInterval: -1,
	}
	px.srv = &http.Server{
		ReadHeaderTimeout: 10 * time.Second,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if px.isCut() {
				if hj, ok := w.(http.Hijacker); ok {
					if c, _, err := hj.Hijack(); err == nil {
						c.Close()
					}
				}
				return
			}
			rp.ServeHTTP(w, r)
		}),
		ConnState: func(c net.Conn, s http.ConnState) {
			px.mu.Lock()
			defer px.mu.Unlock()
			switch s {
			case http.StateNew:
				px.conns[c] = struct{}{}
			case http.StateClosed, http.StateHijacked:
				delete(px.conns, c)
			}
		},
	}
	go px.srv.Serve(ln)
	t.Cleanup(func() { px.srv.Close() })
	return px
}

func (px *cutProxy) isCut() bool {
	px.mu.Lock()
	defer px.mu.Unlock()
	return px.cut
}

func (px *cutProxy) setCut(cut bool) {
	px.mu.Lock()
	defer px.mu.Unlock()
	px.cut = cut
	if cut {
		for c := range px.conns {
			c.Close()
		}
	}
}

type fakeAnswer struct {
	status int64
	code   string
	fail   bool // the connection drops without an answer
}

// intercept makes the tab's next requests to URLs matching pattern (say "*/command") get answers, in
// order (the last repeats), from the browser's request interception instead of the host. The returned
// func stops it.
func intercept(t *testing.T, p *Page, pattern string, answers []fakeAnswer) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(p.ctx)
	events := chromedp.Events(ctx, fetch.RequestPaused)
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: pattern}}})
		return err
	}))
	done := make(chan struct{})
	go func() {
		defer close(done)
		i := 0
		for ev, err := range events {
			if err != nil {
				return
			}
			a := answers[min(i, len(answers)-1)]
			i++
			if a.fail {
				_, _ = chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonConnectionReset})
				continue
			}
			body := fmt.Sprintf(`{"error":{"code":%q,"message":"answered by the test"}}`, a.code)
			_, _ = chromedp.Call(ctx, fetch.FulfillRequest, fetch.FulfillRequestParams{RequestID: ev.RequestID, ResponseCode: a.status,
				ResponseHeaders: []*fetch.HeaderEntry{{Name: "Content-Type", Value: "application/json"}}, Body: []byte(body)})
		}
	}()
	return func() {
		p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, fetch.Disable, cdp.Empty{})
			return err
		}))
		cancel()
		<-done
	}
}
