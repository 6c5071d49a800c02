package boardhttp

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/julienschmidt/httprouter"

	"tele/board"
	"tele/board/store"
	"tele/sse"
	"tele/web"
)

// Limits of the board routes.
const (
	// MaxBodyBytes bounds a board write or create body (docs/api.md: over 256 KiB is 413). The content itself
	// is at most MaxContentBytes serialized; the slack is for whitespace a client may add.
	MaxBodyBytes = 256 << 10
	// WriteBurst and WriteEvery limit committed writes per board (docs/api.md: burst 40, 20/s), so a
	// runaway client or model loop cannot grind the disk.
	WriteBurst = 40
	WriteEvery = 50 * time.Millisecond
	// CreateBurst and CreateEvery limit board creation over the whole server: a person makes a few boards
	// a minute, a runaway script hundreds a second, each a file pair that stays.
	CreateBurst = 20
	CreateEvery = 3 * time.Second
	// MaxStreamsPerBoard and MaxStreams bound live board streams (per board: a band and its audience;
	// in all: what one machine's pages need), so a local process cannot open streams until memory or
	// descriptors run out. Beyond either, a stream is refused with 429 and Retry-After StreamRetry.
	MaxStreamsPerBoard = 64
	MaxStreams         = 256
	StreamRetry        = 10 * time.Second
)

// EventName is the name of the SSE event that carries a whole board.
const EventName = "board"

// Topic is the sse topic of a board's stream.
func Topic(id string) string { return "board/" + id }

// Publisher returns the Options.OnCommit that publishes every committed revision of a board to hub, as
// one `board` event whose Seq is the revision. The store calls it after the commit is durable and in
// revision order; Publish never blocks.
func Publisher(hub *sse.Hub) func(store.Board) {
	return func(b store.Board) {
		hub.Publish(Topic(b.ID), sse.Event{Name: EventName, Seq: b.Revision, Data: b.JSON()})
	}
}

// Handler serves the board routes of docs/api.md.
type Handler struct {
	store      *store.Store
	hub        *sse.Hub
	log        *slog.Logger
	writes     *web.Limiter // per board id
	creates    *web.Limiter // one bucket for the server
	claimFails *web.Limiter // failed claims, per board id
	catalogue  []byte
	pages      sync.Pool // *[]byte: buffers for revision listings, so a listing allocates nothing
}

// NewHandler returns the board routes over store; streams subscribe to hub, which must receive the
// store's commits (see Publisher). A nil log means slog.Default().
func NewHandler(store *store.Store, hub *sse.Hub, log *slog.Logger) *Handler {
	if log == nil {
		log = slog.Default()
	}
	return &Handler{
		store:      store,
		hub:        hub,
		log:        log,
		writes:     web.NewLimiter(WriteEvery, WriteBurst),
		creates:    web.NewLimiter(CreateEvery, CreateBurst),
		claimFails: web.NewLimiter(ClaimFailEvery, ClaimFailBurst),
		catalogue:  board.CatalogueJSON(),
	}
}

// Register adds the board routes to r.
func (h *Handler) Register(r *web.Router) {
	r.Handle(web.Read, "GET", "/api/catalogue", h.handle(h.getCatalogue))
	r.Handle(web.Read, "GET", "/api/boards", h.handle(h.listBoards))
	r.Handle(web.PageWrite, "POST", "/api/boards", h.handle(h.createBoard))
	r.Handle(web.Read, "GET", "/api/boards/:board", h.handle(h.getBoard))
	r.Handle(web.Write, "PUT", "/api/boards/:board", h.handle(h.putBoard))
	r.Handle(web.Read, "GET", "/api/boards/:board/events", h.handle(h.streamBoard))
	r.Handle(web.Read, "GET", "/api/boards/:board/revisions", h.handle(h.listRevisions))
	r.Handle(web.Read, "GET", "/api/boards/:board/revisions/:revision", h.handle(h.getRevision))
	r.Handle(web.Write, "POST", "/api/boards/:board/restore", h.handle(h.restoreBoard))
	r.Handle(web.Write, "POST", "/api/boards/:board/capability", h.handle(h.rotateCapability))
	r.Handle(web.Write, "POST", "/api/boards/:board/claims", h.handle(h.newClaim))
	r.Handle(web.Write, "POST", "/api/boards/:board/claim", h.handle(h.redeemClaim))
	r.Handle(web.Write, "DELETE", "/api/boards/:board", h.handle(h.deleteBoard))
	r.Handle(web.PageWrite, "POST", "/api/boards/:board/copy", h.handle(h.copyBoard))
	h.registerProposals(r)
}

