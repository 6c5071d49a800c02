package link

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"tele/costtest"
)

func TestParseFrameValid(t *testing.T) {
	cases := []struct {
		line string
		kind kind
		id   int64
		name string
	}{
		{`{"id":7,"call":"tool","args":{"action":"get"}}`, kindCall, 7, "tool"},
		{` { "call" : "invite" , "args" : { } , "id" : 9007199254740991 } `, kindCall, 1<<53 - 1, "invite"},
		{`{"id":7,"ok":null}`, kindReply, 7, ""},
		{`{"id":7,"ok":{"a":[1,2,{"b":"}"}]}}`, kindReply, 7, ""},
		{`{"id":3,"err":{"code":"busy","message":"x","currentRevision":4}}`, kindReply, 3, ""},
		{`{"note":"hello","protocol":1}`, kindNote, 0, "hello"},
		{`{"note":"agent_start"}`, kindNote, 0, "agent_start"},
		{`{"no\u0074e":"settled"}`, kindNote, 0, "settled"},
		{"{\"note\":\"branch\",\"entries\":[\"a\\\"]\",{\"x\":\"\\\\\"}]}\r", kindNote, 0, "branch"},
	}
	for _, c := range cases {
		f, me := parseFrame([]byte(c.line))
		if me != nil {
			t.Errorf("%s: %v", c.line, me)
			continue
		}
		if f.kind != c.kind || f.id != c.id || f.name != c.name {
			t.Errorf("%s: got kind %d id %d name %q", c.line, f.kind, f.id, f.name)
		}
	}
	f, _ := parseFrame([]byte(`{"id":3,"err":{"code":"revision_conflict","message":"stale","currentRevision":4}}`))
	if f.err.Code != "revision_conflict" || f.err.Message != "stale" {
		t.Fatalf("err: %+v", f.err)
	}
	if b, _ := json.Marshal(f.err.Fields["currentRevision"]); string(b) != "4" {
		t.Fatalf("currentRevision: %s", b)
	}
	f, _ = parseFrame([]byte("{\"note\":\"branch\",\"reset\":true,\"entries\":[{\"a\":\"]\"}] }"))
	if string(f.note) != "{\"note\":\"branch\",\"reset\":true,\"entries\":[{\"a\":\"]\"}] }" {
		t.Fatalf("note: %q", f.note)
	}
}

func TestParseFrameMalformed(t *testing.T) {
	cases := []struct {
		line       string
		id         int64
		answerable bool
	}{
		{``, 0, false},
		{`   `, 0, false},
		{`not json`, 0, false},
		{`{"id":1,"call":"x","args":{}`, 0, false},
		{`[1,2]`, 0, false},
		{`"note"`, 0, false},
		{`{"id":1,"call":"x","args":{}} {}`, 0, false},
		{`{"id":1,"id":2,"call":"x","args":{}}`, 0, false},
		{`{"id":0,"call":"x","args":{}}`, 0, false},
		{`{"id":-3,"call":"x","args":{}}`, 0, false},
		{`{"id":"7","call":"x","args":{}}`, 0, false},
		{`{"id":1.0,"call":"x","args":{}}`, 0, false},
		{`{"id":1e3,"call":"x","args":{}}`, 0, false},
		{`{"id":9007199254740992,"call":"x","args":{}}`, 0, false},
		{`{"id":01,"call":"x","args":{}}`, 0, false},
		{`{"id":5,"call":"x"}`, 5, true},
		{`{"id":5,"call":"x","args":[]}`, 5, true},
		{`{"id":5,"call":"x","args":{},"extra":1}`, 5, true},
		{`{"id":5,"call":"X","args":{}}`, 5, true},
		{`{"id":5,"call":7,"args":{}}`, 5, true},
		{`{"id":5,"call":"x","args":{},"ok":1}`, 5, false},
		{`{"id":5}`, 5, true},
		{`{"call":"x","args":{}}`, 0, false},
		{`{"id":5,"ok":1,"err":{"code":"a","message":"b"}}`, 5, false},
		{`{"id":5,"ok":1,"x":2}`, 5, false},
		{`{"ok":1}`, 0, false},
		{`{"id":5,"err":{"code":"a"}}`, 5, false},
		{`{"id":5,"err":{"code":"A","message":""}}`, 5, false},
		{`{"id":5,"err":"boom"}`, 5, false},
		{`{"id":5,"err":{"code":"a","message":"b","code":"c"}}`, 5, false},
		{`{"note":"x","id":5}`, 5, true},
		{`{"note":""}`, 0, false},
		{`{"note":"Hello"}`, 0, false},
		{`{"note":null}`, 0, false},
		{`{"note":"x","a":1,"a":2}`, 0, false},
		{"{\"note\":\"x\",\"t\":\"\xff\"}", 0, false},
		{"{\"note\":\"x\",\"t\":\"a\tb\"}", 0, false},
		{`{"note":"x","d":` + strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1) + `}`, 0, false},
		{`{"note":"` + strings.Repeat("a", 65) + `"}`, 0, false},
	}
	for _, c := range cases {
		_, me := parseFrame([]byte(c.line))
		if me == nil {
			t.Errorf("%q: accepted", c.line)
			continue
		}
		if me.ID != c.id || me.answerable() != c.answerable {
			t.Errorf("%q: id %d answerable %v (%s)", c.line, me.ID, me.answerable(), me.Reason)
		}
		if strings.Contains(me.Error(), "json") && strings.Contains(c.line, "json") {
			t.Errorf("%q: report quotes the frame: %s", c.line, me)
		}
	}
	// Deep but allowed nesting is fine.
	ok := `{"note":"x","d":` + strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1) + `}`
	if _, me := parseFrame([]byte(ok)); me != nil {
		t.Fatalf("depth %d refused: %v", MaxDepth, me)
	}
}

