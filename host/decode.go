package host

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"tele/board"
	"tele/chat"
	"tele/strict"
)

// What the bridge sends (docs/link-protocol.md), decoded by package strict into one struct per note or
// call: exactly the members listed ("note" included), no duplicate names, the listed types. A pointer
// member is required (nil: absent); a jsontext.Value member is read by the one who needs it, whatever
// else it holds (the branch entries by the projection, put's members only for put).

// Bounds of the hello's strings, in bytes.
const (
	maxVersionLen     = 64
	maxSessionIDLen   = 256
	maxSessionNameLen = 1024
	maxCommandLen     = 128
)

// RevokeReasons are the reasons a `revoke` note may give.
var RevokeReasons = []string{"off", "reload", "session_switch", "fork", "tree", "quit"}

type branchNote struct {
	Note    string         `json:"note"`
	Reset   *bool          `json:"reset"`
	Entries jsontext.Value `json:"entries"`
}

type streamNote struct {
	Note    string         `json:"note"`
	Message jsontext.Value `json:"message"`
}

type stateNote struct {
	Note    string `json:"note"`
	Idle    *bool  `json:"idle"`
	Pending *bool  `json:"pending"`
	Prompt  *bool  `json:"prompt"`
}

// settledNote says where a `settled` came from: Pi's own agent_settled (settledByPi) or the bridge's
// idle check after agent_end (settledByIdleCheck), and how many idle checks the bridge has started.
type settledNote struct {
	Note       string  `json:"note"`
	Source     *string `json:"source"`
	IdleChecks *int64  `json:"idleChecks"`
}

// signalNote is agent_start, turn_end and agent_end: the name says it all.
type signalNote struct {
	Note string `json:"note"`
}

type inputNote struct {
	Note    string  `json:"note"`
	Command *string `json:"command"`
}

type revokeNote struct {
	Note   string  `json:"note"`
	Reason *string `json:"reason"`
}

// helloMembers is the hello without note and protocol, which are read first.
type helloMembers struct {
	Bridge  *string        `json:"bridge"`
	Pi      *string        `json:"pi"`
	Board   jsontext.Value `json:"board"` // anything but a valid id is fatal bad_board, not protocol
	Session *struct {
		ID   *string `json:"id"`
		Name *string `json:"name"` // null or absent: none
	} `json:"session"`
	Edits *string `json:"edits"` // the review mode to start in (`/tele <board> --review`); absent: apply
}

// toolArgs are the tele_board tool's arguments. Only put reads expectedRevision, content and note.
type toolArgs struct {
	Action           *string        `json:"action"`
	ExpectedRevision jsontext.Value `json:"expectedRevision"`
	Content          jsontext.Value `json:"content"`
	Note             jsontext.Value `json:"note"`
}

// inviteArgs are the arguments of `invite`: a review mode to switch to, or none.
type inviteArgs struct {
	Edits *string `json:"edits"`
}

func errMissing(member string) error { return fmt.Errorf("missing member %q", member) }

// readBranch reads a `branch` note; entries is the raw array, for the projection.
func readBranch(note []byte) (reset bool, entries []byte, err error) {
	var n branchNote
	switch err := strict.Decode(note, &n); {
	case err != nil:
		return false, nil, err
	case n.Reset == nil:
		return false, nil, errMissing("reset")
	case len(n.Entries) == 0:
		return false, nil, errMissing("entries")
	case n.Entries.Kind() != '[':
		return false, nil, errors.New("entries must be an array")
	}
	return *n.Reset, n.Entries, nil
}

// readStream reads a `stream` note: the message object, or nil for null.
func readStream(note []byte) (message []byte, err error) {
	var n streamNote
	switch err := strict.Decode(note, &n); {
	case err != nil:
		return nil, err
	case len(n.Message) == 0:
		return nil, errMissing("message")
	case n.Message.Kind() == 'n':
		return nil, nil
	case n.Message.Kind() != '{':
		return nil, errors.New("message must be an object or null")
	}
	return n.Message, nil
}

