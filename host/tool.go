package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"tele/board"
	"tele/link"
)

// Error codes of the host's calls.
const (
	CodeRevisionConflict = "revision_conflict" // put: expectedRevision is stale; currentRevision says the current one
	CodeInvalidContent   = "invalid_content"   // put: content breaks a rule of docs/content.md; path and rule say which
	CodeNotFound         = "not_found"         // the bound board disappeared (should not happen)
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
}

func resultOf(b board.Board) boardResult {
	r := boardResult{ID: b.ID, Revision: b.Revision, Content: b.Content, Author: b.Author}
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
		f, err := link.ParseObject(args)
		if err != nil {
			return nil, link.BadCall("invite: %v", err)
		}
		if len(f) != 0 {
			return nil, link.BadCall("invite takes no arguments")
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
	f, err := link.ParseObject(args)
	if err != nil {
		return nil, link.BadCall("tool: %v", err)
	}
	for k := range f {
		if k != "action" && k != "expectedRevision" && k != "content" {
			return nil, link.BadCall("tool: unknown argument %s; the arguments are action, expectedRevision and content", quoteName(k))
		}
	}
	raw, ok := f["action"]
	if !ok {
		return nil, link.BadCall(`tool: action is required: "catalogue", "get" or "put"`)
	}
	action, err := link.String(raw, 16)
	if err != nil {
		return nil, link.BadCall(`tool: action must be "catalogue", "get" or "put"`)
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
	case "put":
		return h.put(f)
	}
	return nil, link.BadCall(`tool: action must be "catalogue", "get" or "put"`)
}

func (h *host) put(f link.Fields) (any, error) {
	rawRev, ok := f["expectedRevision"]
	if !ok {
		return nil, link.BadCall("put needs expectedRevision, the revision you read with get: call get first")
	}
	rev, err := link.Int(rawRev)
	if err != nil || rev < 0 {
		return nil, link.BadCall("expectedRevision must be a non-negative integer: the revision from get")
	}
	rawContent, ok := f["content"]
	if !ok {
		return nil, link.BadCall("put needs content: the whole board content as a JSON object")
	}
	if rawContent[0] != '{' {
		return nil, link.BadCall("content must be a JSON object (not a string holding JSON): the whole board content")
	}
	c, err := board.ParseContent(rawContent)
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
		if ve.Path != "" {
			path += "." + ve.Path
		}
		fields := map[string]any{"path": path, "rule": ve.Rule}
		if ve.Suggestion != "" {
			fields["suggestion"] = ve.Suggestion
		}
		return &link.Error{Code: CodeInvalidContent, Message: fmt.Sprintf("%s: %s", path, ve.Rule), Fields: fields}
	}
	if errors.Is(err, board.ErrNotFound) {
		return &link.Error{Code: CodeNotFound, Message: fmt.Sprintf("board %q does not exist", h.boardID)}
	}
	return err // internal: logged by the link, answered "internal"
}
