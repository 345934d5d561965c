// Package docs holds the README's detail, one file a subject. Its test
// keeps the map true: ARCHITECTURE.md's package table, its rows of which
// package imports which and its table of the files that register routes
// are checked against the code, and the README's links against docs/.
package docs

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// goPackage is a package of the module as `go list` sees it, named by its
// folder from the module's root ("internal/store", "web").
type goPackage struct {
	folder  string
	imports []string // the module's packages its code (not its tests) imports, by folder
	files   []string // its Go files, tests left out, by path from the root
}

// modulePackages lists the module's packages (`go list ./...`), leaving out
// what npm installed under web/node_modules.
func modulePackages(t *testing.T) map[string]goPackage {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-json=Dir,ImportPath,Imports,GoFiles,Module", "./...")
	cmd.Dir = ".."
	cmd.Stderr = io.Discard // -e: a package that does not build is still listed (web/ without its build)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	type listedPackage struct {
		Dir, ImportPath string
		Imports         []string
		GoFiles         []string
		Module          *struct{ Path, Dir string }
	}
	var listed []listedPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list's JSON: %v", err)
		}
		listed = append(listed, p)
	}
	pkgs := map[string]goPackage{}
	for _, p := range listed {
		if p.Module == nil {
			t.Fatalf("go list: %s is in no module", p.ImportPath)
		}
		folder, err := filepath.Rel(p.Module.Dir, p.Dir)
		if err != nil {
			t.Fatal(err)
		}
		folder = filepath.ToSlash(folder)
		if slices.Contains(strings.Split(folder, "/"), "node_modules") {
			continue
		}
		pkg := goPackage{folder: folder}
		for _, imp := range p.Imports {
			if inModule, ok := strings.CutPrefix(imp, p.Module.Path+"/"); ok {
				pkg.imports = append(pkg.imports, inModule)
			}
		}
		for _, f := range p.GoFiles {
			pkg.files = append(pkg.files, folder+"/"+f)
		}
		pkgs[folder] = pkg
	}
	if len(pkgs) == 0 {
		t.Fatal("go list ./... listed no package")
	}
	return pkgs
}

func readDoc(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(b), "\n")
}

var backticked = regexp.MustCompile("^`([^`]+)`$")

// tableColumn is the first column of the table whose header row is header:
// each cell one path in backticks, its trailing "/" dropped.
func tableColumn(t *testing.T, lines []string, header string) []string {
	t.Helper()
	start := slices.Index(lines, header)
	if start < 0 {
		t.Fatalf("ARCHITECTURE.md has no table headed %q", header)
	}
	var column []string
	for _, line := range lines[start+2:] { // after the header and its | --- | row
		if !strings.HasPrefix(line, "|") {
			break
		}
		cell := strings.TrimSpace(strings.Split(line, "|")[1])
		m := backticked.FindStringSubmatch(cell)
		if m == nil {
			t.Errorf("ARCHITECTURE.md, table %q: the first cell %q is not one path in backticks", header, cell)
			continue
		}
		column = append(column, strings.TrimSuffix(m[1], "/"))
	}
	return column
}

// sameSets reports what is in one list and not the other, both ways.
func sameSets(t *testing.T, what string, doc, code []string, inDocOnly, inCodeOnly string) {
	t.Helper()
	for _, d := range doc {
		if !slices.Contains(code, d) {
			t.Errorf("%s: %s %s", what, d, inDocOnly)
		}
	}
	for _, c := range code {
		if !slices.Contains(doc, c) {
			t.Errorf("%s: %s %s", what, c, inCodeOnly)
		}
	}
}

// Every package ARCHITECTURE.md's table names exists, and every package of
// the module is in it.
func TestPackageTableIsEveryPackage(t *testing.T) {
	pkgs := modulePackages(t)
	var code []string
	for folder := range pkgs {
		code = append(code, folder)
	}
	doc := tableColumn(t, readDoc(t, "ARCHITECTURE.md"), "| package | what it owns |")
	sameSets(t, "ARCHITECTURE.md's package table", doc, code,
		"is listed but is no package of `go list ./...`", "is a package of `go list ./...` but not in the table")
}

