// The board page's load as an outside probe drives Chromium, through Playwright (playwright-core, pinned
// by package-lock.json): the same Debian Chromium and flags as the Go tests, a fresh browser context per
// load (nothing cached from an earlier visit, as a new private window), 1280×800 at DPR 1, one warm-up
// visit of each page first, then the page and its baseline alternately. Each load is timed by the
// page's own performance mark (tele:bars-rendered: every bar in the document; the static chart sets it
// at the end of its body), as navigation-relative startTime.
//
//   node loadprobe.mjs <chromium> <page url> <baseline url> <loads>
//
// Each load is also timed to the first frame painted after the mark (a frame's rendering work is over
// when a message posted from its requestAnimationFrame callback runs), the end BenchmarkBoardPageLoad
// times under chromedp: the static chart sets its mark as its body is parsed, before it lays out and
// paints its 512 bars; the board page sets it once its first view (the chart the server drew into the
// page) is parsed and shown, or, drawing the board itself, when its last bar is drawn.
//
// It prints one JSON object: {"page": [ms…], "baseline": [ms…], "pagePainted": [ms…],
// "baselinePainted": [ms…], "resources": {page: n, baseline: n}, "firstRender": {page: {files, modules,
// moduleBytes, moduleDecoded, bytes}, baseline: {…}}, "warmPage": [ms…], "warmBaseline": [ms…],
// "warmPagePainted": [ms…], "warmBaselinePainted": [ms…]}: the warm loads are the same pages loaded
// again and again in one tab (its HTTP and code caches warm, as chromedp's benchmark loads them), to
// tell the driver's cost from the cold cache's.
// BenchmarkBoardPageLoadPlaywright (e2e/loadprobe_bench_test.go) runs it and reports the ratio.

import { chromium } from 'playwright-core';

const [executablePath, pageURL, baseURL, loadsArg] = process.argv.slice(2);
const loads = Number(loadsArg) || 5;
const MARK = 'tele:bars-rendered';

const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--lang=en-US'],
});

const contextOptions = { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 };

// afterPaint runs before any script of every document: it keeps in window.__painted the time of the
// first frame painted after the mark.
function afterPaint(name) {
  const mark = performance.mark.bind(performance);
  let seen = false;
  performance.mark = (n, options) => {
    const m = mark(n, options);
    if (n === name && !seen) {
      seen = true;
      requestAnimationFrame(() => {
        const ch = new MessageChannel();
        ch.port1.onmessage = () => { window.__painted = performance.now(); };
        ch.port2.postMessage(0);
      });
    }
    return m;
  };
}

async function newContext() {
  const context = await browser.newContext(contextOptions);
  await context.addInitScript(afterPaint, MARK);
  return context;
}

// load opens url in a fresh context, or in tab (a page kept open and navigated from load to load, as
// chromedp's benchmark does), and returns the mark's time, the painted frame's and how many resources
// the page fetched.
async function load(url, tab) {
  const context = tab ? null : await newContext();
  try {
    const page = tab || await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__painted > 0, null, { timeout: 60000, polling: 'raf' });
    return await page.evaluate((m) => {
      const at = performance.getEntriesByName(m)[0].startTime;
      // What the first render waited for: the files that arrived before the mark, and of them the ES
      // modules, with their bytes as sent (encoded) and as compiled (decoded).
      const before = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType('resource')).filter((r) => r.responseEnd <= at);
      const modules = before.filter((r) => new URL(r.name).pathname.endsWith('.js'));
      const sum = (list, k) => list.reduce((n, r) => n + r[k], 0);
      return {
        ms: at,
        painted: window.__painted,
        resources: performance.getEntriesByType('resource').length,
        first: { files: before.length, modules: modules.length, moduleBytes: sum(modules, 'encodedBodySize'), moduleDecoded: sum(modules, 'decodedBodySize'), bytes: sum(before, 'encodedBodySize') },
      };
    }, MARK);
  } finally {
    await context?.close();
  }
}

try {
  await load(pageURL);
  await load(baseURL);
  const out = { page: [], baseline: [], pagePainted: [], baselinePainted: [], resources: {} };
  for (let i = 0; i < loads; i++) {
    const p = await load(pageURL);
    const b = await load(baseURL);
    out.page.push(p.ms);
    out.baseline.push(b.ms);
    out.pagePainted.push(p.painted);
    out.baselinePainted.push(b.painted);
    out.resources = { page: p.resources, baseline: b.resources };
    out.firstRender = { page: p.first, baseline: b.first };
  }
  const warm = await newContext();
  const tab = await warm.newPage();
  for (let i = 0; i < 2; i++) {
    await load(pageURL, tab);
    await load(baseURL, tab);
  }
  out.warmPage = [];
  out.warmBaseline = [];
  out.warmPagePainted = [];
  out.warmBaselinePainted = [];
  for (let i = 0; i < loads; i++) {
    const p = await load(pageURL, tab);
    const b = await load(baseURL, tab);
    out.warmPage.push(p.ms);
    out.warmBaseline.push(b.ms);
    out.warmPagePainted.push(p.painted);
    out.warmBaselinePainted.push(b.painted);
  }
  await warm.close();
  process.stdout.write(JSON.stringify(out) + '\n');
} finally {
  await browser.close();
}
