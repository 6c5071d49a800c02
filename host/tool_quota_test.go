package host

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tele/board/store"
)

// TestToolPutPastTheQuota: a model's put that would take the server past its quota of bytes is refused
// with quota_exceeded, in words the model can pass on, and writes nothing. Security review 2026-12-03
// L1: nothing bounded what a writer could make the server keep.
func TestToolPutPastTheQuota(t *testing.T) {
	fb := startHost(t, hostOpts{cfg: func(c *Config) { c.Quota = store.Quota{MaxBoards: 10, MaxBytes: 2500} }})
	fb.ready("songs")
	rev, content := getBoard(t, fb)
	content.Description = strings.Repeat("A long note. ", 150)
	cb, _ := json.Marshal(content)
	before, _ := os.ReadDir(filepath.Join(fb.dir, "boards", "songs"))
	res := fb.call("tool", fmt.Sprintf(`{"action":"put","expectedRevision":%d,"content":%s}`, rev, cb))
	var e struct {
		Err struct{ Code, Message string }
	}
	json.Unmarshal([]byte(res.line), &e)
	if e.Err.Code != "quota_exceeded" || !strings.Contains(e.Err.Message, "tell the musician") {
		t.Fatalf("put past the quota: %s", res.line)
	}
	if after, _ := os.ReadDir(filepath.Join(fb.dir, "boards", "songs")); len(after) != len(before) {
		t.Fatalf("a refused put wrote files: %d entries, before %d", len(after), len(before))
	}
}
