package boardhttp

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/julienschmidt/httprouter"

	"tele/board"
	"tele/board/store"
	"tele/sse"
	"tele/web"
)

// The proposal routes (docs/api.md): reading is for anyone local, as the history is; accepting and
// rejecting take the capability, and accepting the If-Match of the current revision, as a PUT does.
// No answer carries a capability.

// ProposalsEventName is the SSE event of a board's stream that carries its open proposals when they
// change: {"board", "proposals": [rows newest first]}. It is a notice outside the revision sequence.
const ProposalsEventName = "proposals"

// MaxAcceptBodyBytes bounds an accept body: at most every bar of a board, named once.
const MaxAcceptBodyBytes = 16 << 10

// ProposalsPublisher returns the Options.OnProposals that sends a board's list to its stream.
func ProposalsPublisher(hub *sse.Hub) func(string, []store.Proposal) {
	return func(id string, open []store.Proposal) {
		data, err := json.Marshal(struct {
			Board     string        `json:"board"`
			Proposals []proposalRow `json:"proposals"`
		}{id, proposalRows(open)})
		if err != nil { // cannot happen: strings and integers
			return
		}
		hub.Publish(Topic(id), sse.Event{Name: ProposalsEventName, Data: data})
	}
}

// proposalRow is one row of GET …/proposals: the proposal without its content.
type proposalRow struct {
	ID           string       `json:"id"`
	BaseRevision int64        `json:"baseRevision"`
	Author       store.Author `json:"author"`
	Note         string       `json:"note"`
	CreatedAt    string       `json:"createdAt"`
}

func proposalRows(open []store.Proposal) []proposalRow {
	rows := make([]proposalRow, len(open))
	for i, p := range open {
		rows[i] = proposalRow{p.ID, p.BaseRevision, p.Author, p.Note, p.CreatedAt.UTC().Format(store.TimeLayout)}
	}
	return rows
}

func (h *Handler) registerProposals(r *web.Router) {
	r.Handle(web.Read, "GET", "/api/boards/:board/proposals", h.handleProposal(h.listProposals))
	r.Handle(web.Read, "GET", "/api/boards/:board/proposals/:proposal", h.handleProposal(h.getProposal))
	r.Handle(web.Write, "POST", "/api/boards/:board/proposals/:proposal/accept", h.handleProposal(h.acceptProposal))
	r.Handle(web.Write, "POST", "/api/boards/:board/proposals/:proposal/reject", h.handleProposal(h.rejectProposal))
}

// handleProposal is handle with the proposal errors mapped first.
func (h *Handler) handleProposal(f web.ErrorRoute) httprouter.Handle {
	return web.Handle(func(err error) error { return httpError(proposalError(err)) }, f)
}

var (
	errProposalNotFound = web.NewError(http.StatusNotFound, "proposal_not_found",
		"no such open proposal: it was accepted, rejected, or dropped because the board moved on")
	errProposalStale = web.NewError(http.StatusConflict, "proposal_stale",
		"the revision this proposal was made from is no longer kept; reject it and ask Pi again")
)

func proposalError(err error) error {
	if ce, ok := errors.AsType[*board.ProposalConflictError](err); ok {
		bars := ce.Bars
		if bars == nil {
			bars = [][2]int{}
		}
		fields := ce.Fields
		if fields == nil {
			fields = []string{}
		}
		return (&web.Error{Status: http.StatusPreconditionFailed, Code: "proposal_conflict",
			Message: "the board changed the same bars since the proposal was made; choose for each bar which to keep"}).
			With("bars", bars).With("fields", fields)
	}
	if se, ok := errors.AsType[*board.SelectionError](err); ok {
		return (&web.Error{Status: http.StatusUnprocessableEntity, Code: "bad_selection",
			Message: "the selection is not part of this proposal: " + se.Reason}).With("reason", se.Reason)
	}
	switch {
	case errors.Is(err, store.ErrProposalNotFound):
		return errProposalNotFound
	case errors.Is(err, store.ErrProposalStale):
		return errProposalStale
	}
	return err
}

// listProposals handles GET /api/boards/:board/proposals: {"proposals": [rows newest first]}.
func (h *Handler) listProposals(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	id := ps.ByName("board")
	if _, err := h.get(id); err != nil {
		return err
	}
	open, err := h.store.Proposals(id)
	if err != nil {
		return err
	}
	body, err := json.Marshal(struct {
		Proposals []proposalRow `json:"proposals"`
	}{proposalRows(open)})
	if err != nil {
		return err
	}
	writeBody(w, http.StatusOK, body)
	return nil
}

// getProposal handles GET /api/boards/:board/proposals/:proposal: the whole proposal.
func (h *Handler) getProposal(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	id := ps.ByName("board")
	if _, err := h.get(id); err != nil {
		return err
	}
	p, err := h.store.GetProposal(id, ps.ByName("proposal"))
	if err != nil {
		return err
	}
	writeBody(w, http.StatusOK, p.JSON())
	return nil
}

// acceptRequest is the body of POST …/accept: {} for all, or bars, or sections.
type acceptRequest struct {
	Bars     [][2]int `json:"bars"`
	Sections []int    `json:"sections"`
}

// acceptProposal handles POST …/proposals/:proposal/accept with the capability and If-Match: the checks
// of a PUT in its order (404, 415/413, 401/403, 428/412, the body, the write rate), then the store's
// Accept: 404 proposal_not_found, 409 proposal_stale, 422 bad_selection, 412 proposal_conflict with
// the bars, or 200 with the new board and its ETag.
func (h *Handler) acceptProposal(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	id := ps.ByName("board")
	expected, err := h.checkRevisionedWrite(w, r, id, MaxAcceptBodyBytes)
	if err != nil {
		return err
	}
	var req acceptRequest
	if err := web.DecodeJSON(r, MaxAcceptBodyBytes, &req); err != nil {
		return err
	}
	if req.Bars != nil && len(req.Bars) == 0 || req.Sections != nil && len(req.Sections) == 0 {
		return proposalError(&board.SelectionError{Reason: "an empty list names nothing: send {} to accept all"})
	}
	if err := h.spendWrite(id); err != nil {
		return err
	}
	b, err := h.store.Accept(id, ps.ByName("proposal"), expected, board.Selection(req))
	if err != nil {
		return err
	}
	h.log.Info("proposal accepted", "board", id, "proposal", b.Proposal, "revision", b.Revision)
	w.Header()["Etag"] = []string{etag(b.Revision)}
	writeBody(w, http.StatusOK, b.JSON())
	return nil
}

// rejectProposal handles POST …/proposals/:proposal/reject with the capability: 204, nothing written.
func (h *Handler) rejectProposal(w http.ResponseWriter, r *http.Request, ps httprouter.Params) error {
	id := ps.ByName("board")
	if _, err := h.get(id); err != nil {
		return err
	}
	if err := h.checkCapability(w, r, id); err != nil {
		return err
	}
	if err := h.store.Reject(id, ps.ByName("proposal")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
