package chat

import (
	"encoding/json"
	"strings"
	"testing"
)

func selectionBody(id, epoch string, idle int64, text string, sel any) string {
	b, _ := json.Marshal(map[string]any{"type": "send", "id": id, "epoch": epoch, "idleVersion": idle, "text": text, "selection": sel})
	return string(b)
}

// A send with a selection gives Pi the text and, after it, the bars as the page showed them, numbered
// as the grid numbers them, with the section's name quoted and the view's difference from the board.
func TestSendWithSelectionWritesTheBarsOut(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	sel := map[string]any{"section": `Verse "A"`, "from": 5, "bars": []string{"C7", "F7 Bb7", "|: F :|", "%"}, "view": "transposed +2 (key A)"}
	r := e.command(c, selectionBody(newID(), e.binding.Epoch(), 1, "Why does this feel static?", sel))
	if r.status != 202 {
		t.Fatalf("send: %d %s", r.status, r.body)
	}
	calls := e.bridge.Calls()
	want := "Why does this feel static?\n\n[Tele selection: section \"Verse \\\"A\\\"\", bars 5-8; view: transposed +2 (key A)]\n5: C7\n6: F7 Bb7\n7: |: F :|\n8: %"
	if len(calls) != 1 || calls[0].Arg != want {
		t.Fatalf("Pi got %q\nwant %q", calls, want)
	}
}

func TestSelectionRefusals(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	ep := e.binding.Epoch()
	bars := func(n int, bar string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = bar
		}
		return out
	}
	cases := []struct {
		name string
		text string
		sel  any
		code string
	}{
		{"no bars", "hi", map[string]any{"section": "A", "from": 1, "bars": []string{}}, "bad_command"},
		{"65 bars", "hi", map[string]any{"section": "A", "from": 1, "bars": bars(65, "C")}, "bad_command"},
		{"bar 0", "hi", map[string]any{"section": "A", "from": 0, "bars": []string{"C"}}, "bad_command"},
		{"past bar 512", "hi", map[string]any{"section": "A", "from": 510, "bars": bars(4, "C")}, "bad_command"},
		{"a bar on two lines", "hi", map[string]any{"section": "A", "from": 1, "bars": []string{"C\nD"}}, "bad_command"},
		{"an empty bar", "hi", map[string]any{"section": "A", "from": 1, "bars": []string{""}}, "bad_command"},
		{"a long bar", "hi", map[string]any{"section": "A", "from": 1, "bars": []string{strings.Repeat("C", 121)}}, "bad_command"},
		{"a long name", "hi", map[string]any{"section": strings.Repeat("n", 41), "from": 1, "bars": []string{"C"}}, "bad_command"},
		{"a view on two lines", "hi", map[string]any{"section": "A", "from": 1, "bars": []string{"C"}, "view": "a\rb"}, "bad_command"},
		{"an unknown field", "hi", map[string]any{"section": "A", "from": 1, "bars": []string{"C"}, "chords": 1}, "bad_json"},
		{"too long with the text", strings.Repeat("a", 7990), map[string]any{"section": "A", "from": 1, "bars": []string{"C"}}, "bad_text"},
	}
	for _, k := range cases {
		r := e.command(c, selectionBody(newID(), ep, 1, k.text, k.sel))
		if r.code() != k.code {
			t.Errorf("%s: %d %s, want %s", k.name, r.status, r.body, k.code)
		}
	}
	abort, _ := json.Marshal(map[string]any{"type": "abort", "id": newID(), "epoch": ep, "runId": "r", "selection": map[string]any{"section": "A", "from": 1, "bars": []string{"C"}}})
	if r := e.command(c, string(abort)); r.code() != "bad_command" {
		t.Errorf("abort with a selection: %d %s", r.status, r.body)
	}
	if calls := e.bridge.Calls(); len(calls) != 0 {
		t.Fatalf("a refused selection reached Pi: %v", calls)
	}
}
