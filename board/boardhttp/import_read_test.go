package boardhttp

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"tele/board"
	"tele/web"
)

// An import's reading gets the request's context (so it stops when the client goes), at most
// MaxImportReads read at once (another waits, then is told to retry: 429), and a reading is cut at
// ImportReadTime (422 with the reason).
func TestLimitReads(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		started := make(chan struct{})
		formats := limitReads(map[string]Format{"slow": {Read: func(ctx context.Context, data []byte) ([]board.Chart, error) {
			started <- struct{}{}
			select {
			case <-release:
				return []board.Chart{{Title: string(data)}}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}}})
		read := formats["slow"].Read

		// The client goes: the reading stops with the request.
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error)
		go func() { _, err := read(ctx, []byte("a")); done <- err }()
		<-started
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("after the client went: %v", err)
		}

		// Two readings hold both slots; a third waits, then is refused with 429.
		results := make(chan error, MaxImportReads)
		for range MaxImportReads {
			go func() { _, err := read(t.Context(), []byte("b")); results <- err }()
			<-started
		}
		_, err := read(t.Context(), []byte("c"))
		if we, ok := errors.AsType[*web.Error](err); !ok || we.Status != 429 || we.Code != "rate_limited" {
			t.Fatalf("third reading: %v", err)
		}
		close(release)
		for range MaxImportReads {
			if err := <-results; err != nil {
				t.Fatal(err)
			}
		}

		// A reading that goes on past ImportReadTime is cut, with its reason.
		formats = limitReads(map[string]Format{"endless": {Read: func(ctx context.Context, _ []byte) ([]board.Chart, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}}})
		start := time.Now()
		_, err = formats["endless"].Read(t.Context(), nil)
		if we, ok := errors.AsType[*web.Error](err); !ok || we.Code != "unreadable_chart" || time.Since(start) != ImportReadTime {
			t.Fatalf("endless reading: %v after %v", err, time.Since(start))
		}
	})
}
