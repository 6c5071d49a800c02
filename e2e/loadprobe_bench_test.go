package e2e

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// loadprobeDir holds the pinned Playwright driver (package-lock.json; `npm ci` there, as .ci/run and
// `make bench` do) and loadprobe.mjs.
const loadprobeDir = "loadprobe"

// playwrightLoads is what loadprobe.mjs measured: each load's tele:bars-rendered mark, in ms from the
// navigation's start, of the board page and of the static chart, alternately, each in a fresh context.
type playwrightLoads struct {
	Page     []float64 `json:"page"`
	Baseline []float64 `json:"baseline"`
	// …Painted: the first frame painted after each mark, the end BenchmarkBoardPageLoad times.
	PagePainted     []float64      `json:"pagePainted"`
	BaselinePainted []float64      `json:"baselinePainted"`
	Resources       map[string]int `json:"resources"`
	// FirstRender is what the last load of each page had received when its mark was set.
	FirstRender     map[string]firstRender `json:"firstRender"`
	WarmPage        []float64              `json:"warmPage"`
	WarmBase        []float64              `json:"warmBaseline"`
	WarmPagePainted []float64              `json:"warmPagePainted"`
	WarmBasePainted []float64              `json:"warmBaselinePainted"`
}

// firstRender counts the files a page had received when it set its mark: all of them, and its ES modules
// with their bytes as sent and as decoded (what the browser compiled). Unlike the times, these do not
// change with the machine's load.
type firstRender struct {
	Files         int `json:"files"`
	Modules       int `json:"modules"`
	ModuleBytes   int `json:"moduleBytes"`
	ModuleDecoded int `json:"moduleDecoded"`
	Bytes         int `json:"bytes"`
}

// BenchmarkBoardPageLoadPlaywright: the largest board's load as an outside probe drives the browser
// (issue 23, "What it must reach"): Playwright, the same Debian Chromium, a fresh browser context per
// load (no HTTP cache, no code cache), 1280×800 at DPR 1, one warm-up visit of each page, against the
// static chart of BenchmarkBoardPageLoad in the same run. Target: ≤ 1.5×, as under chromedp. Each
// iteration is one run of loadprobe.mjs of 5 loads of each page. The same pages reloaded in one context
// kept open (warm caches, as BenchmarkBoardPageLoad's loads) are reported beside them (warm-…), and
// every load is also timed to the first frame painted after its mark (painted-…), the end
// BenchmarkBoardPageLoad times: the static chart sets its mark before it lays out and paints its bars,
// the board page after it has laid out those near the window.
func BenchmarkBoardPageLoadPlaywright(b *testing.B) {
	requireTool(b, "Debian chromium", chromiumPath)
	requireTool(b, "node", "node")
	requireTool(b, "playwright-core (cd e2e/loadprobe && npm ci)", filepath.Join(loadprobeDir, "node_modules", "playwright-core", "package.json"))
	s := startServe(b)
	content := largestBoard(0)
	apiCreateBoard(b, s, "largest", content)
	static := staticServer(b, content)
	var page, base, warmPage, warmBase, painted, basePainted, warmPainted, warmBasePainted []float64
	var got playwrightLoads
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		cmd := exec.CommandContext(ctx, "node", "loadprobe.mjs", chromiumPath, s.URL+"/b/largest", static.URL+"/", strconv.Itoa(5))
		cmd.Dir = loadprobeDir
		out, err := cmd.Output()
		cancel()
		if err != nil {
			stderr := ""
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			b.Fatalf("loadprobe.mjs: %v\n%s", err, stderr)
		}
		got = playwrightLoads{}
		if err := json.Unmarshal(out, &got); err != nil || len(got.Page) == 0 || len(got.Page) != len(got.Baseline) || len(got.PagePainted) != len(got.Page) || len(got.BaselinePainted) != len(got.Page) {
			b.Fatalf("loadprobe.mjs said %q: %v", out, err)
		}
		page, base = append(page, got.Page...), append(base, got.Baseline...)
		warmPage, warmBase = append(warmPage, got.WarmPage...), append(warmBase, got.WarmBase...)
		painted, basePainted = append(painted, got.PagePainted...), append(basePainted, got.BaselinePainted...)
		warmPainted, warmBasePainted = append(warmPainted, got.WarmPagePainted...), append(warmBasePainted, got.WarmBasePainted...)
	}
	b.ReportMetric(median(page), "tele-ms")
	b.ReportMetric(median(base), "static-ms")
	b.ReportMetric(medianRatio(page, base), "tele/static")
	b.ReportMetric(median(warmPage), "warm-tele-ms")
	b.ReportMetric(median(warmBase), "warm-static-ms")
	b.ReportMetric(medianRatio(warmPage, warmBase), "warm-tele/static")
	b.ReportMetric(median(painted), "painted-tele-ms")
	b.ReportMetric(median(basePainted), "painted-static-ms")
	b.ReportMetric(medianRatio(painted, basePainted), "painted-tele/static")
	b.ReportMetric(medianRatio(warmPainted, warmBasePainted), "warm-painted-tele/static")
	b.ReportMetric(float64(got.Resources["page"]), "tele-requests")
	b.ReportMetric(float64(got.Resources["baseline"]), "static-requests")
	first := got.FirstRender["page"]
	b.ReportMetric(float64(first.Modules), "tele-first-modules")
	b.ReportMetric(float64(first.ModuleBytes)/1024, "tele-first-module-KiB")
	b.ReportMetric(float64(first.ModuleDecoded)/1024, "tele-first-module-decoded-KiB")
	b.ReportMetric(float64(first.Bytes)/1024, "tele-first-KiB")
}
