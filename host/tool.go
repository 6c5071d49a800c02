package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"tele/board"
	"tele/chat"
	"tele/link"
)

// Error codes of the host's calls.
const (
	CodeRevisionConflict = "revision_conflict" // put: expectedRevision is stale; currentRevision says the current one
	CodeInvalidContent   = "invalid_content"   // put: content breaks a rule of docs/content.md; path and rule say which
	CodeNotFound         = "not_found"         // the bound board was deleted (with its edit link, on the page)
	CodeQuotaExceeded    = "quota_exceeded"    // put: the server keeps no more bytes of boards (--max-bytes)
	CodeNotReady         = "not_ready"         // a call before the host is ready
	CodeRevoked          = "revoked"           // a call after the binding was revoked
)

// boardResult is the tool's view of a board: never the capability, never updatedAt. Author and
// restoredFrom let the model see who wrote the revision it read (a person may have undone its change).
type boardResult struct {
	ID           string        `json:"id"`
	Revision     int64         `json:"revision"`
	Content      board.Content `json:"content"`
	Author       board.Author  `json:"author"`
	RestoredFrom *int64        `json:"restoredFrom"`
	// SchemaVersion is the earliest content schema version the content is of (the catalogue's
	// schemaChanges say what each adds), so the model knows which rules the board already uses.
	SchemaVersion int `json:"schemaVersion"`
}

func resultOf(b board.Board) boardResult {
	r := boardResult{ID: b.ID, Revision: b.Revision, Content: b.Content, Author: b.Author, SchemaVersion: b.Content.SchemaVersion()}
	if b.RestoredFrom != 0 {
		r.RestoredFrom = &b.RestoredFrom
	}
	return r
}

// Call answers the bridge's calls: `tool` (the tele_board tool) and `invite`.
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
		if err := readNoArgs(args); err != nil {
			return nil, link.BadCall("invite %v", err)
		}
		return struct {
			Invite string `json:"invite"`
		}{h.inviteURL()}, nil
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
		return resultOf(b), nil
	}
	rev, content, err := a.readPut()
	if err != nil {
		return nil, link.BadCall("%v", err)
	}
	c, err := board.ParseContent(content)
	if err != nil {
		return nil, h.storeError(err)
	}
	b, err := h.store.Put(h.boardID, rev, c, board.AuthorPi)
	if err != nil {
		return nil, h.storeError(err)
	}
	h.log.Info("host: tool put", "board", b.ID, "revision", b.Revision)
	return resultOf(b), nil
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
	var ce *board.ConflictError
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
	if errors.Is(err, board.ErrNotFound) {
		return h.deleted()
	}
	if qe, ok := errors.AsType[*board.QuotaError](err); ok {
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
func boundCapability(store *board.Store, id string, bound board.Instance) (string, error) {
	if now, err := store.Instance(id); err != nil || now != bound {
		return "", chat.ErrBoardDeleted
	}
	return store.Capability(id)
}
