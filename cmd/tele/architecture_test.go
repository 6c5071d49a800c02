package main

import (
	"go/parser"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestArchitectureGraph: the package graph of docs/architecture.md is the code's. For every package of
// the module, the packages of ours that its non-test files import (for any OS: build tags are not
// applied) are exactly the ones the graph lists, and the graph lists no package that does not exist.
func TestArchitectureGraph(t *testing.T) {
	const root = "../.."
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := docGraph(t, string(doc))
	got := codeGraph(t, root)
	for _, pkg := range slices.Sorted(maps.Keys(got)) {
		w, listed := want[pkg]
		switch {
		case !listed:
			t.Errorf("package %s (imports %v) is missing from the graph", pkg, got[pkg])
		case !slices.Equal(w, got[pkg]):
			t.Errorf("%s imports %v; the graph says %v", pkg, got[pkg], w)
		}
	}
	for pkg := range want {
		if _, ok := got[pkg]; !ok {
			t.Errorf("the graph lists %s, which is not a package of the module", pkg)
		}
	}
}

// docGraph reads the graph block under "## Package graph": lines `a, b ─► c, d` or
// `a ─► nothing of ours…`. It returns the sorted imports of each package.
func docGraph(t *testing.T, doc string) map[string][]string {
	t.Helper()
	_, section, ok := strings.Cut(doc, "## Package graph")
	if !ok {
		t.Fatal("no Package graph section")
	}
	parts := strings.SplitN(section, "```", 3)
	if len(parts) < 3 {
		t.Fatal("no graph block in the Package graph section")
	}
	graph := map[string][]string{}
	for line := range strings.Lines(strings.TrimSpace(parts[1])) {
		from, to, ok := strings.Cut(line, "─►")
		if !ok {
			t.Fatalf("graph line without an arrow: %q", line)
		}
		var imports []string
		if to = strings.TrimSpace(to); !strings.HasPrefix(to, "nothing of ours") {
			for p := range strings.SplitSeq(to, ",") {
				imports = append(imports, strings.TrimSpace(p))
			}
		}
		slices.Sort(imports)
		for p := range strings.SplitSeq(from, ",") {
			p = strings.TrimSpace(p)
			if _, dup := graph[p]; dup {
				t.Fatalf("the graph lists %s twice", p)
			}
			graph[p] = imports
		}
	}
	return graph
}

// codeGraph returns, for each directory of the module that holds non-test Go files, the sorted
// packages of the module they import (paths relative to the module).
func codeGraph(t *testing.T, root string) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		imports := graph[pkg]
		for _, spec := range f.Imports {
			p, _ := strconv.Unquote(spec.Path.Value)
			if ours, ok := strings.CutPrefix(p, "tele/"); ok && !slices.Contains(imports, ours) {
				imports = append(imports, ours)
			}
		}
		slices.Sort(imports)
		graph[pkg] = imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return graph
}

// TestModelIsPure: the content model and the chord and format packages built on it pull in none of
// the store, the HTTP edge, the streams, the guard, the router or the system calls (issue 27): a
// reader of a ChordPro file builds without any of them. And the model itself does no I/O: package
// board imports no file, network or process package of the standard library.
func TestModelIsPure(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "tele/chord", "tele/board", "tele/chordpro", "tele/chordtext", "tele/ireal").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for dep := range strings.Lines(string(out)) {
		dep = strings.TrimSpace(dep)
		for _, banned := range []string{"tele/board/store", "tele/board/boardhttp", "tele/sse", "tele/web", "tele/server",
			"github.com/julienschmidt/httprouter", "golang.org/x/sys"} {
			if dep == banned || strings.HasPrefix(dep, banned+"/") {
				t.Errorf("the model's packages depend on %s", dep)
			}
		}
	}
	out, err = exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, "tele/board").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for imp := range strings.Lines(string(out)) {
		imp = strings.TrimSpace(imp)
		for _, io := range []string{"os", "io", "net", "path", "syscall", "log", "time", "runtime"} {
			if imp == io || strings.HasPrefix(imp, io+"/") {
				t.Errorf("package board imports %s", imp)
			}
		}
	}
}
