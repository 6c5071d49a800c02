package assets

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"unicode/utf8"
)

// piBridgeSource is the Pi bridge extension. It names the tele binary through the JavaScript string
// literal piBinaryPlaceholder and the tele_board tool through piToolPlaceholder, and imports the link
// (piLinkSource) through piLinkImport; bake replaces all three, so Pi loads one file.
//
//go:embed pi/tele.js
var piBridgeSource []byte

// piLinkSource is the link framing, a module of its own so node --test can load it (assets/jstest).
//
//go:embed pi/link.js
var piLinkSource []byte

const (
	piBinaryPlaceholder = `"__TELE_BINARY__"`
	piToolPlaceholder   = `__TELE_TOOL__`
	piLinkImport        = "import { MAX_FRAME, linkError, makeLink } from \"./link.js\";\n"
)

// piLinkExport is what makes a declaration of link.js an export; inlined, they are the bridge's own.
var piLinkExport = regexp.MustCompile(`(?m)^export `)

// Bridge returns assets/pi/tele.js with the absolute path of the tele binary baked in as a JSON (and
// therefore JavaScript) string literal, and piTool as a JSON (and therefore JavaScript) object literal.
func Bridge(teleBinary string) ([]byte, error) {
	if !filepath.IsAbs(teleBinary) {
		return nil, fmt.Errorf("bridge: the tele binary path %q is not absolute", teleBinary)
	}
	if !utf8.ValidString(teleBinary) {
		return nil, errors.New("bridge: the tele binary path is not valid UTF-8")
	}
	lit, err := json.Marshal(teleBinary) // escapes quotes, backslashes, controls, U+2028/U+2029
	if err != nil {
		return nil, err
	}
	return bake(lit)
}

// PiPackage is the npm name of the Pi package `make pi-package` builds (a placeholder until it is
// published). Its binaries ship in one package per platform, PiPackage-<platform>-<arch> in Node's names
// (linux, darwin, win32; x64, arm64), each holding bin/tele (bin/tele.exe on Windows), as optional
// dependencies: npm installs only the one for the user's machine, as it does for esbuild and biome.
const PiPackage = "tele-pi"

// piPackageBinary is the JavaScript expression that finds the platform package's binary from the
// bridge's own location, wherever npm put it (nested or hoisted). It never throws: when npm left the
// package out (an unsupported platform, --omit=optional) it is {missing: "<package>"}, the bridge still
// loads, and /tele runs a tele on PATH or says in one line what is missing.
const piPackageBinary = `(() => { const p = ` + "`" + PiPackage + `-${process.platform}-${process.arch}` + "`" + `; ` +
	`try { return process.getBuiltinModule("node:module").createRequire(import.meta.url).resolve(` +
	"`${p}/bin/tele${process.platform === \"win32\" ? \".exe\" : \"\"}`" + `); } catch { return { missing: p }; } })()`

// PackageBridge returns the bridge of the Pi package: the tele binary is the one of the platform package
// installed beside it, found when Pi loads the bridge, or a tele on PATH when that package is missing.
func PackageBridge() ([]byte, error) {
	return bake([]byte(piPackageBinary))
}

// bake puts binary (a JavaScript expression) and the tool into the embedded bridge.
func bake(binary []byte) ([]byte, error) {
	for _, p := range []string{piBinaryPlaceholder, piToolPlaceholder, piLinkImport} {
		if n := bytes.Count(piBridgeSource, []byte(p)); n != 1 {
			return nil, fmt.Errorf("bridge: the embedded bridge has %d placeholders %s, want 1", n, p)
		}
	}
	tool, err := json.Marshal(piTool)
	if err != nil {
		return nil, err
	}
	src := bytes.Replace(piBridgeSource, []byte(piBinaryPlaceholder), binary, 1)
	src = bytes.Replace(src, []byte(piLinkImport), piLinkExport.ReplaceAllLiteral(piLinkSource, nil), 1)
	return bytes.Replace(src, []byte(piToolPlaceholder), tool, 1), nil
}
