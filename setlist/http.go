package setlist

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"sync"

	"github.com/julienschmidt/httprouter"

	"tele/board"
	"tele/board/boardhttp"
	"tele/board/store"
	"tele/sse"
	"tele/web"
)

// EventsTopic is the hub topic of GET /api/set-events; EventName its events' name.
const (
	EventsTopic = "sets"
	EventName   = "sets"
)

// MaxBodyBytes bounds a set's create or write body: 200 ids of 64 bytes and a title fit in 16 KiB.
const MaxBodyBytes = 16 << 10

// Handler serves the set routes of docs/api.md, with the rules of the board routes: a capability and
// If-Match for writes, the creation rules of a board, the same error shape.
type Handler struct {
	sets    *Store
	boards  *store.Store // a set may name only boards that exist when it is written
	log     *slog.Logger
	writes  *web.Limiter // per set id
	creates *web.Limiter // one bucket for the server
	hub     *sse.Hub     // the pages' set streams (EventsTopic)

	mu  sync.Mutex // orders the list events: a stream's snapshot and the changes after it
	seq int64      // the Seq of the last list event
}

// NewHandler returns the set routes over sets, checking board ids against boards; the pages' set
// streams go through hub. A nil log means slog.Default().
func NewHandler(sets *Store, boards *store.Store, hub *sse.Hub, log *slog.Logger) *Handler {
	if log == nil {
		log = slog.Default()
	}
	return &Handler{sets: sets, boards: boards, hub: hub, log: log,
		writes:  web.NewLimiter(boardhttp.WriteEvery, boardhttp.WriteBurst),
		creates: web.NewLimiter(boardhttp.CreateEvery, boardhttp.CreateBurst)}
}

// Register adds the set routes to r.
func (h *Handler) Register(r *web.Router) {
	r.Handle(web.Read, "GET", "/api/sets", h.handle(h.list))
	r.Handle(web.Read, "GET", "/api/set-events", h.handle(h.events))
	r.Handle(web.PageWrite, "POST", "/api/sets", h.handle(h.create))
	r.Handle(web.Read, "GET", "/api/sets/:set", h.handle(h.get))
	r.Handle(web.Write, "PUT", "/api/sets/:set", h.handle(h.put))
	r.Handle(web.Write, "DELETE", "/api/sets/:set", h.handle(h.delete))
}

func (h *Handler) handle(f web.ErrorRoute) httprouter.Handle { return web.Handle(httpError, f) }

var (
	errNotFound = web.NewError(http.StatusNotFound, "not_found", "no such set")
	errNoAuth   = web.NewError(http.StatusUnauthorized, "unauthorized",
		"changing a set needs its capability: Authorization: Bearer <capability>")
	errNoIfMatch = web.NewError(http.StatusPreconditionRequired, "precondition_required",
		`changing a set needs If-Match with the revision it replaces, like If-Match: "3"`)
	errBody = web.NewError(http.StatusBadRequest, "bad_json", "a deletion takes no body")
)

func invalidSet(path, rule string) *web.Error {
	return &web.Error{Status: http.StatusUnprocessableEntity, Code: "invalid_set",
		Message: "the set is not valid at " + path + ": " + rule, Fields: map[string]any{"path": path, "rule": rule}}
}

