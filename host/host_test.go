package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tele/board"
	"tele/board/store"
)

func TestHelloReadyAndInvitation(t *testing.T) {
	fb := startHost(t, hostOpts{})
	r := fb.ready("songs")
	if r.Protocol != 1 || r.port == 0 {
		t.Fatalf("ready: %+v", r)
	}
	if r.URL != fmt.Sprintf("http://127.0.0.1:%d/b/songs", r.port) {
		t.Fatalf("url %q", r.URL)
	}
	if !strings.HasPrefix(r.Invite, r.URL+"#binding=") {
		t.Fatalf("invite %q", r.Invite)
	}
	frag := fragment(t, r.Invite)
	capability, err := store.ReadCapability(fb.dir, "songs")
	if err != nil {
		t.Fatal(err)
	}
	// Only one-time secrets in the link (finding 10): no capability, under any name.
	if frag.Get("binding") != r.Binding || frag.Get("invite") == "" || len(frag) != 2 ||
		strings.Contains(r.Invite, "cap=") || strings.Contains(r.Invite, capability) {
		t.Fatalf("fragment %v", frag)
	}
	if strings.Contains(strings.SplitN(r.Invite, "#", 2)[0], frag.Get("invite")) {
		t.Fatal("a secret outside the fragment")
	}
	if strings.Contains(fb.logs.String(), frag.Get("invite")) || strings.Contains(fb.logs.String(), capability) {
		t.Fatal("a secret in the logs")
	}
	if code, body := getJSON(t, r.origin+"/api/capabilities"); code != 200 || body != `{"chat":true}` {
		t.Fatalf("capabilities: %d %s", code, body)
	}
	if code, _ := getJSON(t, r.URL); code != 200 {
		t.Fatalf("board page: %d", code)
	}
	b, code := pair(t, r, r.Invite)
	if code != 200 {
		t.Fatalf("pairing with the invitation: %d", code)
	}
	if b.capability != capability {
		t.Fatal("the pairing answer does not carry the board's capability")
	}
	if b.cookie.Path != "/api/chat/"+r.Binding || !b.cookie.HttpOnly {
		t.Fatalf("cookie %+v", b.cookie)
	}
	if _, code := pair(t, r, r.Invite); code != 403 {
		t.Fatalf("second redemption: %d", code)
	}
	// invite mints a fresh one for the same binding; the earlier unredeemed one dies.
	a := fb.call("invite", `{}`)
	var res struct{ Invite string }
	json.Unmarshal(a.m["ok"], &res)
	b2 := fb.call("invite", `{}`)
	var res2 struct{ Invite string }
	json.Unmarshal(b2.m["ok"], &res2)
	if fragment(t, res.Invite).Get("binding") != r.Binding || res.Invite == res2.Invite {
		t.Fatalf("invite: %s / %s", a.line, b2.line)
	}
	if _, code := pair(t, r, res.Invite); code != 403 {
		t.Fatalf("superseded invitation: %d", code)
	}
	if _, code := pair(t, r, res2.Invite); code != 200 {
		t.Fatalf("fresh invitation: %d", code)
	}
	if got := fb.call("invite", `{"x":1}`); !strings.Contains(got.line, `"code":"bad_call"`) {
		t.Fatalf("invite with arguments: %s", got.line)
	}
}

func TestFatalProtocol(t *testing.T) {
	fb := startHost(t, hostOpts{})
	fb.sendJSON(map[string]any{"note": "hello", "protocol": 2, "bridge": "9", "pi": "9", "board": "x", "session": map[string]any{"id": "s"}})
	n := fb.note()
	if n.str("note") != "fatal" || n.str("code") != "protocol" || !strings.Contains(n.str("message"), "protocol 2") {
		t.Fatalf("got %s", n.line)
	}
	var fe *FatalError
	if err := fb.runResult(); !errors.As(err, &fe) || fe.Code != "protocol" {
		t.Fatalf("Run: %v", err)
	}
	if _, err := os.Stat(fb.dir); !os.IsNotExist(err) {
		t.Fatalf("the data directory was created: %v", err)
	}
}

