package sitecontent

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"

	"studio/contracts"
)

// contracts/content-references.json is the one rule for the fields of the
// content that name another part of their file (a featured piece by its
// product's id, the WhatsApp phone by its label): each must name one that
// is there. The build's content check reads the same file
// (web/scripts/content-references.mjs), and
// contracts/cases/content-references.json is the table of cases both are
// tested on, so the server and the build refuse the same content.

// A Reference is one such field: the field At of File (a JSON pointer; one
// value or a list of them) names the entries of the list Names by their
// field Key.
type Reference struct {
	File    string `json:"file"`
	At      string `json:"at"`
	Names   string `json:"names"`
	Key     string `json:"key"`
	Problem string `json:"problem"` // {value}: the value that names none; {keys}: the keys there are
}

// References are the fields of the content that name another part of it.
var References = mustReferences(contracts.ContentReferences)

func mustReferences(b []byte) []Reference {
	var list struct {
		References []Reference `json:"references"`
	}
	if err := json.Unmarshal(b, &list); err != nil {
		panic("sitecontent: contracts/content-references.json: " + err.Error())
	}
	for i, r := range list.References {
		if r.File == "" || r.Key == "" || r.Problem == "" || !strings.HasPrefix(r.At, "/") || !strings.HasPrefix(r.Names, "/") {
			panic(fmt.Sprintf("sitecontent: contracts/content-references.json: reference %d needs a file, a key, a problem, and at and names as JSON pointers", i+1))
		}
	}
	return list.References
}

// ReferenceProblems are the problems of the content file named file
// ("site.json"), whose bytes are doc: for each value of a reference's
// field that names none of its list's entries, the reference's problem.
func ReferenceProblems(file string, doc []byte) ([]string, error) {
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return nil, fmt.Errorf("content: parse %s: %w", file, err)
	}
	var problems []string
	for _, r := range References {
		if r.File != file {
			continue
		}
		named, ok := pointerValue(v, r.At)
		if !ok {
			continue // a field that is not there names nothing
		}
		values, isList := named.([]any)
		if !isList {
			values = []any{named}
		}
		entries, _ := pointerValue(v, r.Names)
		list, _ := entries.([]any)
		keys := map[string]bool{}
		var keyTexts []string
		for _, e := range list {
			if key, ok := e.(map[string]any)[r.Key]; ok {
				keys[jsonText(key)] = true
				keyTexts = append(keyTexts, valueText(key))
			}
		}
		for _, value := range values {
			if !keys[jsonText(value)] {
				problems = append(problems, strings.NewReplacer("{value}", valueText(value), "{keys}", strings.Join(keyTexts, ", ")).Replace(r.Problem))
			}
		}
	}
	return problems, nil
}

// referencesHold is ReferenceProblems of the files of fsys as Load's
// error: every problem, each with its file.
func referencesHold(fsys fs.FS, files ...string) error {
	var errs []error
	for _, file := range files {
		doc, err := fs.ReadFile(fsys, file)
		if err != nil {
			return fmt.Errorf("content: read %s: %w", file, err)
		}
		problems, err := ReferenceProblems(file, doc)
		if err != nil {
			return err
		}
		for _, p := range problems {
			errs = append(errs, fmt.Errorf("content: %s: %s", file, p))
		}
	}
	return errors.Join(errs...)
}

// pointerValue is the value at the JSON pointer p in v, if there is one.
func pointerValue(v any, p string) (any, bool) {
	for _, token := range strings.Split(p, "/")[1:] {
		token = strings.NewReplacer("~1", "/", "~0", "~").Replace(token)
		switch node := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = node[token]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(token)
			if err != nil || i < 0 || i >= len(node) {
				return nil, false
			}
			v = node[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// jsonText is a value as JSON, by which values are compared exactly: 9 is
// not "9".
func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// valueText is a value as a problem names it: a text as it is, anything
// else as JSON.
func valueText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return jsonText(v)
}
