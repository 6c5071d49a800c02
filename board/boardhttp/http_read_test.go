package boardhttp_test

import (
	stdjson "encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tele/board"
	"tele/board/boardhttp"
	"tele/server/servertest"
)

type readAnswer struct {
	Title     string           `json:"title"`
	Sections  []board.Section  `json:"sections"`
	Notes     []string         `json:"notes"`
	NoteCodes []board.NoteCode `json:"noteCodes"`
}

func readBody(text string) string {
	b, _ := stdjson.Marshal(map[string]string{"text": text})
	return string(b)
}

// POST /api/read reads a pasted block of chords over words as the text import would and makes nothing;
// a block with no chords, a request from another site, too large a body and a bad body are refused
// with their codes. Over a real loopback connection.
func TestReadText(t *testing.T) {
	e := servertest.New(t)
	e.OverSockets()
	json := http.Header{"Content-Type": {"application/json"}}

	w := e.Do(st{Method: "POST", Path: "/api/read", Header: json,
		Body: readBody("[Chorus]\nG        C      G\nAmazing grace, how sweet\n\n    D7\nthat saved\nEb-7\n")})
	var got readAnswer
	if w.Code != 200 || stdjson.Unmarshal(w.Body.Bytes(), &got) != nil || len(got.Sections) != 2 {
		t.Fatalf("read: %d %s", w.Code, w.Body)
	}
	first, second := got.Sections[0], got.Sections[1]
	if first.Label != "Chorus" || first.Role != board.Role("chorus") || len(first.Lines) != 1 || first.Lines[0].Text != "Amazing grace, how sweet" ||
		len(first.Lines[0].Chords) != 3 || first.Lines[0].Chords[1].At != 9 || first.Lines[0].Chords[1].Chord != "C" {
		t.Errorf("first section: %+v", first)
	}
	if len(second.Lines) != 2 || second.Lines[0].Chords[0].At != 4 || second.Lines[1].Chords[0].Chord != "Ebm7" {
		t.Errorf("second section (a chord line with no words, an alias respelled): %+v", second)
	}
	if len(got.Notes) == 0 || len(got.NoteCodes) != len(got.Notes) {
		t.Errorf("notes %q, codes %v: every guess is said", got.Notes, got.NoteCodes)
	}
	if list := e.Do(st{Method: "GET", Path: "/api/boards"}); strings.Contains(list.Body.String(), `"id"`) {
		t.Errorf("a read made a board: %s", list.Body)
	}

	for _, tc := range []struct {
		name   string
		req    st
		status int
		code   string
	}{
		{"words alone", st{Method: "POST", Path: "/api/read", Header: json, Body: readBody("just words\nand more")}, 422, "not_a_grid"},
		{"another site", st{Method: "POST", Path: "/api/read", Header: http.Header{"Content-Type": {"application/json"}, "Sec-Fetch-Site": {"cross-site"}}, Body: readBody("G\nla")}, 403, "cross_site"},
		{"too large", st{Method: "POST", Path: "/api/read", Header: json, Body: readBody("G\n" + strings.Repeat("la ", boardhttp.MaxReadBytes/3+1))}, 413, "too_large"},
		{"not JSON", st{Method: "POST", Path: "/api/read", Header: json, Body: "G\nla"}, 400, "bad_json"},
		{"an unknown member", st{Method: "POST", Path: "/api/read", Header: json, Body: `{"text":"G\nla","id":"x"}`}, 400, "bad_json"},
		{"not JSON's type", st{Method: "POST", Path: "/api/read", Header: http.Header{"Content-Type": {"text/plain"}}, Body: readBody("G\nla")}, 415, ""},
	} {
		w := e.Do(tc.req)
		if w.Code != tc.status || (tc.code != "" && servertest.Code(w.Body.Bytes()) != tc.code) {
			t.Errorf("%s: %d %s, want %d %s", tc.name, w.Code, w.Body, tc.status, tc.code)
		}
	}
}

// FuzzReadText: any body of POST /api/read is answered 200 with sections of lines the content schema
// accepts, or refused with a JSON code; never a 500.
func FuzzReadText(f *testing.F) {
	for _, b := range []string{readBody("G   C\nla la\n"), readBody("[Chorus]\nAm\n\n中文 words\nD7\n😀x\n"), `{"text":""}`, `{}`, `{"text":1}`, `[]`, "", `{"text":"G\nla","text":"x"}`} {
		f.Add(b)
	}
	e := servertest.New(f)
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest("POST", "/api/read", strings.NewReader(body))
		req.Host = servertest.Host
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		e.Handler.ServeHTTP(w, req)
		if w.Code != 200 {
			if w.Code >= 500 || servertest.Code(w.Body.Bytes()) == "" {
				t.Fatalf("%q: %d %s", body, w.Code, w.Body)
			}
			return
		}
		var got struct {
			Sections []board.Section `json:"sections"`
		}
		if err := stdjson.Unmarshal(w.Body.Bytes(), &got); err != nil || len(got.Sections) == 0 {
			t.Fatalf("%q: %s", body, w.Body)
		}
		c := board.Content{Title: "t", Tempo: 120, BeatsPerBar: 4, Sections: got.Sections}
		if err := c.Validate(); err != nil {
			t.Fatalf("%q: the sections read break a rule: %v", body, err)
		}
	})
}
