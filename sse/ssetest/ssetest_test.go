package ssetest

import (
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stream string
		want   []Event
	}{
		{"one event", "event: board\ndata: {}\n\n", []Event{{Name: "board", Data: "{}"}}},
		{"data on two lines", "event: board\ndata: a\ndata: b\n\n", []Event{{Name: "board", Data: "a\nb"}}},
		{"a comment", ": hello \n\n", []Event{{Comment: "hello"}}},
		{"empty blocks", "\n\n\nevent: x\n\n", []Event{{Name: "x"}}},
		{"unknown fields", "id: 7\nretry: 10\n\n", nil},
		{"a cut block", "event: board\ndata: {}\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []Event
			err := Read(strings.NewReader(tc.stream), func(ev Event) { got = append(got, ev) })
			if err != io.EOF || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Read = %+v, %v; want %+v, EOF", got, err, tc.want)
			}
		})
	}
}

func TestBare(t *testing.T) {
	b := NewBare(t, ": hello\n\n")
	resp, err := http.Get(b.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	in := b.Next()
	in <- []byte("event: board\ndata: 1\n\n")
	in <- []byte("event: board\ndata: 2\n\n")
	got := make(chan Event, 3)
	go Read(resp.Body, func(ev Event) { got <- ev })
	for _, want := range []Event{{Comment: "hello"}, {Name: "board", Data: "1"}, {Name: "board", Data: "2"}} {
		if ev := <-got; ev != want {
			t.Fatalf("read %+v, want %+v", ev, want)
		}
	}
}