// httpError maps the store's typed errors to the API's.
func httpError(err error) error {
	if ce, ok := errors.AsType[*ConflictError](err); ok {
		return (&web.Error{Status: http.StatusPreconditionFailed, Code: "revision_conflict",
			Message: "the set has changed since that revision; read it again"}).With("currentRevision", ce.Current)
	}
	if ve, ok := errors.AsType[*ValidationError](err); ok {
		return invalidSet(ve.Path, ve.Rule)
	}
	switch {
	case errors.Is(err, ErrNotFound):
		return errNotFound
	case errors.Is(err, store.ErrInvalidID):
		return invalidSet("id", "an id is 1-64 letters, digits, _ or -, starting with a letter or digit")
	case errors.Is(err, ErrExists):
		return web.NewError(http.StatusConflict, "set_exists", "a set with this id already exists (ids ignore case)")
	case errors.Is(err, ErrBadCapability):
		return web.NewError(http.StatusForbidden, "bad_capability", "the capability does not match this set")
	case errors.Is(err, sse.ErrTooManyStreams):
		return &web.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
			Message: "too many live views are open; close one and retry later", RetryAfter: boardhttp.StreamRetry}
	case errors.Is(err, ErrClosed), errors.Is(err, sse.ErrHubClosed):
		return web.NewError(http.StatusServiceUnavailable, "unavailable", "the server is shutting down")
	}
	return err
}

// list handles GET /api/sets: {"sets":[set…]} sorted by id.
func (h *Handler) list(w http.ResponseWriter, _ *http.Request, _ httprouter.Params) error {
	writeBody(w, http.StatusOK, h.listJSON())
	return nil
}

func (h *Handler) listJSON() []byte {
	body := []byte(`{"sets":[`)
	for i, s := range h.sets.List() {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, s.JSON()...)
	}
	return append(body, "]}"...)
}

// events handles GET /api/set-events: the list as GET /api/sets answers it at once, then again after
// every create, write and delete, so every open page shows the sets as they are.
func (h *Handler) events(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	sub, err := h.hub.Subscribe(EventsTopic)
	if err != nil {
		return err
	}
	h.mu.Lock()
	first := sse.Event{Name: EventName, Seq: h.seq, Data: h.listJSON()}
	h.mu.Unlock()
	h.hub.Stream(w, r, sub, first)
	return nil
}

// changed sends the list to every set stream, after a write is durable.
func (h *Handler) changed() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	h.hub.Publish(EventsTopic, sse.Event{Name: EventName, Seq: h.seq, Data: h.listJSON()})
}

// get handles GET /api/sets/:set with ETag "<revision>" and 304 on a matching If-None-Match.
func (h *Handler) get(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	s, err := h.sets.Get(ps.ByName("set"))
	if err != nil {
		return err
	}
	tag := boardhttp.ETag(s.Revision)
	w.Header()["Etag"] = []string{tag}
	if web.NotModified(r, tag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	writeBody(w, http.StatusOK, s.JSON())
	return nil
}

// setRequest is the body of a create (with id) or a write (without).
type setRequest struct {
	Title  *string  `json:"title"`
	Boards []string `json:"boards"`
}

type createRequest struct {
	ID string `json:"id"`
	setRequest
}

// check validates a request's set and that each board exists.
func (h *Handler) check(req setRequest) error {
	if req.Title == nil {
		return invalidSet("title", "is required; it "+ruleTitle)
	}
	if err := Validate(*req.Title, req.Boards); err != nil {
		return err
	}
	for i, id := range req.Boards {
		if _, err := h.boards.Get(id); err != nil {
			return invalidSet(BoardPath(i), "names no board: there is no board "+strconv.Quote(id))
		}
	}
	return nil
}

// create handles POST /api/sets as POST /api/boards is handled: a web.PageWrite route (the guard
// refused a request no page of this server made), then the body, then the creation rate, then the
// write. 201 answers the set and its capability, the only answer that ever carries it.
func (h *Handler) create(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
	var req createRequest
	if err := web.DecodeJSON(r, MaxBodyBytes, &req); err != nil {
		return err
	}
	if req.ID != "" && !board.ValidID(req.ID) {
		return store.ErrInvalidID
	}
	if err := h.check(req.setRequest); err != nil {
		return err
	}
	if ok, wait := h.creates.Allow(""); !ok {
		return &web.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
			Message: "too many sets created in a short time; retry later", RetryAfter: wait}
	}
	s, capability, err := h.sets.Create(req.ID, *req.Title, req.Boards)
	if err != nil {
		return err
	}
	h.log.Info("set created", "set", s.ID)
	h.changed()
	js := s.JSON()
	body := append(js[:len(js)-1:len(js)-1], `,"capability":`...)
	body = append(strconv.AppendQuote(body, capability), '}')
	hdr := w.Header()
	hdr["Etag"] = []string{boardhttp.ETag(s.Revision)}
	hdr.Set("Location", "/api/sets/"+s.ID)
	writeBody(w, http.StatusCreated, body)
	return nil
}

