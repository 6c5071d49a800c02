package boardhttp

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/julienschmidt/httprouter"

	"tele/board/store"
	"tele/web"
)

// Failed claims are throttled per board like failed pairings (a burst of 5, then one every 10 s); a
// valid code is checked first and always redeems, so a flood of wrong guesses cannot lock out the
// musician holding the right link.
const (
	ClaimFailBurst = 5
	ClaimFailEvery = 10 * time.Second
	maxClaimBytes  = 1 << 10
)

var errClaimInvalid = web.NewError(http.StatusForbidden, "claim_invalid",
	"this edit link was already used or is more than a day old: ask for a new one (tele board link <id>)")

// newClaim handles POST /api/boards/:board/claims: a holder of the capability gets a one-time code for
// an edit link (`#claim=<code>`), 201 {"claim", "expiresAt"}. PUT's checks, in its order; the body is
// exactly `{}`. It writes nothing to disk, so it spends no write budget; at most 16 codes wait per board.
func (h *Handler) newClaim(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	id := ps.ByName("board")
	if err := h.checkWrite(w, r, id, maxClaimBytes); err != nil {
		return err
	}
	var body struct{}
	if err := web.DecodeJSON(r, maxClaimBytes, &body); err != nil {
		return err
	}
	code, expires, err := h.store.NewClaim(id)
	if err != nil {
		return err
	}
	answer, err := json.Marshal(struct {
		Claim     string `json:"claim"`
		ExpiresAt string `json:"expiresAt"`
	}{code, expires.UTC().Format(store.TimeLayout)})
	if err != nil {
		return err
	}
	writeBody(w, http.StatusCreated, answer)
	return nil
}

// redeemClaim handles POST /api/boards/:board/claim with {"claim": "<code>"}: 200 {"capability"}
// (no-store, like every API answer), once. Any code that does not open the board is the same 403
// claim_invalid, or 429 once the board's failures are spent.
func (h *Handler) redeemClaim(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	id := ps.ByName("board")
	if _, err := h.get(id); err != nil {
		return err
	}
	var body struct {
		Claim string `json:"claim"`
	}
	if err := web.DecodeJSON(r, maxClaimBytes, &body); err != nil {
		return err
	}
	capability, err := h.store.RedeemClaim(id, body.Claim)
	if errors.Is(err, store.ErrClaimInvalid) {
		if ok, wait := h.claimFails.Allow(id); !ok {
			return &web.Error{Status: http.StatusTooManyRequests, Code: "rate_limited",
				Message: "too many wrong edit links for this board; retry later", RetryAfter: wait}
		}
		return errClaimInvalid
	}
	if err != nil {
		return err
	}
	h.log.Info("board edit link claimed", "board", id)
	answer, err := json.Marshal(struct {
		Capability string `json:"capability"`
	}{capability})
	if err != nil {
		return err
	}
	writeBody(w, http.StatusOK, answer)
	return nil
}