func TestFatalMalformedHelloAndFirstFrame(t *testing.T) {
	for _, first := range []string{
		`{"note":"hello","protocol":1,"bridge":"1","pi":"1","board":"x"}`,
		`{"note":"hello","protocol":1,"bridge":"1","pi":"1","board":"x","session":{"id":"s"},"extra":true}`,
		`{"note":"hello","protocol":1,"bridge":1,"pi":"1","board":"x","session":{"id":"s"}}`,
		`{"note":"hello","protocol":"1","bridge":"1","pi":"1","board":"x","session":{"id":"s"}}`,
		`{"note":"hello","protocol":1,"bridge":"1","pi":"1","board":"x","session":{"id":""}}`,
		`{"note":"state","idle":true,"pending":false,"prompt":false}`,
		`{"id":1,"call":"tool","args":{"action":"get"}}`,
	} {
		fb := startHost(t, hostOpts{})
		fb.send(`this line is not JSON`) // malformed frames never kill the host, even before hello
		fb.send(first)
		n := fb.note()
		if n.str("note") != "fatal" || n.str("code") != "protocol" {
			t.Fatalf("%s: got %s", first, n.line)
		}
		if err := fb.runResult(); err == nil {
			t.Fatalf("%s: Run returned nil", first)
		}
	}
}

// TestHelloPiFeatures: from the Pi version in the hello, the host decides which Pi events the bridge
// takes as they are (in ready's native) and which it imitates, and logs both; a Pi older than 0.73 gets
// fatal unsupported_pi with one line saying how to update, and nothing is started.
func TestHelloPiFeatures(t *testing.T) {
	for _, tc := range []struct {
		pi     string
		native []string
		log    string
	}{
		{"1.6.0", []string{"agent_settled", "ui_prompt"}, "pi=1.6.0 native=agent_settled,ui_prompt imitated=\"\" "},
		{"0.87.0", []string{"agent_settled", "ui_prompt"}, "native=agent_settled,ui_prompt imitated=\"\" "},
		{"0.86.2", []string{"ui_prompt"}, "native=ui_prompt imitated=agent_settled "},
		{"0.84.4", []string{"ui_prompt"}, "native=ui_prompt imitated=agent_settled "},
		{"0.84.3", []string{}, "native=\"\" imitated=agent_settled,ui_prompt "},
		{"0.73.1", []string{}, "pi=0.73.1 native=\"\" imitated=agent_settled,ui_prompt "},
		{"0.73.0", []string{}, "native=\"\" imitated=agent_settled,ui_prompt "},
		{"2.0.0-beta.1", []string{"agent_settled", "ui_prompt"}, "native=agent_settled,ui_prompt "},
		{"1.6", []string{}, "native=\"\" imitated=agent_settled,ui_prompt "}, // unparsable: assume nothing
		{"next", []string{}, "native=\"\" imitated=agent_settled,ui_prompt "},
		{"0.72.1", nil, "pi=0.72.1 "},
		{"0.7.6", nil, "pi=0.7.6 "},
	} {
		t.Run(tc.pi, func(t *testing.T) {
			fb := startHost(t, hostOpts{})
			fb.sendJSON(map[string]any{"note": "hello", "protocol": 1, "bridge": "1", "pi": tc.pi, "board": "songs", "session": map[string]any{"id": "s"}})
			n := fb.note()
			if tc.native == nil {
				msg := n.str("message")
				if n.str("note") != "fatal" || n.str("code") != "unsupported_pi" || !strings.Contains(msg, "Pi "+tc.pi+" is too old") ||
					!strings.Contains(msg, "@earendil-works/pi-coding-agent") || strings.Contains(msg, "\n") {
					t.Fatalf("pi %s: got %s", tc.pi, n.line)
				}
				if err := fb.runResult(); err == nil {
					t.Fatalf("pi %s: Run returned nil", tc.pi)
				}
				if _, err := os.Stat(fb.dir); !os.IsNotExist(err) {
					t.Fatalf("pi %s: the data directory was created: %v", tc.pi, err)
				}
			} else {
				var native []string
				if n.str("note") != "ready" || json.Unmarshal(n.m["native"], &native) != nil || !slices.Equal(native, tc.native) {
					t.Fatalf("pi %s: want ready with native %q, got %s", tc.pi, tc.native, n.line)
				}
			}
			if logs := fb.logs.String(); !strings.Contains(logs, tc.log) {
				t.Errorf("pi %s: the hello log lacks %q:\n%s", tc.pi, tc.log, logs)
			}
		})
	}
}

