package e2e

// Probe steps on the board side: connecting, the tool gate, the tele_board tool's round trips (with the
// chord catalogue and the form of content schema version 2), and its refusals.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"
)

func (p *probe) commandsAndFlags(t *testing.T) string {
	pi := p.pi
	if n := teleCommands(pi); n != 1 {
		t.Fatalf("want exactly one /tele command, got %d", n)
	}
	if errs := pi.ExtensionErrors(0); len(errs) > 0 {
		t.Fatalf("extension errors at start: %v", errs)
	}
	return "one /tele command; pi started with --tele-port 0 --tele-data"
}

func (p *probe) busyRefused(t *testing.T) string {
	pi := p.pi
	hold := p.newHold()
	from := pi.Mark()
	n := p.fm.Count()
	pi.Prompt("PROBE_SLOW while idle")
	pi.WaitType(from, "message_update")
	p.defaultTool = p.fm.Request(n + 1).Tools
	mark := pi.Mark()
	pi.Prompt("/tele " + board)
	msg := pi.WaitNotify(mark, "tele:")
	if !strings.Contains(msg, "busy") {
		t.Errorf("refusal does not say why: %q", msg)
	}
	if inviteRe.MatchString(msg) {
		t.Errorf("an invitation while busy")
	}
	if pids := childrenOf(pi.PID(), p.teleBin); len(pids) != 0 {
		t.Errorf("tele host started while busy: %v", pids)
	}
	if _, err := os.Stat(pi.DataDir); !os.IsNotExist(err) {
		t.Errorf("data directory created while busy (err %v)", err)
	}
	close(hold)
	pi.WaitType(from, "agent_end")
	if slices.Contains(p.defaultTool, "tele_board") || len(p.defaultTool) == 0 {
		t.Errorf("tools before /tele: %v", p.defaultTool)
	}
	return fmt.Sprintf("refused with a notify while streaming; no process, no data dir; tools before /tele %v", p.defaultTool)
}

func (p *probe) connectStep(t *testing.T) string {
	pi := p.pi
	c := p.connect(t)
	code, v := c.request(t, "GET", "/api/boards/"+board, nil)
	if code != 200 || v.Get("id").String() != board || v.Get("revision").Int() != 1 {
		t.Fatalf("board over HTTP: %d %s", code, v.Raw)
	}
	if _, err := os.Stat(filepath.Join(pi.DataDir, "boards", board, "1.json")); err != nil {
		t.Fatalf("board file: %v", err)
	}
	code, v = c.request(t, "GET", "/api/capabilities", nil)
	if code != 200 || !v.Get("chat").Bool() {
		t.Errorf("capabilities: %d %s", code, v.Raw)
	}
	if strings.Contains(v.Raw, c.cap) || strings.Contains(v.Raw, c.invite) {
		t.Error("a secret in /api/capabilities")
	}
	return "notify carries http://127.0.0.1:<port>/b/demo#binding&invite (no capability); board demo revision 1 on disk and over HTTP; one tele host child"
}

func (p *probe) toolGateAndRoundTrip(t *testing.T) string {
	pi := p.pi
	c := p.c
	n := p.fm.Count()
	pi.PromptAndWait("PROBE_EDIT set the title")
	reqs := p.fm.Requests()[n:]
	if len(reqs) != 3 {
		t.Fatalf("want 3 model requests (get, put, text), got %d", len(reqs))
	}
	for _, r := range reqs {
		if !slices.Equal(r.Tools, []string{"tele_board"}) {
			t.Fatalf("request %d offered tools %v, want only tele_board", r.N, r.Tools)
		}
	}
	got := gjson.Parse(reqs[1].Last().Text())
	if got.Get("id").String() != board || got.Get("revision").Int() != 1 || !got.Get("content.title").Exists() {
		t.Fatalf("get result: %.300s", reqs[1].Last().Text())
	}
	put := gjson.Parse(reqs[2].Last().Text())
	if put.Get("revision").Int() != 2 || put.Get("content.title").String() != "Probe Title" {
		t.Fatalf("put result: %.300s", reqs[2].Last().Text())
	}
	for _, r := range reqs {
		if strings.Contains(string(r.Body), c.cap) {
			t.Fatal("the capability reached the model")
		}
	}
	disk, err := os.ReadFile(filepath.Join(pi.DataDir, "boards", board, "2.json"))
	if err != nil {
		t.Fatal(err)
	}
	if d := gjson.ParseBytes(disk); d.Get("revision").Int() != 2 || d.Get("content.title").String() != "Probe Title" || d.Get("author").String() != "pi" {
		t.Fatalf("board file after put: %.300s", disk)
	}
	code, v := c.request(t, "GET", "/api/boards/"+board, nil)
	if code != 200 || v.Get("revision").Int() != 2 || v.Get("content.title").String() != "Probe Title" {
		t.Fatalf("board over HTTP after put: %d %.300s", code, v.Raw)
	}
	return "model saw only tele_board; get then put (expectedRevision 1) made revision 2, on disk and over HTTP"
}

