package editor

import (
	"regexp"
	"slices"
	"strings"

	"studio/internal/contentform"
	published "studio/internal/publish/releases"
	"studio/internal/workspace/edit"
	"studio/internal/workspace/releases"
)

// The publish the Content page follows: where it has come to, and what
// stopped it, each problem linked to the field of the forms it names.

// publishing is the publish the Content page follows to live.
type publishing struct {
	Title string // what it publishes: its release's message, or "" before its release is made
	releases.Progress
	Problems []releases.Problem // what stopped it
}

// follow is where the publish of commit has come to; a commit whose
// release is not made yet is about to be checked.
func (h *Handler) follow(commit string) (*publishing, error) {
	list, err := h.opts.Releases.List()
	if err != nil {
		return nil, err
	}
	live := h.opts.Releases.Live()
	rel, ok := releaseOf(list, commit, live)
	if !ok {
		return &publishing{Progress: releases.Progress{Words: releases.StageWords(""), UnderWay: true}}, nil
	}
	p := &publishing{Title: rel.Subject(), Progress: releases.ProgressOf(rel, list, live)}
	if p.Failed {
		p.Problems = h.problemsOf(rel)
	}
	return p, nil
}

// releaseOf is the release of commit a publish follows, of list (newest
// first): a commit may be built twice (its publish, and the server seeing
// main move), so the one live, else the oldest under way, else the newest.
func releaseOf(list []published.Release, commit, live string) (published.Release, bool) {
	pick := -1
	for i, rel := range list {
		if rel.Commit.Hash != commit {
			continue
		}
		underWay := rel.Status == published.Queued || rel.Status == published.Building
		if pick < 0 || rel.ID == live || underWay && list[pick].ID != live {
			pick = i
		}
	}
	if pick < 0 {
		return published.Release{}, false
	}
	return list[pick], true
}

// problemsOf says what stopped rel's build in the studio's words: the
// content check's lines each with the field it names, the server's said
// once.
func (h *Handler) problemsOf(rel published.Release) []releases.Problem {
	var list []releases.Problem
	for _, line := range rel.Problems {
		p := releases.Problem{Text: releases.ServerProblem(line)}
		if strings.HasPrefix(line, "content/") {
			p = h.placeOf(rel.Commit.Hash, line)
		}
		if !slices.Contains(list, p) {
			list = append(list, p)
		}
	}
	return list
}

// aProduct is how the content check names a product: "product 3 (Chair)".
var aProduct = regexp.MustCompile(`^product ([0-9]+) \(`)

// placeOf is a line of the content check ("content/catalogue.json:
// product 3 (Chair): images[0].alt: is empty") as the form that edits its
// field says it ("Product 3: Chair › Photographs 1 › Alt text: is empty"),
// with the address of that field in it, at the content of commit. A line
// whose field no form shows keeps its words, after its form's name.
func (h *Handler) placeOf(commit, line string) releases.Problem {
	file, rest, _ := strings.Cut(strings.TrimPrefix(line, "content/"), ": ")
	var parts []edit.Part
	if m := aProduct.FindStringSubmatch(rest); m != nil && file == "catalogue.json" {
		if p, ok := edit.PartBySlug("products/" + m[1]); ok {
			parts = append(parts, p)
		}
	}
	for _, p := range slices.Concat(edit.Parts, edit.Texts) {
		if p.File == file {
			parts = append(parts, p)
		}
	}
	for _, part := range parts {
		if part.IsText() {
			return releases.Problem{Text: part.Title + ": " + rest, Field: "/studio/content/" + part.Slug + "#text"}
		}
		c, err := h.editor.OpenAt(part, commit)
		if err != nil {
			continue
		}
		v := h.editView(c)
		if len(contentform.Attach(v.Form, part.File, c.Doc, []string{line})) > 0 {
			continue // not a field of this form
		}
		if marked := v.Marked(); len(marked) > 0 {
			return releases.Problem{Text: v.Title + " › " + marked[0].Label + ": " + marked[0].Problem, Field: "/studio/content/" + part.Slug + "#" + marked[0].ID}
		}
	}
	if len(parts) > 0 {
		return releases.Problem{Text: parts[0].Title + ": " + rest, Field: "/studio/content/" + parts[0].Slug}
	}
	return releases.Problem{Text: rest}
}
