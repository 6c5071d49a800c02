package boardhttp

import (
	"errors"
	"testing"

	"tele/board/store"
	"tele/web"
)

// FuzzRevisionsQuery: the query of GET /api/boards/:board/revisions is either refused with bad_query or
// gives a before of 0 or more and a limit from 1 to MaxRevisionsPage; never a panic.
func FuzzRevisionsQuery(f *testing.F) {
	for _, q := range []string{"", "limit=5", "before=40&limit=100", "limit=0", "before=-1", "limit=5&limit=6",
		"before=%zz", "after=1", "before=99999999999999999999", "limit=05", "before=1;limit=2"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		before, limit, err := revisionsQuery(raw)
		if err != nil {
			if we, ok := errors.AsType[*web.Error](err); !ok || we.Code != "bad_query" || we.Status != 400 {
				t.Fatalf("%q: %v", raw, err)
			}
			return
		}
		if before < 0 || limit < 1 || limit > store.MaxRevisionsPage {
			t.Fatalf("%q: before %d, limit %d", raw, before, limit)
		}
	})
}