// handle adapts a route that returns an error: every error goes through httpError, the one mapping from
// the store's errors to statuses (web.Handle).
func (h *Handler) handle(f web.ErrorRoute) httprouter.Handle { return web.Handle(httpError, f) }

// httpError maps the store's (and the hub's) typed errors to the API's *web.Error. A *web.Error passes
// as is; anything else stays what it is and becomes a 500 in web.WriteError.
func httpError(err error) error {
	if ce, ok := errors.AsType[*store.ConflictError](err); ok {
		return (&web.Error{Status: http.StatusPreconditionFailed, Code: "revision_conflict",
			Message: "the board has changed since that revision; read it again"}).
			With("currentRevision", ce.Current)
	}
	if ve, ok := errors.AsType[*board.ValidationError](err); ok {
		return invalidChordFields(invalidContent(ve.Path, ve.Rule), ve)
	}
	if qe, ok := errors.AsType[*store.QuotaError](err); ok {
		return quotaError(qe)
	}
	switch {
	case errors.Is(err, store.ErrNotFound):
		return errNotFound
	case errors.Is(err, store.ErrRevisionNotFound):
		return errRevisionNotFound
	case errors.Is(err, store.ErrInvalidID):
		return invalidContent("id", "an id is 1-64 letters, digits, _ or -, starting with a letter or digit")
	case errors.Is(err, store.ErrExists):
		return web.NewError(http.StatusConflict, "board_exists", "a board with this id already exists")
	case errors.Is(err, store.ErrBadCapability):
		return web.NewError(http.StatusForbidden, "bad_capability", "the capability does not match this board")
	case errors.Is(err, sse.ErrTooManyStreams):
		return &web.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
			Message: "too many live views of boards are open; close one and retry later", RetryAfter: StreamRetry}
	case errors.Is(err, sse.ErrHubClosed), errors.Is(err, store.ErrClosed):
		return web.NewError(http.StatusServiceUnavailable, "unavailable", "the server is shutting down")
	case store.IsDiskFull(err):
		// Nothing was written (a commit that fails leaves the board as it was): freeing space and
		// saving again is the fix.
		return errDiskFull
	}
	return err
}

var (
	errNotFound = web.NewError(http.StatusNotFound, "not_found", "no such board")
	errDiskFull = web.NewError(http.StatusInsufficientStorage, "disk_full",
		"the disk that holds the boards is full; nothing was saved: free some space and try again")
	errNoAuth = web.NewError(http.StatusUnauthorized, "unauthorized",
		"writing a board needs its capability: Authorization: Bearer <capability>")
	errNoIfMatch = web.NewError(http.StatusPreconditionRequired, "precondition_required",
		`writing a board needs If-Match with the revision it replaces, like If-Match: "3"`)
)

// quotaError is the answer to a write the server-wide quota refuses: 507 quota_exceeded, with the limit
// met ("boards" or "bytes") and its value.
func quotaError(qe *store.QuotaError) *web.Error {
	e := &web.Error{Status: http.StatusInsufficientStorage, Code: "quota_exceeded",
		Message: "this server keeps at most " + strconv.FormatInt(qe.Limit, 10) + " bytes of boards; delete boards you no longer need, or raise --max-bytes",
		Fields:  map[string]any{"quota": "bytes", "limit": qe.Limit}}
	if qe.Boards {
		e.Message = "this server keeps at most " + strconv.FormatInt(qe.Limit, 10) + " boards; delete boards you no longer need, or raise --max-boards"
		e.Fields["quota"] = "boards"
	}
	return e
}

func invalidContent(path, rule string) *web.Error {
	msg := "the content is not valid: " + rule
	if path != "" {
		msg = "the content is not valid at " + path + ": " + rule
	}
	return &web.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_content", Message: msg,
		Fields: map[string]any{"path": path, "rule": rule}}
}

