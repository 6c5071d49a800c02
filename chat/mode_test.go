package chat

import (
	"encoding/json"
	"testing"
)

func modeBody(id, epoch, edits string) string {
	b, _ := json.Marshal(map[string]any{"type": "mode", "id": id, "epoch": epoch, "edits": edits})
	return string(b)
}

// The mode command switches what the model's put does, for every page of the binding: the status
// document carries it; it calls nothing in Pi; a repeated id answers the first receipt.
func TestModeSwitchesTheReviewMode(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	if st := e.status(c); st["edits"] != "apply" || e.gw.Edits() != EditsApply {
		t.Fatalf("a new binding: %v, %q (want apply)", st["edits"], e.gw.Edits())
	}
	id := newID()
	r := e.command(c, modeBody(id, e.binding.Epoch(), "propose"))
	if r.status != 200 || string(r.body) != `{"id":"`+id+`","type":"mode","status":"applied","edits":"propose"}` {
		t.Fatalf("mode: %d %s", r.status, r.body)
	}
	if st := e.status(c); st["edits"] != "propose" || e.gw.Edits() != EditsPropose {
		t.Fatalf("after mode propose: %v, %q", st["edits"], e.gw.Edits())
	}
	// Back to apply, then the first command again: the same receipt, and the mode is not switched again.
	if r := e.command(c, modeBody(newID(), e.binding.Epoch(), "apply")); r.status != 200 || e.gw.Edits() != EditsApply {
		t.Fatalf("mode apply: %d %s, %q", r.status, r.body, e.gw.Edits())
	}
	again := e.command(c, ` {"edits":"propose", "epoch":"`+e.binding.Epoch()+`","id":"`+id+`","type":"mode"}`)
	if again.status != 200 || string(again.body) != string(r.body) {
		t.Fatalf("replay: %d %s", again.status, again.body)
	}
	if e.gw.Edits() != EditsApply {
		t.Fatalf("a replay acted again: %q", e.gw.Edits())
	}
	if r := e.command(c, modeBody(id, e.binding.Epoch(), "apply")); r.status != 409 || r.code() != "duplicate_command" {
		t.Fatalf("same id, other edits: %d %s", r.status, r.body)
	}
	if calls := e.bridge.Calls(); len(calls) != 0 {
		t.Fatalf("mode reached the bridge: %v", calls)
	}
	// Pi's side (`/tele <board> --review` while connected) switches it too, and the pages see it.
	e.gw.SetEdits(EditsPropose)
	if st := e.status(c); st["edits"] != "propose" {
		t.Fatalf("after SetEdits: %v", st["edits"])
	}
}

func TestModeRefusals(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	ep := e.binding.Epoch()
	id := newID()
	cases := []struct {
		name, body string
		status     int
		code       string
	}{
		{"no edits", `{"type":"mode","id":"` + id + `","epoch":"` + ep + `"}`, 400, "bad_command"},
		{"edits null", `{"type":"mode","id":"` + id + `","epoch":"` + ep + `","edits":null}`, 400, "bad_command"},
		{"unknown edits", modeBody(id, ep, "review"), 400, "bad_command"},
		{"edits in capitals", modeBody(id, ep, "Propose"), 400, "bad_command"},
		{"edits not a string", `{"type":"mode","id":"` + id + `","epoch":"` + ep + `","edits":true}`, 400, "bad_json"},
		{"with text", `{"type":"mode","id":"` + id + `","epoch":"` + ep + `","edits":"apply","text":"hi"}`, 400, "bad_command"},
		{"with runId", `{"type":"mode","id":"` + id + `","epoch":"` + ep + `","edits":"apply","runId":"r"}`, 400, "bad_command"},
		{"edits on a send", `{"type":"send","id":"` + id + `","epoch":"` + ep + `","idleVersion":1,"text":"hi","edits":"apply"}`, 400, "bad_command"},
		{"no epoch", `{"type":"mode","id":"` + id + `","edits":"apply"}`, 400, "bad_command"},
		{"not a canonical id", modeBody("ABC", ep, "apply"), 400, "bad_command"},
		{"stale epoch", modeBody(id, "an-earlier-epoch", "propose"), 409, "stale_epoch"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.command(c, tc.body)
			if r.status != tc.status || r.code() != tc.code {
				t.Fatalf("%d %s, want %d %s", r.status, r.body, tc.status, tc.code)
			}
			if e.gw.Edits() != EditsApply {
				t.Fatalf("a refused mode changed the mode: %q", e.gw.Edits())
			}
		})
	}
	// A refused command is not remembered: the id still works.
	if r := e.command(c, modeBody(id, ep, "propose")); r.status != 200 {
		t.Fatalf("the id after refusals: %d %s", r.status, r.body)
	}
	// Without the cookie: 401; after the binding is revoked: 410.
	if r := e.command(nil, modeBody(newID(), ep, "apply")); r.status != 401 {
		t.Fatalf("without a cookie: %d %s", r.status, r.body)
	}
	e.gw.Revoke("off")
	if r := e.command(c, modeBody(newID(), ep, "apply")); r.status != 410 || r.code() != "revoked" {
		t.Fatalf("after revoke: %d %s", r.status, r.body)
	}
}
