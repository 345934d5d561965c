package docs

// Two checks on the shape of the code under internal/ (issue 45): no
// function is over 80 lines, and within each package the files use each
// other in one direction. Run them alone, on all of internal/ or on one
// folder of it (CHECK_PATH); -v names every declaration each tie of a
// circle uses, not only the first:
//
//	go test ./docs/ -run 'TestFunctionLength|TestFilesOneWay'
//	CHECK_PATH=internal/workspace go test ./docs/ -run 'TestFunctionLength|TestFilesOneWay'

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxFunctionLines is the longest a function in internal/ may be, from its
// "func" line to its closing brace.
const maxFunctionLines = 80

// checkRoot is the folder the two checks look at, from the module's root:
// internal/ unless CHECK_PATH names another (internal/store, say).
func checkRoot(t *testing.T) string {
	t.Helper()
	root := "internal"
	if p := os.Getenv("CHECK_PATH"); p != "" {
		root = filepath.ToSlash(filepath.Clean(strings.TrimSuffix(p, "/")))
	}
	if _, err := os.Stat(filepath.Join("..", root)); err != nil {
		t.Fatalf("CHECK_PATH: %v", err)
	}
	return root
}

// packagesUnder lists the module's packages in root or inside it, by folder.
func packagesUnder(t *testing.T, root string) []goPackage {
	t.Helper()
	var pkgs []goPackage
	for folder, p := range modulePackages(t) {
		if folder == root || strings.HasPrefix(folder, root+"/") {
			pkgs = append(pkgs, p)
		}
	}
	slices.SortFunc(pkgs, func(a, b goPackage) int { return strings.Compare(a.folder, b.folder) })
	return pkgs
}

// funcName is a function's name as the allow-list writes it: "save", or
// "Handler.save" for a method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	for {
		switch x := typ.(type) {
		case *ast.StarExpr:
			typ = x.X
			continue
		case *ast.IndexExpr:
			typ = x.X
			continue
		case *ast.IndexListExpr:
			typ = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fn.Name.Name
		}
		return fn.Name.Name
	}
}

// No function in internal/ (tests aside) is over maxFunctionLines lines.
func TestFunctionLength(t *testing.T) {
	root := checkRoot(t)
	fset := token.NewFileSet()
	for _, p := range packagesUnder(t, root) {
		for _, file := range p.files {
			f, err := parser.ParseFile(fset, filepath.Join("..", file), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				start, end := fset.Position(fn.Pos()).Line, fset.Position(fn.End()).Line
				lines := end - start + 1
				if lines <= maxFunctionLines {
					continue
				}
				problem := fmt.Sprintf("%s:%d: %s is %d lines; split it into named steps of at most %d",
					file, start, funcName(fn), lines, maxFunctionLines)
				t.Error(problem)
			}
		}
	}
}

// exportData lists, for every package the module's packages under root
// import (theirs too, all the way down), the file of its compiled export
// data, which the type checker reads instead of the package's source.
func exportData(t *testing.T, root string) map[string]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-export", "-deps", "-json=ImportPath,Export", "./"+root+"/...")
	cmd.Dir = ".."
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v\n%s", err, stderr.String())
	}
	files := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct{ ImportPath, Export string }
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list's JSON: %v", err)
		}
		if p.Export != "" {
			files[p.ImportPath] = p.Export
		}
	}
	return files
}

// fileUse is one tie in a package's map of files: a file uses something
// declared in another, named by name.
type fileUse struct {
	from, to, name string
}

// fileUses maps which file of the package uses which: from → to → the
// first name (by order) of those declared in to that from uses, or with -v
// every such name. A use is of a package-level
// function, type, variable or constant, tied to the file that declares it.
// A method or a field counts, as the issue allows, as a use of its type:
// calling s.routes() uses the file that declares Server, wherever routes is.
func fileUses(t *testing.T, p goPackage, imp types.Importer) map[string]map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	for _, file := range p.files {
		f, err := parser.ParseFile(fset, filepath.Join("..", file), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: imp}
	pkg, err := conf.Check(p.folder, fset, files, info)
	if err != nil {
		t.Fatalf("type-checking %s: %v", p.folder, err)
	}
	// A field's struct is the type of the expression it is selected from.
	fieldOf := map[*ast.Ident]types.Type{}
	for sel, selection := range info.Selections {
		fieldOf[sel.Sel] = selection.Recv()
	}
	names := map[[2]string]map[string]bool{}
	for ident, obj := range info.Uses {
		decl, name := declarationOf(obj, pkg, fieldOf[ident])
		if decl == nil {
			continue
		}
		from := fset.Position(ident.Pos()).Filename
		to := fset.Position(decl.Pos()).Filename
		if from == to {
			continue
		}
		tie := [2]string{relPath(from), relPath(to)}
		if names[tie] == nil {
			names[tie] = map[string]bool{}
		}
		names[tie][name] = true
	}
	// The first name by order, so the report is the same each run; with -v,
	// every name, to see what would have to move.
	uses := map[string]map[string]string{}
	for tie, set := range names {
		sorted := slices.Sorted(maps.Keys(set))
		if !testing.Verbose() {
			sorted = sorted[:1]
		}
		if uses[tie[0]] == nil {
			uses[tie[0]] = map[string]string{}
		}
		uses[tie[0]][tie[1]] = strings.Join(sorted, ", ")
	}
	return uses
}

