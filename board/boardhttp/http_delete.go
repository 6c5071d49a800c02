package boardhttp

import (
	"encoding/json"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"tele/sse"
	"tele/web"
)

// DeletedEventName is the SSE event that tells open pages their board was deleted: {"id"}. It is the
// stream's last event; the stream ends after it.
const DeletedEventName = "deleted"

var errDeleteBody = web.NewError(http.StatusBadRequest, "bad_json", "deleting a board takes no body")

// deleteBoard handles DELETE /api/boards/:board: a holder of the capability deletes the board, its
// whole history and its capability. The checks are PUT's, in its order (the guard has already refused a
// foreign Origin), without a body: 404 for an unknown board, 401/403 on the capability, then a body
// (400: a deletion has none), 428 without If-Match and 412 when it names another revision (the
// deleter must have seen what it deletes), then the board's write rate (429). The store checks the
// revision again under the board's lock (412 when a write won in between). 204 once the deletion is
// durable; the board's streams get a last `deleted` event and end.
func (h *Handler) deleteBoard(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	id := ps.ByName("board")
	if _, err := h.get(id); err != nil {
		return err
	}
	if err := h.checkCapability(w, r, id); err != nil {
		return err
	}
	if r.ContentLength != 0 {
		return errDeleteBody
	}
	expected, err := h.checkRevision(r, id)
	if err != nil {
		return err
	}
	if err := h.spendWrite(id); err != nil {
		return err
	}
	if err := h.store.Delete(id, expected); err != nil {
		return err
	}
	h.log.Info("board deleted", "board", id, "revision", expected)
	ev, err := json.Marshal(struct {
		ID string `json:"id"`
	}{id})
	if err != nil {
		return err
	}
	h.hub.PublishLast(Topic(id), sse.Event{Name: DeletedEventName, Data: ev})
	w.WriteHeader(http.StatusNoContent)
	return nil
}