// readState reads a `state` note.
func readState(note []byte) (idle, pending, prompt bool, err error) {
	var n stateNote
	switch err := strict.Decode(note, &n); {
	case err != nil:
		return false, false, false, err
	case n.Idle == nil:
		return false, false, false, errMissing("idle")
	case n.Pending == nil:
		return false, false, false, errMissing("pending")
	case n.Prompt == nil:
		return false, false, false, errMissing("prompt")
	}
	return *n.Idle, *n.Pending, *n.Prompt, nil
}

// readSettled reads a `settled` note.
func readSettled(note []byte) (source string, idleChecks int64, err error) {
	var n settledNote
	switch err := strict.Decode(note, &n); {
	case err != nil:
		return "", 0, err
	case n.Source == nil || (*n.Source != settledByPi && *n.Source != settledByIdleCheck):
		return "", 0, fmt.Errorf("source must be %q or %q", settledByPi, settledByIdleCheck)
	case n.IdleChecks == nil || *n.IdleChecks < 0:
		return "", 0, errors.New("idleChecks must be a non-negative integer")
	}
	return *n.Source, *n.IdleChecks, nil
}

// readSignal reads a note that has no member but its name.
func readSignal(note []byte) error { return strict.Decode(note, &signalNote{}) }

// readInput reads an `input` note: the command id, 1 to maxCommandLen bytes.
func readInput(note []byte) (command string, err error) {
	var n inputNote
	if err := strict.Decode(note, &n); err != nil {
		return "", err
	}
	if n.Command == nil || *n.Command == "" || len(*n.Command) > maxCommandLen {
		return "", fmt.Errorf("command must be a string of 1 to %d bytes", maxCommandLen)
	}
	return *n.Command, nil
}

// readRevoke reads a `revoke` note: one of RevokeReasons.
func readRevoke(note []byte) (reason string, err error) {
	var n revokeNote
	if err := strict.Decode(note, &n); err != nil {
		return "", err
	}
	if n.Reason == nil || !validReason(*n.Reason) {
		return "", fmt.Errorf("reason must be one of %v", RevokeReasons)
	}
	return *n.Reason, nil
}

func validReason(r string) bool {
	for _, v := range RevokeReasons {
		if r == v {
			return true
		}
	}
	return false
}

// readHello validates the hello strictly and returns it, or the fatal code and message. The protocol
// is read first, from the hello's members as raw values, so that a later protocol's other hello shape is
// still reported as a protocol mismatch; the other members are then decoded strictly.
func readHello(note []byte) (hello, string, string) {
	bad := func(what string) (hello, string, string) {
		return hello{}, FatalProtocol, "malformed hello: " + what
	}
	var all map[string]jsontext.Value
	if err := strict.Decode(note, &all); err != nil {
		return bad(err.Error())
	}
	p, ok := all["protocol"]
	if !ok {
		return hello{}, FatalProtocol, "hello lacks protocol; this tele host speaks link protocol 1"
	}
	var n int64
	if strict.Decode(p, &n) != nil {
		return hello{}, FatalProtocol, "hello: protocol must be an integer; this tele host speaks link protocol 1"
	}
	if n != Protocol {
		return hello{}, FatalProtocol, fmt.Sprintf("the bridge speaks link protocol %d, this tele host speaks 1: install matching versions (tele pi install)", n)
	}
	delete(all, "note")
	delete(all, "protocol")
	rest, err := json.Marshal(all, json.Deterministic(true)) // errors in name order
	if err != nil {
		return bad(err.Error())
	}
	var m helloMembers
	if err := strict.Decode(rest, &m); err != nil {
		return bad(err.Error())
	}
	switch {
	case m.Bridge == nil:
		return bad(errMissing("bridge").Error())
	case m.Pi == nil:
		return bad(errMissing("pi").Error())
	case len(m.Board) == 0:
		return bad(errMissing("board").Error())
	case m.Session == nil:
		return bad(errMissing("session").Error())
	case len(*m.Bridge) > maxVersionLen:
		return bad(fmt.Sprintf("bridge must be a string of at most %d bytes", maxVersionLen))
	case len(*m.Pi) > maxVersionLen:
		return bad(fmt.Sprintf("pi must be a string of at most %d bytes", maxVersionLen))
	case m.Session.ID == nil || *m.Session.ID == "" || len(*m.Session.ID) > maxSessionIDLen:
		return bad(fmt.Sprintf("session.id must be a string of 1 to %d bytes", maxSessionIDLen))
	case m.Session.Name != nil && len(*m.Session.Name) > maxSessionNameLen:
		return bad(fmt.Sprintf("session.name must be a string of at most %d bytes", maxSessionNameLen))
	case m.Edits != nil && !chat.ValidEdits(*m.Edits):
		return bad(`edits must be "apply" or "propose"`)
	}
	edits := chat.EditsApply
	if m.Edits != nil {
		edits = *m.Edits
	}
	var id string
	if strict.Decode(m.Board, &id) != nil || !board.ValidID(id) {
		return hello{}, FatalBadBoard, "bad board id: a board id is 1 to 64 letters, digits, _ or -, starting with a letter or digit"
	}
	return hello{bridge: *m.Bridge, pi: *m.Pi, board: id, sessionID: *m.Session.ID, edits: edits}, "", ""
}

