package web

import (
	"net/http/httptest"
	"testing"
)

func TestNotModified(t *testing.T) {
	for _, tc := range []struct {
		name   string
		header []string // If-None-Match values; nil: absent
		want   bool
	}{
		{"absent", nil, false},
		{"current", []string{`"3"`}, true},
		{"weak", []string{`W/"3"`}, true},
		{"list", []string{`"7", "3"`}, true},
		{"list-no-spaces", []string{`"7","3"`}, true},
		{"second-header", []string{`"7"`, `"3"`}, true},
		{"star", []string{`*`}, true},
		{"stale", []string{`"2"`}, false},
		{"unquoted", []string{`3`}, false},
		{"other-spelling", []string{`"03"`}, false},
		{"prefix", []string{`"33"`}, false},
		{"empty", []string{``}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/api/boards/x", nil)
			for _, v := range tc.header {
				r.Header.Add("If-None-Match", v)
			}
			if got := NotModified(r, `"3"`); got != tc.want {
				t.Fatalf("NotModified = %v, want %v", got, tc.want)
			}
		})
	}
}