func TestFatalBadBoard(t *testing.T) {
	for _, id := range []string{"", "-x", "a/b", "../etc", strings.Repeat("a", 65), "é"} {
		fb := startHost(t, hostOpts{})
		fb.hello(id)
		n := fb.note()
		if n.str("note") != "fatal" || n.str("code") != "bad_board" {
			t.Fatalf("%q: got %s", id, n.line)
		}
		fb.runResult()
		if _, err := os.Stat(fb.dir); !os.IsNotExist(err) {
			t.Fatalf("%q: the data directory was created", id)
		}
	}
	fb := startHost(t, hostOpts{})
	fb.send(`{"note":"hello","protocol":1,"bridge":"1","pi":"1","board":7,"session":{"id":"s"}}`)
	if n := fb.note(); n.str("code") != "bad_board" {
		t.Fatalf("numeric board: %s", n.line)
	}
}

func TestFatalDataLocked(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	owner, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close()
	owner.SetOwner(4242, 4317)
	fb := startHost(t, hostOpts{dir: dir})
	fb.hello("songs")
	n := fb.note()
	if n.str("note") != "fatal" || n.str("code") != "data_locked" {
		t.Fatalf("got %s", n.line)
	}
	if msg := n.str("message"); !strings.Contains(msg, "pid 4242") || !strings.Contains(msg, dir) {
		t.Fatalf("message does not name the owner: %q", msg)
	}
	var fe *FatalError
	if err := fb.runResult(); !errors.As(err, &fe) || fe.Code != "data_locked" {
		t.Fatalf("Run: %v", err)
	}
}

func TestFatalPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	fb := startHost(t, hostOpts{port: port})
	fb.hello("songs")
	n := fb.note()
	if n.str("note") != "fatal" || n.str("code") != "port_in_use" || !strings.Contains(n.str("message"), fmt.Sprint(port)) {
		t.Fatalf("got %s", n.line)
	}
	fb.runResult()
	if _, err := os.Stat(filepath.Join(fb.dir, "boards")); !os.IsNotExist(err) {
		t.Fatal("a busy port changed the data directory")
	}
}

func TestUnknownBoardCreatedFromExample(t *testing.T) {
	fb := startHost(t, hostOpts{})
	r := fb.ready("fresh-board")
	code, body := getJSON(t, r.origin+"/api/boards/fresh-board")
	if code != 200 {
		t.Fatalf("GET board: %d %s", code, body)
	}
	var got struct {
		ID       string
		Revision int64
		Content  json.RawMessage
	}
	json.Unmarshal([]byte(body), &got)
	want, _ := json.Marshal(board.Example())
	if got.ID != "fresh-board" || string(got.Content) != string(want) {
		t.Fatalf("board %s, want content %s", body, want)
	}
	// Tele wrote it: the example is revision 1 by tele, on disk and in the board.
	if f := readFile(t, filepath.Join(fb.dir, "boards", "fresh-board", "1.json")); !strings.Contains(f, `"author":"tele"`) {
		t.Fatalf("revision file %s", f)
	}
	if !strings.Contains(body, `"author":"tele","restoredFrom":null`) {
		t.Fatalf("board %s, want author tele", body)
	}
}

