package web

import (
	"errors"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

// TestDecodeJSONRefusesDeepNesting (issue 26, finding 7): a 10 KB body nested 10,000 deep is 400 bad_json
// with a short rule, refused before it is decoded: the work is one pass over its bytes. Before, it cost
// about 1.8 s and 800 MB of allocations, and its error echoed a 30 KB path. Content's own depth passes.
func TestDecodeJSONRefusesDeepNesting(t *testing.T) {
	type content struct {
		Title    string `json:"title"`
		Sections []struct {
			Bars []struct {
				Chords []string `json:"chords"`
			} `json:"bars"`
		} `json:"sections"`
	}
	type create struct {
		Content content `json:"content"`
	}
	decode := func(body string) (uint64, error) {
		r := httptest.NewRequest("POST", "/api/boards", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		var v create
		var err error
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err = DecodeJSON(r, 256<<10, &v)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc, err
	}

	if _, err := decode(`{"content":{"title":"T","sections":[{"bars":[{"chords":["C","G7"]}]}]}}`); err != nil {
		t.Fatalf("content's own nesting refused: %v", err)
	}
	body := `{"content":{"title":` + strings.Repeat("[", 9_980) + `}}`
	allocated, err := decode(body)
	e, ok := errors.AsType[*Error](err)
	if !ok || e.Status != 400 || e.Code != "bad_json" {
		t.Fatalf("got %v, want 400 bad_json", err)
	}
	if rule, _ := e.Fields["rule"].(string); !strings.HasPrefix(rule, "nesting deeper than 32 levels") {
		t.Errorf("rule %q", rule)
	}
	if len(e.body()) > 300 {
		t.Errorf("the error is %d bytes: %s", len(e.body()), e.body())
	}
	// Reading the body and one scan: about the body's size, plus the error.
	if limit := uint64(4*len(body) + 16<<10); allocated > limit {
		t.Errorf("refusing %d bytes allocated %d bytes, want at most %d", len(body), allocated, limit)
	}
}
