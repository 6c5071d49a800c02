package host

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"tele/board"
)

const goodHello = `{"note":"hello","protocol":1,"bridge":"1","pi":"0.73.1","board":"songs","session":{"id":"s1","name":null}}`

func TestReadHello(t *testing.T) {
	hl, code, msg := readHello([]byte(goodHello))
	if want := (hello{bridge: "1", pi: "0.73.1", board: "songs", sessionID: "s1", edits: "apply"}); code != "" || hl != want {
		t.Fatalf("readHello = %+v, %q, %q", hl, code, msg)
	}
	if hl, code, _ := readHello([]byte(strings.Replace(goodHello, `"pi":`, `"edits":"propose","pi":`, 1))); code != "" || hl.edits != "propose" {
		t.Fatalf("hello with edits propose: %+v %q", hl, code)
	}
	for _, tc := range []struct {
		name, hello, code, msg string
	}{
		{"no-protocol", `{"note":"hello","bridge":"1"}`, FatalProtocol, "hello lacks protocol"},
		{"protocol-string", `{"note":"hello","protocol":"1"}`, FatalProtocol, "protocol must be an integer"},
		{"protocol-fraction", `{"note":"hello","protocol":1.5}`, FatalProtocol, "protocol must be an integer"},
		// Another protocol's hello may have other members: the mismatch is what the user must hear.
		{"protocol-2-other-shape", `{"note":"hello","protocol":2,"features":{}}`, FatalProtocol, "the bridge speaks link protocol 2"},
		{"duplicate", strings.Replace(goodHello, `"pi":"0.73.1"`, `"pi":"1","pi":"2"`, 1), FatalProtocol, "malformed hello: pi: duplicate key"},
		{"unknown-member", strings.Replace(goodHello, `"pi":`, `"extra":true,"pi":`, 1), FatalProtocol, "malformed hello: extra: unknown field"},
		{"no-session", `{"note":"hello","protocol":1,"bridge":"1","pi":"1","board":"x"}`, FatalProtocol, `missing member "session"`},
		{"bridge-number", strings.Replace(goodHello, `"bridge":"1"`, `"bridge":1`, 1), FatalProtocol, "bridge: must be a string"},
		{"bridge-null", strings.Replace(goodHello, `"bridge":"1"`, `"bridge":null`, 1), FatalProtocol, `missing member "bridge"`},
		{"pi-too-long", strings.Replace(goodHello, `"0.73.1"`, `"`+strings.Repeat("9", 65)+`"`, 1), FatalProtocol, "pi must be a string of at most 64 bytes"},
		{"session-id-empty", strings.Replace(goodHello, `"id":"s1"`, `"id":""`, 1), FatalProtocol, "session.id must be a string of 1 to 256 bytes"},
		{"session-extra", strings.Replace(goodHello, `"id":"s1"`, `"id":"s1","cwd":"/"`, 1), FatalProtocol, "session.cwd: unknown field"},
		{"native-member", strings.Replace(goodHello, `"pi":`, `"native":["agent_settled"],"pi":`, 1), FatalProtocol, "native: unknown field"},
		{"session-name-number", strings.Replace(goodHello, `"name":null`, `"name":7`, 1), FatalProtocol, "session.name: must be a string"},
		{"board-number", strings.Replace(goodHello, `"board":"songs"`, `"board":7`, 1), FatalBadBoard, "bad board id"},
		{"board-path", strings.Replace(goodHello, `"board":"songs"`, `"board":"../etc"`, 1), FatalBadBoard, "bad board id"},
		{"not-utf8", strings.Replace(goodHello, `"1"`, "\"\xff\"", 1), FatalProtocol, "invalid UTF-8"},
		{"edits-unknown", strings.Replace(goodHello, `"pi":`, `"edits":"review","pi":`, 1), FatalProtocol, `edits must be "apply" or "propose"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, code, msg := readHello([]byte(tc.hello))
			if code != tc.code || !strings.Contains(msg, tc.msg) {
				t.Fatalf("got %q %q, want %q and a message containing %q", code, msg, tc.code, tc.msg)
			}
		})
	}
}

func TestReadNotes(t *testing.T) {
	reset, entries, err := readBranch([]byte(`{"note":"branch","reset":true,"entries":[{"type":"x"}]}`))
	if err != nil || !reset || string(entries) != `[{"type":"x"}]` {
		t.Fatalf("readBranch = %v, %s, %v", reset, entries, err)
	}
	if msg, err := readStream([]byte(`{"note":"stream","message":null}`)); err != nil || msg != nil {
		t.Fatalf("readStream(null) = %s, %v", msg, err)
	}
	if msg, err := readStream([]byte(`{"note":"stream","message":{"role":"assistant"}}`)); err != nil || string(msg) != `{"role":"assistant"}` {
		t.Fatalf("readStream = %s, %v", msg, err)
	}
	if idle, pending, prompt, err := readState([]byte(`{"note":"state","idle":true,"pending":false,"prompt":true}`)); err != nil || !idle || pending || !prompt {
		t.Fatalf("readState = %v %v %v %v", idle, pending, prompt, err)
	}
	if cmd, err := readInput([]byte(`{"note":"input","command":"c1"}`)); err != nil || cmd != "c1" {
		t.Fatalf("readInput = %q, %v", cmd, err)
	}
	if r, err := readRevoke([]byte(`{"note":"revoke","reason":"session_switch"}`)); err != nil || r != "session_switch" {
		t.Fatalf("readRevoke = %q, %v", r, err)
	}
	if src, n, err := readSettled([]byte(`{"note":"settled","source":"idle_check","idleChecks":2}`)); err != nil || src != "idle_check" || n != 2 {
		t.Fatalf("readSettled = %q, %d, %v", src, n, err)
	}
	if err := readSignal([]byte(`{"note":"turn_end"}`)); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name, note, err string
		read            func([]byte) error
	}{
		{"branch-entries-object", `{"note":"branch","reset":true,"entries":{}}`, "entries must be an array", branch},
		{"branch-entries-null", `{"note":"branch","reset":true,"entries":null}`, "entries must be an array", branch},
		{"branch-reset-string", `{"note":"branch","reset":"yes","entries":[]}`, "reset: must be a boolean, not a string", branch},
		{"branch-reset-null", `{"note":"branch","reset":null,"entries":[]}`, `missing member "reset"`, branch},
		{"branch-no-reset", `{"note":"branch","entries":[]}`, `missing member "reset"`, branch},
		{"branch-no-entries", `{"note":"branch","reset":false}`, `missing member "entries"`, branch},
		{"branch-duplicate-inside", `{"note":"branch","reset":true,"entries":[{"id":"a","id":"b"}]}`, "duplicate key", branch},
		{"stream-text", `{"note":"stream","message":"text"}`, "message must be an object or null", stream},
		{"stream-absent", `{"note":"stream"}`, `missing member "message"`, stream},
		{"state-missing", `{"note":"state","idle":true}`, `missing member "pending"`, state},
		{"state-extra", `{"note":"state","idle":true,"pending":false,"prompt":false,"busy":true}`, "busy: unknown field", state},
		{"signal-extra", `{"note":"agent_end","extra":1}`, "extra: unknown field", readSignal},
		{"settled-bare", `{"note":"settled"}`, "source must be", settled},
		{"settled-unknown-source", `{"note":"settled","source":"timer","idleChecks":0}`, "source must be", settled},
		{"settled-negative-checks", `{"note":"settled","source":"agent_settled","idleChecks":-1}`, "idleChecks must be a non-negative integer", settled},
		{"settled-fraction", `{"note":"settled","source":"agent_settled","idleChecks":1.5}`, "idleChecks: must be an integer", settled},
		{"input-empty", `{"note":"input","command":""}`, "command must be a string of 1 to 128 bytes", input},
		{"input-long", `{"note":"input","command":"` + strings.Repeat("c", 129) + `"}`, "1 to 128 bytes", input},
		{"input-number", `{"note":"input","command":7}`, "command: must be a string", input},
		{"revoke-unknown-reason", `{"note":"revoke","reason":"because"}`, "reason must be one of", revoke},
		{"revoke-no-reason", `{"note":"revoke"}`, "reason must be one of", revoke},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.read([]byte(tc.note)); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("got %v, want an error containing %q", err, tc.err)
			}
		})
	}
}

// The note readers as func([]byte) error, for the table above and the fuzz target.
func branch(n []byte) error  { _, _, err := readBranch(n); return err }
func stream(n []byte) error  { _, err := readStream(n); return err }
func state(n []byte) error   { _, _, _, err := readState(n); return err }
func settled(n []byte) error { _, _, err := readSettled(n); return err }
func input(n []byte) error   { _, err := readInput(n); return err }
func revoke(n []byte) error  { _, err := readRevoke(n); return err }

func TestReadToolArgs(t *testing.T) {
	for _, tc := range []struct {
		name, args, action string
		rev                int64
		content, err       string
	}{
		{name: "get", args: `{"action":"get"}`, action: "get"},
		{name: "get-ignores-the-rest", args: `{"action":"get","expectedRevision":"x","content":"ignored"}`, action: "get"},
		{name: "catalogue", args: `{"content":{},"action":"catalogue"}`, action: "catalogue"},
		{name: "put", args: `{"action":"put","expectedRevision":3,"content":{"title":"x"}}`, action: "put", rev: 3, content: `{"title":"x"}`},
		{name: "no-action", args: `{}`, err: "action is required"},
		{name: "action-null", args: `{"action":null}`, err: "action is required"},
		{name: "action-number", args: `{"action":1}`, err: `action must be "catalogue", "get" or "put"`},
		{name: "action-unknown", args: `{"action":"delete"}`, err: `action must be "catalogue", "get" or "put"`},
		{name: "unknown-argument", args: `{"action":"get","board":"x"}`, err: "unknown argument board"},
		{name: "duplicate-action", args: `{"action":"get","action":"put"}`, err: "action: duplicate key"},
		{name: "put-no-revision", args: `{"action":"put","content":{}}`, action: "put", err: "put needs expectedRevision"},
		{name: "put-revision-fraction", args: `{"action":"put","expectedRevision":1.5,"content":{}}`, action: "put", err: "expectedRevision must be a non-negative integer"},
		{name: "put-revision-negative", args: `{"action":"put","expectedRevision":-1,"content":{}}`, action: "put", err: "expectedRevision must be a non-negative integer"},
		{name: "put-no-content", args: `{"action":"put","expectedRevision":1}`, action: "put", err: "put needs content"},
		{name: "put-content-string", args: `{"action":"put","expectedRevision":1,"content":"{\"a\":1}"}`, action: "put", err: "content must be a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			action, a, err := readToolArgs([]byte(tc.args))
			var rev int64
			var content []byte
			if err == nil && action == "put" {
				rev, content, err = a.readPut()
			}
			switch {
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("got %v, want an error containing %q", err, tc.err)
			case tc.err == "" && (err != nil || action != tc.action || rev != tc.rev || string(content) != tc.content):
				t.Fatalf("got %q %d %s %v", action, rev, content, err)
			}
		})
	}
	// A flaw inside content is the content's: its path within the content, as board.ParseContent says it.
	_, _, err := readToolArgs([]byte(`{"action":"put","expectedRevision":1,"content":{"title":"a","title":"b"}}`))
	if ve, ok := errors.AsType[*board.ValidationError](err); !ok || ve.Path != "title" || ve.Rule != "duplicate key" {
		t.Fatalf("duplicate inside content: %#v", err)
	}
	if err := readNoArgs([]byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if err := readNoArgs([]byte(`{"x":1}`)); err == nil {
		t.Fatal("invite with an argument accepted")
	}
}

// FuzzReadNotes feeds arbitrary bytes to every reader of what the bridge sends: none panics, and what
// one accepts keeps the documented bounds.
func FuzzReadNotes(f *testing.F) {
	for _, s := range []string{
		goodHello,
		`{"note":"branch","reset":true,"entries":[{"type":"message","id":"a"}]}`,
		`{"note":"stream","message":{"role":"assistant","content":[]}}`,
		`{"note":"state","idle":true,"pending":false,"prompt":false}`,
		`{"note":"input","command":"6f1c"}`,
		`{"note":"revoke","reason":"off"}`,
		`{"action":"put","expectedRevision":3,"content":{"title":"x"}}`,
		`{"action":"get","content":{"a":null,"a":1}}`,
		`{"note":"hello","protocol":2}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if hl, code, msg := readHello(data); code == "" {
			if len(hl.bridge) > maxVersionLen || len(hl.pi) > maxVersionLen || !board.ValidID(hl.board) ||
				hl.sessionID == "" || len(hl.sessionID) > maxSessionIDLen {
				t.Fatalf("accepted hello out of bounds: %+v", hl)
			}
		} else if msg == "" || !utf8.ValidString(msg) {
			t.Fatalf("fatal %s without a readable message: %q", code, msg)
		}
		if _, entries, err := readBranch(data); err == nil && (len(entries) == 0 || entries[0] != '[') {
			t.Fatalf("accepted entries %q", entries)
		}
		if msg, err := readStream(data); err == nil && msg != nil && msg[0] != '{' {
			t.Fatalf("accepted message %q", msg)
		}
		if cmd, err := readInput(data); err == nil && (cmd == "" || len(cmd) > maxCommandLen) {
			t.Fatalf("accepted command %q", cmd)
		}
		if r, err := readRevoke(data); err == nil && !validReason(r) {
			t.Fatalf("accepted reason %q", r)
		}
		_, _, _, _ = readState(data)
		if src, n, err := readSettled(data); err == nil && (n < 0 || src != settledByPi && src != settledByIdleCheck) {
			t.Fatalf("accepted settled %q %d", src, n)
		}
		_ = readSignal(data)
		if action, a, err := readToolArgs(data); err == nil {
			if action != "get" && action != "put" && action != "catalogue" {
				t.Fatalf("accepted action %q", action)
			}
			if rev, content, err := a.readPut(); err == nil && (rev < 0 || len(content) == 0 || content[0] != '{') {
				t.Fatalf("accepted put %d %q", rev, content)
			}
		}
		_ = readNoArgs(data)
	})
}

// BenchmarkReadBranchNote: decoding an 8 MiB `branch` note strictly, the host's second pass over the
// bytes after the link's framing (link's BenchmarkReadBranchFrame) and before the projection's.
//
//	go test ./host -run '^$' -bench ReadBranchNote -benchmem -count 5
func BenchmarkReadBranchNote(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"note":"branch","reset":true,"entries":[`)
	for i := 0; sb.Len() < 8<<20; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"type":"message","id":"e%07d","message":{"role":"assistant","content":[{"type":"text","text":%q}]}}`,
			i, strings.Repeat("words and more words ", 50))
	}
	sb.WriteString(`]}`)
	note := []byte(sb.String())
	b.SetBytes(int64(len(note)))
	for b.Loop() {
		if _, _, err := readBranch(note); err != nil {
			b.Fatal(err)
		}
	}
}
