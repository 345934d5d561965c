package edit

import (
	"fmt"
	"slices"
	"strings"

	"studio/internal/contentform"
)

// The pages (pages.json) may link to a list of the products page, whose
// address is made of a tab's or a filter option's name
// (/products/tables, /products/material/wood: web/app/lib/filters.ts,
// listPath). A save of the catalogue that renames one tab, material or
// finish takes those links along, so that renaming a filter is not refused
// for a link it broke, a link that could not be changed first.

// listNames are the names a list's address is made of, by kind: the tabs
// in order (a category's own name unless it lists tabs), then the
// filters' options.
func listNames(catalogue *contentform.Value) map[string][]string {
	names := map[string][]string{}
	for _, c := range catalogue.Get("categories").List() {
		tabs := []string{c.Get("name").Text()}
		if listed := c.Get("tabs").List(); len(listed) > 0 {
			tabs = tabs[:0]
			for _, t := range listed {
				tabs = append(tabs, t.Text())
			}
		}
		for _, t := range tabs {
			if !slices.Contains(names["tab"], t) {
				names["tab"] = append(names["tab"], t)
			}
		}
	}
	for _, kind := range []string{"material", "finish"} {
		if filter := catalogue.Get("filters").Get(kind); filter != nil {
			names[kind] = slices.Clone(filter.Keys)
		}
	}
	return names
}

// renamed is the one name of before that after has under another name,
// when one went and one came (a move or an added option is no rename).
func renamed(before, after []string) (from, to string, ok bool) {
	var gone, came []string
	for _, n := range before {
		if !slices.Contains(after, n) {
			gone = append(gone, n)
		}
	}
	for _, n := range after {
		if !slices.Contains(before, n) {
			came = append(came, n)
		}
	}
	if len(gone) != 1 || len(came) != 1 || slugOf(gone[0]) == slugOf(came[0]) {
		return "", "", false
	}
	return gone[0], came[0], true
}

// relinkedPath is a list's address with the word of kind from renamed to
// to (its tab: the first word after /products that is not a filter's).
func relinkedPath(path, kind, from, to string) string {
	address, rest, _ := strings.Cut(path, "?")
	words := strings.Split(address, "/")
	if len(words) < 3 || words[0] != "" || words[1] != "products" {
		return path
	}
	for i := 2; i < len(words); i++ {
		tab := i == 2 && !slices.Contains([]string{"material", "finish", "page"}, words[i])
		option := i > 2 && words[i-1] == kind
		if words[i] == slugOf(from) && ((kind == "tab" && tab) || option) {
			words[i] = slugOf(to)
		}
	}
	if rest != "" {
		return strings.Join(words, "/") + "?" + rest
	}
	return strings.Join(words, "/")
}

// followRenames rewrites, in pages, every link to a list whose tab or
// option the catalogue's save renamed; whether it changed any.
func followRenames(before, after, pages *contentform.Value) bool {
	was, is := listNames(before), listNames(after)
	changed := false
	for _, kind := range []string{"tab", "material", "finish"} {
		from, to, ok := renamed(was[kind], is[kind])
		if !ok {
			continue
		}
		walkStrings(pages, func(v *contentform.Value) {
			if strings.HasPrefix(v.String, "/products/") {
				if next := relinkedPath(v.String, kind, from, to); next != v.String {
					v.String, changed = next, true
				}
			}
		})
	}
	return changed
}

// walkStrings calls see with every string of v.
func walkStrings(v *contentform.Value, see func(*contentform.Value)) {
	switch v.Kind {
	case contentform.String:
		see(v)
	case contentform.Array:
		for _, item := range v.Items {
			walkStrings(item, see)
		}
	case contentform.Object:
		for _, key := range v.Keys {
			walkStrings(v.Fields[key], see)
		}
	}
}

// relinkPages adds to files the pages of version with their links to the
// lists the catalogue saved renamed, when it renamed any.
func (e *Editor) relinkPages(version string, saved *contentform.Value, files map[string][]byte) error {
	read := func(name string) (*contentform.Value, error) {
		raw, err := e.Content.ReadFile(version, name)
		if err != nil {
			return nil, err
		}
		doc, err := contentform.Parse(raw)
		if err != nil {
			return nil, fmt.Errorf("content/%s is not JSON: %w", name, err)
		}
		return doc, nil
	}
	before, err := read("catalogue.json")
	if err != nil {
		return err
	}
	pages, err := read("pages.json")
	if missing(err) {
		return nil // a content with no pages has no links to follow
	}
	if err != nil {
		return err
	}
	if followRenames(before, saved, pages) {
		files["pages.json"] = pages.Encode()
	}
	return nil
}