// invalidChordFields adds the refused chord symbol and the suggestion, and a rule of the form its id and
// arguments, when there are any, so that a
// page can say it in its own language.
func invalidChordFields(e *web.Error, ve *board.ValidationError) *web.Error {
	if ve.Symbol != "" {
		e.Fields["symbol"] = ve.Symbol
		if ve.Suggestion != "" {
			e.Fields["suggestion"] = ve.Suggestion
		}
	}
	if ve.RuleID != "" {
		e.Fields["ruleId"] = ve.RuleID
		if ve.RuleArgs != nil {
			e.Fields["ruleArgs"] = ve.RuleArgs
		}
	}
	return e
}

// Shared header values, never modified (see web.Guard).
var hdrJSON = []string{"application/json"}

// getCatalogue handles GET /api/catalogue: the bytes encoded once at NewHandler.
func (h *Handler) getCatalogue(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	writeBody(w, http.StatusOK, h.catalogue)
	return nil
}

// summaryJSON is one row of GET /api/boards.
type summaryJSON struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	Revision  int64  `json:"revision"`
	UpdatedAt string `json:"updatedAt"` // as in Board.JSON
}

// setAsideJSON is one row of the setAside list of GET /api/boards: what cannot be read, without the
// reason, which names files (tele board check says it).
type setAsideJSON struct {
	Board    string `json:"board"`
	What     string `json:"what"`
	Revision *int64 `json:"revision"`
}

// listBoards handles GET /api/boards: {"boards":[{id, title, revision, updatedAt}…], "setAside":[{board,
// what, revision}…]}, boards sorted by id.
func (h *Handler) listBoards(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	list := h.store.List()
	rows := make([]summaryJSON, len(list))
	for i, s := range list {
		rows[i] = summaryJSON{ID: s.ID, Title: s.Title, Revision: s.Revision,
			UpdatedAt: s.UpdatedAt.UTC().Format(store.TimeLayout)}
	}
	aside := h.store.SetAsideList()
	asideRows := make([]setAsideJSON, len(aside))
	for i, sa := range aside {
		asideRows[i] = setAsideJSON{Board: sa.Board, What: sa.What, Revision: nullRevision(sa.Revision)}
	}
	body, err := json.Marshal(struct {
		Boards   []summaryJSON  `json:"boards"`
		SetAside []setAsideJSON `json:"setAside"`
	}{rows, asideRows})
	if err != nil {
		return err
	}
	writeBody(w, http.StatusOK, body)
	return nil
}

