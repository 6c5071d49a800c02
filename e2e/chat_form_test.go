package e2e

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/tidwall/gjson"
)

// chatFormInput asks, from the terminal, for a section with a repeat and two endings.
const chatFormInput = "Add a verse that repeats, with a first and a second ending."

// formModel answers chatFormInput: get, then put the board with formSection (probe_board_test.go)
// appended as a new section, then a word.
func formModel(tools []ModelMessage) Reply {
	switch len(tools) {
	case 0:
		return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: `{"action":"get"}`}}}
	case 1:
		got := gjson.Parse(tools[0].Text())
		var content map[string]any
		if err := json.Unmarshal([]byte(got.Get("content").Raw), &content); err != nil {
			return Reply{Text: "the board could not be read"}
		}
		var section any
		_ = json.Unmarshal([]byte(formSection), &section)
		sections, _ := content["sections"].([]any)
		content["sections"] = append(sections, section)
		args, _ := json.Marshal(map[string]any{"action": "put", "expectedRevision": got.Get("revision").Int(), "content": content})
		return Reply{ToolCalls: []ToolCall{{Name: "tele_board", Arguments: string(args)}}}
	}
	return Reply{Text: "Done: a verse with two endings."}
}

// piWritesAForm: issue 14's probe in the browser. The model writes a version-2 section with a repeat and
// two endings through tele_board; the paired page draws the repeat bar lines and both volta brackets
// without a reload.
func (r *chatRig) piWritesAForm(t *testing.T) string {
	a := r.tab
	before := len(a.problems()) // earlier scenarios provoked errors on purpose (refused sends)
	r.pi.PromptAndWait(chatFormInput)
	a.waitJS(`[...document.querySelectorAll('.bar[data-ending]')].map((b) => b.dataset.ending).join(',') === '1,2'`, "the two volta brackets on the page")
	drawn := evalJS[map[string]any](a, `(() => {
		const first = document.querySelector('.bar[data-ending]');
		first.scrollIntoView({ block: 'center' });
		const section = first.closest('section') || document;
		return {
			starts: section.querySelectorAll('.bar[data-repeat-start]').length,
			ends: [...section.querySelectorAll('.bar[data-repeat-end]')].map((b) => b.dataset.repeatEnd).join(','),
			voltas: [...section.querySelectorAll('.bar[data-ending] > .form-text')].map((e) => e.textContent).join('|'),
		};
	})()`)
	if drawn["starts"] != float64(1) || drawn["ends"] != "2" || drawn["voltas"] != "1.|2." {
		t.Errorf("the form Pi wrote is drawn as %v; want one repeat start, one end repeat (2) and voltas 1. and 2.", drawn)
	}
	// The Pi-change banner summarizes the change, comparing bars of either schema version.
	a.waitJS(`!document.getElementById('pi-banner').hidden && document.getElementById('pi-banner-text').textContent.includes('4 bars changed in')`, "the Pi banner counting the 4 new bars")
	r.shot(a, "pi-form-desktop-en")
	evalJS[int](a, `1`) // console events arrive asynchronously: a round trip lets the ones sent land
	if probs := a.problems(); len(probs) > before {
		t.Errorf("the page logged errors after Pi wrote a form: %q", probs[before:])
	}
	return fmt.Sprintf("the model put a section |: C | Am7 |1. Dm7 G7 :| |2. C || through tele_board; the page drew %v", drawn)
}
