package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"tele/assets"
	"tele/board"
	"tele/board/store"
	"tele/chat"
	"tele/link"
)

// Error codes of the host's calls.
const (
	CodeRevisionConflict = "revision_conflict"  // put: expectedRevision is stale; currentRevision says the current one
	CodeInvalidContent   = "invalid_content"    // put: content breaks a rule of docs/content.md; path and rule say which
	CodeNotFound         = "not_found"          // the bound board was deleted (with its edit link, on the page)
	CodeQuotaExceeded    = "quota_exceeded"     // put: the server keeps no more bytes of boards (--max-bytes)
	CodeTooManyProposals = "too_many_proposals" // put in review mode: the board has as many open proposals as it keeps
	CodeNotReady         = "not_ready"          // a call before the host is ready
	CodeRevoked          = "revoked"            // a call after the binding was revoked
)

// boardResult is the tool's view of a board: never the capability, never updatedAt. Author and
// restoredFrom let the model see who wrote the revision it read (a person may have undone its change).
type boardResult struct {
	ID           string        `json:"id"`
	Revision     int64         `json:"revision"`
	Content      board.Content `json:"content"`
	Author       store.Author  `json:"author"`
	RestoredFrom *int64        `json:"restoredFrom"`
	// SchemaVersion is the earliest content schema version the content is of (the catalogue's
	// schemaChanges say what each adds), so the model knows which rules the board already uses.
	SchemaVersion int `json:"schemaVersion"`
	// Proposals are the board's open proposals, newest first (get only; absent when none is open).
	Proposals []proposalRow `json:"proposals,omitempty"`
}

// proposalRow is an open proposal as the model sees it in get.
type proposalRow struct {
	ID           string `json:"id"`
	BaseRevision int64  `json:"baseRevision"`
	Note         string `json:"note"`
}

// proposedResult is a put's answer in review mode: nothing was committed; the musician reviews it.
type proposedResult struct {
	Status       string `json:"status"` // "proposed"
	Proposal     string `json:"proposal"`
	BaseRevision int64  `json:"baseRevision"`
}

func resultOf(b store.Board) boardResult {
	r := boardResult{ID: b.ID, Revision: b.Revision, Content: b.Content, Author: b.Author, SchemaVersion: b.Content.SchemaVersion()}
	if b.RestoredFrom != 0 {
		r.RestoredFrom = &b.RestoredFrom
	}
	return r
}

// Call answers the bridge's calls: `tool` (the tele_board tool), `invite` and `turn`.
func (h *host) Call(ctx context.Context, name string, args []byte) (any, error) {
	h.mu.Lock()
	ph := h.phase
	h.mu.Unlock()
	switch ph {
	case waiting, starting:
		if ph == waiting {
			h.sendFatal(FatalProtocol, fmt.Sprintf("the first frame must be the hello note, not the call %q", name))
		}
		return nil, &link.Error{Code: CodeNotReady, Message: "the host is not ready: send hello first"}
	case ended:
		return nil, &link.Error{Code: CodeRevoked, Message: "the binding was revoked"}
	}
	switch name {
	case "tool":
		return h.tool(args)
	case "invite":
		edits, err := readInvite(args)
		if err != nil {
			return nil, link.BadCall("invite %v", err)
		}
		if edits != "" {
			h.gateway.SetEdits(edits)
		}
		return struct {
			Invite string `json:"invite"`
		}{h.inviteURL()}, nil
	case "turn":
		if err := readNoArgs(args); err != nil {
			return nil, link.BadCall("turn %v", err)
		}
		return h.turn(), nil
	}
	return nil, link.BadCall("unknown call %s", quoteName(name))
}

// tool is the tele_board tool (docs/bridge.md): {action: "catalogue"|"get"|"put", expectedRevision?, content?}
// on the bound board only. Values filled into the optional members are ignored for get and catalogue.
func (h *host) tool(args []byte) (any, error) {
	action, a, err := readToolArgs(args)
	if _, invalid := errors.AsType[*board.ValidationError](err); invalid {
		return nil, h.storeError(err)
	} else if err != nil {
		return nil, link.BadCall("tool: %v", err)
	}
	if action != "catalogue" && !h.stillBound() {
		return nil, h.deleted()
	}
	switch action {
	case "catalogue":
		return json.RawMessage(board.CatalogueJSON()), nil
	case "get":
		b, err := h.store.Get(h.boardID)
		if err != nil {
			return nil, h.storeError(err)
		}
		open, err := h.store.Proposals(h.boardID)
		if err != nil {
			return nil, h.storeError(err)
		}
		r := resultOf(b)
		for _, p := range open {
			r.Proposals = append(r.Proposals, proposalRow{p.ID, p.BaseRevision, p.Note})
		}
		return r, nil
	}
	rev, content, err := a.readPut()
	if err != nil {
		return nil, link.BadCall("%v", err)
	}
	c, err := board.ParseContent(content)
	if err != nil {
		return nil, h.storeError(err)
	}
	if h.gateway.Edits() == chat.EditsPropose {
		note, err := a.readNote()
		if err != nil {
			return nil, link.BadCall("%v", err)
		}
		return h.propose(rev, c, note)
	}
	b, err := h.store.Put(h.boardID, rev, c, store.AuthorPi)
	if err != nil {
		return nil, h.storeError(err)
	}
	h.log.Info("host: tool put", "board", b.ID, "revision", b.Revision)
	return resultOf(b), nil
}

