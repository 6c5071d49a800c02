package boardhttp

import (
	"encoding/json"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"tele/board"
	"tele/web"
)

// MaxReadBytes bounds the body of a read request: a pasted block, never more than a board holds
// (board.MaxContentBytes).
const MaxReadBytes = 64 << 10

// POST /api/read {"text"} reads a block of chords over words (the line editor's paste) as the "text"
// import would, and makes nothing: 200 {"title","sections","notes","noteCodes"}, each section with its
// label, role and lines as the content schema has them, and every guess the reader made as a note. So
// the rule of what a pasted block means lives in the reader (package chordtext), not in the page.
// A block with no line of chords is 422 not_a_grid: an ordinary paste. Like the import, it is for the
// page only (its route class, page-write: the browser says where a request comes from) and takes one of
// the import's reading slots.
func registerRead(r *web.Router, h *Handler, formats map[string]Format) {
	r.Handle(web.PageWrite, "POST", "/api/read", h.handle(func(w http.ResponseWriter, r *http.Request, _ httprouter.Params) error {
		return readText(w, r, formats["text"])
	}))
}

type readAnswer struct {
	Title     string           `json:"title"`
	Sections  []board.Section  `json:"sections"`
	Notes     []string         `json:"notes"`
	NoteCodes []board.NoteCode `json:"noteCodes"`
}

func readText(w http.ResponseWriter, r *http.Request, f Format) error {
	var req struct {
		Text string `json:"text"`
	}
	if err := web.DecodeJSON(r, MaxReadBytes, &req); err != nil {
		return err
	}
	if f.Read == nil {
		return web.NewError(http.StatusNotFound, "not_found", "this server reads no chords over words")
	}
	charts, err := f.Read(r.Context(), []byte(req.Text))
	if err == nil && len(charts) != 1 {
		return web.NewError(http.StatusUnprocessableEntity, "unreadable_chart", "the text is not one song")
	}
	if err == nil {
		err = charts[0].Err
	}
	if err != nil {
		return importError("text", err)
	}
	c := charts[0]
	body, err := json.Marshal(readAnswer{c.Content.Title, c.Content.Sections, nonNil(c.Notes), c.NoteCodes()})
	if err != nil {
		return err
	}
	writeBody(w, http.StatusOK, body)
	return nil
}
