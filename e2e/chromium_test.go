package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// This file is a small, reusable harness for headless Chromium (Debian's /usr/bin/chromium, which
// .ci/run installs), driven with chromedp:
//
//	b := newBrowser(t)                       // one browser per test, fresh profile
//	p := b.newPage(t, phone())               // one tab, console and CSP violations recorded
//	p.do(chromedp.Navigate(url))
//	p.waitJS(`document.documentElement.dataset.ready === "true"`, "the page is ready")
//	p.screenshot("board", "welcome-phone-en") // .audit/board/welcome-phone-en.png
//	p.requireClean("after load")             // no console error, no exception, no CSP violation
//
// Waiting is on page conditions (waitJS polls an expression with a deadline), never on sleeps.
//
// It never uses chromedp.Poll: Poll compiles its predicate with `new Function` inside the page, which
// a strict CSP refuses (a violation the page did not cause), and it runs with a user gesture, which
// would defeat checks that something happens only after a real click.

const chromiumPath = "/usr/bin/chromium"

// waitTimeout bounds every waitJS; generous for a loaded CI machine, short enough to fail a test.
const waitTimeout = 15 * time.Second

// Browser is one headless Chromium process with its own temporary profile.
type Browser struct {
	ctx context.Context // the first tab's context; new tabs are its children
}

// newBrowser starts Chromium for the test (skips loudly when it is missing) and stops it at cleanup.
func newBrowser(t testing.TB) *Browser {
	t.Helper()
	requireTool(t, "Debian chromium", chromiumPath)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 800),
		// The flags this workplace requires of every headless Chromium, stated explicitly rather than
		// trusted to chromedp's defaults: no GPU, no QUIC, and no background traffic to Google's hosts
		// (the machine's network is closed and refuses it noisily).
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// A deterministic browser language (tests that need another override it per tab).
		chromedp.Flag("lang", "en-US"),
		// The real autoplay rule of desktop Chrome, stated so a headless default cannot weaken it: audio
		// may start only after a user activation of the document.
		chromedp.Flag("autoplay-policy", "document-user-activation-required"),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	// The first Do starts the browser and ties its life to ctx (not to a shorter context).
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return &Browser{ctx: ctx}
}

// pageConfig is what newPage sets up before the first navigation.
type pageConfig struct {
	width, height int64
	scale         float64
	mobile        bool
	noStorage     bool   // localStorage and sessionStorage throw, as with storage disabled
	language      string // navigator.language and Accept-Language
	dark          bool   // prefers-color-scheme: dark
	blockURLs     []string
}

// PageOption configures a tab.
type PageOption func(*pageConfig)

// desktop is 1280×800.
func desktop() PageOption {
	return func(c *pageConfig) { c.width, c.height, c.scale, c.mobile = 1280, 800, 1, false }
}

// phone is a 390×844 phone (device pixel ratio 2, mobile viewport rules).
func phone() PageOption {
	return func(c *pageConfig) { c.width, c.height, c.scale, c.mobile = 390, 844, 2, true }
}

// viewport sets another size.
func viewport(w, h int64) PageOption {
	return func(c *pageConfig) { c.width, c.height = w, h }
}

// storageDisabled makes every access to localStorage and sessionStorage throw a SecurityError, as a
// browser with storage blocked does.
func storageDisabled() PageOption { return func(c *pageConfig) { c.noStorage = true } }

// browserLanguage sets navigator.language(s) and Accept-Language, e.g. "zh-CN".
func browserLanguage(lang string) PageOption { return func(c *pageConfig) { c.language = lang } }

// darkScheme emulates prefers-color-scheme: dark.
func darkScheme() PageOption { return func(c *pageConfig) { c.dark = true } }

// blockURL makes requests whose URL matches pattern (URLPattern syntax, absolute) fail.
func blockURL(pattern string) PageOption {
	return func(c *pageConfig) { c.blockURLs = append(c.blockURLs, pattern) }
}

// probeScript runs in every document before the page's own scripts (CDP injects it; the page's CSP does
// not apply to it). It records CSP violations, counts AudioContexts the page creates, and counts the
// player's clicks as they are scheduled (a sine at 1760 Hz on 1, 1320 Hz on the other beats).
const probeScript = `(() => {
  const probe = { csp: [], audioContexts: 0, clicks: { accent: 0, beat: 0 } };
  const start = window.OscillatorNode && OscillatorNode.prototype.start;
  if (start) {
    OscillatorNode.prototype.start = function (...args) {
      const f = this.frequency.value;
      if (this.type === 'sine' && f === 1760) probe.clicks.accent++;
      if (this.type === 'sine' && f === 1320) probe.clicks.beat++;
      return start.apply(this, args);
    };
  }
  Object.defineProperty(window, '__probe', { value: probe });
  document.addEventListener('securitypolicyviolation',
    (e) => probe.csp.push(e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sourceFile || '') + ':' + e.lineNumber), true);
  const AC = window.AudioContext;
  if (AC) {
    window.AudioContext = class extends AC {
      constructor(...args) { super(...args); probe.audioContexts++; }
    };
  }
})();`

