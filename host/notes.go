package host

import (
	"fmt"
	"sort"

	"tele/board"
	"tele/link"
)

// Bounds of the hello's strings, in bytes.
const (
	maxVersionLen     = 64
	maxSessionIDLen   = 256
	maxSessionNameLen = 1024
	maxCommandLen     = 128
)

// RevokeReasons are the reasons a `revoke` note may give.
var RevokeReasons = []string{"off", "reload", "session_switch", "fork", "tree", "quit"}

// Note handles the bridge's notes, in order, on the link's reading goroutine.
func (h *host) Note(name string, f link.Fields) {
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
		h.start(f)
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
		if err := only(f, "reset", "entries"); err != nil {
			h.malformed(name, err)
			return
		}
		reset, err := link.Bool(f["reset"])
		if err != nil {
			h.malformed(name, fmt.Errorf("reset: %v", err))
			return
		}
		entries := f["entries"]
		if entries[0] != '[' {
			h.malformed(name, fmt.Errorf("entries must be an array"))
			return
		}
		if err := gw.ApplyBranch(reset, entries); err != nil {
			h.log.Warn("host: branch projection", "err", err.Error(), "bytes", len(entries), "reset", reset)
		}
	case "stream":
		if err := only(f, "message"); err != nil {
			h.malformed(name, err)
			return
		}
		msg := f["message"]
		if link.IsNull(msg) {
			msg = nil
		} else if msg[0] != '{' {
			h.malformed(name, fmt.Errorf("message must be an object or null"))
			return
		}
		if err := gw.SetStreaming(msg); err != nil {
			h.log.Warn("host: stream projection", "err", err.Error(), "bytes", len(msg))
		}
	case "state":
		if err := only(f, "idle", "pending", "prompt"); err != nil {
			h.malformed(name, err)
			return
		}
		var v [3]bool
		for i, k := range []string{"idle", "pending", "prompt"} {
			b, err := link.Bool(f[k])
			if err != nil {
				h.malformed(name, fmt.Errorf("%s: %v", k, err))
				return
			}
			v[i] = b
		}
		gw.SetState(v[0], v[1], v[2])
	case "settled":
		if err := h.settled(f); err != nil {
			h.malformed(name, err)
			return
		}
		gw.Settled()
	case "agent_start", "turn_end", "agent_end":
		if err := only(f); err != nil {
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
		if err := only(f, "command"); err != nil {
			h.malformed(name, err)
			return
		}
		cmd, err := link.String(f["command"], maxCommandLen)
		if err != nil || cmd == "" {
			h.malformed(name, fmt.Errorf("command must be a string of 1 to %d bytes", maxCommandLen))
			return
		}
		gw.InputObserved(cmd)
	case "revoke":
		// Fail closed: a revoke that is malformed still revokes.
		reason := "unknown"
		if err := only(f, "reason"); err != nil {
			h.malformed(name, err)
		} else if r, err := link.String(f["reason"], 32); err != nil || !validReason(r) {
			h.malformed(name, fmt.Errorf("reason must be one of %v", RevokeReasons))
		} else {
			reason = r
		}
		h.log.Info("host: revoke", "reason", reason)
		h.end(reason)
	default:
		h.log.Debug("host: unknown note ignored", "note", name)
	}
}

func validReason(r string) bool {
	for _, v := range RevokeReasons {
		if r == v {
			return true
		}
	}
	return false
}

func (h *host) malformed(note string, err error) {
	h.log.Warn("host: malformed note ignored", "note", note, "reason", err.Error())
}

// only checks that f has exactly the members named.
func only(f link.Fields, names ...string) error {
	for _, n := range names {
		if _, ok := f[n]; !ok {
			return fmt.Errorf("missing member %q", n)
		}
	}
	if len(f) != len(names) {
		var extra []string
		for k := range f {
			found := false
			for _, n := range names {
				found = found || k == n
			}
			if !found {
				extra = append(extra, k)
			}
		}
		sort.Strings(extra)
		return fmt.Errorf("unknown member %s", quoteName(extra[0]))
	}
	return nil
}

// quoteName quotes a member name for a log line or an error message, bounded.
func quoteName(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// parseHello validates the hello strictly. The protocol is checked first, so a future protocol's other
// hello shape is still reported as a protocol mismatch.
func parseHello(f link.Fields) (hello, string, string) {
	var hl hello
	p, ok := f["protocol"]
	if !ok {
		return hl, FatalProtocol, "hello lacks protocol; this tele host speaks link protocol 1"
	}
	n, err := link.Int(p)
	if err != nil {
		return hl, FatalProtocol, "hello: protocol must be an integer; this tele host speaks link protocol 1"
	}
	if n != Protocol {
		return hl, FatalProtocol, fmt.Sprintf("the bridge speaks link protocol %d, this tele host speaks 1: install matching versions (tele pi install)", n)
	}
	if err := only(f, "protocol", "bridge", "pi", "board", "session"); err != nil {
		return hl, FatalProtocol, "malformed hello: " + err.Error()
	}
	bad := func(what string) (hello, string, string) {
		return hello{}, FatalProtocol, "malformed hello: " + what
	}
	if hl.bridge, err = link.String(f["bridge"], maxVersionLen); err != nil {
		return bad(fmt.Sprintf("bridge must be a string of at most %d bytes", maxVersionLen))
	}
	if hl.pi, err = link.String(f["pi"], maxVersionLen); err != nil {
		return bad(fmt.Sprintf("pi must be a string of at most %d bytes", maxVersionLen))
	}
	raw := f["session"]
	if raw[0] != '{' {
		return bad("session must be an object")
	}
	sess, err := link.ParseObject(raw)
	if err != nil {
		return bad("session: " + err.Error())
	}
	if name, ok := sess["name"]; ok {
		if !link.IsNull(name) {
			if _, err := link.String(name, maxSessionNameLen); err != nil {
				return bad(fmt.Sprintf("session.name must be a string of at most %d bytes", maxSessionNameLen))
			}
		}
		delete(sess, "name")
	}
	if err := only(sess, "id"); err != nil {
		return bad("session: " + err.Error())
	}
	if hl.sessionID, err = link.String(sess["id"], maxSessionIDLen); err != nil || hl.sessionID == "" {
		return bad(fmt.Sprintf("session.id must be a string of 1 to %d bytes", maxSessionIDLen))
	}
	id, err := link.String(f["board"], 64)
	if err != nil || !board.ValidID(id) {
		return hl, FatalBadBoard, "bad board id: a board id is 1 to 64 letters, digits, _ or -, starting with a letter or digit"
	}
	hl.board = id
	return hl, "", ""
}