// declarationOf is the package-level declaration of pkg that a use of obj
// ties to, and the name to report; nil for anything else (local variables,
// other packages, built-ins). recv is the type a field or method is
// selected from, when it is selected.
func declarationOf(obj types.Object, pkg *types.Package, recv types.Type) (types.Object, string) {
	if obj.Pkg() != pkg || !obj.Pos().IsValid() {
		return nil, ""
	}
	if obj.Parent() == pkg.Scope() {
		return obj, obj.Name() // a package-level func, type, var or const
	}
	var owner types.Type
	switch o := obj.(type) {
	case *types.Func:
		if sig, ok := o.Type().(*types.Signature); ok && sig.Recv() != nil {
			owner = sig.Recv().Type()
		}
	case *types.Var:
		if o.IsField() {
			owner = recv
		}
	}
	if owner == nil {
		return nil, ""
	}
	if ptr, ok := owner.(*types.Pointer); ok {
		owner = ptr.Elem()
	}
	named, ok := owner.(*types.Named)
	if !ok || named.Obj().Pkg() != pkg || named.Obj().Parent() != pkg.Scope() {
		return nil, "" // a field of an unnamed struct, or of a type declared in a function
	}
	return named.Obj(), named.Obj().Name() + "." + obj.Name()
}

// relPath turns a file's path (../internal/store/x.go) into one from the
// module's root.
func relPath(file string) string {
	rel, err := filepath.Rel("..", file)
	if err != nil {
		return file
	}
	return filepath.ToSlash(rel)
}

// circles finds the files of the map that use each other, directly or
// through others: each strongly connected group of two files or more (by
// Tarjan's algorithm), given as every tie between the group's files.
func circles(uses map[string]map[string]string) [][]fileUse {
	var nodes []string
	for from, tos := range uses {
		nodes = append(nodes, from)
		for to := range tos {
			nodes = append(nodes, to)
		}
	}
	slices.Sort(nodes)
	nodes = slices.Compact(nodes)
	next := func(n string) []string {
		var out []string
		for to := range uses[n] {
			out = append(out, to)
		}
		slices.Sort(out)
		return out
	}

	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var groups [][]string
	var visit func(n string)
	visit = func(n string) {
		index[n] = len(index)
		low[n] = index[n]
		stack = append(stack, n)
		onStack[n] = true
		for _, m := range next(n) {
			if _, done := index[m]; !done {
				visit(m)
				low[n] = min(low[n], low[m])
			} else if onStack[m] {
				low[n] = min(low[n], index[m])
			}
		}
		if low[n] == index[n] {
			var group []string
			for {
				m := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[m] = false
				group = append(group, m)
				if m == n {
					break
				}
			}
			if len(group) > 1 {
				groups = append(groups, group)
			}
		}
	}
	for _, n := range nodes {
		if _, done := index[n]; !done {
			visit(n)
		}
	}

	var out [][]fileUse
	for _, group := range groups {
		slices.Sort(group)
		var ties []fileUse
		for _, from := range group {
			for _, to := range next(from) {
				if slices.Contains(group, to) {
					ties = append(ties, fileUse{from: from, to: to, name: uses[from][to]})
				}
			}
		}
		out = append(out, ties)
	}
	slices.SortFunc(out, func(a, b []fileUse) int { return strings.Compare(a[0].from, b[0].from) })
	return out
}

// Within each package under internal/ the files use each other in one
// direction: no file uses one that uses it back, directly or through others.
func TestFilesOneWay(t *testing.T) {
	root := checkRoot(t)
	exports := exportData(t, root)
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	for _, p := range packagesUnder(t, root) {
		folder := p.folder
		found := circles(fileUses(t, p, imp))
		if len(found) == 0 {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s: files use each other in a circle; move declarations so that each tie runs one way.", folder)
		for _, ties := range found {
			var files []string
			for _, tie := range ties {
				files = append(files, filepath.Base(tie.from))
			}
			files = slices.Compact(files)
			fmt.Fprintf(&b, "\n  circle of %d files (%s), its %d ties, each with what it uses (the first name; every name with -v):",
				len(files), strings.Join(files, ", "), len(ties))
			for _, tie := range ties {
				back := ""
				if slices.ContainsFunc(ties, func(u fileUse) bool { return u.from == tie.to && u.to == tie.from }) {
					back = "   <- both ways"
				}
				fmt.Fprintf(&b, "\n    %s uses %s (%s)%s", filepath.Base(tie.from), filepath.Base(tie.to), tie.name, back)
			}
		}
		t.Error(b.String())
	}
}

// The circle finder reports a circle through three files with every tie in
// it, and leaves out the files that are only used.
func TestCirclesFindsEveryTie(t *testing.T) {
	uses := map[string]map[string]string{
		"a.go": {"b.go": "B", "types.go": "T"},
		"b.go": {"c.go": "C", "types.go": "T"},
		"c.go": {"a.go": "A"},
		"d.go": {"a.go": "A"},
	}
	got := circles(uses)
	want := [][]fileUse{{{"a.go", "b.go", "B"}, {"b.go", "c.go", "C"}, {"c.go", "a.go", "A"}}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("circles = %v, want %v", got, want)
	}
	delete(uses, "c.go")
	if got := circles(uses); len(got) != 0 {
		t.Errorf("with the tie back gone, circles = %v, want none", got)
	}
}
