package assets

import (
	"os/exec"
	"testing"

	"tele/tooltest"
)

// TestJavaScriptLogic runs the unit tests of the page's pure modules (content.js: ops, replay, diff;
// chords.js: parsing, spellings, suggestions and voicing, against board/testdata) with node's test runner. Without node it skips loudly, and fails
// when TELE_E2E_REQUIRED=1 (CI installs node for the Pi probes).
func TestJavaScriptLogic(t *testing.T) {
	node := tooltest.Path(t, "node", "the JavaScript unit tests need it")
	out, err := exec.Command(node, "--test", "jstest/").CombinedOutput()
	if err != nil {
		t.Fatalf("node --test jstest/: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
