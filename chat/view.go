package chat

import (
	"strconv"

	"tele/projection"
)

// appendStatusDoc appends the full view document (docs/projection.md) of GET /api/chat/:binding/status and
// every `snapshot` event; items holds the JSON object of each item:
//
//	{"epoch":"…","idleVersion":1,"status":"idle","edits":"apply","runId":null,"notice":null,"truncated":false,"items":[…]}
//
// runID and notice "" are null. It never writes a raw line break (strings are escaped), so the document
// is one SSE data line.
func appendStatusDoc(b []byte, epoch string, idleVersion int64, status, edits, runID, notice string, truncated bool, items [][]byte) []byte {
	b = append(b, `{"epoch":`...)
	b = appendString(b, epoch)
	b = append(b, `,"idleVersion":`...)
	b = strconv.AppendInt(b, idleVersion, 10)
	b = append(b, `,"status":`...)
	b = appendString(b, status)
	b = append(b, `,"edits":`...)
	b = appendString(b, edits)
	b = append(b, `,"runId":`...)
	b = appendNullable(b, runID)
	b = append(b, `,"notice":`...)
	b = appendNullable(b, notice)
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, truncated)
	b = append(b, `,"items":`...)
	b = appendItemsArray(b, items)
	return append(b, '}')
}

// appendProjectionDoc appends the projection document of GET /api/chat/:binding.
func appendProjectionDoc(b []byte, epoch string, idleVersion int64, truncated bool, items [][]byte) []byte {
	b = append(b, `{"epoch":`...)
	b = appendString(b, epoch)
	b = append(b, `,"idleVersion":`...)
	b = strconv.AppendInt(b, idleVersion, 10)
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, truncated)
	b = append(b, `,"items":`...)
	b = appendItemsArray(b, items)
	return append(b, '}')
}

// appendItemsArray appends the JSON array of the encoded items.
func appendItemsArray(b []byte, items [][]byte) []byte {
	b = append(b, '[')
	for k, enc := range items {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, enc...)
	}
	return append(b, ']')
}

func appendNullable(b []byte, s string) []byte {
	if s == "" {
		return append(b, "null"...)
	}
	return appendString(b, s)
}

// appendString appends s as a JSON string, as encoding/json would. The strings here are server-made
// (base64url ids, codes), but encode them properly anyway.
func appendString(b []byte, s string) []byte { return projection.AppendJSONString(b, s) }
