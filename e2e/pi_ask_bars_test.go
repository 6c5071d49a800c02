package e2e

// Issue 28, item 5 on a real Pi: a message sent with the bars the musician asked about reaches the
// model as the text and, after it, the bars written out by the host; the conversation's copy carries
// the same block, which the page folds into its chip (TestAskAboutBars proves the page's side).

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/tidwall/gjson"
)

func TestPiAskAboutBars(t *testing.T) {
	forEachPi(t, func(t *testing.T, line piLine) {
		requirePi(t, line)
		p := newProbe(t, line, "ask")
		p.fm.Script(func(*ModelRequest) Reply { return Reply{Text: "noted"} })
		p.startWithBridge(t, line)
		c := p.connect(t)
		p.pair(t, c)
		c.waitView(t, "idle", func(v gjson.Result) bool { return v.Get("status").String() == "idle" })

		v := c.status(t)
		n := p.fm.Count()
		code, r := c.request(t, "POST", "/api/chat/"+c.binding+"/command", map[string]any{
			"type": "send", "id": uuid.NewString(), "epoch": v.Get("epoch").String(), "idleVersion": v.Get("idleVersion").Int(),
			"text":      "Why does this feel static?",
			"selection": map[string]any{"section": "Verse", "from": 5, "bars": []string{"Dmaj7", "B7", "|: Em7 :|", "A7"}, "view": "transposed +2 semitones (sounding key D)"},
		})
		if code != 202 {
			t.Fatalf("send with a selection: %d %s", code, r.Raw)
		}
		want := "Why does this feel static?\n\n[Tele selection: section \"Verse\", bars 5-8; view: transposed +2 semitones (sounding key D)]\n5: Dmaj7\n6: B7\n7: |: Em7 :|\n8: A7"
		req := p.fm.WaitCount(t, n+1, 30*time.Second)
		users := req.UserTexts()
		if len(users) == 0 || !strings.Contains(users[len(users)-1], want) {
			t.Fatalf("the model's input ends with %q, want it to hold %q", tailOf(users, 1), want)
		}
		c.waitView(t, "the message in the conversation, with its block", func(v gjson.Result) bool {
			for _, it := range v.Get("items").Array() {
				if it.Get("role").String() == "user" && strings.HasSuffix(it.Get("text").String(), "\n8: A7") {
					return true
				}
			}
			return false
		})
	})
}