// authorize runs the checks of a board write before the body: 404, 401/403, 428, 412. It returns the
// revision If-Match names.
func (h *Handler) authorize(w http.ResponseWriter, r *http.Request, id string) (int64, error) {
	if err := h.checkCapability(w, r, id); err != nil {
		return 0, err
	}
	return h.checkRevision(r, id)
}

// checkCapability answers 404 for no set, 401 for no capability and 403 for another set's.
func (h *Handler) checkCapability(w http.ResponseWriter, r *http.Request, id string) error {
	if _, err := h.sets.Get(id); err != nil {
		return err
	}
	capability, ok := boardhttp.BearerToken(r.Header)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="tele"`)
		return errNoAuth
	}
	return h.sets.Authorize(id, capability)
}

// checkRevision answers 428 for no If-Match and 412 for one that is not the set's revision, which it
// returns.
func (h *Handler) checkRevision(r *http.Request, id string) (int64, error) {
	s, err := h.sets.Get(id)
	if err != nil {
		return 0, err
	}
	rev, ok := boardhttp.IfMatchRevision(r.Header)
	if !ok {
		return 0, errNoIfMatch
	}
	if rev != s.Revision {
		return 0, &ConflictError{Current: s.Revision}
	}
	return rev, nil
}

func (h *Handler) spendWrite(id string) error {
	if ok, wait := h.writes.Allow(id); !ok {
		return &web.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
			Message: "too many changes to this set; retry later", RetryAfter: wait}
	}
	return nil
}

// put handles PUT /api/sets/:set in PUT /api/boards/:board's order: 404, 415/413 on the headers,
// 401/403, 428, 412, the body (400, 422), the write rate (429), the write (412 if another won).
func (h *Handler) put(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	id := ps.ByName("set")
	if _, err := h.sets.Get(id); err != nil {
		return err
	}
	if err := web.CheckJSONRequest(r, MaxBodyBytes); err != nil {
		return err
	}
	expected, err := h.authorize(w, r, id)
	if err != nil {
		return err
	}
	var req setRequest
	if err := web.DecodeJSON(r, MaxBodyBytes, &req); err != nil {
		return err
	}
	if err := h.check(req); err != nil {
		return err
	}
	if err := h.spendWrite(id); err != nil {
		return err
	}
	s, err := h.sets.Put(id, expected, *req.Title, req.Boards)
	if err != nil {
		return err
	}
	h.changed()
	w.Header()["Etag"] = []string{boardhttp.ETag(s.Revision)}
	writeBody(w, http.StatusOK, s.JSON())
	return nil
}

// delete handles DELETE /api/sets/:set in DELETE /api/boards/:board's order: 404, 401/403, a body
// 400, 428, 412, 429; 204 once the deletion is durable.
func (h *Handler) delete(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	id := ps.ByName("set")
	if err := h.checkCapability(w, r, id); err != nil {
		return err
	}
	if r.ContentLength != 0 {
		return errBody
	}
	expected, err := h.checkRevision(r, id)
	if err != nil {
		return err
	}
	if err := h.spendWrite(id); err != nil {
		return err
	}
	if err := h.sets.Delete(id, expected); err != nil {
		return err
	}
	h.log.Info("set deleted", "set", id)
	h.changed()
	w.WriteHeader(http.StatusNoContent)
	return nil
}

var hdrJSON = []string{"application/json"}

func writeBody(w http.ResponseWriter, status int, body []byte) {
	hdr := w.Header()
	hdr["Content-Type"] = hdrJSON
	hdr["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
