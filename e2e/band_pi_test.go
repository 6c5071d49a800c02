package e2e

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestPiBridgeShares (issue 22: "tele host, so a Pi session can lead too"): Pi started with
// --tele-share --tele-share-addr <127.0.0.2:port>; /tele starts the host with the share listener there,
// so the board's page on loopback starts a share whose join link is on that address, and the join
// page answers on it.
func TestPiBridgeShares(t *testing.T) {
	forEachPi(t, func(t *testing.T, line piLine) {
		requirePi(t, line)
		p := newProbe(t, line, "share")
		defer p.finish()
		addr := shareAddr(t)
		p.startWithBridge(t, line, "--tele-share", "--tele-share-addr", addr)
		p.step("host-shares", func(t *testing.T) string {
			c := p.connect(t)
			code, v := c.request(t, "POST", "/api/share", map[string]any{})
			if code != 201 || !strings.HasPrefix(v.Get("joinUrl").String(), "http://"+addr+"/join#key=") {
				t.Fatalf("POST /api/share on the Pi session's host: %d %s", code, v.Raw)
			}
			client := &http.Client{Timeout: 10 * time.Second}
			res, err := client.Get("http://" + addr + "/join")
			if err != nil {
				t.Fatalf("the share listener: %v", err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 || !strings.Contains(string(body), "<html") {
				t.Fatalf("GET /join on %s: %d", addr, res.StatusCode)
			}
			if err := p.pi.Quit(); err != nil {
				t.Fatal(err)
			}
			waitExit(t, c.hostPID, 10*time.Second, "the host to exit")
			return "tele host --share started by /tele; a share from the loopback page has its join link on the share address, whose join page answers"
		})
	})
}
