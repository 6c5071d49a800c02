package sse

import (
	"bytes"
	"strings"
	"testing"
)

// parseFrames parses an event stream the way the HTML standard says a browser does: lines end at CRLF, LF
// or CR; "event" sets the type, "data" lines are joined with LF; a blank line dispatches.
func parseFrames(s string) (names, datas []string) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	var name string
	var data []string
	hasData := false
	for _, line := range strings.Split(s, "\n") {
		if line == "" {
			if hasData {
				names = append(names, name)
				datas = append(datas, strings.Join(data, "\n"))
			}
			name, data, hasData = "", nil, false
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			name = value
		case "data":
			data = append(data, value)
			hasData = true
		}
	}
	return names, datas
}

// Whatever the data, a frame is exactly one event with the server's name and the data (line breaks
// normalized to LF): data cannot start a field or a second event. AppendFrame makes the same bytes.
func FuzzEncode(f *testing.F) {
	for _, s := range []string{`{"a":1}`, "", "\n", "\r\n\r\n", "a\rb\nc\r\nd", "x\n\nevent: evil\ndata: y", ": hb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		want := strings.ReplaceAll(strings.ReplaceAll(data, "\r\n", "\n"), "\r", "\n")
		wire := Encode(Event{Name: "board", Data: []byte(data)})
		names, datas := parseFrames(string(wire))
		if len(names) != 1 || names[0] != "board" || datas[0] != want {
			t.Fatalf("data %q parsed as names %q datas %q", data, names, datas)
		}
		// A frame built in place is the same bytes.
		f := AppendFrame([]byte("x"), "board", 1, func(b []byte) []byte { return append(b, data...) })
		if !bytes.Equal(f.Bytes(), wire) || string(f.Data()) != data {
			t.Fatalf("data %q: AppendFrame %q, Encode %q", data, f.Bytes(), wire)
		}
	})
}