const noStorageScript = `(() => {
  for (const name of ['localStorage', 'sessionStorage']) {
    Object.defineProperty(window, name, {
      configurable: true,
      get() { throw new DOMException('storage is disabled (test)', 'SecurityError'); },
    });
  }
})();`

// Page is one tab. Console messages (console API, exceptions, browser log entries such as failed
// loads and CSP reports) are recorded from the tab's start.
type Page struct {
	t   testing.TB
	ctx context.Context
	cfg pageConfig

	mu       sync.Mutex
	messages []chromedp.ConsoleMessage
	arrived  chan struct{} // closed (and replaced) when a console message is recorded
}

// newPage opens a tab in b, desktop-sized unless an option says otherwise; it closes at cleanup.
func (b *Browser) newPage(t testing.TB, opts ...PageOption) *Page {
	t.Helper()
	cfg := pageConfig{}
	desktop()(&cfg)
	for _, o := range opts {
		o(&cfg)
	}
	ctx, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	p := &Page{t: t, ctx: ctx, cfg: cfg, arrived: make(chan struct{})}
	if err := chromedp.Do(ctx); err != nil { // opens and attaches the tab
		t.Fatalf("opening a tab: %v", err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			p.mu.Lock()
			p.messages = append(p.messages, m)
			close(p.arrived)
			p.arrived = make(chan struct{})
			p.mu.Unlock()
		}
	}()
	scripts := []string{probeScript}
	if cfg.noStorage {
		scripts = append(scripts, noStorageScript)
	}
	setup := []chromedp.Action[chromedp.Void]{
		chromedp.EmulateViewport(cfg.width, cfg.height, chromedp.EmulateScale(cfg.scale), func(p1 *emulation.SetDeviceMetricsOverrideParams, p2 *emulation.SetTouchEmulationEnabledParams) {
			p1.Mobile = cfg.mobile
			p2.Enabled = cfg.mobile
		}),
	}
	for _, src := range scripts {
		setup = append(setup, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src})
			return err
		}))
	}
	if cfg.language != "" {
		setup = append(setup, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			ua, err := chromedp.Run(ctx, chromedp.Evaluate[string](`navigator.userAgent`))
			if err != nil {
				return err
			}
			_, err = cdp.Call(ctx, t, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: cfg.language})
			return err
		}))
	}
	if cfg.dark {
		setup = append(setup, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
			})
			return err
		}))
	}
	if len(cfg.blockURLs) > 0 {
		setup = append(setup, blockAction(cfg.blockURLs))
	}
	p.do(setup...)
	return p
}

// addInitScript runs src in p before each document's own scripts.
func addInitScript(p *Page, src string) {
	p.t.Helper()
	p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: src})
		return err
	}))
}

// blockAction makes requests matching any of patterns fail (net::ERR_BLOCKED_BY_CLIENT).
func blockAction(patterns []string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		params := network.SetBlockedURLsParams{}
		for _, pat := range patterns {
			params.URLPatterns = append(params.URLPatterns, &network.BlockPattern{URLPattern: pat, Block: true})
		}
		_, err := cdp.Call(ctx, t, network.SetBlockedURLs, params)
		return err
	})
}

// do runs actions in the tab and fails the test on an error.
func (p *Page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("browser: %v", err)
	}
}

// evalJS evaluates a JavaScript expression in the page and decodes its value into T.
func evalJS[T any](p *Page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// waitJS waits until expr is truthy, polling every 25 ms, and fails the test after waitTimeout with
// what, the last value and the recent console.
func (p *Page) waitJS(expr, what string) {
	p.t.Helper()
	p.waitJSWithin(expr, what, waitTimeout)
}

func (p *Page) waitJSWithin(expr, what string, limit time.Duration) time.Duration {
	p.t.Helper()
	start := time.Now()
	deadline := start.Add(limit)
	check := fmt.Sprintf(`(() => { try { return !!(%s); } catch (e) { return false; } })()`, expr)
	for {
		ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](check))
		cancel()
		if err == nil && ok {
			return time.Since(start)
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited %s for %s (%s): err=%v\nconsole:\n%s", limit, what, expr, err, p.consoleText())
		}
		select {
		case <-p.ctx.Done():
			p.t.Fatalf("waiting for %s: %v", what, p.ctx.Err())
		case <-time.After(25 * time.Millisecond):
		}
	}
}

// consoleText is the recorded console, one message a line.
func (p *Page) consoleText() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b strings.Builder
	for _, m := range p.messages {
		fmt.Fprintf(&b, "  %s %s (%s:%d)\n", m.Source, m, m.URL, m.Line+1)
	}
	return b.String()
}

