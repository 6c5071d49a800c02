package boardhttp

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"tele/sse"
	"tele/web"
)

// CapabilityEventName is the SSE event that tells open pages the board's capability was replaced, so a
// page holding the old one falls back to reading. It never carries a key: {"id", "fingerprint"}, where
// fingerprint is capabilityFingerprint of the new key, so the page that asked for it knows it is current.
const CapabilityEventName = "capability"

// capabilityFingerprint names a capability without revealing it: base64url of the first 16 bytes of
// its SHA-256 (the page computes the same with crypto.subtle).
func capabilityFingerprint(capability string) string {
	sum := sha256.Sum256([]byte(capability))
	return base64.RawURLEncoding.EncodeToString(sum[:16])
}

// maxRotateBytes bounds the body of a rotation, which is `{}`.
const maxRotateBytes = 1 << 10

// rotateCapability handles POST /api/boards/:board/capability: a holder of the current capability gets
// a new one, and the old one stops working at once (issue 11: a leaked edit link can be shut out). The
// checks are PUT's, in its order (the guard has already refused a foreign Origin): 404 for an unknown
// board, 415/413 on the headers, 401/403 on the capability, then the body (exactly `{}`: 400), then
// the board's write rate (429). The answer, 200 {"capability"}, is no-store like every API answer; a
// `capability` event without the key tells open pages.
func (h *Handler) rotateCapability(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	id := ps.ByName("board")
	if err := h.checkWrite(w, r, id, maxRotateBytes); err != nil {
		return err
	}
	var body struct{}
	if err := web.DecodeJSON(r, maxRotateBytes, &body); err != nil {
		return err
	}
	if err := h.spendWrite(id); err != nil {
		return err
	}
	fresh, err := h.store.Rotate(id)
	if err != nil {
		return err
	}
	h.log.Info("board capability replaced", "board", id)
	ev, err := json.Marshal(struct {
		ID          string `json:"id"`
		Fingerprint string `json:"fingerprint"`
	}{id, capabilityFingerprint(fresh)})
	if err != nil {
		return err
	}
	h.hub.Publish(Topic(id), sse.Event{Name: CapabilityEventName, Data: ev}) // Seq 0: outside the revisions
	answer, err := json.Marshal(struct {
		Capability string `json:"capability"`
	}{fresh})
	if err != nil {
		return err
	}
	writeBody(w, http.StatusOK, answer)
	return nil
}
