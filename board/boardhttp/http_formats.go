package boardhttp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/julienschmidt/httprouter"

	"tele/board"
	"tele/board/store"
	"tele/web"
)

// Format is a chart format other programs read and write (ChordPro, iReal Pro, …). The board routes take
// the formats from the server's wiring, so this package needs none of their code.
type Format struct {
	MediaType string // of the exported file, like "text/plain; charset=utf-8"
	Extension string // of the exported file's name, like ".cho"
	Write     func(board.Content) []byte
	// Read returns the charts of a file (one per song of a playlist), and stops once ctx ends. An error,
	// or a chart's Err, with a Code() method gives the API's error code; others are unreadable_chart.
	Read func(ctx context.Context, data []byte) ([]board.Chart, error)
}

// MaxImportBytes bounds the text of an import request.
const MaxImportBytes = 1 << 20

// RegisterFormats adds the export and import routes for formats (by name, like "chordpro"; "json" is
// the content itself and always there):
//
//	GET  /api/boards/:board/export?format=chordpro   anyone local, like GET of the board
//	POST /api/import {"format"?,"text","id"?}        the page, by the rules of creating boards: 201
//	                                                 {"boards":[{"board","capability","notes","noteCodes"}],"failed":[…]}
//	POST /api/read {"text"}                          the page: a pasted block read, nothing made (http_read.go)
func (h *Handler) RegisterFormats(r *web.Router, formats map[string]Format) {
	formats = limitReads(formats)
	registerRead(r, h, formats)
	r.Handle(web.Read, "GET", "/api/boards/:board/export", h.handle(func(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
		return h.exportBoard(w, r, ps, formats)
	}))
	r.Handle(web.PageWrite, "POST", "/api/import", h.handle(func(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
		return h.importBoards(w, r, formats)
	}))
}

func badFormat(name string, formats map[string]Format, writing bool) *web.Error {
	names := "json"
	for _, n := range []string{"chordpro", "ireal", "text"} {
		if f, ok := formats[n]; ok && (!writing || f.Write != nil) && (writing || f.Read != nil) {
			names = n + ", " + names
		}
	}
	return web.NewError(http.StatusUnprocessableEntity, "bad_format", "unknown format "+strconv.Quote(name)+": use "+names)
}

func (h *Handler) exportBoard(w http.ResponseWriter, r *http.Request, ps httprouter.Params, formats map[string]Format) error {
	id := ps.ByName("board")
	b, err := h.get(id)
	if err != nil {
		return err
	}
	name := r.URL.Query().Get("format")
	if name == "" {
		name = "chordpro"
	}
	var body []byte
	mediaType, ext := "application/json", ".json"
	if name == "json" {
		body, _ = json.MarshalIndent(b.Content, "", "  ")
	} else {
		f, ok := formats[name]
		if !ok || f.Write == nil {
			return badFormat(name, formats, true)
		}
		body = f.Write(b.Content)
		mediaType, ext = f.MediaType, f.Extension
	}
	hdr := w.Header()
	hdr["Etag"] = []string{etag(b.Revision)}
	hdr.Set("Content-Type", mediaType)
	hdr.Set("Content-Disposition", `attachment; filename="`+id+ext+`"`)
	hdr.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
	return nil
}

type importRequest struct {
	Format string `json:"format"` // "" : SniffFormat's guess
	Text   string `json:"text"`
	ID     string `json:"id"`
}

// importedBoard and failedChart are the parts of an import's answer.
type importedBoard struct {
	Board      json.RawMessage  `json:"board"`
	Capability string           `json:"capability"`
	Notes      []string         `json:"notes"`
	NoteCodes  []board.NoteCode `json:"noteCodes"` // NoteCodes[i] is Notes[i] as a code and its arguments
}

type failedChart struct {
	Title     string           `json:"title"`
	Code      string           `json:"code"`
	Message   string           `json:"message"`
	Notes     []string         `json:"notes"`
	NoteCodes []board.NoteCode `json:"noteCodes"`
}