// problems lists console errors, exceptions and CSP violations recorded so far.
// waitConsole waits until the console has recorded a message containing text: console events reach the
// test on their own goroutine, after the call that caused them may have returned.
func (p *Page) waitConsole(text string) {
	p.t.Helper()
	deadline := time.After(waitTimeout)
	for {
		p.mu.Lock()
		for _, m := range p.messages {
			if strings.Contains(m.Text, text) {
				p.mu.Unlock()
				return
			}
		}
		arrived := p.arrived
		p.mu.Unlock()
		select {
		case <-arrived:
		case <-deadline:
			p.t.Fatalf("waited %s for a console message with %q", waitTimeout, text)
		}
	}
}

func (p *Page) problems() []string {
	p.mu.Lock()
	var out []string
	for _, m := range p.messages {
		if m.Type == chromedp.ConsoleError || m.IsException() || strings.Contains(m.Text, "Content Security Policy") {
			out = append(out, fmt.Sprintf("console %s: %s (%s:%d)", m.Type, m.Text, m.URL, m.Line+1))
		}
	}
	p.mu.Unlock()
	for _, v := range evalJS[[]string](p, `window.__probe ? window.__probe.csp : []`) {
		out = append(out, "CSP violation: "+v)
	}
	return out
}

// requireClean fails the test when the page logged an error or an exception, violated its CSP, or shows
// a translation key where its text belongs (a string looked up before its module added it).
func (p *Page) requireClean(when string) {
	p.t.Helper()
	// Console events arrive asynchronously; a round trip to the page lets the ones already sent land.
	evalJS[int](p, `1`)
	for _, pr := range p.problems() {
		p.t.Errorf("%s: %s", when, pr)
	}
	for _, key := range evalJS[[]string](p, untranslatedJS) {
		p.t.Errorf("%s: the page shows the translation key %q instead of its text", when, key)
	}
}

// untranslatedJS lists the translation keys (data-i18n, data-i18n-<attribute>) that the page shows as
// they are, on elements it renders (a hidden part, such as the chat panel of a board without a chat,
// keeps its markup untranslated until its strings come).
const untranslatedJS = `(() => {
	const keys = [];
	for (const el of document.querySelectorAll('[data-i18n]')) {
		if (el.textContent === el.dataset.i18n && el.checkVisibility()) keys.push(el.dataset.i18n);
	}
	for (const attr of ['aria-label', 'placeholder', 'title']) {
		for (const el of document.querySelectorAll('[data-i18n-' + attr + ']')) {
			const key = el.getAttribute('data-i18n-' + attr);
			if (el.getAttribute(attr) === key && el.checkVisibility()) keys.push(key + ' (' + attr + ')');
		}
	}
	return keys;
})()`

// screenshot writes a PNG to <repo>/.audit/<area>/<name>.png (git-ignored): the full page, or just the
// viewport when the page is scrolled (a full-page capture would draw sticky headers mid-page) or shows a
// modal dialog (what the musician sees: the page behind it is inert).
//
// The full page is captured in a window made as tall as the page, then given its size back: what a
// window that tall shows, every bar drawn and its chords fitted. Chromium's capture beyond the viewport
// draws only what the page rendered for its window, and the board skips sections and bars far from
// the window (content-visibility: auto): they came out as empty bar frames, and blank below the first
// screens of a long board.
func (p *Page) screenshot(area, name string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	height := evalJS[int64](p, `Math.ceil(document.documentElement.scrollHeight)`)
	whole := !evalJS[bool](p, `window.scrollY > 0 || document.querySelector('dialog[open]') !== null`)
	if whole && height > p.cfg.height {
		p.setViewport(p.cfg.width, height)
		defer p.setViewport(p.cfg.width, p.cfg.height)
		drawn := evalJS[bool](p, `(async () => {
			const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
			const skipped = () => [...document.querySelectorAll('.section, .bar')]
				.some((el) => el.checkVisibility() && !el.checkVisibility({ contentVisibilityAuto: true }));
			for (let i = 0; i < 120; i++) {
				await frame();
				if (!skipped()) {
					await frame(); // chord fitting runs as the browser reports the skipped parts shown
					await frame(); // and this frame paints it
					return true;
				}
			}
			return false;
		})()`)
		if !drawn {
			p.t.Fatalf("screenshot %s: in a window %d px tall the page still skips some of its bars", name, height)
		}
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot %s: %v", name, err)
	}
	dir := filepath.Join(repoRoot(p.t), ".audit", area)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	return path
}

// setViewport gives the tab a viewport of width × height CSS px, at the page's scale and mobile rules.
func (p *Page) setViewport(width, height int64) {
	p.t.Helper()
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: width, Height: height, DeviceScaleFactor: p.cfg.scale, Mobile: p.cfg.mobile,
		})
		return err
	}))
}

// repoRoot is the repository root (tests run in e2e/).
func repoRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
