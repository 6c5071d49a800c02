package boardhttp

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"tele/board"
	"tele/web"
)

// Reading an imported file is the one thing a request without a capability can make cost CPU in
// proportion to its body: the readers are linear in their input, and on top of that the server reads
// at most MaxImportReads files at once, each for at most ImportReadTime, and a reading stops when its
// request ends (the client went away).
const (
	MaxImportReads = 2
	ImportReadTime = 10 * time.Second
	importWait     = 2 * time.Second // for a reading slot, before 429
)

// limitReads returns the formats with each Read taking one of MaxImportReads slots (waiting for one at
// most importWait, then 429 rate_limited) and reading under the request's context, cut at ImportReadTime.
func limitReads(formats map[string]Format) map[string]Format {
	slots := make(chan struct{}, MaxImportReads)
	out := make(map[string]Format, len(formats))
	for name, f := range formats {
		if read := f.Read; read != nil {
			f.Read = func(ctx context.Context, data []byte) ([]board.Chart, error) {
				wait := time.NewTimer(importWait)
				defer wait.Stop()
				select {
				case slots <- struct{}{}:
				case <-wait.C:
					return nil, &web.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
						Message: "the server is reading other imports; retry in a moment", RetryAfter: time.Second}
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				defer func() { <-slots }()
				ctx, cancel := context.WithTimeout(ctx, ImportReadTime)
				defer cancel()
				charts, err := read(ctx, data)
				if errors.Is(err, context.DeadlineExceeded) {
					return nil, web.NewError(http.StatusUnprocessableEntity, "unreadable_chart",
						"reading the file took longer than "+strconv.Itoa(int(ImportReadTime/time.Second))+" s: import it in parts")
				}
				return charts, err
			}
		}
		out[name] = f
	}
	return out
}
