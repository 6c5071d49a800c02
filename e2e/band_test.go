package e2e

import (
	"context"
	"fmt"
	"math"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// shareAddr is a free address on 127.0.0.2, a loopback address that is not 127.0.0.1 (Linux routes all
// of 127/8 to lo), standing for the laptop's address on the band's Wi-Fi.
func shareAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.2:0")
	if err != nil {
		t.Skipf("no 127.0.0.2 here: %v", err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// shareFromPage opens board id with its edit key in a new desktop tab, shares it with the band (the
// share listener on addr) and returns the tab and the join link.
func shareFromPage(tb testing.TB, br *Browser, s *Server, addr, id, capability string) (*Page, string) {
	tb.Helper()
	leader := br.newPage(tb, desktop())
	openBoard(leader, s, id, capability)
	leader.waitJS(`!document.getElementById('band-share').hidden`, "Share with the band, on a page with the edit key")
	leader.do(chromedp.Click(chromedp.ID("band-share")))
	leader.waitJS(`document.getElementById('band-link').value.startsWith('http://`+addr+`/join#key=')`, "the join link")
	return leader, evalJS[string](leader, `document.getElementById('band-link').value`)
}

// joinPhone opens the join link in a new phone-sized tab and waits until it shows the board titled
// title with at least bars bars.
func joinPhone(tb testing.TB, br *Browser, join, title string, bars int) *Page {
	tb.Helper()
	f := br.newPage(tb, phone())
	f.do(chromedp.Navigate(join))
	f.waitJS(fmt.Sprintf(`document.getElementById('band-title').textContent === %s && document.querySelectorAll('#grid li.bar').length >= %d`, jsString(title), bars), "the phone shows "+title)
	return f
}

// TestBandView (issue 22): `tele serve --share`; the board page with the edit key shares with the band
// (QR code and join link); a phone opens the join link on 127.0.0.2 and follows: the song, a song change
// in a set (PageDown, as a page-turner pedal sends, opens the next song in the leader's tab), the bar
// the leader plays; the phone's transpose is its
// own; stopping the share ends the phone's view and says so, in English and in Chinese.
func TestBandView(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	addr := shareAddr(t)
	s := startServe(t, "--share", "--share-addr", addr)
	welcome := s.EditLink[strings.Index(s.EditLink, "#cap=")+len("#cap="):]
	apiCreateBoard(t, s, "next-song", sampleContent("Next Song"))
	if code := apiJSON(t, "POST", s.URL+"/api/sets", nil, map[string]any{"id": "gig", "title": "Friday gig", "boards": []string{"welcome", "next-song"}}, nil); code != 201 {
		t.Fatalf("POST /api/sets: %d", code)
	}
	b := newBrowser(t)

	// The leader opens the set's first song with its edit key.
	leader := b.newPage(t, desktop())
	leader.do(chromedp.Navigate(s.URL + "/b/welcome?set=gig#cap=" + welcome))
	waitBoardReady(leader)
	leader.waitJS(`!document.getElementById('set-nav').hidden && document.getElementById('set-place').textContent === 'Song 1 of 2'`, "the set's bar")
	leader.waitJS(`!document.getElementById('band-share').hidden`, "Share with the band, on a page with the edit key")
	leader.do(chromedp.Click(chromedp.ID("band-share")))
	leader.waitJS(`document.getElementById('band-qr').dataset.drawn === 'true' && document.getElementById('band-link').value.startsWith('http://`+addr+`/join#key=')`, "the QR code and the join link")
	join := evalJS[string](leader, `document.getElementById('band-link').value`)
	if w, h := evalJS[int](leader, `document.getElementById('band-qr').width`), evalJS[int](leader, `document.getElementById('band-qr').height`); w < 200 || w != h {
		t.Errorf("the QR code is %d×%d", w, h)
	}
	leader.screenshot("band", "share-desktop-en")

	follower := b.newPage(t, phone(), darkScheme())
	follower.do(chromedp.Navigate(join))
	follower.waitJS(`location.host === '`+addr+`' && location.pathname === '/' && location.hash === ''`, "the join page opens the follow page")
	follower.waitJS(`document.getElementById('band-pill').dataset.state === 'live' && document.getElementById('band-title').textContent === 'Welcome to Tele'`, "the phone follows the leader's song")
	if !evalJS[bool](follower, `document.body.classList.contains('band-stage')`) {
		t.Error("the follow page is not in stage mode on a phone")
	}
	leader.waitJS(`document.getElementById('band-status').dataset.followers === '1'`, "the leader sees one follower")
	if evalJS[bool](follower, fmt.Sprintf(`document.documentElement.outerHTML.includes(%s) || document.cookie.includes('tele_band')`, jsString(welcome))) {
		t.Error("the phone's page holds the edit key or can read its cookie")
	}

	// The phone's transpose is its own.
	follower.do(chromedp.Click(`#view-panel summary`), chromedp.Click(chromedp.ID("view-up")), chromedp.Click(chromedp.ID("view-up")))
	follower.waitJS(`document.getElementById('view-shift').textContent === '+2'`, "the phone transposes up a tone")
	if got := evalJS[string](leader, `document.getElementById('view-shift').textContent`); got != "0" {
		t.Errorf("the leader's transpose moved with the phone's: %q", got)
	}

	// The phone's chord size is its own (stage mode's steps): A+ twice, and its chords are larger.
	chordPx := `parseFloat(getComputedStyle(document.querySelector('#grid .chord')).fontSize)`
	before := evalJS[float64](follower, chordPx)
	follower.do(chromedp.Click(chromedp.ID("band-larger")), chromedp.Click(chromedp.ID("band-larger")))
	follower.waitJS(`document.getElementById('band-size-out').textContent === 'Chord size 130%'`, "the phone's chords at 130%")
	if after := evalJS[float64](follower, chordPx); after < before*1.25 {
		t.Errorf("the phone's chords are %.1f px at 130%%, %.1f px before", after, before)
	}

	// The next song: a page-turner pedal (PageDown) opens it in the leader's tab, which keeps leading.
	leader.do(chromedp.KeyEvent(kb.PageDown))
	leader.waitJS(`location.pathname === '/b/next-song' && location.search === '?set=gig'`, "PageDown opens the set's next song")
	waitBoardReady(leader)
	follower.waitJS(`document.getElementById('band-title').textContent === 'Next Song' && document.querySelectorAll('#grid li.bar').length === 16`, "the phone follows the song change")

	// A phone that went away (its page reloaded: its stream cut, its state gone) follows again at once
	// with its cookie, from the stream's first event.
	follower.do(chromedp.Reload())
	follower.waitJS(`document.documentElement.dataset.ready === 'true' && document.getElementById('band-pill').dataset.state === 'live' && document.getElementById('band-title').textContent === 'Next Song'`, "the reloaded phone follows again")
	if got := evalJS[string](follower, `document.getElementById('band-size-out').textContent`); got != "Chord size 130%" {
		t.Errorf("the reloaded phone's chord size: %q", got)
	}

	// The leader plays: the phone's cursor is on a bar, placed from the server's clock.
	leader.do(chromedp.Click(chromedp.ID("play")))
	leader.waitJS(`document.getElementById('player').dataset.state === 'playing'`, "the leader plays")
	follower.waitJS(`document.querySelector('#grid li.bar[aria-current="true"]') !== null`, "the phone shows the bar being played")
	follower.screenshot("band", "follow-phone-dark-en")
	leader.do(chromedp.Click(chromedp.ID("play")))
	follower.waitJS(`document.querySelector('#grid li.bar[aria-current="true"]') === null`, "the phone's cursor goes when the leader stops")

	// Stop sharing: the phone says so; the join link no longer works.
	leader.do(chromedp.Click(chromedp.ID("band-stop")))
	follower.waitJS(`document.getElementById('band-pill').dataset.state === 'ended'`, "the phone says sharing ended")
	if msg := evalJS[string](follower, `document.getElementById('band-pill').textContent`); !strings.Contains(msg, "stopped sharing") {
		t.Errorf("the phone says %q", msg)
	}
	switchLanguageScripted(follower, "zh-CN")
	if msg := evalJS[string](follower, `document.getElementById('band-pill').textContent`); !strings.Contains(msg, "停止共享") {
		t.Errorf("the phone says, in Chinese, %q", msg)
	}
	if got := evalJS[string](follower, `document.getElementById('band-size-out').textContent`); !strings.Contains(got, "130") || got == "Chord size 130%" {
		t.Errorf("the phone's chord size, in Chinese: %q", got)
	}
	follower.screenshot("band", "follow-ended-phone-dark-zh")
	again := b.newPage(t, phone())
	again.do(chromedp.Navigate(join))
	again.waitJS(`document.getElementById('join-status').dataset.state === 'failed'`, "the old join link is refused")
	leader.requireClean("after sharing")
	follower.requireClean("after following")
}

// TestSetsOnTheListPage (issue 22, sets): the list page makes a set by keyboard (a title, two songs
// added, the second moved earlier with its Earlier button), lists it, and its link opens the first
// song with the set's bar; Next song opens the second.
func TestSetsOnTheListPage(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	apiCreateBoard(t, s, "opener", sampleContent("Opener"))
	b := newBrowser(t)
	p := b.newPage(t, desktop())
	p.do(chromedp.Navigate(s.URL + "/"))
	p.waitJS(`document.documentElement.dataset.ready === 'true' && !document.getElementById('sets-panel').hidden && document.getElementById('set-pick').options.length === 2`, "the sets panel")
	typeInto(p, "#set-title-input", "Friday gig")
	p.do(chromedp.SetValue(chromedp.ID("set-pick"), "welcome"), chromedp.Focus(chromedp.ID("set-add")), chromedp.KeyEvent(kb.Enter))
	p.do(chromedp.SetValue(chromedp.ID("set-pick"), "opener"), chromedp.Focus(chromedp.ID("set-add")), chromedp.KeyEvent(kb.Enter))
	p.waitJS(`[...document.querySelectorAll('#set-songs li')].map((li) => li.dataset.board).join() === 'welcome,opener'`, "two songs in the order added")
	p.do(chromedp.Focus(chromedp.CSS(`#set-songs li:nth-child(2) .set-up`)), chromedp.KeyEvent(kb.Enter))
	p.waitJS(`[...document.querySelectorAll('#set-songs li')].map((li) => li.dataset.board).join() === 'opener,welcome' && document.activeElement.classList.contains('set-down')`, "Earlier moves the song up, focus stays with it")
	p.do(chromedp.Click(chromedp.ID("set-create")))
	p.waitJS(`document.querySelector('#set-list a')?.textContent === 'Friday gig'`, "the set is listed")
	p.screenshot("band", "sets-desktop-en")
	p.do(chromedp.Click(chromedp.CSS(`#set-list a`)))
	waitBoardReady(p)
	p.waitJS(`location.pathname === '/b/opener' && document.getElementById('set-place').textContent === 'Song 1 of 2'`, "the set opens on its first song")
	p.do(chromedp.Click(chromedp.ID("set-next")))
	p.waitJS(`location.pathname === '/b/welcome'`, "Next song")
	waitBoardReady(p)
	p.waitJS(`document.getElementById('set-place').textContent === 'Song 2 of 2' && document.getElementById('set-next').disabled`, "the last song of the set")
	p.requireClean("after making and opening a set")
}

// cursorLogJS records, on a page, when each bar becomes the one being played: [index in the grid, ms
// since the epoch], from a MutationObserver on aria-current (what a musician sees change). The time is
// Date.now(), the machine's clock, which every page reads alike; performance.timeOrigin is each page's
// own estimate of it, a few ms apart between pages.
const cursorLogJS = `(() => {
	window.__cursor = [];
	const bars = () => [...document.querySelectorAll('#grid li.bar')];
	new MutationObserver((ms) => {
		const now = Date.now();
		for (const m of ms) {
			if (m.attributeName === 'aria-current' && m.target.getAttribute('aria-current') === 'true') window.__cursor.push([bars().indexOf(m.target), now]);
		}
	}).observe(document.getElementById('grid'), { subtree: true, attributes: true, attributeFilter: ['aria-current'] });
	return true;
})()`

// TestBandCursorSkew measures how far the phones' cursors are from the leader's: the time between the
// leader's page and each follower's page marking the same bar, over 24 bars at 180 BPM, in one browser
// on one machine (one clock). Issue 22's target (a median of one frame, 17 ms, and a p95 of 50 ms, over
// 64 bars and 4 phones) is BenchmarkBandCursorSkew's; a test asserts no timing, so this one logs what it
// measured and fails only when a phone does not mark the leader's bars in the leader's order.
func TestBandCursorSkew(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	sk := measureSkew(t, 24, 1)
	t.Logf("cursor skew over %d bars at 180 BPM: median %.1f ms, p95 %.1f ms, max %.1f ms; the phone %.1f ms behind on average (negative: ahead)",
		len(sk.abs), sk.median(), sk.p95(), sk.abs[len(sk.abs)-1], sk.mean)
}

// BenchmarkBandCursorSkew is issue 22's skew target: a 64-bar song at 180 BPM, a leader page and 4
// phone pages in one headless Chromium, the time between the leader's page and each phone's page
// marking the same bar (aria-current), as median-ms and p95-ms over every bar of every phone (target:
// ≤ 17 and ≤ 50), and missed-bars: the leader's bars a phone never marked (its main thread held up past
// a whole bar; left out of the skew). One iteration plays the song once (about 90 s).
func BenchmarkBandCursorSkew(b *testing.B) {
	requireTool(b, "Debian chromium", chromiumPath)
	var med, p95, mean, missed []float64
	for b.Loop() {
		sk := measureSkew(b, 64, 4)
		med, p95, mean = append(med, sk.median()), append(p95, sk.p95()), append(mean, sk.mean)
		missed = append(missed, float64(sk.missed))
	}
	b.ReportMetric(median(missed), "missed-bars")
	b.ReportMetric(median(med), "median-ms")
	b.ReportMetric(median(p95), "p95-ms")
	b.ReportMetric(median(mean), "behind-ms")
	b.ReportMetric(0, "ns/op")
}

// skew is what measureSkew saw: the absolute skews sorted, the mean signed one (phone − leader), and
// the bars the leader marked that a phone did not.
type skew struct {
	abs    []float64
	mean   float64
	missed int
}

// inOrder reports whether the phone's bars come in the leader's order, some perhaps left out.
func inOrder(phone, leader []int) bool {
	i := 0
	for _, b := range phone {
		for i < len(leader) && leader[i] != b {
			i++
		}
		if i == len(leader) {
			return false
		}
		i++
	}
	return true
}

func (s skew) median() float64 { return s.abs[len(s.abs)/2] }
func (s skew) p95() float64    { return s.abs[len(s.abs)*95/100] }

// measureSkew serves a song of n bars at 180 BPM with --share on 127.0.0.2, shares it from a leader
// page, opens the join link in phones pages, plays the song once and returns the skew of every bar of
// every phone. It fails when a phone does not mark the leader's bars in the leader's order.
func measureSkew(tb testing.TB, n, phones int) skew {
	tb.Helper()
	addr := shareAddr(tb)
	s := startServe(tb, "--share", "--share-addr", addr)
	c := sampleContent("Fast")
	c.Tempo = 180
	c.Sections = c.Sections[:1]
	all := c.Sections[0].Bars
	c.Sections[0].Bars = nil
	for len(c.Sections[0].Bars) < n {
		c.Sections[0].Bars = append(c.Sections[0].Bars, all[len(c.Sections[0].Bars)%len(all)])
	}
	capability := apiCreateBoard(tb, s, "fast", c)
	br := newBrowser(tb)
	leader, join := shareFromPage(tb, br, s, addr, "fast", capability)
	var followers []*Page
	for range phones {
		f := joinPhone(tb, br, join, "Fast", n)
		evalJS[bool](f, cursorLogJS)
		followers = append(followers, f)
	}
	evalJS[bool](leader, cursorLogJS)
	evalJS[chromedp.Void](leader, `document.getElementById('count-in').checked = false`)
	leader.do(chromedp.Click(chromedp.ID("play")))
	leader.waitJSWithin(fmt.Sprintf(`window.__cursor.length >= %d`, n), "the leader plays every bar", time.Duration(n)*2*time.Second)
	lead := evalJS[[][2]float64](leader, `window.__cursor`)
	var sk skew
	var signed []string
	for i, f := range followers {
		// Up to the last bar: a phone whose main thread was held up past a whole bar marks the next one
		// and never the one it missed, which the skew leaves out and the log counts.
		f.waitJSWithin(fmt.Sprintf(`window.__cursor.some((e) => e[0] === %d)`, n-1), "the phone follows to the last bar", 10*time.Second)
		follow := evalJS[[][2]float64](f, `window.__cursor`)
		sk.missed += max(0, len(lead)-len(follow))
		at := map[int]float64{}
		for _, e := range follow {
			at[int(e[0])] = e[1]
		}
		for _, e := range lead {
			if t, ok := at[int(e[0])]; ok {
				sk.abs = append(sk.abs, math.Abs(t-e[1]))
				sk.mean += t - e[1]
				if i == 0 {
					signed = append(signed, fmt.Sprintf("%.0f", t-e[1]))
				}
			}
		}
		var leadOrder, followOrder []int
		for _, e := range lead {
			leadOrder = append(leadOrder, int(e[0]))
		}
		for _, e := range follow {
			followOrder = append(followOrder, int(e[0]))
		}
		if !inOrder(followOrder, leadOrder) {
			tb.Errorf("phone %d marked bars %v, the leader %v", i+1, followOrder, leadOrder)
		}
	}
	if sk.missed > 0 {
		tb.Logf("the phones left out %d bars of the leader's (each held up past a whole bar)", sk.missed)
	}
	if len(sk.abs) < (n-4)*phones {
		tb.Fatalf("only %d bars seen on both pages", len(sk.abs))
	}
	tb.Logf("the first phone, bar by bar (ms behind the leader): %s", strings.Join(signed, " "))
	sk.mean /= float64(len(sk.abs))
	slices.Sort(sk.abs)
	return sk
}

// TestBandTempoAndFrom (issue 22, "plays, stops, seeks, changes tempo"): the leader loops section B of
// a 16-bar song (the player starts at bar 9: the transport's `from` is 8, and every time round the loop
// it is told again), then plays faster while playing (the practice tempo, `]`). The phone's transport
// says so, and the phone marks the bars the leader marks, in the leader's order, through the loop's
// turns and the tempo change.
func TestBandTempoAndFrom(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	addr := shareAddr(t)
	s := startServe(t, "--share", "--share-addr", addr)
	c := sampleContent("Loop")
	c.Tempo = 240 // a bar a second
	capability := apiCreateBoard(t, s, "loop", c)
	b := newBrowser(t)
	leader, join := shareFromPage(t, b, s, addr, "loop", capability)
	follower := joinPhone(t, b, join, "Loop", 16)
	evalJS[bool](leader, cursorLogJS)
	evalJS[bool](follower, cursorLogJS)
	for _, id := range []string{"count-in", "loop"} {
		leader.do(chromedp.Focus(chromedp.ID(id)), chromedp.KeyEvent(" "))
	}
	leader.waitJS(`!document.getElementById('count-in').checked && !document.getElementById('loop-range').hidden`, "the loop on, count-in off")
	setSelect(leader, "loop-section", "1")
	leader.do(chromedp.Click(chromedp.ID("play")))
	follower.waitJS(`window.__cursor.length >= 1`, "the phone marks the first bar played")
	transport := func() map[string]any {
		return evalJS[map[string]any](follower, `fetch('/api/band').then((r) => r.json()).then((s) => s.transport || {})`)
	}
	if tr := transport(); tr["from"] != float64(8) || tr["tempo"] != float64(240) {
		t.Errorf("the phone's transport at the start of section B: %v", tr)
	}
	follower.waitJSWithin(`window.__cursor.length >= 10`, "the phone goes round the loop", 30*time.Second)
	leader.do(chromedp.Focus(chromedp.ID("play")), chromedp.KeyEvent("]"))
	leader.waitJS(`document.getElementById('practice-tempo').textContent.startsWith('245 BPM')`, "the leader plays at 245")
	follower.waitJSWithin(`window.__cursor.length >= 13`, "the phone follows on", 30*time.Second)
	if tr := transport(); tr["tempo"] != float64(245) || tr["playing"] != true {
		t.Errorf("the phone's transport after the tempo change: %v", tr)
	}
	leader.do(chromedp.Click(chromedp.ID("play")))
	follower.waitJS(`document.querySelector('#grid li.bar[aria-current="true"]') === null`, "the phone's cursor goes when the leader stops")
	var leadOrder, followOrder []int
	for _, e := range evalJS[[][2]float64](leader, `window.__cursor`) {
		leadOrder = append(leadOrder, int(e[0]))
	}
	for _, e := range evalJS[[][2]float64](follower, `window.__cursor`) {
		followOrder = append(followOrder, int(e[0]))
	}
	want := []int{8, 9, 10, 11, 12, 13, 14, 15, 8, 9}
	if len(followOrder) < len(want) || !slices.Equal(followOrder[:len(want)], want) {
		t.Errorf("the phone marked %v, want section B twice round from %v", followOrder, want)
	}
	n := min(len(leadOrder), len(followOrder))
	if !slices.Equal(leadOrder[:n], followOrder[:n]) {
		t.Errorf("the phone marked bars %v, the leader %v", followOrder[:n], leadOrder[:n])
	}
	leader.requireClean("after leading a loop")
	follower.requireClean("after following a loop")
}

// twoTabsAndAPhone serves the welcome board and "Second Song" with --share; the first tab leads the
// welcome board, a phone follows it, and the other tab, on "Second Song" with its edit key, offers Take
// the lead. It returns the tabs, the phone and the join link.
func twoTabsAndAPhone(t *testing.T) (first, other, follower *Page, join string) {
	t.Helper()
	requireTool(t, "Debian chromium", chromiumPath)
	addr := shareAddr(t)
	s := startServe(t, "--share", "--share-addr", addr)
	welcome := s.EditLink[strings.Index(s.EditLink, "#cap=")+len("#cap="):]
	second := apiCreateBoard(t, s, "second", sampleContent("Second Song"))
	b := newBrowser(t)
	first, join = shareFromPage(t, b, s, addr, "welcome", welcome)
	follower = joinPhone(t, b, join, "Welcome to Tele", 1)
	other = b.newPage(t, desktop())
	openBoard(other, s, "second", second)
	other.waitJS(`!document.getElementById('band-take').hidden`, "Take the lead, while another tab leads")
	return first, other, follower, join
}

// TestBandHandOver (issue 22, "it can hand the lead to another loopback page"): a tab leads; another
// tab of the same server, on another board with its edit key, offers Take the lead; its click moves
// the lead there: the phone follows the new tab's song, the first tab says another tab leads and its
// leader token no longer works.
func TestBandHandOver(t *testing.T) {
	first, other, follower, join := twoTabsAndAPhone(t)
	other.do(chromedp.Click(chromedp.ID("band-take")))
	other.waitJS(`!document.getElementById('band-live').hidden && document.getElementById('band-link').value === `+jsString(join)+` && document.getElementById('band-status').dataset.followers === '1'`, "the new tab leads, with the same join link")
	follower.waitJS(`document.getElementById('band-title').textContent === 'Second Song'`, "the phone follows the new tab's song")
	first.waitJS(`document.getElementById('band-live').hidden && document.getElementById('band-status').textContent.includes('Another tab leads')`, "the first tab says another tab leads")
	if evalJS[string](first, `sessionStorage.getItem('tele.band.leader') || ''`) != "" {
		t.Error("the first tab kept a leader token")
	}
	other.screenshot("band", "lead-taken-desktop-en")
	first.requireClean("after handing the lead over")
	other.requireClean("after taking the lead")
}

// TestBandLeaderClosed (issue 22: Take the lead stayed on the other tabs, and did nothing, when the
// leading tab closed without stopping): the leading tab closes; the server sees its stream end, and
// the phone says the leader's page is closed while it keeps the chart; Take the lead on another tab
// then takes the share with no one to ask: the same join link, the phone following its song.
func TestBandLeaderClosed(t *testing.T) {
	first, other, follower, join := twoTabsAndAPhone(t)
	follower.waitJS(`document.getElementById('band-pill').dataset.state === 'live'`, "the phone follows a leading page")

	first.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.Close, cdp.Empty{})
		return err
	}))
	follower.waitJS(`document.getElementById('band-pill').dataset.state === 'away' && document.getElementById('band-pill').textContent.includes('page is closed') && document.getElementById('band-title').textContent === 'Welcome to Tele'`, "the phone says the leader's page is closed, and keeps the chart")
	other.do(chromedp.Click(chromedp.ID("band-take")))
	other.waitJS(`!document.getElementById('band-live').hidden && document.getElementById('band-link').value === `+jsString(join)+` && document.getElementById('band-take').hidden`, "the other tab leads, with the same join link")
	follower.waitJS(`document.getElementById('band-pill').dataset.state === 'live' && document.getElementById('band-title').textContent === 'Second Song'`, "the phone follows the new leader's song")
	other.requireClean("after taking the lead of a closed tab")
	follower.requireClean("after its leader's tab closed")
}

