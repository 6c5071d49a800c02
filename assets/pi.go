package assets

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"unicode/utf8"
)

// piBridgeSource is the Pi bridge extension. It names the tele binary through the JavaScript string
// literal piBinaryPlaceholder and the tele_board tool through piToolPlaceholder, which Bridge replaces.
//
//go:embed pi/tele.js
var piBridgeSource []byte

const (
	piBinaryPlaceholder = `"__TELE_BINARY__"`
	piToolPlaceholder   = `__TELE_TOOL__`
)

// Bridge returns assets/pi/tele.js with the absolute path of the tele binary baked in as a JSON (and
// therefore JavaScript) string literal, and piTool as a JSON (and therefore JavaScript) object literal.
func Bridge(teleBinary string) ([]byte, error) {
	if !filepath.IsAbs(teleBinary) {
		return nil, fmt.Errorf("bridge: the tele binary path %q is not absolute", teleBinary)
	}
	if !utf8.ValidString(teleBinary) {
		return nil, errors.New("bridge: the tele binary path is not valid UTF-8")
	}
	for _, p := range []string{piBinaryPlaceholder, piToolPlaceholder} {
		if n := bytes.Count(piBridgeSource, []byte(p)); n != 1 {
			return nil, fmt.Errorf("bridge: the embedded bridge has %d placeholders %s, want 1", n, p)
		}
	}
	lit, err := json.Marshal(teleBinary) // escapes quotes, backslashes, controls, U+2028/U+2029
	if err != nil {
		return nil, err
	}
	tool, err := json.Marshal(piTool)
	if err != nil {
		return nil, err
	}
	src := bytes.Replace(piBridgeSource, []byte(piBinaryPlaceholder), lit, 1)
	return bytes.Replace(src, []byte(piToolPlaceholder), tool, 1), nil
}
