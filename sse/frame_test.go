package sse

import (
	"bytes"
	"strings"
	"testing"
)

// Frames: encoding, pre-encoded frames, and data with newlines.

func TestEncode(t *testing.T) {
	tests := []struct {
		name string
		data string
		want string
	}{
		{"plain", `{"a":1}`, "event: board\ndata: {\"a\":1}\n\n"},
		{"empty", ``, "event: board\ndata: \n\n"},
		{"lf", "{\n\"a\":1}", "event: board\ndata: {\ndata: \"a\":1}\n\n"},
		{"crlf", "{\r\n}", "event: board\ndata: {\ndata: }\n\n"},
		{"cr", "{\r}", "event: board\ndata: {\ndata: }\n\n"},
		{"injection", "1\n\nevent: evil\ndata: x", "event: board\ndata: 1\ndata: \ndata: event: evil\ndata: data: x\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(Encode(Event{Name: "board", Data: []byte(tt.data)}))
			if got != tt.want {
				t.Fatalf("Encode = %q, want %q", got, tt.want)
			}
		})
	}
	for _, bad := range []string{"", "a\nb", "a\rb"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Encode with name %q did not panic", bad)
				}
			}()
			Encode(Event{Name: bad})
		}()
	}
}

// AppendFrame writes the same bytes as Encode, in the caller's buffer when the data is one line (no
// further copy), and in a buffer of its own with continuation lines when it is not.
func TestAppendFrame(t *testing.T) {
	for _, data := range []string{`{"a":1}`, ``, "{\n\"a\":1}", "{\r\n}", "1\n\nevent: evil\ndata: x"} {
		buf := append(make([]byte, 0, 256), "kept"...)
		f := AppendFrame(buf, "board", 7, func(b []byte) []byte { return append(b, data...) })
		if want := Encode(Event{Name: "board", Data: []byte(data)}); !bytes.Equal(f.Bytes(), want) {
			t.Fatalf("%q: frame %q, want %q", data, f.Bytes(), want)
		}
		if string(f.Data()) != data || f.Seq() != 7 || string(buf[:4]) != "kept" {
			t.Fatalf("%q: data %q, seq %d, buffer %q", data, f.Data(), f.Seq(), buf[:4])
		}
		inPlace := &f.Bytes()[0] == &buf[:5][4]
		if oneLine := !strings.ContainsAny(data, "\r\n"); inPlace != oneLine {
			t.Fatalf("%q: frame written in the caller's buffer: %v", data, inPlace)
		}
	}
	// A buffer too small grows like append.
	if f := AppendFrame(nil, "e", 1, func(b []byte) []byte { return append(b, "{}"...) }); string(f.Bytes()) != "event: e\ndata: {}\n\n" {
		t.Fatalf("%q", f.Bytes())
	}
	for name, bad := range map[string]func(){
		"empty name":   func() { AppendFrame(nil, "", 1, func(b []byte) []byte { return b }) },
		"name with LF": func() { AppendFrame(nil, "a\nb", 1, func(b []byte) []byte { return b }) },
		"cut":          func() { AppendFrame(nil, "e", 1, func(b []byte) []byte { return b[:3] }) },
		"overwritten": func() {
			AppendFrame(nil, "e", 1, func(b []byte) []byte { return append(b[:len(b)-7], "\nevent: x\ndata: "...) })
		},
		"zero frame": func() { NewHub(Options{}).PublishFrame("t", Frame{}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			bad()
		}()
	}
}

// A published frame reaches every stream of the topic as is, and Seq orders it with the snapshot.
func TestPublishFrame(t *testing.T) {
	f := newFixture(t, Options{})
	a, _ := f.open(t, "/t?seq=1")
	b, _ := f.open(t, "/t?seq=1")
	a.next(t)
	b.next(t)
	frame := func(seq int64, data string) Frame {
		return AppendFrame(nil, "snapshot", seq, func(b []byte) []byte { return append(b, data...) })
	}
	f.hub.PublishFrame("t", frame(1, `{"old":true}`)) // not newer than the snapshot: skipped
	f.hub.PublishFrame("t", frame(2, `{"v":2}`))
	f.hub.PublishFrame("other", frame(3, `{"v":"other"}`))
	f.hub.PublishFrame("t", frame(4, "{\n\"v\":4}"))
	for _, r := range []*sseReader{a, b} {
		if m := r.next(t); m.Event != "snapshot" || m.Data != `{"v":2}` {
			t.Fatalf("got %+v", m)
		}
		if m := r.next(t); m.Event != "snapshot" || m.Data != "{\n\"v\":4}" {
			t.Fatalf("got %+v", m)
		}
	}
}

// A stream whose data has a newline round-trips through a real client as the same data.
func TestNewlineDataRoundTrip(t *testing.T) {
	f := newFixture(t, Options{})
	r, _ := f.open(t, "/a")
	r.next(t)
	f.hub.Publish("a", Event{Name: "board", Seq: 1, Data: []byte("{\n  \"a\": 1\n}")})
	if m := r.next(t); m.Event != "board" || m.Data != "{\n  \"a\": 1\n}" {
		t.Fatalf("got %+v", m)
	}
}
