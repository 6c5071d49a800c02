package host

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
)

// chatView reads GET /api/chat/:binding/status as the paired browser.
func (b *browser) status(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	req, _ := http.NewRequest("GET", b.origin+"/api/chat/"+b.binding+"/status", nil)
	req.AddCookie(b.cookie)
	resp, err := b.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("status: %d %s", resp.StatusCode, body)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// watch opens the paired browser's chat stream. Notes reach the HTTP side asynchronously; each change
// they make is published to the stream as a complete snapshot, the document GET status answers.
func (b *browser) watch(t *testing.T) *sseClient {
	t.Helper()
	return openSSE(t, b.origin+"/api/chat/"+b.binding+"/events", b.cookie)
}

// await reads snapshots from s until one satisfies cond, and returns it.
func await(t *testing.T, s *sseClient, what string, cond func(view map[string]json.RawMessage) bool) map[string]json.RawMessage {
	t.Helper()
	for {
		ev := wait(t, s.events, what)
		if ev.name != "snapshot" {
			continue
		}
		var view map[string]json.RawMessage
		if err := json.Unmarshal([]byte(ev.data), &view); err != nil {
			t.Fatalf("snapshot %q: %v", ev.data, err)
		}
		if cond(view) {
			return view
		}
	}
}

func TestNotesDriveTheChatView(t *testing.T) {
	fixture, err := os.ReadFile("../projection/testdata/pi-branch-example.json")
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	fb := startHost(t, hostOpts{})
	r := fb.ready("songs")
	b, _ := pair(t, r, r.Invite)
	view := b.watch(t)

	fb.send(`{"note":"branch","reset":true,"entries":` + compact(fixture) + `}`)
	await(t, view, "the branch projected", func(v map[string]json.RawMessage) bool {
		return strings.Contains(string(v["items"]), `"role":"user"`)
	})
	items := string(b.status(t)["items"])
	if !strings.Contains(items, "SCRIPTED_REPLY to: hello") {
		t.Fatalf("items lack the fixture's reply: %.300s", items)
	}

	// Malformed notes change nothing and do not stop the host.
	fb.send(`{"note":"branch","reset":true,"entries":{}}`)
	fb.send(`{"note":"branch","reset":"yes","entries":[]}`)
	fb.send(`{"note":"branch","entries":[]}`)
	fb.send(`{"note":"state","idle":true}`)
	fb.send(`{"note":"settled","extra":1}`)
	fb.send(`{"note":"settled"}`)
	fb.send(`{"note":"settled","source":"timer","idleChecks":0}`)
	fb.send(`{"note":"settled","source":"agent_settled","idleChecks":-1}`)
	fb.send(`{"note":"input","command":""}`)
	fb.send(`{"note":"stream","message":"text"}`)

	fb.send(`{"note":"agent_start"}`)
	await(t, view, "running", func(v map[string]json.RawMessage) bool { return string(v["status"]) == `"running"` })
	if string(b.status(t)["runId"]) == "null" {
		t.Fatal("no runId after agent_start")
	}
	fb.send(`{"note":"stream","message":{"role":"assistant","content":[{"type":"text","text":"Streaming words"}],"timestamp":1}}`)
	await(t, view, "the streaming item", func(v map[string]json.RawMessage) bool {
		return strings.Contains(string(v["items"]), "Streaming words")
	})
	fb.send(`{"note":"turn_end"}`)
	await(t, view, "the streaming item gone", func(v map[string]json.RawMessage) bool {
		return !strings.Contains(string(v["items"]), "Streaming words")
	})
	fb.send(`{"note":"state","idle":false,"pending":true,"prompt":true}`)
	await(t, view, "terminal prompt", func(v map[string]json.RawMessage) bool { return string(v["status"]) == `"terminal-prompt"` })
	fb.send(`{"note":"state","idle":false,"pending":false,"prompt":false}`)
	fb.send(`{"note":"agent_end"}`)
	fb.send(`{"note":"settled","source":"idle_check","idleChecks":1}`)
	await(t, view, "settled", func(v map[string]json.RawMessage) bool {
		return string(v["status"]) == `"idle"` && string(v["idleVersion"]) == "2" && string(v["runId"]) == "null"
	})
	logs := fb.logs.String()
	if strings.Contains(logs, "SCRIPTED_REPLY") || strings.Contains(logs, "Streaming words") {
		t.Fatal("message text in the logs")
	}
	// Where settled came from is logged once, for the one well-formed settled note.
	if n := strings.Count(logs, `msg="host: settled"`); n != 1 || !strings.Contains(logs, `msg="host: settled" source=idle_check idleChecks=1`) {
		t.Errorf("want one settled log line with its source and idle checks, got %d:\n%s", n, logs)
	}
}

func TestAbortAndFailedSendReachTheBridge(t *testing.T) {
	fb := startHost(t, hostOpts{})
	r := fb.ready("songs")
	b, _ := pair(t, r, r.Invite)
	view := b.watch(t)
	fb.send(`{"note":"agent_start"}`)
	var runID string
	await(t, view, "a run", func(v map[string]json.RawMessage) bool {
		json.Unmarshal(v["runId"], &runID)
		return runID != ""
	})
	done := make(chan int, 1)
	go func() {
		resp, _ := b.post("/api/chat/"+r.Binding+"/command",
			fmt.Sprintf(`{"type":"abort","id":"0b5e7c1e-2f4a-4d7b-9c3e-8a1f6d2b4c5e","epoch":%q,"runId":%q}`, r.Epoch, runID))
		done <- resp.StatusCode
	}()
	call := wait(t, fb.calls, "the abort call")
	var args map[string]string
	json.Unmarshal(call.m["args"], &args)
	if call.str("call") != "abort" || args["runId"] != runID || args["command"] != "0b5e7c1e-2f4a-4d7b-9c3e-8a1f6d2b4c5e" || len(args) != 2 {
		t.Fatalf("abort call %s", call.line)
	}
	fb.send(fmt.Sprintf(`{"id":%d,"ok":null}`, call.id()))
	if code := wait(t, done, "abort answer"); code != 202 {
		t.Fatalf("abort: %d", code)
	}
	fb.send(`{"note":"settled","source":"agent_settled","idleChecks":0}`)
	await(t, view, "idle", func(v map[string]json.RawMessage) bool { return string(v["status"]) == `"idle"` })

	// The bridge refuses a send: the browser hears the submission is uncertain.
	go func() {
		resp, _ := b.post("/api/chat/"+r.Binding+"/command",
			fmt.Sprintf(`{"type":"send","id":"1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f","epoch":%q,"idleVersion":2,"text":"hi"}`, r.Epoch))
		done <- resp.StatusCode
	}()
	call = wait(t, fb.calls, "the send call")
	fb.send(fmt.Sprintf(`{"id":%d,"err":{"code":"not_idle","message":"Pi is busy"}}`, call.id()))
	if code := wait(t, done, "send answer"); code != 502 {
		t.Fatalf("refused send: %d", code)
	}
}

func TestMalformedRevokeStillRevokes(t *testing.T) {
	fb := startHost(t, hostOpts{})
	r := fb.ready("songs")
	fb.send(`{"note":"revoke","reason":"because"}`)
	if err := fb.runResult(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !portClosed(r.port) {
		t.Fatal("the port is still open")
	}
	if !strings.Contains(fb.logs.String(), "reason=unknown") {
		t.Fatal("no revoke logged")
	}
}

func TestSecondHelloIgnored(t *testing.T) {
	fb := startHost(t, hostOpts{})
	fb.ready("songs")
	fb.hello("other")
	if r := fb.call("tool", `{"action":"get"}`); !strings.Contains(r.line, `"id":"songs"`) {
		t.Fatalf("get after a second hello: %s", r.line)
	}
	select {
	case n := <-fb.notes:
		t.Fatalf("a second hello was answered: %s", n.line)
	default:
	}
}
