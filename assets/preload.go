package assets

import (
	"fmt"
	"regexp"
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
// './x.js', export … from './x.js', import './x.js': the module's name follows `from`, or `import` at
// once. A dynamic import('./x.js') is not one, even at the start of a line, nor is a JSDoc type
// {import('./x.js').T}, even in an exported line: what a dynamic import loads is loaded
// later, when the page asks (the chat panel, the board page's parts after its first drawing), and a
// type is no code at all.
var staticImportRE = regexp.MustCompile(`(?m)^(?:import\s*(?:[^\s(;'"][^;'"]*?\bfrom\s*)?|export\b[^;'"]*?\bfrom\s*)'\./([\w.-]+\.js)'`)

// expandPreloads replaces each preload placeholder of a page with the modulepreload links of its
// modules' static import closure, breadth first: the listed modules, then what they import, then what
// those import. A browser asks for the links in their order, over a few connections at a time, so the
// modules it must evaluate first are the ones it gets first.
//
// A page may hold several placeholders (the board page preloads what its first view needs apart from
// what its script needs, first-view.js): a module a placeholder before names is not named again.
func (a *Assets) expandPreloads(page string) (string, error) {
	var failed error
	named := map[string]bool{}
	out := preloadRE.ReplaceAllStringFunc(page, func(m string) string {
		roots := strings.Fields(preloadRE.FindStringSubmatch(m)[1])
		mods, err := a.importClosure(roots)
		if err != nil {
			failed = err
			return ""
		}
		var b strings.Builder
		for _, name := range mods {
			if named[name] {
				continue
			}
			named[name] = true
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, `<link rel="modulepreload" href="%s/%s">`, assetsPlaceholder, name)
		}
		return b.String()
	})
	return out, failed
}

// importClosure lists roots and every module they import statically, directly or not, breadth first
// (each level in the order of the imports that name it).
func (a *Assets) importClosure(roots []string) ([]string, error) {
	seen := map[string]bool{}
	var order []string
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
		order = append(order, name)
		for _, m := range staticImportRE.FindAllStringSubmatch(string(f.body), -1) {
			queue = append(queue, m[1])
		}
	}
	return order, nil
}
