package assets

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestEveryScriptIsTypeChecked: every module of the page and the bridge says // @ts-check on its first
// line, so an editor checks it as `make lint` does (tsc's checkJs), whichever tsconfig it finds.
func TestEveryScriptIsTypeChecked(t *testing.T) {
	files, err := filepath.Glob("web/static/*.js")
	if err != nil {
		t.Fatal(err)
	}
	bridge, err := filepath.Glob("pi/*.js")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, bridge...)
	if len(files) < 10 {
		t.Fatalf("found %d scripts", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(src, []byte("// @ts-check\n")) {
			t.Errorf("%s does not begin with // @ts-check", f)
		}
	}
}
