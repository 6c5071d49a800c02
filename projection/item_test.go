package projection

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestItemJSON(t *testing.T) {
	for _, tc := range []struct {
		it   Item
		want string
	}{
		{iUser("1", "hi"), `{"id":"1","role":"user","text":"hi"}`},
		{iAsst("2", ""), `{"id":"2","role":"assistant","text":""}`},
		{iTool("3", "bash", ToolFailed), `{"id":"3","role":"tool","name":"bash","status":"failed"}`},
		{iNotice("4", CodeContextCompacted), `{"id":"4","role":"notice","code":"context-compacted"}`},
		{iUser("5", "<&>\u2028\u2029\"\\\n\x00é😀"), `{"id":"5","role":"user","text":"\u003c\u0026\u003e\u2028\u2029\"\\\n\u0000é😀"}`},
	} {
		got, err := json.Marshal(tc.it)
		if err != nil || string(got) != tc.want {
			t.Errorf("Marshal(%+v) = %s, %v; want %s", tc.it, got, err, tc.want)
		}
		direct, _ := tc.it.MarshalJSON()
		if string(direct) != string(got) {
			t.Errorf("MarshalJSON %s differs from json.Marshal %s", direct, got)
		}
		var back Item
		if err := json.Unmarshal(got, &back); err != nil || back != tc.it {
			t.Errorf("round trip %+v: %+v %v", tc.it, back, err)
		}
	}
	for _, bad := range []Item{
		{}, {ID: "x"}, {ID: "x", Role: "system", Text: "t"}, {Role: RoleUser},
		{ID: strings.Repeat("i", MaxItemIDUnits+1), Role: RoleUser},
		{ID: "x", Role: RoleUser, Text: strings.Repeat("😀", MaxItemTextUnits/2+1)},
		{ID: "x", Role: RoleUser, Text: "\xff"},
		{ID: "x", Role: RoleUser, Name: "n"},
		{ID: "x", Role: RoleAssistant, Code: CodeModelFailed},
		{ID: "x", Role: RoleTool, Name: "", Status: ToolCalling},
		{ID: "x", Role: RoleTool, Name: strings.Repeat("n", MaxItemNameUnits+1), Status: ToolCalling},
		{ID: "x", Role: RoleTool, Name: "n", Status: "running"},
		{ID: "x", Role: RoleTool, Name: "n", Status: ToolCalling, Text: "args"},
		{ID: "x", Role: RoleNotice, Code: "input-submitted"},
		{ID: "x", Role: RoleNotice, Code: CodeModelFailed, Text: "details"},
	} {
		if _, err := json.Marshal(bad); err == nil {
			t.Errorf("Marshal(%+v) accepted", bad)
		}
	}
	// The exact limits are fine.
	ok := Item{ID: strings.Repeat("😀", MaxItemIDUnits/2), Role: RoleTool, Name: strings.Repeat("😀", MaxItemNameUnits/2), Status: ToolCalling}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
}
