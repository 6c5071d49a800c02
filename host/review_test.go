package host

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tele/board"
	"tele/board/store"
)

// helloReview says hello as `/tele <board> --review` does and waits for ready.
func (fb *fakeBridge) readyReview(board string) readyNote {
	fb.t.Helper()
	fb.sendJSON(map[string]any{"note": "hello", "protocol": 1, "bridge": "1", "pi": "0.73.1", "board": board,
		"session": map[string]any{"id": "sess-1"}, "edits": "propose"})
	n := fb.note()
	var r readyNote
	if n.str("note") != "ready" || json.Unmarshal([]byte(n.line), &r) != nil {
		fb.t.Fatalf("want ready, got %s", n.line)
	}
	r.origin = strings.TrimSuffix(r.URL, "/b/"+board)
	return r
}

// turnOf is the host's answer to `turn`: the message the model hears first, and the tool's description.
func turnOf(t *testing.T, fb *fakeBridge) (message *string, description string) {
	t.Helper()
	var ok struct {
		Message     *string `json:"message"`
		Description string  `json:"description"`
	}
	r := fb.call("turn", `{}`)
	if err := json.Unmarshal(r.m["ok"], &ok); err != nil || ok.Description == "" {
		t.Fatalf("turn: %s", r.line)
	}
	return ok.Message, ok.Description
}

func toolErr(t *testing.T, r rawFrame) (code, message string) {
	t.Helper()
	var e struct{ Code, Message string }
	if err := json.Unmarshal(r.m["err"], &e); err != nil || e.Code == "" {
		t.Fatalf("want an error, got %s", r.line)
	}
	return e.Code, e.Message
}

