package host

import (
	"fmt"
)

// Note handles the bridge's notes, in order, on the link's reading goroutine.
func (h *host) Note(name string, note []byte) {
	h.mu.Lock()
	ph := h.phase
	if ph == waiting {
		if name != "hello" {
			h.mu.Unlock()
			h.sendFatal(FatalProtocol, fmt.Sprintf("the first frame must be the hello note, not %q", name))
			return
		}
		h.phase = starting
		h.mu.Unlock()
		h.start(note)
		return
	}
	gw := h.gateway
	h.mu.Unlock()
	if ph != running {
		h.log.Debug("host: note after the end, ignored", "note", name)
		return
	}

	switch name {
	case "hello":
		h.log.Warn("host: malformed note: a second hello, ignored")
	case "branch":
		reset, entries, err := readBranch(note)
		if err != nil {
			h.malformed(name, err)
			return
		}
		if err := gw.ApplyBranch(reset, entries); err != nil {
			h.log.Warn("host: branch projection", "err", err.Error(), "bytes", len(entries), "reset", reset)
		}
	case "stream":
		msg, err := readStream(note)
		if err != nil {
			h.malformed(name, err)
			return
		}
		if err := gw.SetStreaming(msg); err != nil {
			h.log.Warn("host: stream projection", "err", err.Error(), "bytes", len(msg))
		}
	case "state":
		idle, pending, prompt, err := readState(note)
		if err != nil {
			h.malformed(name, err)
			return
		}
		gw.SetState(idle, pending, prompt)
	case "settled":
		source, idleChecks, err := readSettled(note)
		if err != nil {
			h.malformed(name, err)
			return
		}
		// Where settled came from, and how many idle checks the bridge has started on this connection
		// (none where Pi emits agent_settled): the proof that nothing polls.
		h.log.Info("host: settled", "source", source, "idleChecks", idleChecks)
		gw.Settled()
	case "agent_start", "turn_end", "agent_end":
		if err := readSignal(note); err != nil {
			h.malformed(name, err)
			return
		}
		switch name {
		case "agent_start":
			gw.AgentStart()
		case "turn_end":
			gw.TurnEnd()
		case "agent_end":
			// The agent loop ended; the run state stays until settled.
		}
	case "input":
		cmd, err := readInput(note)
		if err != nil {
			h.malformed(name, err)
			return
		}
		gw.InputObserved(cmd)
	case "revoke":
		// Fail closed: a revoke that is malformed still revokes.
		reason, err := readRevoke(note)
		if err != nil {
			h.malformed(name, err)
			reason = "unknown"
		}
		h.log.Info("host: revoke", "reason", reason)
		h.end(reason)
	default:
		h.log.Debug("host: unknown note ignored", "note", name)
	}
}

func (h *host) malformed(note string, err error) {
	h.log.Warn("host: malformed note ignored", "note", note, "reason", err.Error())
}
