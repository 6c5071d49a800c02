package chat

import (
	"bytes"
	"encoding/json"
	"reflect"
	"tele/projection"
	"testing"
)

// encodeItems is each item's JSON object, as the projector keeps them.
func encodeItems(t *testing.T, items ...projection.Item) [][]byte {
	t.Helper()
	encs := make([][]byte, len(items))
	for k, it := range items {
		enc, err := it.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		encs[k] = enc
	}
	return encs
}

func TestStatusDocJSON(t *testing.T) {
	b := appendStatusDoc(nil, "ep", 3, StatusRunning, EditsPropose, "r1", NoticeStopRequested, false,
		encodeItems(t, projection.Item{ID: "u1", Role: "user", Text: "hi"}))
	want := `{"epoch":"ep","idleVersion":3,"status":"running","edits":"propose","runId":"r1","notice":"stop-requested","truncated":false,"items":[{"id":"u1","role":"user","text":"hi"}]}`
	if string(b) != want {
		t.Fatalf("\n got %s\nwant %s", b, want)
	}
	b = appendStatusDoc(nil, "ep", 1, StatusIdle, EditsApply, "", "", false, nil)
	if string(b) != `{"epoch":"ep","idleVersion":1,"status":"idle","edits":"apply","runId":null,"notice":null,"truncated":false,"items":[]}` {
		t.Fatalf("%s", b)
	}
	// Every string is escaped as encoding/json escapes it (bad UTF-8 too, outside items, which refuse it):
	// the document is one line.
	odd := "a\nb\r\u2028<&>\"\\\x01\xff"
	b = appendStatusDoc(nil, odd, 0, odd, odd, odd, odd, false,
		encodeItems(t, projection.Item{ID: odd[:len(odd)-1], Role: "user", Text: odd[:len(odd)-1]}))
	std, _ := json.Marshal(map[string]any{"epoch": odd, "idleVersion": 0, "status": odd, "edits": odd, "runId": odd, "notice": odd,
		"truncated": false, "items": []map[string]string{{"id": odd[:len(odd)-1], "role": "user", "text": odd[:len(odd)-1]}}})
	var got, wantV any
	if json.Unmarshal(b, &got) != nil || json.Unmarshal(std, &wantV) != nil || !reflect.DeepEqual(got, wantV) ||
		bytes.ContainsAny(b, "\r\n") || !bytes.Contains(b, []byte(`"epoch":"a\nb\r\u2028\u003c\u0026\u003e\"\\\u0001\ufffd"`)) {
		t.Fatalf("%s\n%s", b, std)
	}
}

func TestGatewayViewMatchesTheSnapshot(t *testing.T) {
	e := newEnv(t)
	c := e.pair()
	e.gw.ApplyBranch(true, []byte(`[{"type":"message","id":"u1","message":{"role":"user","content":"hello"}}]`))
	e.gw.AgentStart()
	st := e.do("GET", e.base()+"/status", "", nil, c)
	v := st.json(t)
	if served := e.served(); st.status != 200 || !reflect.DeepEqual(v, served) {
		t.Fatalf("served %v\nstatus %d %s", served, st.status, st.body)
	}
	if items, _ := v["items"].([]any); len(items) != 1 || v["runId"] == nil {
		t.Fatalf("%s", st.body)
	}
}
