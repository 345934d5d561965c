package sitecontent

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"studio/contracts"
)

// contracts/content-paths.json is the one rule for every path the content
// names: the server's check (here) and the build's
// (web/scripts/content-paths.mjs, run by the content check and the image
// pipeline) read it, and contracts/cases/content-paths.json is the table
// of cases both are tested on. A path that left its folder once had the
// build read a file outside the content and write its resized copies
// beside it.
var pathsJSON = contracts.ContentPaths

// A PathKind is what a path of the content names, and so the folder it
// must stay inside.
type PathKind string

const (
	// ImagePath is an original picture in content/images/, named as
	// "products/chair.jpg": a product's photographs, the home page's hero.
	ImagePath PathKind = "image"
	// DrawingPath is a file of web/public/images/, named as
	// "/images/craft.svg": the pages' drawings; or, without that prefix,
	// a picture of content/images/ uploaded in its place (judged as an
	// ImagePath, and never an SVG).
	DrawingPath PathKind = "drawing"
)

type pathKind struct {
	Folder, Prefix, What, Like, Pattern string
	// Otherwise is the kind a relative path (not beginning with /) is
	// judged as first (a drawing that is a picture of the content's own);
	// "" for none.
	Otherwise PathKind
	// Former are the patterns the kind had in earlier schemas, which a
	// content repository made before keeps.
	Former  []string
	pattern *regexp.Regexp
}

type pathRefusal struct {
	Key, Match, Message string
	match               *regexp.Regexp
}

var pathRules = mustPathRules(pathsJSON)

type pathRuleSet struct {
	Kinds    map[PathKind]*pathKind `json:"kinds"`
	Refusals []*pathRefusal         `json:"refusals"`
	NotKind  string                 `json:"notKind"`
}

func mustPathRules(b []byte) pathRuleSet {
	var r pathRuleSet
	if err := json.Unmarshal(b, &r); err != nil {
		panic("sitecontent: contracts/content-paths.json: " + err.Error())
	}
	for _, kind := range []PathKind{ImagePath, DrawingPath} {
		k := r.Kinds[kind]
		if k == nil {
			panic(fmt.Sprintf("sitecontent: contracts/content-paths.json: the kind %q is missing", kind))
		}
		k.pattern = regexp.MustCompile(k.Pattern)
	}
	for _, refusal := range r.Refusals {
		refusal.match = regexp.MustCompile(refusal.Match)
	}
	return r
}

// KindOfPattern is the kind whose pattern is pattern (a schema's field's),
// "" for none, and whether it is the kind's pattern now (not one of its
// Former): how the workspace's forms know a picture's field
// (content-paths.mjs's kindOfPattern, for the build's check).
func KindOfPattern(pattern string) (kind PathKind, current bool) {
	for name, k := range pathRules.Kinds {
		if k.Pattern == pattern {
			return name, true
		}
		if slices.Contains(k.Former, pattern) {
			return name, false
		}
	}
	return "", false
}

// PathProblem says what is wrong with p as a path of kind ("" when
// nothing is): the path quoted, then why, as "\"../x.jpg\" has a . or ..
// folder in it: …". The quoting shows a control character as an escape,
// so a problem is always one line.
func PathProblem(kind PathKind, p string) string {
	_, problem := judgePath(kind, p)
	return problem
}

// judgePath is PathProblem with the key of the reason (content-paths.json's
// refusals, or "notKind"), which the shared table names.
func judgePath(kind PathKind, p string) (key, problem string) {
	k := pathRules.Kinds[kind]
	say := func(key, message string) (string, string) {
		fill := strings.NewReplacer("{folder}", k.Folder, "{like}", k.Like, "{what}", k.What)
		return key, strconv.Quote(p) + " " + fill.Replace(message)
	}
	if k.Otherwise != "" && !strings.HasPrefix(p, "/") {
		if key, problem := judgePath(k.Otherwise, p); problem != "" {
			return key, problem
		}
	} else if rest, ok := strings.CutPrefix(p, k.Prefix); ok {
		for _, r := range pathRules.Refusals {
			if r.match.MatchString(rest) {
				return say(r.Key, r.Message)
			}
		}
	}
	if !k.pattern.MatchString(p) {
		return say("notKind", pathRules.NotKind)
	}
	return "", ""
}

// PathProblems is the content check's lines ("file: field: problem") of
// every path of the content in fsys that breaks the rule: each product's
// photographs (catalogue.json), the home page's hero and the drawings
// (pages.json). A file that is missing, not JSON, or of the wrong shape is
// left to the checks that say so.
func PathProblems(fsys fs.FS) []string {
	var problems []string
	var catalogue struct {
		Products []map[string]json.RawMessage `json:"products"`
	}
	if readLoose(fsys, "catalogue.json", &catalogue) {
		for i, p := range catalogue.Products {
			var images []struct {
				Src any `json:"src"`
			}
			json.Unmarshal(p["images"], &images)
			for j, image := range images {
				if src, ok := image.Src.(string); ok {
					if problem := PathProblem(ImagePath, src); problem != "" {
						problems = append(problems, fmt.Sprintf("content/catalogue.json: %s: images[%d].src: %s", productWhere(p, i), j, problem))
					}
				}
			}
		}
	}
	var pages any
	if readLoose(fsys, "pages.json", &pages) {
		root, _ := pages.(map[string]any)
		home, _ := root["home"].(map[string]any)
		hero, _ := home["hero"].(map[string]any)
		if src, ok := hero["src"].(string); ok {
			if problem := PathProblem(ImagePath, src); problem != "" {
				problems = append(problems, "content/pages.json: home.hero.src: "+problem)
			}
		}
		walkStrings(pages, "", func(field, key, value string) {
			if key == "image" {
				if problem := PathProblem(DrawingPath, value); problem != "" {
					problems = append(problems, "content/pages.json: "+field+": "+problem)
				}
			}
		})
	}
	return problems
}

// readLoose decodes file of fsys into v, saying whether it could.
func readLoose(fsys fs.FS, file string, v any) bool {
	b, err := fs.ReadFile(fsys, file)
	return err == nil && json.Unmarshal(b, v) == nil
}

// productWhere names a product as the content check does: "product 3
// (Chair)", or by its place when it has no id.
func productWhere(p map[string]json.RawMessage, i int) string {
	var id json.Number
	var name string
	where := "#" + strconv.Itoa(i+1)
	if json.Unmarshal(p["id"], &id) == nil && id != "" {
		where = id.String()
	}
	if json.Unmarshal(p["name"], &name) != nil {
		name = "no name"
	}
	return fmt.Sprintf("product %s (%s)", where, name)
}

// walkStrings calls fn with every text of a JSON value, where it is as
// the content check says it ("home.disciplines[0].image") and its key;
// the keys of an object in order, so the lines come in one order.
func walkStrings(node any, field string, fn func(field, key, value string)) {
	switch v := node.(type) {
	case []any:
		for i, item := range v {
			walkStrings(item, fmt.Sprintf("%s[%d]", field, i), fn)
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			inner := k
			if field != "" {
				inner = field + "." + k
			}
			if s, ok := v[k].(string); ok {
				fn(inner, k, s)
			} else {
				walkStrings(v[k], inner, fn)
			}
		}
	}
}
