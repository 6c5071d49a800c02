package assets

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// A page loads its code as ES modules, each importing the next: without more, a browser with nothing
// cached learns of a module only once the one importing it has arrived, one round trip per level of the
// graph (the board page's is ten deep, about fifty files, behind a dynamic import). A page template
// names the modules it starts with in a preload placeholder,
//
//	{{PRELOAD app.js board-page.js}}
//
// and New writes in its place a <link rel="modulepreload"> for each of them and every module they
// import statically, so the browser asks for all of them while it parses the page. A warm cache answers
// them at once; the links cost nothing then.

// preloadRE matches a preload placeholder and its list of modules.
var preloadRE = regexp.MustCompile(`\{\{PRELOAD ([^}]*)\}\}`)

// staticImportRE matches a static import or re-export of a module of the same directory: import … from
// './x.js', export … from './x.js', import './x.js'. A dynamic import('./x.js') is not one: what it
// loads is loaded later, when the page asks (the chat panel, a page's other parts).
var staticImportRE = regexp.MustCompile(`(?m)^(?:import|export)\b[^;'"]*?(?:\bfrom\s*)?'\./([\w.-]+\.js)'`)

// expandPreloads replaces each preload placeholder of a page with the modulepreload links of its
// modules' static import closure, in a stable order (the listed modules first, then by name).
func (a *Assets) expandPreloads(page string) (string, error) {
	var failed error
	out := preloadRE.ReplaceAllStringFunc(page, func(m string) string {
		roots := strings.Fields(preloadRE.FindStringSubmatch(m)[1])
		mods, err := a.importClosure(roots)
		if err != nil {
			failed = err
			return ""
		}
		var b strings.Builder
		for i, name := range mods {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, `<link rel="modulepreload" href="%s/%s">`, assetsPlaceholder, name)
		}
		return b.String()
	})
	return out, failed
}

// importClosure lists roots and every module they import statically, directly or not.
func (a *Assets) importClosure(roots []string) ([]string, error) {
	seen := map[string]bool{}
	var rest []string
	queue := append([]string(nil), roots...)
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] {
			continue
		}
		f, ok := a.files[name]
		if !ok || !strings.HasSuffix(name, ".js") {
			return nil, fmt.Errorf("assets: preload of %q: no such module", name)
		}
		seen[name] = true
		if !contains(roots, name) {
			rest = append(rest, name)
		}
		for _, m := range staticImportRE.FindAllStringSubmatch(string(f.body), -1) {
			queue = append(queue, m[1])
		}
	}
	sort.Strings(rest)
	return append(append([]string(nil), roots...), rest...), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