// getBoard handles GET /api/boards/:board: the board's cached encoding, ETag "<revision>", and 304 when
// If-None-Match names the current revision. An invalid id is simply an unknown board (404).
func (h *Handler) getBoard(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	b, err := h.get(ps.ByName("board"))
	if err != nil {
		return err
	}
	tag := etag(b.Revision)
	w.Header()["Etag"] = []string{tag}
	if web.NotModified(r, tag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	writeBody(w, http.StatusOK, b.JSON())
	return nil
}

// putBoard handles PUT /api/boards/:board: the full content, replacing the revision named by If-Match.
//
// The checks run cheapest and least privileged first, and all of them before anything changes; the
// store's commit is the only write, so a refused request changes nothing:
//
//  1. a present foreign Origin → 403 bad_origin: a cross-origin form or fetch (an old browser without
//     Fetch Metadata, which the guard would have refused) goes no further, not even to learn whether
//     the board exists;
//  2. an unknown board (or an invalid id) → 404;
//  3. Content-Type not JSON → 415, Content-Length over 256 KiB → 413: headers only, before the
//     capability is compared, so a wrong request is told what is wrong without any secret involved;
//  4. no `Authorization: Bearer …` → 401; a wrong capability → 403 bad_capability (constant time, in
//     the store). Only the capability holder gets past this point, so nothing below can be probed or
//     driven by anyone else: not the revision check, not the body parser, not the rate limit;
//  5. no (or unusable) If-Match → 428; a revision other than the current one → 412 with
//     currentRevision, still without reading the body;
//  6. the body: over 256 KiB while reading → 413; not one strict JSON object of the content's fields →
//     400 bad_json; content that breaks a rule of docs/content.md → 422 invalid_content with path and rule;
//  7. the write rate of the board → 429 with Retry-After. Last, so that only writes that would commit
//     spend the board's budget: the owner's budget cannot be drained by requests that would be refused
//     anyway (the one exception is a write that passed every check and then lost a race at step 8);
//  8. the commit, which checks the revision again under the board's lock → 412 when another write won
//     in between, else 200 with the new board and ETag.
func (h *Handler) putBoard(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	id := ps.ByName("board")
	expected, err := h.checkRevisionedWrite(w, r, id, MaxBodyBytes)
	if err != nil {
		return err
	}
	var c board.Content
	if err := web.DecodeJSON(r, MaxBodyBytes, &c); err != nil {
		return err
	}
	if err := c.Validate(); err != nil {
		return err
	}
	if err := h.spendWrite(id); err != nil {
		return err
	}
	b, err := h.store.Put(id, expected, c, store.AuthorBrowser)
	if err != nil {
		return err
	}
	w.Header()["Etag"] = []string{etag(b.Revision)}
	writeBody(w, http.StatusOK, b.JSON())
	return nil
}

// createRequest is the body of POST /api/boards.
type createRequest struct {
	ID      string         `json:"id"`      // "" → the store picks one
	Content *board.Content `json:"content"` // absent or null → the teaching example (docs/content.md)
}

// createBoard handles POST /api/boards: only this server's own pages may create a board, so the route
// is a web.PageWrite (the guard refused a present Sec-Fetch-Site other than same-origin, even "none",
// and a present Origin not ours; curl and Pi, which send neither, pass, as for writes). A creation that passed every check but exceeds the server's creation rate
// (CreateBurst, then one per CreateEvery) is 429 with Retry-After. The answer, 201, is the only response
// that ever carries a capability: the board's fields plus "capability".
func (h *Handler) createBoard(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req createRequest
	if err := web.DecodeJSON(r, MaxBodyBytes, &req); err != nil {
		return err
	}
	if req.ID != "" && !board.ValidID(req.ID) {
		return invalidContent("id", "an id is 1-64 letters, digits, _ or -, starting with a letter or digit")
	}
	c := board.Example()
	if req.Content != nil {
		c = *req.Content
		if err := c.Validate(); err != nil {
			return contentPath(err)
		}
	}
	if err := h.spendCreate(); err != nil {
		return err
	}
	b, capability, err := h.store.Create(req.ID, c, store.AuthorBrowser)
	if err != nil {
		return contentPath(err)
	}
	h.log.Info("board created", "board", b.ID)
	writeCreated(w, b, capability)
	return nil
}

// spendCreate takes one creation from the server's budget: 429 with Retry-After when it is spent.
func (h *Handler) spendCreate() error {
	if ok, wait := h.creates.Allow(""); !ok {
		return &web.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
			Message: "too many boards created in a short time; retry later", RetryAfter: wait}
	}
	return nil
}

// writeCreated answers a new board: 201, the board's fields plus "capability", its ETag and Location.
func writeCreated(w http.ResponseWriter, b store.Board, capability string) {
	js := b.JSON()
	body := make([]byte, 0, len(js)+len(capability)+16)
	body = append(body, js[:len(js)-1]...) // the board object without its closing brace
	body = append(body, `,"capability":`...)
	body = strconv.AppendQuote(body, capability) // base64url: nothing to escape
	body = append(body, '}')
	hdr := w.Header()
	hdr["Etag"] = []string{etag(b.Revision)}
	hdr.Set("Location", "/api/boards/"+b.ID)
	writeBody(w, http.StatusCreated, body)
}

// contentPath makes a content validation error name its path inside the create request.
func contentPath(err error) error {
	if ve, ok := errors.AsType[*board.ValidationError](err); ok {
		p := "content"
		if ve.Path != "" {
			p += "." + ve.Path
		}
		return invalidChordFields(invalidContent(p, ve.Rule), ve)
	}
	return err
}

// streamBoard handles GET /api/boards/:board/events (docs/api.md): subscribe first, then read the board, then
// stream it as the first event and every later commit after it. A commit between the subscription and
// the read is both queued and in the snapshot; the hub skips it because its Seq (the revision) is not
// newer than the snapshot's.
func (h *Handler) streamBoard(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	id := ps.ByName("board")
	if _, err := h.get(id); err != nil {
		return err // no subscription for a board that does not exist
	}
	sub, err := h.hub.Subscribe(Topic(id))
	if err != nil {
		return err
	}
	b, err := h.store.Get(id)
	if err != nil {
		sub.Close()
		return err
	}
	h.hub.Stream(w, r, sub, sse.Event{Name: EventName, Seq: b.Revision, Data: b.JSON()})
	return nil
}

