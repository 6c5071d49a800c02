package assets

import (
	"io/fs"
	"os/exec"
	"strings"
	"testing"

	"tele/tooltest"
)

// TestScriptsParse checks that every module the pages load parses (node --check), so a syntax error in
// a module no unit test imports fails here and not only in a browser. Without node it skips loudly, and
// fails when TELE_E2E_REQUIRED=1.
func TestScriptsParse(t *testing.T) {
	node := tooltest.Path(t, "node", "checking the modules' syntax needs it")
	err := fs.WalkDir(webFS, "web/static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		// assets/package.json says "type": "module", so node reads these as ES modules.
		if out, err := exec.Command(node, "--check", p).CombinedOutput(); err != nil {
			t.Errorf("%s does not parse: %v\n%s", p, err, out)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
