package board

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/julienschmidt/httprouter"

	"tele/web"
)

// Format is a chart format other programs read and write (ChordPro, …). The board routes take the
// formats from the server's wiring, so this package needs none of their code.
type Format struct {
	MediaType string // of the exported file, like "text/plain; charset=utf-8"
	Extension string // of the exported file's name, like ".cho"
	Write     func(Content) []byte
	// Read returns the content and notes on what was not taken over as written. An error with a Code()
	// method gives the API's error code; others are unreadable_chart.
	Read func([]byte) (Content, []string, error)
}

// MaxImportBytes bounds the text of an import request.
const MaxImportBytes = 1 << 20

// RegisterFormats adds the export and import routes for formats (by name, like "chordpro"; "json" is
// the content itself and always there):
//
//	GET  /api/boards/:board/export?format=chordpro   anyone local, like GET of the board
//	POST /api/import {"format","text","id"?}         the page, by the rules of creating a board: 201
//	                                                 {"board","capability","notes"}
func (h *Handler) RegisterFormats(r *httprouter.Router, formats map[string]Format) {
	r.GET("/api/boards/:board/export", h.handle(func(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
		return h.exportBoard(w, r, ps, formats)
	}))
	r.POST("/api/import", h.handle(func(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
		return h.importBoard(w, r, formats)
	}))
}

func badFormat(name string) *web.Error {
	return web.NewError(http.StatusUnprocessableEntity, "bad_format", "unknown format "+strconv.Quote(name)+": use chordpro or json")
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
		if !ok {
			return badFormat(name)
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
	Format string `json:"format"`
	Text   string `json:"text"`
	ID     string `json:"id"`
}

func (h *Handler) importBoard(w http.ResponseWriter, r *http.Request, formats map[string]Format) error {
	if site := r.Header["Sec-Fetch-Site"]; len(site) > 0 && site[0] != "same-origin" {
		return errNotFromPage
	}
	var req importRequest
	if err := web.DecodeJSON(r, MaxImportBytes+4096, &req); err != nil {
		return err
	}
	if req.ID != "" && !ValidID(req.ID) {
		return invalidContent("id", "an id is 1-64 letters, digits, _ or -, starting with a letter or digit")
	}
	var c Content
	var notes []string
	var err error
	if req.Format == "json" {
		c, err = ParseContent([]byte(req.Text))
	} else {
		f, ok := formats[req.Format]
		if !ok {
			return badFormat(req.Format)
		}
		c, notes, err = f.Read([]byte(req.Text))
	}
	if err != nil {
		code := "unreadable_chart"
		if ce, ok := err.(interface{ Code() string }); ok {
			code = ce.Code()
		}
		var ve *ValidationError
		if req.Format == "json" && errors.As(err, &ve) {
			return contentPath(err)
		}
		return web.NewError(http.StatusUnprocessableEntity, code, err.Error())
	}
	if ok, wait := h.creates.Allow(""); !ok {
		return &web.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
			Message: "too many boards created in a short time; retry later", RetryAfter: wait}
	}
	b, capability, err := h.store.Create(req.ID, c, AuthorBrowser)
	if err != nil {
		return contentPath(err)
	}
	h.log.Info("board imported", "board", b.ID, "format", req.Format)
	if notes == nil {
		notes = []string{}
	}
	body, err := json.Marshal(struct {
		Board      json.RawMessage `json:"board"`
		Capability string          `json:"capability"`
		Notes      []string        `json:"notes"`
	}{b.JSON(), capability, notes})
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/api/boards/"+b.ID)
	writeBody(w, http.StatusCreated, body)
	return nil
}