// readToolArgs reads the tele_board tool's arguments; put's members are checked by readPut. A flaw
// inside content (a duplicate name, invalid UTF-8) is the content's: a *board.ValidationError with its
// path within the content, as board.ParseContent would report it.
func readToolArgs(args []byte) (action string, a toolArgs, err error) {
	if err := strict.Decode(args, &a); err != nil {
		if se, ok := errors.AsType[*strict.Error](err); ok {
			switch {
			case strings.HasPrefix(se.Path, "content.") || strings.HasPrefix(se.Path, "content["):
				return "", a, &board.ValidationError{Path: strings.TrimPrefix(se.Path[len("content"):], "."), Rule: se.Rule}
			case se.Rule == "unknown field":
				return "", a, fmt.Errorf("unknown argument %s; the arguments are action, expectedRevision, content and note", se.Path)
			case se.Path == "action" && strings.HasPrefix(se.Rule, "must be"):
				return "", a, errors.New(`action must be "catalogue", "get" or "put"`)
			}
		}
		return "", a, err
	}
	if a.Action == nil {
		return "", a, errors.New(`action is required: "catalogue", "get" or "put"`)
	}
	switch *a.Action {
	case "catalogue", "get", "put":
		return *a.Action, a, nil
	}
	return "", a, errors.New(`action must be "catalogue", "get" or "put"`)
}

// readPut reads put's members: the expected revision and the raw content object, for board.ParseContent.
func (a toolArgs) readPut() (rev int64, content []byte, err error) {
	if len(a.ExpectedRevision) == 0 {
		return 0, nil, errors.New("put needs expectedRevision, the revision you read with get: call get first")
	}
	if strict.Decode(a.ExpectedRevision, &rev) != nil || rev < 0 {
		return 0, nil, errors.New("expectedRevision must be a non-negative integer: the revision from get")
	}
	if len(a.Content) == 0 {
		return 0, nil, errors.New("put needs content: the whole board content as a JSON object")
	}
	if a.Content.Kind() != '{' {
		return 0, nil, errors.New("content must be a JSON object (not a string holding JSON): the whole board content")
	}
	return rev, a.Content, nil
}

// readNote reads put's optional note: a string (store.Store.Propose checks that it is one short line).
func (a toolArgs) readNote() (string, error) {
	var note string
	if len(a.Note) == 0 || a.Note.Kind() == 'n' {
		return "", nil
	}
	if strict.Decode(a.Note, &note) != nil {
		return "", errors.New("note must be a string: one line of at most 200 characters saying what the change is for")
	}
	return note, nil
}

// readInvite reads the arguments of `invite`: {} or {"edits": "apply"|"propose"}; "" when none.
func readInvite(args []byte) (edits string, err error) {
	var a inviteArgs
	if err := strict.Decode(args, &a); err != nil {
		return "", errors.New(`takes no arguments but edits ("apply" or "propose")`)
	}
	if a.Edits == nil {
		return "", nil
	}
	if !chat.ValidEdits(*a.Edits) {
		return "", errors.New(`edits must be "apply" or "propose"`)
	}
	return *a.Edits, nil
}

// readNoArgs reads the arguments of a call that takes none: exactly {}.
func readNoArgs(args []byte) error {
	if err := strict.Decode(args, &struct{}{}); err != nil {
		return errors.New("takes no arguments")
	}
	return nil
}