// importBoards makes one board of each chart of the text. A chart that cannot become a board (a song of
// a playlist) is listed as failed beside the boards made; when none can, the answer is the error of the
// first, and nothing is made. The boards take their creations from the server's budget all at once.
//
// Its cognitive complexity is over the lint gate of 30, and accepted: the import's checks in the
// documented order, all before anything is made.
//
//gocognit:ignore
func (h *Handler) importBoards(w http.ResponseWriter, r *http.Request, formats map[string]Format) error {
	var req importRequest
	if err := web.DecodeJSON(r, MaxImportBytes+4096, &req); err != nil {
		return err
	}
	if req.ID != "" && !board.ValidID(req.ID) {
		return invalidContent("id", "an id is 1-64 letters, digits, _ or -, starting with a letter or digit")
	}
	if req.Format == "" {
		req.Format = board.SniffFormat([]byte(req.Text))
	}
	charts, err := readCharts(r.Context(), req, formats)
	if err != nil {
		return importError(req.Format, err)
	}
	var ok []board.Chart
	var failed []failedChart
	for _, c := range charts {
		if c.Err != nil {
			e := importError(req.Format, c.Err)
			failed = append(failed, failedChart{c.Title, e.Code, e.Message, nonNil(c.Notes), c.NoteCodes()})
			continue
		}
		ok = append(ok, c)
	}
	if len(ok) == 0 {
		if len(charts) == 1 {
			return importError(req.Format, charts[0].Err)
		}
		return web.NewError(http.StatusUnprocessableEntity, "unreadable_chart", "no song could be imported: "+failed[0].Title+": "+failed[0].Message)
	}
	// Everything is checked before anything is made (every id, the server's quota, the creation budget),
	// and the store makes the boards all or none (CreateAll), also against a concurrent import.
	items := make([]store.NewBoard, len(ok))
	for i, c := range ok {
		items[i].Content = c.Content
		if req.ID == "" {
			continue
		}
		id := req.ID
		if i > 0 {
			id = req.ID + "-" + strconv.Itoa(i+1) // the id names a playlist's first song; the others follow it
		}
		if !board.ValidID(id) {
			return invalidContent("id", "the board of song "+strconv.Itoa(i+1)+" would be "+strconv.Quote(id)+
				", longer than 64 characters: import with a shorter id (at most "+strconv.Itoa(64-len(id)+len(req.ID))+" characters)")
		}
		if h.store.Taken(id) {
			return web.NewError(http.StatusConflict, "board_exists", "a board "+strconv.Quote(id)+" already exists; import with another id")
		}
		items[i].ID = id
	}
	if err := h.store.FitsQuota(items); err != nil {
		return err
	}
	if allowed, wait := h.creates.AllowN("", len(ok)); !allowed {
		if len(ok) > CreateBurst {
			return web.NewError(http.StatusUnprocessableEntity, "too_many_songs",
				strconv.Itoa(len(ok))+" songs are more boards than can be made at once (at most "+strconv.Itoa(CreateBurst)+"): import the playlist in parts")
		}
		return &web.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
			Message: "too many boards created in a short time; retry later", RetryAfter: wait}
	}
	out := struct {
		Boards []importedBoard `json:"boards"`
		Failed []failedChart   `json:"failed"`
	}{Failed: failed}
	if out.Failed == nil {
		out.Failed = []failedChart{}
	}
	made, err := h.store.CreateAll(items, store.AuthorBrowser)
	if errors.Is(err, store.ErrExists) { // taken since the check above, by a concurrent creation
		return web.NewError(http.StatusConflict, "board_exists", "a board of this import already exists; import with another id")
	}
	if err != nil {
		return contentPath(err)
	}
	for i, m := range made {
		h.log.Info("board imported", "board", m.Board.ID, "format", req.Format)
		out.Boards = append(out.Boards, importedBoard{m.Board.JSON(), m.Capability, nonNil(ok[i].Notes), ok[i].NoteCodes()})
	}
	first := made[0].Board.ID
	body, err := json.Marshal(out)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/boards/"+first)
	writeBody(w, http.StatusCreated, body)
	return nil
}

// readCharts reads the request's text in its format.
func readCharts(ctx context.Context, req importRequest, formats map[string]Format) ([]board.Chart, error) {
	if req.Format == "json" {
		c, err := board.ParseContent([]byte(req.Text))
		if err != nil {
			return nil, err
		}
		return []board.Chart{{Title: c.Title, Content: c}}, nil
	}
	f, ok := formats[req.Format]
	if !ok || f.Read == nil {
		return nil, badFormat(req.Format, formats, false)
	}
	return f.Read(ctx, []byte(req.Text))
}

// importError is the one mapping of an import's errors to the API's: content JSON that breaks a rule
// is invalid_content at its path; an error that names its code keeps it; anything else is
// unreadable_chart, with the reader's words.
func importError(format string, err error) *web.Error {
	if we, ok := errors.AsType[*web.Error](err); ok {
		return we
	}
	if _, ok := errors.AsType[*board.ValidationError](err); ok && format == "json" {
		return contentPath(err).(*web.Error)
	}
	code := "unreadable_chart"
	if ce, ok := err.(interface{ Code() string }); ok {
		code = ce.Code()
	}
	return web.NewError(http.StatusUnprocessableEntity, code, err.Error())
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
