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

// piBridgeSource is the Pi bridge extension (SPEC 10). It names the tele binary through the JavaScript
// string literal piBinaryPlaceholder, which Bridge replaces.
//
//go:embed pi/tele.js
var piBridgeSource []byte

const piBinaryPlaceholder = `"__TELE_BINARY__"`

// Bridge returns assets/pi/tele.js with the absolute path of the tele binary baked in as a JSON (and
// therefore JavaScript) string literal.
func Bridge(teleBinary string) ([]byte, error) {
	if !filepath.IsAbs(teleBinary) {
		return nil, fmt.Errorf("bridge: the tele binary path %q is not absolute", teleBinary)
	}
	if !utf8.ValidString(teleBinary) {
		return nil, errors.New("bridge: the tele binary path is not valid UTF-8")
	}
	if n := bytes.Count(piBridgeSource, []byte(piBinaryPlaceholder)); n != 1 {
		return nil, fmt.Errorf("bridge: the embedded bridge has %d binary placeholders, want 1", n)
	}
	lit, err := json.Marshal(teleBinary) // escapes quotes, backslashes, controls, U+2028/U+2029
	if err != nil {
		return nil, err
	}
	return bytes.Replace(piBridgeSource, []byte(piBinaryPlaceholder), lit, 1), nil
}
