package link

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
)

// bigBranchFrame is a branch note of about size bytes: entries with long tool results, as Pi sends them.
func bigBranchFrame(size int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"note":"branch","reset":true,"entries":[`)
	body := strings.Repeat(`line of tool output with \"quotes\" and \\ backslashes\n`, 64)
	for i := 0; b.Len() < size-4096; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"type":"message","id":"%08x","parentId":null,"timestamp":"2026-11-30T08:44:08.151Z","message":{"role":"toolResult","toolCallId":"call_%d","toolName":"bash","content":[{"type":"text","text":"%s"}],"isError":false,"timestamp":1}}`, i, i, body)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// BenchmarkReadBranchFrame reads one ~16 MiB branch note through the bounded reader and the strict
// envelope check (UTF-8, depth, grammar, top-level members), as the host does before projecting.
func BenchmarkReadBranchFrame(b *testing.B) {
	frame := append(bigBranchFrame(MaxFrame-1024), '\n')
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		lr := newLineReader(bytes.NewReader(frame), MaxFrame)
		line, _, tooLong, err := lr.next()
		if err != nil || tooLong {
			b.Fatal(err, tooLong)
		}
		f, me := parseFrame(line)
		if me != nil || len(f.note) < MaxFrame/2 {
			b.Fatal(me)
		}
	}
}

type nopHandler struct{}

func (nopHandler) Note(string, []byte)                               {}
func (nopHandler) Call(context.Context, string, []byte) (any, error) { return nil, nil }

// BenchmarkSmallFrames is the per-frame cost of small notes through a Conn.
func BenchmarkSmallFrames(b *testing.B) {
	line := []byte(`{"note":"state","idle":true,"pending":false,"prompt":false}` + "\n")
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	pr, pw := io.Pipe()
	c := NewConn(pr, io.Discard, nopHandler{}, nil)
	done := make(chan error, 1)
	go func() { done <- c.Run(context.Background()) }()
	for b.Loop() {
		pw.Write(line)
	}
	pw.Close()
	<-done
}
