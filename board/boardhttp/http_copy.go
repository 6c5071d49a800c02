package boardhttp

import (
	"net/http"

	"github.com/julienschmidt/httprouter"

	"tele/board"
	"tele/board/store"
	"tele/web"
)

// maxCopyBytes bounds the body of a copy, which is `{}` or `{"id":"…"}`.
const maxCopyBytes = 1 << 10

// copyRequest is the body of POST /api/boards/:board/copy.
type copyRequest struct {
	ID string `json:"id"` // "" → the store picks one
}

// copyBoard handles POST /api/boards/:board/copy: a new board, with a new id and its own capability,
// whose first revision is the current content of :board (not its history). Reading a board is enough to
// copy it, as anyone who can see a song in a songbook can duplicate it, so no capability is asked for;
// like a creation, only this server's own pages (or clients without Fetch Metadata: curl, Pi) may ask
// (a web.PageWrite route: the guard answers 403 cross_site), and copies spend the server's creation
// budget. Checks: the board (404), the body (415/413/400), the new id (422 invalid_content, path "id"), the rate (429), a taken
// id (409 board_exists). 201 answers as a creation does, with the new board's "capability".
func (h *Handler) copyBoard(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	src, err := h.get(ps.ByName("board"))
	if err != nil {
		return err
	}
	var req copyRequest
	if err := web.DecodeJSON(r, maxCopyBytes, &req); err != nil {
		return err
	}
	if req.ID != "" && !board.ValidID(req.ID) {
		return invalidContent("id", "an id is 1-64 letters, digits, _ or -, starting with a letter or digit")
	}
	if err := h.spendCreate(); err != nil {
		return err
	}
	b, capability, err := h.store.Create(req.ID, src.Content, store.AuthorBrowser)
	if err != nil {
		return err
	}
	h.log.Info("board copied", "board", b.ID, "from", src.ID, "revision", src.Revision)
	writeCreated(w, b, capability)
	return nil
}
