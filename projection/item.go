package projection

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"tele/utf16count"
)

// Limits of the display projection (docs/projection.md). Units are UTF-16 code units (package utf16count).
const (
	MaxItemIDUnits   = 160
	MaxItemTextUnits = 32768
	MaxItemNameUnits = 100
	MaxViewItems     = 100       // items in one view
	MaxViewBytes     = 256 << 10 // the items array of one view, serialized
)

// Item roles.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
	RoleNotice    = "notice"
)

// Tool item statuses.
const (
	ToolCalling   = "calling"
	ToolCompleted = "completed"
	ToolFailed    = "failed"
)

// Notice item codes.
const (
	CodeContextCompacted = "context-compacted"
	CodeModelFailed      = "model-failed"
	CodeReplyAborted     = "reply-aborted"
)

// Item is one display item of the chat view, a strict object discriminated by Role (docs/projection.md):
//
//	user, assistant: id, role, text   (text ≤ MaxItemTextUnits)
//	tool:            id, role, name, status   (name 1..MaxItemNameUnits; status calling|completed|failed)
//	notice:          id, role, code   (code context-compacted|model-failed|reply-aborted)
//
// IDs are 1..MaxItemIDUnits units. MarshalJSON writes exactly the fields of the item's role and fails on
// an item that breaks these rules; the fields of other roles must be empty.
type Item struct {
	ID     string `json:"id"`
	Role   string `json:"role"`
	Text   string `json:"text,omitempty"`
	Name   string `json:"name,omitempty"`
	Status string `json:"status,omitempty"`
	Code   string `json:"code,omitempty"`
}

// Validate reports whether the item keeps the rules of docs/projection.md.
func (it Item) Validate() error {
	if it.ID == "" || !utf8.ValidString(it.ID) || utf16count.Of(it.ID) > MaxItemIDUnits {
		return errors.New("chat item: bad id")
	}
	switch it.Role {
	case RoleUser, RoleAssistant:
		if it.Name != "" || it.Status != "" || it.Code != "" {
			return fmt.Errorf("chat item %s: fields of another role", it.Role)
		}
		if !utf8.ValidString(it.Text) || utf16count.Of(it.Text) > MaxItemTextUnits {
			return fmt.Errorf("chat item %s: bad text", it.Role)
		}
	case RoleTool:
		if it.Text != "" || it.Code != "" {
			return errors.New("chat item tool: fields of another role")
		}
		if it.Name == "" || !utf8.ValidString(it.Name) || utf16count.Of(it.Name) > MaxItemNameUnits {
			return errors.New("chat item tool: bad name")
		}
		switch it.Status {
		case ToolCalling, ToolCompleted, ToolFailed:
		default:
			return errors.New("chat item tool: bad status")
		}
	case RoleNotice:
		if it.Text != "" || it.Name != "" || it.Status != "" {
			return errors.New("chat item notice: fields of another role")
		}
		switch it.Code {
		case CodeContextCompacted, CodeModelFailed, CodeReplyAborted:
		default:
			return errors.New("chat item notice: bad code")
		}
	default:
		return errors.New("chat item: bad role")
	}
	return nil
}

// MarshalJSON writes the fields of the item's role only, in the order id, role, then the role's fields.
// Strings are escaped as encoding/json escapes them (including <, >, &, U+2028 and U+2029), so
// json.Marshal of a value holding Items does not grow them further.
func (it Item) MarshalJSON() ([]byte, error) {
	if err := it.Validate(); err != nil {
		return nil, err
	}
	return appendItemJSON(make([]byte, 0, 48+len(it.ID)+len(it.Text)+len(it.Name)), &it), nil
}

// appendItemJSON appends the JSON object of a valid item.
func appendItemJSON(dst []byte, it *Item) []byte {
	dst = append(dst, `{"id":`...)
	dst = AppendJSONString(dst, it.ID)
	dst = append(dst, `,"role":"`...)
	dst = append(dst, it.Role...)
	switch it.Role {
	case RoleTool:
		dst = append(dst, `","name":`...)
		dst = AppendJSONString(dst, it.Name)
		dst = append(dst, `,"status":"`...)
		dst = append(dst, it.Status...)
		dst = append(dst, `"}`...)
	case RoleNotice:
		dst = append(dst, `","code":"`...)
		dst = append(dst, it.Code...)
		dst = append(dst, `"}`...)
	default:
		dst = append(dst, `","text":`...)
		dst = AppendJSONString(dst, it.Text)
		dst = append(dst, '}')
	}
	return dst
}

const hexDigits = "0123456789abcdef"

// jsonSafe[b] is true for the ASCII bytes written as they are: printable, not a quote, backslash or one
// of the HTML-sensitive <, > and &.
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' && b != 0x7f
	}
	t[0x7f] = true
	return t
}()

// AppendJSONString appends s as a JSON string. Invalid UTF-8 becomes \ufffd.
func AppendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if jsonSafe[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
