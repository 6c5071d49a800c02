package chat

import (
	"encoding/json"
	"strconv"
)

// View is the chat view of one binding (SPEC 7): the display projection with its run status.
//
// JSON (GET /api/chat/:binding/status and every `snapshot` event):
//
//	{"epoch":"…","idleVersion":1,"status":"idle","runId":null,"notice":null,"truncated":false,"items":[…]}
//
// GET /api/chat/:binding serves the projection alone: {"epoch","idleVersion","truncated","items"}.
type View struct {
	Epoch       string
	IdleVersion int64
	Status      string // StatusIdle, …
	RunID       string // "" is null
	Notice      string // "" is null
	Truncated   bool
	Items       []Item
	Version     int64 // the snapshot counter: the Seq of the `snapshot` event that carried this view
}

// MarshalJSON encodes the full view (with status, runId and notice); Version is not part of it.
func (v View) MarshalJSON() ([]byte, error) {
	items, err := encodeItems(v.Items)
	if err != nil {
		return nil, err
	}
	return appendStatusDoc(nil, v.Epoch, v.IdleVersion, v.Status, v.RunID, v.Notice, v.Truncated, items), nil
}

func encodeItems(items []Item) ([]byte, error) {
	if len(items) == 0 {
		return []byte("[]"), nil
	}
	return json.Marshal(items)
}

// appendStatusDoc appends the full view document; items is the encoded items array.
func appendStatusDoc(b []byte, epoch string, idleVersion int64, status, runID, notice string, truncated bool, items []byte) []byte {
	b = append(b, `{"epoch":`...)
	b = appendString(b, epoch)
	b = append(b, `,"idleVersion":`...)
	b = strconv.AppendInt(b, idleVersion, 10)
	b = append(b, `,"status":`...)
	b = appendString(b, status)
	b = append(b, `,"runId":`...)
	b = appendNullable(b, runID)
	b = append(b, `,"notice":`...)
	b = appendNullable(b, notice)
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, truncated)
	b = append(b, `,"items":`...)
	b = append(b, items...)
	return append(b, '}')
}

// appendProjectionDoc appends the projection document of GET /api/chat/:binding.
func appendProjectionDoc(b []byte, epoch string, idleVersion int64, truncated bool, items []byte) []byte {
	b = append(b, `{"epoch":`...)
	b = appendString(b, epoch)
	b = append(b, `,"idleVersion":`...)
	b = strconv.AppendInt(b, idleVersion, 10)
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, truncated)
	b = append(b, `,"items":`...)
	b = append(b, items...)
	return append(b, '}')
}

func appendNullable(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return appendString(b, s)
}

// appendString appends s as a JSON string. The strings here are server-made (base64url ids, codes), but
// encode them properly anyway.
func appendString(b []byte, s string) []byte {
	enc, _ := json.Marshal(s)
	return append(b, enc...)
}
