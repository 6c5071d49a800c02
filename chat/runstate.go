package chat

import "time"

// Status values of the view (docs/projection.md).
const (
	StatusIdle           = "idle"
	StatusSubmitting     = "submitting"
	StatusRunning        = "running"
	StatusStopping       = "stopping"
	StatusTerminalPrompt = "terminal-prompt"
)

// Notice codes of the view (docs/projection.md). The empty string is null.
const (
	NoticeInputSubmitted      = "input-submitted"
	NoticeInputUnobserved     = "input-unobserved"
	NoticeSubmissionUncertain = "submission-uncertain"
	NoticeStopRequested       = "stop-requested"
	NoticeInputObserved       = "input-observed"
	NoticeSettledUnobserved   = "settled-unobserved"
	NoticeRunEnded            = "run-ended"
)

// runState is what the gateway knows about Pi's run. It is guarded by Gateway.mu.
type runState struct {
	// From the bridge's `state` note. The host starts only when Pi is idle with nothing queued.
	idle, pending, prompt bool

	idleVersion int64   // 1 at start, +1 at every Settled
	runID       string  // set at each AgentStart, "" once settled
	stopping    bool    // an accepted abort of runID waits for Settled
	stopRecord  *record // the abort that set stopping

	// reserved: a send was accepted and no run has started since; it blocks other sends until a run
	// starts, Pi settles, or the observation window ends without a run.
	reserved bool
	watch    *sendWatch // the last accepted send, until Settled

	notice string
}

// sendWatch follows one accepted send: was the bridge call answered, was the input seen in Pi.
type sendWatch struct {
	command   string
	returned  bool // Bridge.Send returned (well or not)
	uncertain bool // Bridge.Send failed or timed out
	observed  bool // InputObserved(command)
	expired   bool // the observation window ended
	timer     *time.Timer
}

func newRunState() runState {
	return runState{idle: true, idleVersion: 1}
}

func (s *runState) status() string {
	switch {
	case s.prompt:
		return StatusTerminalPrompt
	case s.runID != "" && s.stopping:
		return StatusStopping
	case s.runID != "":
		return StatusRunning
	case s.reserved:
		return StatusSubmitting
	case !s.idle || s.pending:
		return StatusRunning
	}
	return StatusIdle
}

// sendRefusal is why a send cannot be accepted now, or nil. Order: a terminal dialog, then a stale
// idleVersion, then anything busy.
func (s *runState) sendRefusal(idleVersion int64) error {
	switch {
	case s.prompt:
		return errTerminalPrompt
	case idleVersion != s.idleVersion:
		return errStaleIdleVersion
	case !s.idle || s.pending || s.reserved || s.runID != "":
		return errBusy
	}
	return nil
}

// stopWatch cancels the observation timer of the current watch, if any.
func (s *runState) stopWatch() {
	if s.watch != nil && s.watch.timer != nil {
		s.watch.timer.Stop()
		s.watch.timer = nil
	}
}
