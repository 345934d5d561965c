package sitecontent

import (
	"encoding/json"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"studio/content"
	"studio/contracts/cases"
)

// The table of contracts/cases/content-paths.json, which web/scripts/content-paths.test.ts
// feeds to the build's rule too: both judge every case alike.
type pathCase struct {
	Kind    PathKind `json:"kind"`
	Path    string   `json:"path"`
	Refused *string  `json:"refused"`
}

func readPathCases(t *testing.T) []pathCase {
	t.Helper()
	b, err := cases.Files.ReadFile("content-paths.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct{ Cases []pathCase }
	if err := json.Unmarshal(b, &table); err != nil {
		t.Fatal(err)
	}
	return table.Cases
}

func TestThePathRuleJudgesTheSharedTable(t *testing.T) {
	for _, c := range readPathCases(t) {
		want := ""
		if c.Refused != nil {
			want = *c.Refused
		}
		key, problem := judgePath(c.Kind, c.Path)
		if key != want {
			t.Errorf("%s %q: refused for %q (%s), want %q", c.Kind, c.Path, key, problem, want)
		}
		if (problem == "") != (want == "") || strings.ContainsAny(problem, "\n\r") {
			t.Errorf("%s %q: the problem %q, want one line, and only for a refused path", c.Kind, c.Path, problem)
		}
		// The schema's pattern (the same) lets exactly the good ones through.
		if matched := pathRules.Kinds[c.Kind].pattern.MatchString(c.Path); matched != (want == "") {
			t.Errorf("%s %q: the pattern matches it: %v, want %v", c.Kind, c.Path, matched, want == "")
		}
	}
}

func TestTheTrialsPathIsRefusedInPlainWords(t *testing.T) {
	trial := "x/" + strings.Repeat("../", 20) + "tmp/secret/secret-plan.jpg"
	want := `"` + trial + `" has a . or .. folder in it: the path must stay inside content/images/, like products/chair.jpg`
	if got := PathProblem(ImagePath, trial); got != want {
		t.Errorf("PathProblem(the trial's hero) = %q, want %q", got, want)
	}
}

// Every path field of content/schema has its kind's pattern: a field
// added with a pattern of its own would let the schema and the rule part.
func TestEverySchemaPathPatternIsTheRules(t *testing.T) {
	patterns := map[string]PathKind{pathRules.Kinds[ImagePath].Pattern: ImagePath, pathRules.Kinds[DrawingPath].Pattern: DrawingPath}
	found := map[PathKind]int{}
	schemas, err := fs.Glob(content.Files, "schema/*.schema.json")
	if err != nil || len(schemas) == 0 {
		t.Fatalf("no schemas: %v", err)
	}
	for _, name := range schemas {
		b, _ := fs.ReadFile(content.Files, name)
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		walkStrings(doc, "", func(field, key, value string) {
			// A pattern that names picture files is a path's.
			if key != "pattern" || !strings.Contains(value, "svg") {
				return
			}
			kind, ok := patterns[value]
			if !ok {
				t.Errorf("%s: %s is %q, not a kind's pattern of contracts/content-paths.json", name, field, value)
			}
			found[kind]++
		})
	}
	// The products' and the hero's, and the drawings' (one definition).
	if found[ImagePath] < 2 || found[DrawingPath] < 1 {
		t.Errorf("path patterns found in the schemas: %v, want the products', the hero's and the drawings'", found)
	}
}

func TestPathProblemsNamesEachFileAndField(t *testing.T) {
	trial := "x/" + strings.Repeat("../", 20) + "tmp/secret/secret-plan.jpg"
	fsys := fstest.MapFS{
		"catalogue.json": {Data: []byte(`{"products": [
			{"id": 1, "name": "Chair", "images": [{"src": "products/chair.jpg"}, {"src": "/etc/passwd.jpg"}]},
			{"name": "Screen", "images": [{"src": "products\\screen.jpg"}]},
			{"id": 3, "images": "not a list"}
		]}`)},
		"pages.json": {Data: []byte(`{"home": {"hero": {"src": "` + trial + `"}, "craft": {"image": "/images/craft.svg"},
			"disciplines": [{"image": "/images/../../secret.svg"}]}, "about": {"title": 3}}`)},
	}
	got := PathProblems(fsys)
	want := []string{
		`content/catalogue.json: product 1 (Chair): images[1].src: "/etc/passwd.jpg" begins with a slash: write the path inside content/images/, like products/chair.jpg`,
		`content/catalogue.json: product #2 (Screen): images[0].src: "products\\screen.jpg" has a backslash (\) in it: folders are separated with /`,
		`content/pages.json: home.hero.src: "` + trial + `" has a . or .. folder in it: the path must stay inside content/images/, like products/chair.jpg`,
		`content/pages.json: home.disciplines[0].image: "/images/../../secret.svg" has a . or .. folder in it: the path must stay inside web/public/images/, like /images/craft.svg`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("PathProblems =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := PathProblems(fstest.MapFS{"pages.json": {Data: []byte("not JSON")}}); len(got) != 0 {
		t.Errorf("files missing or not JSON: %q, want nothing (other checks say so)", got)
	}
}

func TestTheShippedContentsPathsAreGood(t *testing.T) {
	if got := PathProblems(content.Files); len(got) != 0 {
		t.Errorf("the shipped content: %q", got)
	}
}

// A field is known as a path's kind by its schema's pattern, now or as an
// earlier schema (a content repository's) had it.
func TestKindOfPatternKnowsTheFormerPatterns(t *testing.T) {
	for _, kind := range []PathKind{ImagePath, DrawingPath} {
		if got, current := KindOfPattern(pathRules.Kinds[kind].Pattern); got != kind || !current {
			t.Errorf("KindOfPattern(%s's pattern) = %q, %v; want %q, true", kind, got, current, kind)
		}
		for _, former := range pathRules.Kinds[kind].Former {
			if got, current := KindOfPattern(former); got != kind || current {
				t.Errorf("KindOfPattern(a former pattern of %s) = %q, %v; want %q, false", kind, got, current, kind)
			}
		}
	}
	if len(pathRules.Kinds[DrawingPath].Former) == 0 {
		t.Error("the drawings' pattern before pictures could take their place is not known")
	}
	if got, _ := KindOfPattern(`\S`); got != "" {
		t.Errorf(`KindOfPattern(\S) = %q, want none`, got)
	}
}