// propose is put in review mode: the content is stored as a proposal against the revision the model
// read, and nothing is committed until the musician accepts it.
func (h *host) propose(base int64, c board.Content, note string) (any, error) {
	p, err := h.store.Propose(h.boardID, base, c, store.AuthorPi, note)
	switch {
	case errors.Is(err, store.ErrTooManyProposals):
		return nil, &link.Error{Code: CodeTooManyProposals, Message: fmt.Sprintf("the musician has %d changes to review: nothing was stored; tell them, and propose again once they have accepted or rejected some", store.MaxOpenProposals)}
	case errors.Is(err, store.ErrBadNote):
		return nil, link.BadCall("note must be one line of at most %d characters", store.MaxNoteRunes)
	case errors.Is(err, store.ErrBadBaseRevision):
		cur, gerr := h.store.Get(h.boardID)
		if gerr != nil {
			return nil, h.storeError(gerr)
		}
		return nil, h.storeError(&store.ConflictError{Current: cur.Revision})
	case err != nil:
		return nil, h.storeError(err)
	}
	h.review.add(p)
	h.log.Info("host: tool proposed", "board", p.Board, "proposal", p.ID, "baseRevision", p.BaseRevision)
	return proposedResult{"proposed", p.ID, p.BaseRevision}, nil
}

// turnResult answers `turn`, which the bridge calls before each of the model's turns: what the model
// must hear first (nil: nothing), and the tool's description in the binding's review mode.
type turnResult struct {
	Message     *string `json:"message"`
	Description string  `json:"description"`
}

func (h *host) turn() turnResult {
	r := turnResult{Description: assets.PiToolDescription(h.gateway.Edits() == chat.EditsPropose)}
	msg, err := h.review.outcome(h.store, h.boardID)
	if err != nil {
		h.log.Warn("host: cannot tell the model what became of its proposals", "err", err.Error())
	}
	if msg != "" {
		r.Message = &msg
	}
	return r
}

// quoteName quotes a name for a log line or an error message, bounded.
func quoteName(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// storeError maps the store's and the schema's errors to err replies.
func (h *host) storeError(err error) error {
	var ce *store.ConflictError
	if errors.As(err, &ce) {
		return &link.Error{
			Code:    CodeRevisionConflict,
			Message: fmt.Sprintf("the board is at revision %d: get it again, apply your change to that content, and put it with expectedRevision %d", ce.Current, ce.Current),
			Fields:  map[string]any{"currentRevision": ce.Current},
		}
	}
	var ve *board.ValidationError
	if errors.As(err, &ve) {
		path := "content"
		switch {
		case strings.HasPrefix(ve.Path, "["):
			path += ve.Path
		case ve.Path != "":
			path += "." + ve.Path
		}
		fields := map[string]any{"path": path, "rule": ve.Rule}
		if ve.Suggestion != "" {
			fields["suggestion"] = ve.Suggestion
		}
		return &link.Error{Code: CodeInvalidContent, Message: fmt.Sprintf("%s: %s", path, ve.Rule), Fields: fields}
	}
	if errors.Is(err, store.ErrNotFound) {
		return h.deleted()
	}
	if qe, ok := errors.AsType[*store.QuotaError](err); ok {
		return &link.Error{Code: CodeQuotaExceeded, Message: fmt.Sprintf("%v: the change was not saved; tell the musician, who can delete boards they no longer need or raise --max-bytes", qe),
			Fields: map[string]any{"limit": qe.Limit}}
	}
	return err // internal: logged by the link, answered "internal"
}

// stillBound reports whether the board under the bound id is still the one bound.
func (h *host) stillBound() bool {
	now, err := h.store.Instance(h.boardID)
	return err == nil && now == h.instance
}

// deleted is the tool's error once the bound board is gone, in words the model can pass on.
func (h *host) deleted() error {
	return &link.Error{Code: CodeNotFound, Message: fmt.Sprintf("board %q was deleted (with its edit link): it can no longer be read or changed; tell the musician, who can open another board with /tele <board>", h.boardID)}
}

// boundCapability is the bound board's capability for a pairing, or chat.ErrBoardDeleted once that
// board was deleted, even when another board has its id now.
func boundCapability(store *store.Store, id string, bound store.Instance) (string, error) {
	if now, err := store.Instance(id); err != nil || now != bound {
		return "", chat.ErrBoardDeleted
	}
	return store.Capability(id)
}