// The rows of which package imports which hold: each package imports only
// packages of the rows below its own.
func TestImportsGoDownTheRows(t *testing.T) {
	pkgs := modulePackages(t)
	lines := readDoc(t, "ARCHITECTURE.md")
	start := slices.IndexFunc(lines, func(l string) bool {
		return strings.HasPrefix(l, "Go packages import only from the rows below their own")
	})
	if start < 0 || start+3 >= len(lines) {
		t.Fatal(`ARCHITECTURE.md has no "Go packages import only from the rows below their own" with its rows`)
	}
	open := slices.IndexFunc(lines[start:], func(l string) bool { return strings.HasPrefix(l, "```") })
	if open < 0 {
		t.Fatal("ARCHITECTURE.md: the import rows are not in a ``` block")
	}
	row := map[string]int{}
	for i, line := range lines[start+open+1:] {
		if strings.HasPrefix(line, "```") {
			break
		}
		for _, folder := range strings.Fields(line) {
			if _, ok := pkgs[folder]; !ok {
				t.Errorf("ARCHITECTURE.md's import rows name %s, which is no package of `go list ./...`", folder)
			}
			row[folder] = i
		}
	}
	for _, p := range pkgs {
		for _, imp := range p.imports {
			from, fromListed := row[p.folder]
			to, toListed := row[imp]
			switch {
			case !fromListed:
				t.Errorf("%s imports %s but is in none of ARCHITECTURE.md's import rows", p.folder, imp)
			case !toListed:
				t.Errorf("%s is imported by %s but is in none of ARCHITECTURE.md's import rows", imp, p.folder)
			case to <= from:
				t.Errorf("%s imports %s, which ARCHITECTURE.md's import rows put at or above it", p.folder, imp)
			}
		}
	}
}

// registersRoutes finds a route registered on a ServeMux: mux.HandleFunc("…
var registersRoutes = regexp.MustCompile(`\.(Handle|HandleFunc)\("`)

// The table of the files that register routes is every such file.
func TestRouteFilesAreListed(t *testing.T) {
	var code []string
	for _, p := range modulePackages(t) {
		for _, file := range p.files {
			b, err := os.ReadFile(filepath.Join("..", file))
			if err != nil {
				t.Fatal(err)
			}
			if registersRoutes.Match(b) {
				code = append(code, file)
			}
		}
	}
	doc := tableColumn(t, readDoc(t, "ARCHITECTURE.md"), "| file | its routes |")
	sameSets(t, "ARCHITECTURE.md's table of the files that register routes", doc, code,
		"is listed but registers no route", "registers routes but is not in the table")
}

// A relative Markdown link: [text](target), target not a URL.
var relativeLink = regexp.MustCompile(`\]\(([^)#\s:]+)(#[^)\s]*)?\)`)

// The README stays a newcomer's first page: at most 300 lines, the team's
// sections in their order, every file of docs/ linked from it, and every
// relative link of the README, ARCHITECTURE.md and docs/ leading to a file
// that exists.
func TestReadmeLeadsToTheDocs(t *testing.T) {
	readme := readDoc(t, "README.md")
	if len(readme) > 300 {
		t.Errorf("README.md has %d lines; keep it within 300 and move the detail to docs/", len(readme))
	}
	last := -1
	for _, heading := range []string{"## The two commands", "## Configuration", "## Editing the site",
		"## Running it in production", "## Layout", "## Speed, budgets and benchmarks"} {
		at := slices.Index(readme, heading)
		if at < 0 {
			t.Errorf("README.md has no %q", heading)
			continue
		}
		if at < last {
			t.Errorf("README.md: %q comes before the section above it in the team's order", heading)
		}
		last = at
	}
	docs, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(readme, "\n")
	for _, doc := range docs {
		if !strings.Contains(text, "(docs/"+doc+")") && !strings.Contains(text, "(docs/"+doc+"#") {
			t.Errorf("README.md does not link to docs/%s", doc)
		}
	}
	for _, name := range append([]string{"README.md", "ARCHITECTURE.md"}, prefixed("docs/", docs)...) {
		for _, m := range relativeLink.FindAllStringSubmatch(strings.Join(readDoc(t, name), "\n"), -1) {
			target := filepath.Join("..", filepath.Dir(name), m[1])
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s links to %s, which is not there", name, m[1])
			}
		}
	}
}

func prefixed(prefix string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}