func TestMalformedFramesDoNotKillTheHost(t *testing.T) {
	fb := startHost(t, hostOpts{})
	fb.ready("songs")
	secret := "words-of-a-private-message"
	fb.send(`not json ` + secret)
	fb.send(`{"note":"branch","reset":true,"entries":["` + strings.Repeat("x", 16<<20) + `"]}`) // over 16 MiB
	fb.send(`{"id":"7","call":"tool","args":{"action":"get"}}`)                                 // wrong id type
	fb.send(`{"id":1.5,"call":"tool","args":{}}`)
	fb.send(`{"id":77,"ok":null}`) // a reply to an unknown id: logged, never answered
	fb.send(`{"id":78,"err":{"code":"x","message":"` + secret + `"}}`)
	fb.send(`{"id":500,"call":"tool","args":"` + secret + `"}`) // carries an id: answered
	r := wait(t, fb.replies, "err reply")
	if r.id() != 500 || !strings.Contains(r.line, `"code":"bad_frame"`) || strings.Contains(r.line, secret) {
		t.Fatalf("malformed call: %s", r.line)
	}
	fb.send(`{"id":501,"call":"tool","args":{"action":"get"},"id":502}`)    // duplicate key: no usable id
	fb.send(`{"note":"state","idle":"yes","pending":false,"prompt":false}`) // malformed known note: ignored
	fb.send(`{"note":"from_the_future","x":[1,2,3]}`)                       // unknown note: ignored
	fb.nextID = 600
	if got := fb.call("tool", `{"action":"get"}`); got.m["ok"] == nil {
		t.Fatalf("get after malformed frames: %s", got.line)
	}
	if got := fb.call("no_such_call", `{}`); !strings.Contains(got.line, `"err":{"code":"bad_call"`) {
		t.Fatalf("unknown call: %s", got.line)
	}
	select {
	case extra := <-fb.replies:
		t.Fatalf("unexpected reply %s", extra.line)
	default:
	}
	logs := fb.logs.String()
	if strings.Contains(logs, secret) || strings.Contains(logs, "xxxxxxxx") {
		t.Fatal("frame content in the logs")
	}
	for _, want := range []string{"longer than 16777216 bytes", "reply to an unknown id", "id must be a positive integer", "malformed note ignored"} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %q", want)
		}
	}
}

func TestToolGetAndCatalogueNeverCarryTheCapability(t *testing.T) {
	fb := startHost(t, hostOpts{})
	fb.ready("songs")
	capability, err := store.ReadCapability(fb.dir, "songs")
	if err != nil || capability == "" {
		t.Fatal(err)
	}
	for _, args := range []string{
		`{"action":"get"}`,
		`{"action":"get","expectedRevision":99,"content":{"title":"ignored"}}`,
		`{"action":"get","expectedRevision":"x","content":"ignored"}`,
		`{"action":"catalogue"}`,
		`{"action":"catalogue","content":{}}`,
	} {
		r := fb.call("tool", args)
		if r.m["ok"] == nil {
			t.Fatalf("%s: %s", args, r.line)
		}
		if strings.Contains(r.line, capability) {
			t.Fatalf("%s: the reply carries the capability", args)
		}
	}
	r := fb.call("tool", `{"action":"get"}`)
	var got map[string]json.RawMessage
	json.Unmarshal(r.m["ok"], &got)
	if len(got) != 6 || got["id"] == nil || got["revision"] == nil || got["content"] == nil ||
		string(got["author"]) != `"tele"` || string(got["restoredFrom"]) != "null" || string(got["schemaVersion"]) != "1" {
		t.Fatalf("get result %s", r.m["ok"])
	}
	cat := fb.call("tool", `{"action":"catalogue"}`)
	if string(cat.m["ok"]) != string(board.CatalogueJSON()) {
		t.Fatalf("catalogue %s", cat.m["ok"])
	}
	for args, code := range map[string]string{
		`{}`:                                    "bad_call",
		`{"action":"delete"}`:                   "bad_call",
		`{"action":"get","board":"x"}`:          "bad_call",
		`{"action":"put","content":{}}`:         "bad_call",
		`{"action":"put","expectedRevision":1}`: "bad_call",
		`{"action":"put","expectedRevision":1.5,"content":{}}`:        "bad_call",
		`{"action":"put","expectedRevision":1,"content":"{\"a\":1}"}`: "bad_call",
	} {
		if r := fb.call("tool", args); !strings.Contains(r.line, `"err":{"code":"`+code+`"`) {
			t.Errorf("%s: %s", args, r.line)
		}
	}
}

