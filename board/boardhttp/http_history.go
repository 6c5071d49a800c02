package boardhttp

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/julienschmidt/httprouter"

	"tele/board/store"
	"tele/web"
)

// This file is the HTTP edge of a board's history: the revision list, one revision, and restore.

// MaxRestoreBodyBytes bounds the body of a restore, {"revision": n}.
const MaxRestoreBodyBytes = 1 << 10

// DefaultRevisionsPage is the page size of GET /api/boards/:board/revisions without limit.
const DefaultRevisionsPage = 50

var (
	errRevisionNotFound = web.NewError(http.StatusNotFound, "revision_not_found",
		"this board has no such revision: it was never written, or it is older than the revisions kept")
	errNoRevision = web.NewError(http.StatusBadRequest, "bad_json",
		`a restore names the revision to bring back: {"revision": <n>}`)
)

func badQuery(msg string) *web.Error {
	return web.NewError(http.StatusBadRequest, "bad_query", msg)
}

// listRevisions handles GET /api/boards/:board/revisions?before=<rev>&limit=<1..100>: the newest
// revisions first, {"revisions":[{"revision","author","updatedAt","title","restoredFrom"}…],
// "next":<rev>|null}, where next is the before of the following page. Each row's encoding is made once,
// at its commit; a page is those bytes joined.
func (h *Handler) listRevisions(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	id := ps.ByName("board")
	if _, err := h.get(id); err != nil {
		return err
	}
	before, limit, err := revisionsQuery(r.URL.RawQuery)
	if err != nil {
		return err
	}
	rows, next, err := h.store.Revisions(id, before, limit)
	if err != nil {
		return err
	}
	buf, _ := h.pages.Get().(*[]byte)
	if buf == nil {
		buf = new([]byte)
	}
	defer h.pages.Put(buf)
	body := append((*buf)[:0], `{"revisions":[`...)
	for i := len(rows) - 1; i >= 0; i-- { // newest first
		body = append(body, rows[i].JSON()...)
		if i > 0 {
			body = append(body, ',')
		}
	}
	body = append(body, `],"next":`...)
	if next == 0 {
		body = append(body, "null"...)
	} else {
		body = strconv.AppendInt(body, next, 10)
	}
	body = append(body, '}')
	*buf = body
	writeBody(w, http.StatusOK, body)
	return nil
}

// revisionsQuery reads before (a revision, 0 when absent) and limit (1..MaxRevisionsPage, default
// DefaultRevisionsPage). Anything else in the query, or either parameter twice, is 400 bad_query.
func revisionsQuery(raw string) (before int64, limit int, err error) {
	limit = DefaultRevisionsPage
	if raw == "" {
		return 0, limit, nil
	}
	q, perr := url.ParseQuery(raw)
	if perr != nil {
		return 0, 0, badQuery("the query cannot be read: use ?before=<revision>&limit=<1-100>")
	}
	for k, vs := range q {
		if len(vs) != 1 {
			return 0, 0, badQuery(k + " is given more than once")
		}
		v := vs[0]
		switch k {
		case "before":
			n, ok := canonicalInt(v)
			if !ok || n < 1 {
				return 0, 0, badQuery("before must be a revision number (1 or more), like before=40")
			}
			before = n
		case "limit":
			n, ok := canonicalInt(v)
			if !ok || n < 1 || n > store.MaxRevisionsPage {
				return 0, 0, badQuery("limit must be a whole number from 1 to 100")
			}
			limit = int(n)
		default:
			return 0, 0, badQuery("unknown query parameter " + strconv.Quote(k) + ": the parameters are before and limit")
		}
	}
	return before, limit, nil
}

// canonicalInt parses a non-negative decimal integer with one spelling: digits only, no sign, no
// leading zero.
func canonicalInt(s string) (int64, bool) {
	if s == "" || s[0] < '0' || s[0] > '9' || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// getRevision handles GET /api/boards/:board/revisions/:revision: the board document as it was at that
// revision, {id, revision, content, updatedAt, author, restoredFrom}. A revision never written, pruned,
// or not a revision number at all is 404 revision_not_found.
func (h *Handler) getRevision(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	id := ps.ByName("board")
	if _, err := h.get(id); err != nil {
		return err
	}
	rev, ok := canonicalInt(ps.ByName("revision"))
	if !ok || rev < 1 {
		return errRevisionNotFound
	}
	b, err := h.store.GetRevision(id, rev)
	if err != nil {
		return err
	}
	writeBody(w, http.StatusOK, b.JSON())
	return nil
}

// restoreRequest is the body of POST /api/boards/:board/restore.
type restoreRequest struct {
	Revision *int64 `json:"revision"`
}

// restoreBoard handles POST /api/boards/:board/restore with {"revision": n}: the content of revision n
// becomes the board's next revision, by the browser, with restoredFrom n. It is a write like a PUT and
// passes the same checks in the same order (see putBoard; the guard refused a foreign Origin): 404,
// 415/413, 401/403, 428/412, the body (400 bad_json; a revision not kept → 404 revision_not_found),
// the write rate (429), then the commit (412 when another write won in between).
func (h *Handler) restoreBoard(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	id := ps.ByName("board")
	expected, err := h.checkRevisionedWrite(w, r, id, MaxRestoreBodyBytes)
	if err != nil {
		return err
	}
	var req restoreRequest
	if err := web.DecodeJSON(r, MaxRestoreBodyBytes, &req); err != nil {
		return err
	}
	if req.Revision == nil {
		return errNoRevision
	}
	if _, err := h.store.GetRevision(id, *req.Revision); err != nil {
		return err
	}
	if err := h.spendWrite(id); err != nil {
		return err
	}
	b, err := h.store.Restore(id, expected, *req.Revision, store.AuthorBrowser)
	if err != nil {
		return err
	}
	h.log.Info("board restored", "board", id, "revision", b.Revision, "restoredFrom", b.RestoredFrom)
	w.Header()["Etag"] = []string{etag(b.Revision)}
	writeBody(w, http.StatusOK, b.JSON())
	return nil
}
