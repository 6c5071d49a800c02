package e2e

import (
	"context"
	"fmt"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
)

func metricsOf(p *Page) map[string]float64 {
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	res, err := chromedp.Call(ctx, performance.GetMetrics, cdp.Empty{})
	if err != nil {
		p.t.Fatal(err)
	}
	m := map[string]float64{}
	for _, x := range res.Metrics {
		m[x.Name] = x.Value
	}
	return m
}

func TestZZProf(t *testing.T) {
	s := startServe(t)
	song := longestSong()
	apiCreateBoard(t, s, "longest-song", song)
	br := newBrowser(t)
	opts := []PageOption{}
	if os.Getenv("ZZPHONE") != "" {
		opts = append(opts, phone())
	}
	p := benchPage(t, br, opts...)
	measureLoad(p, s.URL+"/b/longest-song")
	evalJS[bool](p, `(async () => { for (let i = 0; i < 10; i++) await new Promise((r) => requestAnimationFrame(r)); return true; })()`)
	keys := []string{"ThreadTime", "TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration"}
	vals := map[string][]float64{}
	for round := 0; round < 12; round++ {
		before := metricsOf(p)
		evalJS[string](p, `new Promise((resolve) => {
			document.getElementById('view-up').click();
			window.__bench.afterFrame(() => resolve(''));
		})`)
		after := metricsOf(p)
		for _, k := range keys {
			vals[k] = append(vals[k], (after[k]-before[k])*1000)
		}
		evalJS[bool](p, `(async () => { for (let i = 0; i < 3; i++) await new Promise((r) => requestAnimationFrame(r)); return true; })()`)
	}
	out := ""
	for _, k := range keys {
		v := vals[k]
		sort.Float64s(v)
		out += fmt.Sprintf("%s med %.1f min %.1f | ", k, v[len(v)/2], v[0])
	}
	t.Log(out)
}