// TestReviewMode: issue 28's model side. In propose mode a valid put stores a proposal and answers
// {"status":"proposed",…} without a capability, nothing committed; get lists the open proposals; the tool's
// description says the edits are proposals; after the musician accepts two bars of one proposal and
// rejects another, the next turn's message names what was taken, what was not and the bar the musician
// wrote otherwise, once; the page's mode command switches back to apply, and put commits again.
func TestReviewMode(t *testing.T) {
	fb := startHost(t, hostOpts{})
	r := fb.readyReview("songs")
	b, code := pair(t, r, r.Invite)
	if code != 200 {
		t.Fatalf("pair: %d", code)
	}
	if _, st := getJSONCookie(t, r.origin+"/api/chat/"+r.Binding+"/status", b.cookie); !strings.Contains(st, `"status":"idle","edits":"propose"`) {
		t.Fatalf("status after --review: %s", st)
	}
	msg, desc := turnOf(t, fb)
	if msg != nil || !strings.Contains(desc, "your edits are proposals the musician reviews") {
		t.Fatalf("first turn: %v %q", msg, desc)
	}

	rev, content := getBoard(t, fb)
	prop := content
	prop.Sections = append([]board.Section(nil), content.Sections...)
	verse := append([]board.Bar(nil), content.Sections[0].Bars...)
	verse[0], verse[1], verse[2] = board.PlainBar("Cmaj7"), board.PlainBar("A7"), board.PlainBar("Dm7")
	prop.Sections[0].Bars = verse
	cb, _ := json.Marshal(prop)
	put := fb.call("tool", fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s,"note":"a richer opening"}`, rev, cb))
	var proposed struct {
		Status       string `json:"status"`
		Proposal     string `json:"proposal"`
		BaseRevision int64  `json:"baseRevision"`
	}
	if err := json.Unmarshal(put.m["ok"], &proposed); err != nil || proposed.Status != "proposed" || proposed.Proposal == "" || proposed.BaseRevision != rev {
		t.Fatalf("put in review mode: %s", put.line)
	}
	var keys map[string]any
	json.Unmarshal(put.m["ok"], &keys)
	capability, _ := store.ReadCapability(fb.dir, "songs")
	if len(keys) != 3 || strings.Contains(put.line, capability) {
		t.Fatalf("the proposed answer has other members or the capability: %s", put.line)
	}
	if now, _ := getBoard(t, fb); now != rev {
		t.Fatalf("a proposal committed: revision %d, want %d", now, rev)
	}
	if _, err := os.Stat(filepath.Join(fb.dir, "boards", "songs", "proposals", proposed.Proposal+".json")); err != nil {
		t.Fatalf("the proposal is not in the board's directory: %v", err)
	}
	// A second proposal, to be rejected; a bad note and a future base are refused, nothing stored.
	other := content
	other.Title = "Another title"
	ob, _ := json.Marshal(other)
	second := fb.call("tool", fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s}`, rev, ob))
	var secondID string
	if err := json.Unmarshal([]byte(gjsonProposal(second)), &secondID); err != nil {
		t.Fatalf("second proposal: %s", second.line)
	}
	for _, tc := range []struct{ args, code string }{
		{fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s,"note":"two\nlines"}`, rev, ob), "bad_call"},
		{fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s,"note":%q}`, rev, ob, strings.Repeat("n", 201)), "bad_call"},
		{fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s,"note":7}`, rev, ob), "bad_call"},
		{fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s}`, rev+1, ob), "revision_conflict"},
		{fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":{"title":"x"}}`, rev), "invalid_content"},
	} {
		if code, _ := toolErr(t, fb.call("tool", tc.args)); code != tc.code {
			t.Errorf("%s: %s, want %s", tc.args, code, tc.code)
		}
	}
	get := fb.call("tool", `{"action":"get"}`)
	var got struct {
		Proposals []struct {
			ID           string `json:"id"`
			BaseRevision int64  `json:"baseRevision"`
			Note         string `json:"note"`
		} `json:"proposals"`
	}
	json.Unmarshal(get.m["ok"], &got)
	if len(got.Proposals) != 2 || got.Proposals[0].ID != secondID || got.Proposals[1].ID != proposed.Proposal ||
		got.Proposals[1].Note != "a richer opening" || got.Proposals[1].BaseRevision != rev || strings.Contains(get.line, capability) {
		t.Fatalf("get lists %s", get.m["ok"])
	}
	if msg, _ := turnOf(t, fb); msg != nil {
		t.Fatalf("a turn before any decision: %q", *msg)
	}

	// The musician: takes bars 1 and 2 of the first proposal, rejects the second, then writes bar 2
	// otherwise.
	request := func(method, path, body string, rev int64) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, r.origin+path, strings.NewReader(body))
		req.Header.Set("Origin", r.origin)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+b.capability)
		req.Header.Set("If-Match", fmt.Sprintf(`"%d"`, rev))
		return send(t, req)
	}
	if code, body := request("POST", "/api/boards/songs/proposals/"+proposed.Proposal+"/accept", `{"bars":[[0,0],[0,1]]}`, rev); code != 200 || strings.Contains(body, capability) {
		t.Fatalf("accept two bars: %d %s", code, body)
	}
	if code, body := request("POST", "/api/boards/songs/proposals/"+secondID+"/reject", `{}`, rev+1); code != 204 {
		t.Fatalf("reject: %d %s", code, body)
	}
	now := content
	now.Sections = append([]board.Section(nil), content.Sections...)
	mine := append([]board.Bar(nil), verse...)
	mine[1], mine[2] = board.PlainBar("F7"), content.Sections[0].Bars[2]
	now.Sections[0].Bars = mine
	nb, _ := json.Marshal(now)
	if code, body := request("PUT", "/api/boards/songs", string(nb), rev+1); code != 200 {
		t.Fatalf("the musician's put: %d %s", code, body)
	}

	msg, _ = turnOf(t, fb)
	want := []string{
		`Proposal ` + proposed.Proposal + ` ("a richer opening"): accepted bars 1–2 of "Verse"; rejected bar 3 of "Verse"; the musician changed bar 2 of "Verse" to F7.`,
		`Proposal ` + secondID + `: rejected.`,
	}
	if msg == nil || !strings.Contains(*msg, want[0]) || !strings.Contains(*msg, want[1]) || strings.Index(*msg, want[0]) > strings.Index(*msg, want[1]) {
		t.Fatalf("the outcome:\n%v\nwant, in order:\n%s", deref(msg), strings.Join(want, "\n"))
	}
	t.Logf("the outcome: %s", *msg)
	if again, _ := turnOf(t, fb); again != nil {
		t.Fatalf("told twice: %q", *again)
	}

	// The page switches to apply: the description says nothing of proposals, and put commits.
	resp, body := b.post("/api/chat/"+r.Binding+"/command", `{"type":"mode","id":"6f1c8d3a-5b2e-4c1a-9f0e-2d3c4b5a6f70","epoch":"`+r.Epoch+`","edits":"apply"}`)
	if resp.StatusCode != 200 || !strings.Contains(body, `"edits":"apply"`) {
		t.Fatalf("mode apply: %d %s", resp.StatusCode, body)
	}
	if _, desc := turnOf(t, fb); strings.Contains(desc, "proposals the musician reviews") {
		t.Fatalf("apply mode's description: %q", desc)
	}
	cur, _ := getBoard(t, fb)
	committed := fb.call("tool", fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s,"note":"ignored"}`, cur, ob))
	if !strings.Contains(string(committed.m["ok"]), fmt.Sprintf(`"revision":%d`, cur+1)) {
		t.Fatalf("put in apply mode: %s", committed.line)
	}
}

// TestReviewModeFullBoard: the 21st open proposal is an error the model can pass on; nothing is stored.
func TestReviewModeFullBoard(t *testing.T) {
	fb := startHost(t, hostOpts{})
	fb.readyReview("songs")
	rev, content := getBoard(t, fb)
	for i := range store.MaxOpenProposals + 1 {
		content.Title = fmt.Sprintf("Title %d", i)
		cb, _ := json.Marshal(content)
		r := fb.call("tool", fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s}`, rev, cb))
		if i < store.MaxOpenProposals {
			if gjsonProposal(r) == "" {
				t.Fatalf("proposal %d: %s", i+1, r.line)
			}
			continue
		}
		code, msg := toolErr(t, r)
		if code != "too_many_proposals" || !strings.Contains(msg, "the musician has 20 changes to review") {
			t.Fatalf("the 21st: %s %q", code, msg)
		}
	}
	ents, _ := os.ReadDir(filepath.Join(fb.dir, "boards", "songs", "proposals"))
	if len(ents) != store.MaxOpenProposals {
		t.Fatalf("%d proposal files, want %d", len(ents), store.MaxOpenProposals)
	}
}

