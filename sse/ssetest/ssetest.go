// Package ssetest is for tests only: it reads event streams as a client does, and serves the bare
// stream that benchmarks measure the hub against.
package ssetest

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Event is one message of a text/event-stream: an event, or a comment.
type Event struct {
	Name    string // the event: line
	Data    string // the data: lines, joined by "\n"
	Comment string // the last comment line, without its colon and the spaces around it
}

// Read reads the messages of stream until it ends and calls each with every one, in order; a message
// is the lines up to an empty line, and one with neither event, data nor comment is none. It returns
// the error that ended the reading: io.EOF at the end of stream.
func Read(stream io.Reader, each func(Event)) error {
	br := bufio.NewReaderSize(stream, 128<<10)
	var ev Event
	var data []string
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return err
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			if ev.Name != "" || len(data) > 0 || ev.Comment != "" {
				ev.Data = strings.Join(data, "\n")
				each(ev)
			}
			ev, data = Event{}, nil
		case strings.HasPrefix(line, ":"):
			ev.Comment = strings.TrimSpace(line[1:])
		case strings.HasPrefix(line, "event: "):
			ev.Name = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			data = append(data, line[len("data: "):])
		}
	}
}

// Bare serves event streams with plain net/http and nothing of package sse: the floor of what a
// server can do. Each stream gets first, then every frame sent to its input, written and flushed as is.
type Bare struct {
	*httptest.Server
	streams chan chan<- []byte
}

// NewBare starts a Bare server; it stops when the test ends.
func NewBare(tb testing.TB, first string) *Bare {
	b := &Bare{streams: make(chan chan<- []byte)}
	b.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, first)
		w.(http.Flusher).Flush()
		in := make(chan []byte, 1)
		if !send(r.Context(), b.streams, in) {
			return
		}
		for {
			select {
			case <-r.Context().Done():
				return
			case p := <-in:
				if _, err := w.Write(p); err != nil {
					return
				}
				w.(http.Flusher).Flush()
			}
		}
	}))
	tb.Cleanup(b.Close)
	return b
}

// Next returns the input of the next stream that connects, once it has.
func (b *Bare) Next() chan<- []byte { return <-b.streams }

func send[T any](ctx context.Context, ch chan<- T, v T) bool {
	select {
	case ch <- v:
		return true
	case <-ctx.Done():
		return false
	}
}
