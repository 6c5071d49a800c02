package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

func TestZZTrace(t *testing.T) {
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
	var lay, clk, pre, tot []float64
	for round := 0; round < 8; round++ {
		var mu sync.Mutex
		var raws []string
		complete := make(chan struct{})
		ctx, cancel := context.WithCancel(p.ctx)
		chromedp.Listen(ctx, func(ev any) {
			switch ev := ev.(type) {
			case *tracing.EventDataCollected:
				mu.Lock()
				for _, r := range ev.Value {
					raws = append(raws, string(r))
				}
				mu.Unlock()
			case *tracing.EventTracingComplete:
				close(complete)
			}
		})
		config := &tracing.TraceConfig{IncludedCategories: []string{"devtools.timeline", "disabled-by-default-devtools.timeline", "blink"}}
		chromedp.Call(p.ctx, tracing.Start, tracing.StartParams{TransferMode: tracing.StartTransferModeReportEvents, TraceConfig: config})
		evalJS[string](p, `new Promise((resolve) => {
			document.getElementById('view-up').click();
			window.__bench.afterFrame(() => resolve(''));
		})`)
		chromedp.Call(p.ctx, tracing.End, cdp.Empty{})
		select {
		case <-complete:
		case <-time.After(30 * time.Second):
		}
		cancel()
		var l, c, pp, tt float64
		for _, r := range raws {
			var e struct {
				Name string          `json:"name"`
				Ph   string          `json:"ph"`
				Dur  float64         `json:"dur"`
				Tdur float64         `json:"tdur"`
				Args json.RawMessage `json:"args"`
			}
			json.Unmarshal([]byte(r), &e)
			switch e.Name {
			case "Layout":
				l += e.Tdur / 1000
				if round == 0 {
					t.Log(string(e.Args))
				}
			case "EventDispatch":
				c += e.Tdur / 1000
			case "Paint", "PrePaint", "Layerize":
				pp += e.Tdur / 1000
			case "RunTask":
				tt += e.Tdur / 1000
			}
		}
		lay, clk, pre, tot = append(lay, l), append(clk, c), append(pre, pp), append(tot, tt)
	}
	t.Log(fmt.Sprintf("layout %.1f click %.1f paint %.1f tasks %.1f", median(lay), median(clk), median(pre), median(tot)))
}
