package strict_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"tele/board"
	"tele/strict"
)

// deepBody is the review's body (issue 26, finding 7): a create whose title opens n arrays and never
// closes them. n = 10,000 is about 10 KB.
func deepBody(n int) []byte {
	return []byte(`{"content":{"title":` + strings.Repeat("[", n) + `}}`)
}

type deepTarget struct {
	Content struct {
		Title string `json:"title"`
	} `json:"content"`
}

// TestDeepErrorPathIsBounded: the error of a document nested 10,000 deep names at most MaxPathLevels
// levels and costs memory in proportion to the document. Before, the path named every level (30 KB of
// error text) and finding it allocated about 800 MB (1.8 s) for these 10 KB.
func TestDeepErrorPathIsBounded(t *testing.T) {
	body := deepBody(9_980)
	var v deepTarget
	var err error
	allocated := allocatedBy(func() { err = strict.Decode(body, &v) })
	se, ok := errors.AsType[*strict.Error](err)
	if !ok {
		t.Fatalf("got %v, want a *strict.Error", err)
	}
	if levels := strings.Count(se.Path, "["); levels != strict.MaxPathLevels-2 || !strings.HasSuffix(se.Path, "…") {
		t.Errorf("path %q names %d array levels, want the first %d levels and …", se.Path, levels, strict.MaxPathLevels)
	}
	if !strings.HasPrefix(se.Path, "content.title[0][0]") {
		t.Errorf("path %q does not start at content.title", se.Path)
	}
	// JSON v2 reads the document once and the error path once more: a few hundred bytes per input byte
	// at most (the decoders' stacks). Quadratic work would be thousands of times the input.
	if limit := uint64(200 * len(body)); allocated > limit {
		t.Errorf("decoding %d bytes allocated %d bytes, want at most %d", len(body), allocated, limit)
	}
}

func TestCheckDepth(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		ok   bool
	}{
		{"flat", `{"a":1}`, 1, true},
		{"at-the-limit", strings.Repeat("[", 32) + strings.Repeat("]", 32), 32, true},
		{"one-over", strings.Repeat("[", 33) + strings.Repeat("]", 33), 32, false},
		{"siblings-do-not-add-up", `[[[]],[[]],{"a":{"b":[]}}]`, 4, true},
		{"brackets-in-strings-do-not-count", `{"a":"[[[[{{{{"}`, 1, true},
		{"escaped-quote-stays-in-the-string", `{"a":"\"[[[["}`, 1, true},
		{"escaped-backslash-ends-the-string", `{"a":"\\",  "b":[[]]}`, 2, false},
		{"unclosed", strings.Repeat("{\"a\":", 40), 32, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := strict.CheckDepth([]byte(tt.in), tt.max)
			if tt.ok {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			se, ok := errors.AsType[*strict.Error](err)
			if !ok || !strings.Contains(se.Rule, "nesting deeper than") {
				t.Fatalf("got %v, want a nesting refusal", err)
			}
		})
	}
}

// allocatedBy returns the bytes the Go heap handed out while f ran (the test runs nothing else at the
// same time).
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// BenchmarkDeepError is the cost of refusing the review's 10 KB body nested 10,000 deep (docs/performance.md).
func BenchmarkDeepError(b *testing.B) {
	body := deepBody(9_980)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var v deepTarget
		if strict.Decode(body, &v) == nil {
			b.Fatal("accepted")
		}
	}
}

// BenchmarkCheckDepthVsDecode: what the depth check adds to every request body: one scan of the example
// board's JSON, next to decoding it (docs/performance.md).
func BenchmarkCheckDepthVsDecode(b *testing.B) {
	data, err := json.Marshal(board.Example())
	if err != nil {
		b.Fatal(err)
	}
	b.Run("check", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if strict.CheckDepth(data, 32) != nil {
				b.Fatal("refused")
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			var c board.Content
			if err := strict.Decode(data, &c); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// FuzzCheckDepth: on every valid JSON document, CheckDepth refuses exactly when the document nests
// deeper than the limit, as JSON v2's own decoder counts levels; on any input it never panics.
func FuzzCheckDepth(f *testing.F) {
	ex, _ := json.Marshal(board.Example())
	f.Add(ex, 7)
	f.Add([]byte(`{"a":"[[\"{{\\\\","b":[[[]]]}`), 2)
	f.Add([]byte(`[[[[[`), 3)
	f.Fuzz(func(t *testing.T, data []byte, limit int) {
		limit = limit%40 + 1
		if limit < 1 {
			limit += 40
		}
		err := strict.CheckDepth(data, limit)
		dec := jsontext.NewDecoder(bytes.NewReader(data))
		deepest := 0
		for {
			if _, rerr := dec.ReadToken(); rerr != nil {
				if rerr != io.EOF {
					return // not valid JSON: Decode refuses it anyway
				}
				break
			}
			deepest = max(deepest, dec.StackDepth())
		}
		if (err != nil) != (deepest > limit) {
			t.Fatalf("depth %d, limit %d: CheckDepth said %v", deepest, limit, err)
		}
	})
}