// catalogue asks the tool for its catalogue, failing the test when the answer is not one or ok does not
// hold of it.
func catalogue(t *testing.T, fb *fakeBridge, ok func(board.CatalogueDoc) bool) board.CatalogueDoc {
	t.Helper()
	cat := fb.call("tool", `{"action":"catalogue"}`)
	var doc board.CatalogueDoc
	if err := json.Unmarshal(cat.m["ok"], &doc); err != nil || !ok(doc) {
		t.Fatalf("catalogue %s", cat.line)
	}
	return doc
}

func getBoard(t *testing.T, fb *fakeBridge) (int64, board.Content) {
	t.Helper()
	r := fb.call("tool", `{"action":"get"}`)
	var got struct {
		Revision int64
		Content  board.Content
	}
	if err := json.Unmarshal(r.m["ok"], &got); err != nil {
		t.Fatalf("get: %s", r.line)
	}
	return got.Revision, got.Content
}

func TestToolPut(t *testing.T) {
	fb := startHost(t, hostOpts{})
	r := fb.ready("songs")
	boardDir := filepath.Join(fb.dir, "boards", "songs")
	files := func() string { // every revision file of the board, with its bytes
		ents, err := os.ReadDir(boardDir)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, e := range ents {
			b.WriteString(e.Name() + "\n" + readFile(t, filepath.Join(boardDir, e.Name())) + "\n")
		}
		return b.String()
	}
	rev, content := getBoard(t, fb)
	before := files()

	stream := openSSE(t, r.origin+"/api/boards/songs/events", nil)
	if ev := stream.next(t); ev.name != "board" {
		t.Fatalf("first board event %+v", ev)
	}

	// Stale revision: an error with currentRevision, nothing changed.
	content.Title = "Changed"
	cb, _ := json.Marshal(content)
	stale := fb.call("tool", fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s}`, rev+5, cb))
	var e struct {
		Err struct {
			Code            string
			Message         string
			CurrentRevision int64
		}
	}
	json.Unmarshal([]byte(stale.line), &e)
	if e.Err.Code != "revision_conflict" || e.Err.CurrentRevision != rev || e.Err.Message == "" {
		t.Fatalf("stale put: %s", stale.line)
	}
	if files() != before {
		t.Fatal("a stale put changed the board's files")
	}

	// Invalid content: an error naming path and rule, nothing changed.
	bad := fb.call("tool", fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":{"title":"x","description":"","tempo":-3,"beatsPerBar":4,"sections":[]}}`, rev))
	var inv struct {
		Err struct{ Code, Message, Path, Rule string }
	}
	json.Unmarshal([]byte(bad.line), &inv)
	if inv.Err.Code != "invalid_content" || inv.Err.Path == "" || inv.Err.Rule == "" || !strings.Contains(inv.Err.Message, inv.Err.Path) {
		t.Fatalf("invalid put: %s", bad.line)
	}
	dup := fb.call("tool", fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":{"title":"a","title":"b"}}`, rev))
	if !strings.Contains(dup.line, `"code":"invalid_content"`) {
		t.Fatalf("duplicate key in content: %s", dup.line)
	}
	if files() != before {
		t.Fatal("an invalid put changed the board's files")
	}
	select {
	case ev := <-stream.events:
		t.Fatalf("a failed put was published: %+v", ev)
	default:
	}

	// A good put: the result, the file, and the board stream.
	good := fb.call("tool", fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s}`, rev, cb))
	var res struct {
		ID           string
		Revision     int64
		Content      board.Content
		Author       string
		RestoredFrom *int64
	}
	if err := json.Unmarshal(good.m["ok"], &res); err != nil || res.Revision != rev+1 || res.Content.Title != "Changed" || res.Author != "pi" || res.RestoredFrom != nil {
		t.Fatalf("good put: %s", good.line)
	}
	ev := stream.next(t)
	if ev.name != "board" || !strings.Contains(ev.data, `"title":"Changed"`) || !strings.Contains(ev.data, fmt.Sprintf(`"revision":%d`, rev+1)) {
		t.Fatalf("stream event %+v", ev)
	}
	if ev.name != "board" || !strings.Contains(ev.data, `"author":"pi"`) {
		t.Fatalf("stream event %+v, want author pi", ev)
	}
	if f := readFile(t, filepath.Join(boardDir, fmt.Sprintf("%d.json", rev+1))); !strings.Contains(f, `"Changed"`) || !strings.Contains(f, `"author":"pi"`) {
		t.Fatalf("the revision file lacks the put: %s", f)
	}
	capability, _ := store.ReadCapability(fb.dir, "songs")
	if strings.Contains(good.line, capability) {
		t.Fatal("put result carries the capability")
	}
}

func TestBrowserSendReachesTheBridge(t *testing.T) {
	fb := startHost(t, hostOpts{})
	r := fb.ready("songs")
	fb.send(`{"note":"state","idle":true,"pending":false,"prompt":false}`)
	b, code := pair(t, r, r.Invite)
	if code != 200 {
		t.Fatalf("pair: %d", code)
	}
	chat := openSSE(t, r.origin+"/api/chat/"+r.Binding+"/events", b.cookie)
	if ev := chat.next(t); ev.name != "snapshot" {
		t.Fatalf("first chat event %+v", ev)
	}

	type result struct {
		status int
		body   string
	}
	done := make(chan result, 1)
	text := "Play it in D, 你好 🎸"
	go func() {
		resp, body := b.post("/api/chat/"+r.Binding+"/command",
			fmt.Sprintf(`{"type":"send","id":"6f1c1a9e-8d4b-4c55-9a57-2f3d1d0e7b11","epoch":%q,"idleVersion":1,"text":%q}`, r.Epoch, text))
		done <- result{resp.StatusCode, body}
	}()
	call := wait(t, fb.calls, "the send call")
	var args struct{ Command, Text string }
	if call.str("call") != "send" || json.Unmarshal(call.m["args"], &args) != nil || args.Text != text || args.Command != "6f1c1a9e-8d4b-4c55-9a57-2f3d1d0e7b11" {
		t.Fatalf("send call %s", call.line)
	}
	fb.send(fmt.Sprintf(`{"id":%d,"ok":null}`, call.id()))
	res := wait(t, done, "the command's answer")
	if res.status != 202 || !strings.Contains(res.body, `"status":"submitted"`) {
		t.Fatalf("command: %d %s", res.status, res.body)
	}
	// The bridge reports the input; the run starts and ends.
	fb.send(`{"note":"input","command":"6f1c1a9e-8d4b-4c55-9a57-2f3d1d0e7b11"}`)
	fb.send(`{"note":"agent_start"}`)
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ev := <-chat.events:
			if strings.Contains(ev.data, `"status":"running"`) {
				return
			}
		case <-deadline:
			t.Fatal("no running snapshot")
		}
	}
}

func TestRevokeClosesEverything(t *testing.T) {
	fb := startHost(t, hostOpts{})
	r := fb.ready("songs")
	b, _ := pair(t, r, r.Invite)
	chat := openSSE(t, r.origin+"/api/chat/"+r.Binding+"/events", b.cookie)
	chat.next(t)
	boardStream := openSSE(t, r.origin+"/api/boards/songs/events", nil)
	boardStream.next(t)

	fb.send(`{"note":"revoke","reason":"off"}`)
	chat.waitEnded(t)
	boardStream.waitEnded(t)
	if err := fb.runResult(); err != nil {
		t.Fatalf("Run after revoke: %v", err)
	}
	released(t, fb, r)
	if !strings.Contains(fb.logs.String(), "reason=off") {
		t.Fatal("the revoke reason was not logged")
	}
}

func TestStdinEOFEndsPromptly(t *testing.T) {
	fb := startHost(t, hostOpts{})
	r := fb.ready("songs")
	b, _ := pair(t, r, r.Invite)
	chat := openSSE(t, r.origin+"/api/chat/"+r.Binding+"/events", b.cookie)
	chat.next(t)
	start := time.Now()
	fb.in.Close()
	if err := fb.runResult(); err != nil {
		t.Fatalf("Run at EOF: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Run took %v after EOF", d)
	}
	chat.waitEnded(t)
	released(t, fb, r)
}

func TestContextEndStopsTheHost(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	fb := startHost(t, hostOpts{ctx: ctx})
	r := fb.ready("songs")
	b, _ := pair(t, r, r.Invite)
	chat := openSSE(t, r.origin+"/api/chat/"+r.Binding+"/events", b.cookie)
	chat.next(t)
	cancel() // stdin stays open: the host must stop anyway
	if err := fb.runResult(); err != nil {
		t.Fatalf("Run after cancel: %v", err)
	}
	chat.waitEnded(t)
	released(t, fb, r)
}

func TestEOFBeforeHello(t *testing.T) {
	fb := startHost(t, hostOpts{})
	fb.in.Close()
	if err := fb.runResult(); err != nil {
		t.Fatalf("Run: %v", err)
	}
}

// TestDeletedBoardEndsTheBinding: once the bound board is deleted (on its page, with its edit link),
// the tool reads and writes nothing and says why in words the model can pass on, and a pairing gets no
// capability; a board made since under the same id is someone else's and is never reached through the
// binding. Before, the tool answered "does not exist" and then worked on the new board, and a pairing
// handed out the new board's capability.
func TestDeletedBoardEndsTheBinding(t *testing.T) {
	fb := startHost(t, hostOpts{})
	r := fb.ready("songs")
	rev, content := getBoard(t, fb)
	capability, err := store.ReadCapability(fb.dir, "songs")
	if err != nil {
		t.Fatal(err)
	}
	request := func(method, path, body string, header map[string]string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, r.origin+path, strings.NewReader(body))
		req.Header.Set("Origin", r.origin)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		for k, v := range header {
			req.Header.Set(k, v)
		}
		return send(t, req)
	}
	if code, body := request("DELETE", "/api/boards/songs", "", map[string]string{"Authorization": "Bearer " + capability, "If-Match": fmt.Sprintf(`"%d"`, rev)}); code != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", code, body)
	}
	cb, _ := json.Marshal(content)
	put := fmt.Sprintf(`{"action":"put","expectedRevision":1,"content":%s}`, cb)
	deleted := func(when string) {
		t.Helper()
		for _, args := range []string{`{"action":"get"}`, put} {
			var e struct {
				Err struct{ Code, Message string }
			}
			got := fb.call("tool", args)
			if json.Unmarshal([]byte(got.line), &e); e.Err.Code != "not_found" || !strings.Contains(e.Err.Message, "was deleted") || !strings.Contains(e.Err.Message, "/tele <board>") {
				t.Fatalf("%s: tool %s answered %s", when, args, got.line)
			}
		}
		invite := fb.call("invite", "{}")
		var inv struct{ Invite string }
		if err := json.Unmarshal(invite.m["ok"], &inv); err != nil {
			t.Fatalf("invite: %s", invite.line)
		}
		frag := fragment(t, inv.Invite)
		code, body := request("POST", "/api/chat/pair", fmt.Sprintf(`{"binding":%q,"invitation":%q}`, frag.Get("binding"), frag.Get("invite")), nil)
		if code != http.StatusGone || !strings.Contains(body, `"code":"board_deleted"`) || strings.Contains(body, "capability") {
			t.Fatalf("%s: pairing answered %d %s", when, code, body)
		}
	}
	deleted("the board deleted")

	// Someone makes a new board under the same id: still not the bound board.
	if code, body := request("POST", "/api/boards", `{"id":"songs"}`, nil); code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, body)
	}
	newCap, err := store.ReadCapability(fb.dir, "songs")
	if err != nil {
		t.Fatal(err)
	}
	before := readFile(t, filepath.Join(fb.dir, "boards", "songs", "1.json"))
	deleted("a new board under its id")
	if after := readFile(t, filepath.Join(fb.dir, "boards", "songs", "1.json")); after != before {
		t.Fatal("the tool wrote to the new board")
	}
	if _, err := os.Stat(filepath.Join(fb.dir, "boards", "songs", "2.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the new board got a second revision: %v", err)
	}
	if strings.Contains(fb.logs.String(), newCap) {
		t.Fatal("the log holds the new board's capability")
	}
}