// TestSetEditAndDelete (issue 22, sets): the tab that made a set edits it (a new title, the songs
// reordered) and deletes it; another list page and a board page opened from the set keep up at once
// (GET /api/set-events): the other list shows the new title and no Edit (it does not hold the set's
// key), the set's bar its new order, and both drop the set when it is deleted.
func TestSetEditAndDelete(t *testing.T) {
	requireTool(t, "Debian chromium", chromiumPath)
	s := startServe(t)
	apiCreateBoard(t, s, "opener", sampleContent("Opener"))
	b := newBrowser(t)
	maker := b.newPage(t, desktop())
	maker.do(chromedp.Navigate(s.URL + "/"))
	maker.waitJS(`document.documentElement.dataset.ready === 'true' && !document.getElementById('sets-panel').hidden && document.getElementById('set-pick').options.length === 2`, "the sets panel")
	typeInto(maker, "#set-title-input", "Friday gig")
	maker.do(chromedp.SetValue(chromedp.ID("set-pick"), "welcome"), chromedp.Click(chromedp.ID("set-add")))
	maker.do(chromedp.SetValue(chromedp.ID("set-pick"), "opener"), chromedp.Click(chromedp.ID("set-add")))
	maker.do(chromedp.Click(chromedp.ID("set-create")))
	maker.waitJS(`document.querySelector('#set-list a')?.textContent === 'Friday gig' && document.querySelector('#set-list .set-edit') !== null`, "the set is listed with Edit for its maker")
	setID := evalJS[string](maker, `document.querySelector('#set-list li').dataset.set`)

	other := b.newPage(t, desktop())
	other.do(chromedp.Navigate(s.URL + "/"))
	other.waitJS(`document.querySelector('#set-list a')?.textContent === 'Friday gig'`, "another list page lists the set")
	if evalJS[bool](other, `document.querySelector('#set-list .set-edit, #set-list .set-delete') !== null`) {
		t.Error("a page without the set's key offers to edit or delete it")
	}
	stage := b.newPage(t, desktop())
	stage.do(chromedp.Navigate(s.URL + "/b/opener?set=" + setID))
	waitBoardReady(stage)
	stage.waitJS(`!document.getElementById('set-nav').hidden && document.getElementById('set-place').textContent === 'Song 2 of 2'`, "the set's bar on its second song")

	// Edit: a new title, the opener first.
	maker.do(chromedp.Click(chromedp.CSS(`#set-list .set-edit`)))
	maker.waitJS(`document.getElementById('set-title-input').value === 'Friday gig' && [...document.querySelectorAll('#set-songs li')].map((li) => li.dataset.board).join() === 'welcome,opener' && !document.getElementById('set-cancel').hidden`, "the form holds the set")
	evalJS[chromedp.Void](maker, `document.getElementById('set-title-input').value = ''`)
	typeInto(maker, "#set-title-input", "Saturday gig")
	maker.do(chromedp.Click(chromedp.CSS(`#set-songs li:nth-child(2) .set-up`)))
	maker.do(chromedp.Click(chromedp.ID("set-create")))
	maker.waitJS(`document.querySelector('#set-list a')?.textContent === 'Saturday gig' && document.getElementById('set-cancel').hidden`, "the maker's list shows the saved set")
	other.waitJS(`document.querySelector('#set-list a')?.textContent === 'Saturday gig' && document.querySelector('#set-list a').getAttribute('href').startsWith('/b/opener?')`, "the other list page keeps up")
	stage.waitJS(`document.getElementById('set-title').textContent === 'Saturday gig' && document.getElementById('set-place').textContent === 'Song 1 of 2' && document.getElementById('set-prev').disabled`, "the set's bar keeps up: the opener is first now")
	maker.screenshot("band", "set-edited-desktop-en")

	// Delete: the set goes from every page; its songs stay.
	maker.do(chromedp.Click(chromedp.CSS(`#set-list .set-delete`)))
	maker.waitJS(`document.querySelectorAll('#set-list li').length === 0`, "the set is gone from the maker's list")
	other.waitJS(`document.querySelectorAll('#set-list li').length === 0`, "and from the other list page")
	stage.waitJS(`document.getElementById('set-nav').hidden`, "and the set's bar")
	if code := apiJSON(t, "GET", s.URL+"/api/boards/opener", nil, nil, nil); code != 200 {
		t.Errorf("the set's song after the delete: %d", code)
	}
	switchLanguageScripted(maker, "zh-CN")
	if msg := evalJS[string](maker, `document.getElementById('set-status').textContent`); !strings.Contains(msg, "已删除歌单") {
		t.Errorf("the deletion, in Chinese: %q", msg)
	}
	maker.requireClean("after editing and deleting a set")
	other.requireClean("while another page edited a set")
	stage.requireClean("while its set changed")
}