func TestMalformedReportNeverQuotesContent(t *testing.T) {
	secret := "s3cr3t-message-text"
	for _, line := range []string{
		`{"id":5,"call":"x","args":{"t":"` + secret + `"},"z":1}`,
		`{"note":"x","t":"` + secret + `",}`,
		secret,
	} {
		_, me := parseFrame([]byte(line))
		if me == nil || strings.Contains(me.Error(), secret) {
			t.Fatalf("%q: %v", line, me)
		}
	}
}

func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 100)
	in := "a\n" + long + "\nbb\n\nlast"
	lr := newLineReader(strings.NewReader(in), 20)
	type got struct {
		line    string
		size    int
		tooLong bool
	}
	want := []got{{"a", 1, false}, {"", 100, true}, {"bb", 2, false}, {"", 0, false}, {"last", 4, false}}
	for i, w := range want {
		line, size, tooLong, err := lr.next()
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if string(line) != w.line || size != w.size || tooLong != w.tooLong {
			t.Fatalf("%d: got %q %d %v, want %+v", i, line, size, tooLong, w)
		}
	}
	if _, _, _, err := lr.next(); err != io.EOF {
		t.Fatalf("want EOF, got %v", err)
	}
	// A line of exactly max bytes is fine; max+1 is too long.
	lr = newLineReader(strings.NewReader(strings.Repeat("y", 20)+"\n"+strings.Repeat("z", 21)+"\n"), 20)
	if l, _, tl, _ := lr.next(); len(l) != 20 || tl {
		t.Fatalf("exact max refused")
	}
	if _, n, tl, _ := lr.next(); !tl || n != 21 {
		t.Fatalf("max+1 accepted")
	}
	// Each line has its own buffer.
	lr = newLineReader(strings.NewReader("one\ntwo\n"), 20)
	a, _, _, _ := lr.next()
	b, _, _, _ := lr.next()
	if string(a) != "one" || string(b) != "two" {
		t.Fatalf("buffers shared: %q %q", a, b)
	}
}

func TestIDSet(t *testing.T) {
	var s idSet
	for _, id := range []int64{1, 2, 3, 5, 4, 10, 8, 9} {
		if !s.add(id) {
			t.Fatalf("%d refused", id)
		}
	}
	for _, id := range []int64{1, 3, 4, 5, 8, 10} {
		if s.add(id) {
			t.Fatalf("repeat %d accepted", id)
		}
	}
	if len(s.r) != 2 || s.r[0] != [2]int64{1, 5} || s.r[1] != [2]int64{8, 10} {
		t.Fatalf("ranges %v", s.r)
	}
	var big idSet
	for i := int64(0); i < 3*maxRanges; i++ {
		big.add(2*i + 1)
	}
	if len(big.r) > maxRanges {
		t.Fatalf("%d ranges", len(big.r))
	}
	if big.add(2*3*maxRanges+1) == false {
		t.Fatal("new high id refused")
	}
}