func (p *probe) blockedTool(t *testing.T) string {
	pi := p.pi
	n := p.fm.Count()
	pi.PromptAndWait("PROBE_BASH try a shell")
	r := p.fm.WaitCount(t, n+2, 10*time.Second)
	if r.Last().Role != "tool" || !strings.Contains(r.Last().Text(), "not found") && !strings.Contains(r.Last().Text(), "Only tele_board") {
		t.Fatalf("bash call answered %q", r.Last().Text())
	}
	return "a bash call while connected fails: " + r.Last().Text()
}

func (p *probe) conflictIsAToolError(t *testing.T) string {
	pi := p.pi
	n := p.fm.Count()
	pi.PromptAndWait("PROBE_CONFLICT put a stale revision")
	r := p.fm.WaitCount(t, n+2, 10*time.Second)
	msg := r.Last().Text()
	if r.Last().Role != "tool" || !strings.Contains(msg, "revision_conflict") || !strings.Contains(msg, "currentRevision") || !strings.Contains(msg, "2") {
		t.Fatalf("conflict reached the model as %q", msg)
	}
	// The session records the tool result as an error.
	msgs := pi.Command(map[string]any{"type": "get_messages"}).Get("data.messages").Array()
	var last gjson.Result
	for _, m := range msgs {
		if m.Get("role").String() == "toolResult" {
			last = m
		}
	}
	if !last.Get("isError").Bool() {
		t.Fatalf("the failed put is not isError: %.300s", last.Raw)
	}
	disk, err := os.ReadFile(newestRevisionFile(t, pi.DataDir, board))
	if err != nil {
		t.Fatal(err)
	}
	if gjson.GetBytes(disk, "revision").Int() != 2 {
		t.Fatal("a conflicting put changed the board")
	}
	return "stale put → isError tool result naming revision_conflict and currentRevision 2; board unchanged"
}

// The chord the catalogue step puts: written with aliases (mM7 for m(maj7)), stored in the catalogue's
// spelling; both qualities are new in catalogue version 2. The bar gives them beat positions (content
// schema version 3): CmM7 for three beats, F7alt on beat 4.
var (
	newQualityTyped     = []string{"CmM7", "F7alt"}
	newQualityStored    = []string{"Cm(maj7)", "F7alt"}
	newQualityDurations = []int{3, 1}
)

// catalogueReply: the model reads the catalogue, then the board, then puts bar 1 with new qualities.
func (p *probe) catalogueReply(tools []ModelMessage) Reply {
	switch len(tools) {
	case 0:
		return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: `{"action":"catalogue"}`}}}
	case 1:
		p.mu.Lock()
		p.catalogue = gjson.Parse(tools[0].Text())
		p.mu.Unlock()
		return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: `{"action":"get"}`}}}
	case 2:
		got := gjson.Parse(tools[1].Text())
		var content map[string]any
		_ = json.Unmarshal([]byte(got.Get("content").Raw), &content)
		sections, _ := content["sections"].([]any)
		if len(sections) > 0 {
			if s, ok := sections[0].(map[string]any); ok {
				if bars, ok := s["bars"].([]any); ok && len(bars) > 0 {
					bars[0] = map[string]any{"chords": newQualityTyped, "durations": newQualityDurations}
				}
			}
		}
		args, _ := json.Marshal(map[string]any{"action": "put", "expectedRevision": got.Get("revision").Int(), "content": content})
		return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: string(args)}}}
	}
	return Reply{Text: "new qualities written"}
}

