package web

import (
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

type sample struct {
	A int    `json:"a"`
	B string `json:"b"`
}

func TestDecodeJSON(t *testing.T) {
	const limit = 64
	tests := []struct {
		name        string
		contentType []string // nil: no header
		body        string
		chunked     bool // hide the length, so the limit is found while reading
		wantStatus  int  // 0: success
		wantCode    string
	}{
		{name: "plain-json", contentType: []string{"application/json"}, body: `{"a":1,"b":"x"}`},
		{name: "charset-utf-8", contentType: []string{"application/json; charset=utf-8"}, body: `{"a":1}`},
		{name: "charset-upper-case", contentType: []string{"Application/JSON;charset=UTF-8"}, body: `{"a":1}`},
		{name: "leading-whitespace", contentType: []string{"application/json"}, body: " \n\t{\"a\":1}\n"},
		{name: "exactly-the-limit", contentType: []string{"application/json"}, body: `{"b":"` + strings.Repeat("x", limit-8) + `"}`},

		{name: "no-content-type", body: `{"a":1}`, wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "text-plain", contentType: []string{"text/plain"}, body: `{"a":1}`, wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "form", contentType: []string{"application/x-www-form-urlencoded"}, body: `a=1`, wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "multipart", contentType: []string{"multipart/form-data; boundary=x"}, body: `--x--`, wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "other-charset", contentType: []string{"application/json; charset=latin1"}, body: `{"a":1}`, wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "other-parameter", contentType: []string{"application/json; v=2"}, body: `{"a":1}`, wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "json-suffix-type", contentType: []string{"application/merge-patch+json"}, body: `{"a":1}`, wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "two-content-types", contentType: []string{"application/json", "text/plain"}, body: `{"a":1}`, wantStatus: 415, wantCode: "unsupported_media_type"},
		{name: "malformed-content-type", contentType: []string{"application/json; ="}, body: `{"a":1}`, wantStatus: 415, wantCode: "unsupported_media_type"},

		{name: "over-limit-by-length", contentType: []string{"application/json"}, body: `{"b":"` + strings.Repeat("x", limit) + `"}`, wantStatus: 413, wantCode: "too_large"},
		{name: "over-limit-while-reading", contentType: []string{"application/json"}, body: `{"b":"` + strings.Repeat("x", limit) + `"}`, chunked: true, wantStatus: 413, wantCode: "too_large"},

		{name: "empty-body", contentType: []string{"application/json"}, body: ``, wantStatus: 400, wantCode: "bad_json"},
		{name: "array", contentType: []string{"application/json"}, body: `[{"a":1}]`, wantStatus: 400, wantCode: "bad_json"},
		{name: "null", contentType: []string{"application/json"}, body: `null`, wantStatus: 400, wantCode: "bad_json"},
		{name: "string", contentType: []string{"application/json"}, body: `"a"`, wantStatus: 400, wantCode: "bad_json"},
		{name: "unknown-field", contentType: []string{"application/json"}, body: `{"a":1,"c":2}`, wantStatus: 400, wantCode: "bad_json"},
		{name: "duplicate-key", contentType: []string{"application/json"}, body: `{"a":1,"a":2}`, wantStatus: 400, wantCode: "bad_json"},
		{name: "trailing-data", contentType: []string{"application/json"}, body: `{"a":1} x`, wantStatus: 400, wantCode: "bad_json"},
		{name: "two-objects", contentType: []string{"application/json"}, body: `{"a":1}{"a":2}`, wantStatus: 400, wantCode: "bad_json"},
		{name: "wrong-type", contentType: []string{"application/json"}, body: `{"a":"1"}`, wantStatus: 400, wantCode: "bad_json"},
		{name: "truncated", contentType: []string{"application/json"}, body: `{"a":1`, wantStatus: 400, wantCode: "bad_json"},
		{name: "invalid-utf-8", contentType: []string{"application/json"}, body: "{\"b\":\"\xff\"}", wantStatus: 400, wantCode: "bad_json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body io.Reader = strings.NewReader(tt.body)
			if tt.chunked {
				body = io.MultiReader(body) // hides the length from httptest.NewRequest
			}
			r := httptest.NewRequest("PUT", "/api/x", body)
			if tt.chunked && r.ContentLength != -1 {
				t.Fatalf("ContentLength = %d, want -1", r.ContentLength)
			}
			for _, ct := range tt.contentType {
				r.Header.Add("Content-Type", ct)
			}
			var v sample
			err := DecodeJSON(r, limit, &v)
			if tt.wantStatus == 0 {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				return
			}
			e, ok := errors.AsType[*Error](err)
			if !ok {
				t.Fatalf("err = %v, want *Error", err)
			}
			if e.Status != tt.wantStatus || e.Code != tt.wantCode {
				t.Errorf("got %d %s (%s), want %d %s", e.Status, e.Code, e.Message, tt.wantStatus, tt.wantCode)
			}
			if e.Code == "bad_json" {
				if _, ok := e.Fields["path"]; !ok {
					t.Errorf("bad_json without a path field: %v", e.Fields)
				}
			}
		})
	}
}