func TestParseObject(t *testing.T) {
	f, err := parseObject([]byte(`{"a":1,"b":{"c":[1,"}"]},"c":"x"}`))
	if err != nil || string(f["b"]) != `{"c":[1,"}"]}` || string(f["c"]) != `"x"` {
		t.Fatalf("%v %q", err, f)
	}
	for _, bad := range []string{`{"a":1,"a":2}`, `[]`, `{`, `{"a":1}x`, "{\"a\":\"\xfe\"}"} {
		if _, err := parseObject([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if n, err := decodeInt([]byte("-42")); err != nil || n != -42 {
		t.Fatalf("Int: %d %v", n, err)
	}
	for _, bad := range []string{"1.5", "1e2", "01", "-", "", "-0", `"1"`, "99999999999999999"} {
		if _, err := decodeInt([]byte(bad)); err == nil {
			t.Errorf("Int(%q) accepted", bad)
		}
	}
	if s, err := decodeString([]byte(`"a\u00e9"`), 3); err != nil || s != "aé" {
		t.Fatalf("String: %q %v", s, err)
	}
	if _, err := decodeString([]byte(`"abcd"`), 3); err == nil {
		t.Fatal("String over max accepted")
	}
}

// FuzzReadFrame feeds arbitrary input through the bounded line reader and the frame parser: nothing
// panics, and every line is either a valid frame or a malformed-frame report.
func FuzzReadFrame(f *testing.F) {
	for _, s := range []string{
		`{"id":7,"call":"tool","args":{"action":"get"}}` + "\n",
		`{"id":7,"ok":null}` + "\n" + `{"id":8,"err":{"code":"x","message":"y"}}`,
		`{"note":"branch","reset":true,"entries":[{"type":"message"}]}` + "\n",
		`{"note":"state","idle":true,"pending":false,"prompt":false}` + "\n" + strings.Repeat("[", 70) + "\n",
		"{\"note\":\"x\",\"s\":\"\\\\\\\"\"}\n\n\n",
		`{"id":1,"id":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lr := newLineReader(bytes.NewReader(data), 64)
		for n := 0; ; n++ {
			line, size, tooLong, err := lr.next()
			if err == io.EOF {
				return
			}
			if err != nil || n > len(data)+1 {
				t.Fatalf("reader: %v after %d lines", err, n)
			}
			if tooLong {
				if size <= 64 || line != nil {
					t.Fatalf("too long with size %d", size)
				}
				continue
			}
			if len(line) > 64 || len(line) != size {
				t.Fatalf("line of %d bytes, size %d", len(line), size)
			}
			var fr frame
			var me *malformedError
			// A line costs work linear in its length: at most 256 bytes allocated a byte of it.
			costtest.Bound(t, len(line), 16<<10, 256, func() { fr, me = parseFrame(line) })
			if me != nil {
				if fr.kind != 0 || me.Reason == "" || me.ID < 0 {
					t.Fatalf("bad report %+v", me)
				}
				continue
			}
			if !json.Valid(line) {
				t.Fatalf("accepted invalid JSON %q", line)
			}
			switch fr.kind {
			case kindCall:
				if fr.id <= 0 || !validName(fr.name, maxNameLen) || len(fr.args) == 0 || fr.args[0] != '{' {
					t.Fatalf("bad call %+v", fr)
				}
			case kindReply:
				if fr.id <= 0 || (fr.ok == nil) == (fr.err == nil) {
					t.Fatalf("bad reply %+v", fr)
				}
			case kindNote:
				if fr.id != 0 || !validName(fr.name, maxNameLen) {
					t.Fatalf("bad note %+v", fr)
				}
				if !json.Valid(fr.note) {
					t.Fatalf("note not JSON: %q", fr.note)
				}
			default:
				t.Fatalf("no kind: %+v", fr)
			}
		}
	})
}