// catalogueAndNewQuality: issue 13's probe: the model reads the new catalogue and writes a chord with a
// quality that is new in it.
func (p *probe) catalogueAndNewQuality(t *testing.T) string {
	n := p.fm.Count()
	p.pi.PromptAndWait("PROBE_CATALOGUE use the new chords")
	reqs := p.fm.Requests()[n:]
	if len(reqs) != 4 {
		t.Fatalf("want 4 model requests (catalogue, get, put, text), got %d", len(reqs))
	}
	p.mu.Lock()
	cat := p.catalogue
	p.mu.Unlock()
	if cat.Get("version").Int() < 2 || !slices.Contains(intsOf(cat.Get("schemaVersions")), 2) {
		t.Fatalf("the catalogue the model read is not version 2 with schema version 2: %.300s", cat.Raw)
	}
	suffixes := cat.Get("qualities.#.suffix").Array()
	if !slices.ContainsFunc(suffixes, func(r gjson.Result) bool { return r.String() == "m(maj7)" }) ||
		!slices.ContainsFunc(suffixes, func(r gjson.Result) bool { return r.String() == "7alt" }) {
		t.Fatalf("the catalogue lacks m(maj7) or 7alt: %.300s", cat.Get("qualities").Raw)
	}
	if cat.Get(`aliases.#(alias=="mM7").suffix`).String() != "m(maj7)" {
		t.Fatalf("the catalogue lacks the alias mM7 → m(maj7): %.300s", cat.Get("aliases").Raw)
	}
	if !slices.Contains(intsOf(cat.Get("schemaVersions")), 3) || !strings.Contains(cat.Get("schemaChanges.3").String(), `"durations"`) {
		t.Fatalf("the catalogue does not say schema version 3's durations: %.300s", cat.Get("schemaChanges").Raw)
	}
	timed := func(bar gjson.Result) bool {
		return slices.Equal(stringsOf(bar.Get("chords")), newQualityStored) && slices.Equal(intsOf(bar.Get("durations")), newQualityDurations)
	}
	put := gjson.Parse(reqs[3].Last().Text())
	rev := put.Get("revision").Int()
	if bar := put.Get("content.sections.0.bars.0"); !timed(bar) || put.Get("schemaVersion").Int() != 3 {
		t.Fatalf("put result bar 1 = %s (schema version %d), want %q on %v: %.300s", bar.Raw, put.Get("schemaVersion").Int(), newQualityStored, newQualityDurations, reqs[3].Last().Text())
	}
	disk, err := os.ReadFile(filepath.Join(p.pi.DataDir, "boards", board, itoa(rev)+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if bar := gjson.GetBytes(disk, "content.sections.0.bars.0"); !timed(bar) {
		t.Fatalf("bar 1 on disk = %s, want %q on %v", bar.Raw, newQualityStored, newQualityDurations)
	}
	code, v := p.c.request(t, "GET", "/api/boards/"+board, nil)
	if bar := v.Get("content.sections.0.bars.0"); code != 200 || v.Get("revision").Int() != rev || !timed(bar) {
		t.Fatalf("board over HTTP: %d revision %d bar 1 %s", code, v.Get("revision").Int(), bar.Raw)
	}
	return "catalogue version " + cat.Get("version").String() + " read by the model (m(maj7), 7alt, alias mM7, schema version 3's durations); put " +
		strings.Join(newQualityTyped, " ") + " on beats 3+1 stored as " + strings.Join(newQualityStored, " ") + " with durations [3, 1] on disk and over HTTP"
}

// formContent is a version-2 section: |: C | Am7 |1. Dm7 G7 :| |2. C ||
const formSection = `{"label":"A","role":"verse","bars":[{"chords":["C"],"repeatStart":true},["Am7"],` +
	`{"chords":["Dm7","G7"],"ending":1,"repeatEnd":2},{"chords":["C"],"ending":2}]}`

// formReply: the model reads the board, then puts it with a version-2 first section.
func (p *probe) formReply(tools []ModelMessage) Reply {
	switch len(tools) {
	case 0:
		return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: `{"action":"get"}`}}}
	case 1:
		got := gjson.Parse(tools[0].Text())
		var content map[string]any
		_ = json.Unmarshal([]byte(got.Get("content").Raw), &content)
		var section any
		_ = json.Unmarshal([]byte(formSection), &section)
		if sections, ok := content["sections"].([]any); ok && len(sections) > 0 {
			sections[0] = section
		}
		args, _ := json.Marshal(map[string]any{"action": "put", "expectedRevision": got.Get("revision").Int(), "content": content})
		return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: string(args)}}}
	}
	return Reply{Text: "form written"}
}

// formWithEndings: issue 14's probe: the model writes a version-2 board with a repeat and two endings.
func (p *probe) formWithEndings(t *testing.T) string {
	n := p.fm.Count()
	p.pi.PromptAndWait("PROBE_FORM write a repeat with two endings")
	reqs := p.fm.Requests()[n:]
	if len(reqs) != 3 {
		t.Fatalf("want 3 model requests (get, put, text), got %d", len(reqs))
	}
	put := gjson.Parse(reqs[2].Last().Text())
	if reqs[2].Last().Role != "tool" || !put.Get("revision").Exists() {
		t.Fatalf("the put failed: %.500s", reqs[2].Last().Text())
	}
	want := gjson.Parse(formSection)
	code, v := p.c.request(t, "GET", "/api/boards/"+board, nil)
	got := v.Get("content.sections.0")
	if code != 200 || v.Get("revision").Int() != put.Get("revision").Int() || !sameJSON(got.Raw, want.Raw) {
		t.Fatalf("board over HTTP: %d revision %d, section 1 %s, want %s", code, v.Get("revision").Int(), got.Raw, want.Raw)
	}
	return "get then put of a version-2 section (|: C | Am7 |1. Dm7 G7 :| |2. C ||) → revision " +
		put.Get("revision").String() + "; GET returns the repeat and both endings as written"
}

func intsOf(r gjson.Result) []int {
	var out []int
	for _, x := range r.Array() {
		out = append(out, int(x.Int()))
	}
	return out
}

func stringsOf(r gjson.Result) []string {
	var out []string
	for _, x := range r.Array() {
		out = append(out, x.String())
	}
	return out
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// sameJSON reports whether two JSON texts hold the same value (member order aside).
func sameJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