// TestInviteSwitchesToReview: `/tele <board> --review` while connected asks for an invitation with edits.
func TestInviteSwitchesToReview(t *testing.T) {
	fb := startHost(t, hostOpts{})
	fb.ready("songs")
	if _, desc := turnOf(t, fb); strings.Contains(desc, "REVIEW MODE") {
		t.Fatal("a plain /tele starts in review mode")
	}
	if r := fb.call("invite", `{"edits":"propose"}`); !strings.Contains(string(r.m["ok"]), "invite") {
		t.Fatalf("invite with edits: %s", r.line)
	}
	if _, desc := turnOf(t, fb); !strings.Contains(desc, "REVIEW MODE") {
		t.Fatal("invite with edits propose did not switch")
	}
	if code, _ := toolErr(t, fb.call("invite", `{"edits":"later"}`)); code != "bad_call" {
		t.Fatalf("invite with bad edits: %s", code)
	}
	if code, _ := toolErr(t, fb.call("turn", `{"x":1}`)); code != "bad_call" {
		t.Fatalf("turn with arguments: %s", code)
	}
}

// gjsonProposal is the "proposal" member of a proposed answer, as JSON, or "".
func gjsonProposal(r rawFrame) string {
	var ok map[string]json.RawMessage
	if json.Unmarshal(r.m["ok"], &ok) != nil {
		return ""
	}
	return string(ok["proposal"])
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func getJSONCookie(t *testing.T, url string, c *http.Cookie) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.AddCookie(c)
	return send(t, req)
}