// get returns the board id, with ErrNotFound for an id that could never exist.
func (h *Handler) get(id string) (store.Board, error) {
	if !board.ValidID(id) {
		return store.Board{}, store.ErrNotFound
	}
	return h.store.Get(id)
}

// writeBody writes an encoded JSON body with its length (a 4 KB board is then one write, not chunked).
func writeBody(w http.ResponseWriter, status int, body []byte) {
	hdr := w.Header()
	hdr["Content-Type"] = hdrJSON
	hdr["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func etag(rev int64) string {
	var b [24]byte
	e := append(b[:0], '"')
	e = strconv.AppendInt(e, rev, 10)
	return string(append(e, '"'))
}

// ifMatch returns the revision named by If-Match, which must be exactly one strong tag "<revision>".
// "*", weak tags and lists are refused: a write must say which revision it replaces.
func ifMatch(h http.Header) (int64, bool) {
	vals := h["If-Match"]
	if len(vals) != 1 {
		return 0, false
	}
	return parseETag(strings.TrimSpace(vals[0]))
}

func parseETag(s string) (int64, bool) {
	if len(s) < 3 || s[0] != '"' || s[len(s)-1] != '"' {
		return 0, false
	}
	digits := s[1 : len(s)-1]
	if digits[0] < '0' || digits[0] > '9' || (digits[0] == '0' && len(digits) > 1) {
		return 0, false // no sign, no leading zero: one spelling per revision
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	return n, err == nil
}

// bearer returns the token of `Authorization: Bearer <token>` (the scheme is case-insensitive).
func bearer(h http.Header) (string, bool) {
	vals := h["Authorization"]
	if len(vals) != 1 {
		return "", false
	}
	scheme, token, ok := strings.Cut(vals[0], " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// checkWrite applies the checks every write to a board shares, in putBoard's order (steps 2–4): 404 for
// an unknown board, 415/413 on the headers, 401/403 on the capability.
func (h *Handler) checkWrite(w http.ResponseWriter, r *http.Request, id string, limit int64) error {
	if _, err := h.get(id); err != nil {
		return err
	}
	if err := web.CheckJSONRequest(r, limit); err != nil {
		return err
	}
	return h.checkCapability(w, r, id)
}

// checkCapability is step 4 of putBoard: 401 without `Authorization: Bearer …`, 403 bad_capability
// when it is not board id's capability.
func (h *Handler) checkCapability(w http.ResponseWriter, r *http.Request, id string) error {
	capability, ok := bearer(r.Header)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="tele"`)
		return errNoAuth
	}
	return h.store.Authorize(id, capability)
}

// checkRevisionedWrite is checkWrite and then step 5, for writes that make a revision: 428 without a
// usable If-Match, 412 with currentRevision when it names another revision. It returns the revision
// the write expects to replace.
func (h *Handler) checkRevisionedWrite(w http.ResponseWriter, r *http.Request, id string, limit int64) (int64, error) {
	if err := h.checkWrite(w, r, id, limit); err != nil {
		return 0, err
	}
	return h.checkRevision(r, id)
}

// checkRevision is step 5 of putBoard: 428 without a usable If-Match, 412 with currentRevision when it
// names another revision than board id's current one. It returns the revision named.
func (h *Handler) checkRevision(r *http.Request, id string) (int64, error) {
	expected, ok := ifMatch(r.Header)
	if !ok {
		return 0, errNoIfMatch
	}
	cur, err := h.get(id)
	if err != nil {
		return 0, err
	}
	if expected != cur.Revision {
		return 0, &store.ConflictError{Current: cur.Revision}
	}
	return expected, nil
}

// spendWrite takes one write from the board's budget (step 7): 429 with Retry-After when it is spent.
func (h *Handler) spendWrite(id string) error {
	if ok, wait := h.writes.Allow(id); !ok {
		return &web.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
			Message: "too many writes to this board; retry later", RetryAfter: wait}
	}
	return nil
}

// nullRevision is nil for 0, so that a revision that is not there encodes as null.
func nullRevision(rev int64) *int64 {
	if rev == 0 {
		return nil
	}
	return &rev
}
