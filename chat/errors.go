package chat

import (
	"errors"
	"time"
)

// The gateway's refusals. They say what happened, not how HTTP spells it: httpError in http.go maps
// each to its status, stable code and message (docs/api.md), in one place.
var (
	errNotPaired        = errors.New("chat: no live pairing for this binding")
	errRevoked          = errors.New("chat: binding revoked")
	errDuplicateCommand = errors.New("chat: command id reused with another body")
	errCommandLimit     = errors.New("chat: binding has used all the commands it remembers")
	errStaleEpoch       = errors.New("chat: command from an earlier connection")
	errStaleIdleVersion = errors.New("chat: idle version has moved on")
	errStaleRun         = errors.New("chat: run is not the current run")
	errBusy             = errors.New("chat: Pi is busy")
	errTerminalPrompt   = errors.New("chat: a dialog is open in the Pi terminal")
	// errSubmissionUncertain and errAbortFailed are remembered as a command's failure receipt.
	errSubmissionUncertain = errors.New("chat: send to Pi failed or timed out")
	errAbortFailed         = errors.New("chat: abort did not reach Pi")
	errTooManyStreams      = errors.New("chat: too many open streams")
	errClosed              = errors.New("chat: server shutting down")
)

// ErrBoardDeleted is Config.Capability's answer once the bound board was deleted: a pairing then gets
// no capability, even of a board made later under the same id.
var ErrBoardDeleted = errors.New("chat: the bound board was deleted")

// commandError is a command body that breaks a rule of docs/api.md: its shape (bad_command) or its
// text (bad_text, when text is set). reason is the message the client gets.
type commandError struct {
	text   bool
	reason string
}

func (e *commandError) Error() string { return "chat: bad command: " + e.reason }

func errBadCommand(reason string) error { return &commandError{reason: reason} }
func errBadText(reason string) error    { return &commandError{text: true, reason: reason} }

// rateLimitError is a command refused by the per-binding rate; retryAfter is when the next one fits.
type rateLimitError struct{ retryAfter time.Duration }

func (e *rateLimitError) Error() string { return "chat: too many commands" }
