package workspace

import (
	"io/fs"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"studio/internal/contentform"
	published "studio/internal/publish/releases"
	"studio/internal/publish/repo"
	"studio/internal/workspace/edit"
	"studio/internal/workspace/page"
	"studio/internal/workspace/releases"
)

// pageFixtures is a view model for each page of the workspace: the zero
// one, and one with something in every list and field.
func pageFixtures() map[workspacePage][]view {
	at := time.Date(2026, 3, 2, 8, 30, 0, 0, time.UTC)
	return map[workspacePage][]view{
		contentPage: {&contentView{}, &contentView{frame: frame{Title: "Content", Section: "content", ShowContent: true, Notice: "Saved."}, Parts: edit.Parts,
			Unpublished: []repo.Commit{{Hash: "ccc", Message: "Studio details: Tagline", Author: "asha", When: at}}, Waiting: true, Here: "/studio/content?published=ccc",
			Release: &releases.Row{Release: published.Release{ID: "r1", Status: published.Building, Problems: []string{"content/site.json: name: is empty"}}, Title: "Studio details: Tagline", Label: "Building — prerendering the pages"}}},
		contentEditPage: {&editView{Form: &contentform.Field{}}, &editView{frame: frame{Title: "Studio details", Problem: "Nothing was saved."}, Part: edit.Parts[0], Version: "ccc",
			Others: []string{"content/site.json: whatsappPhone: no such phone"}, Theirs: []theirChange{{Label: "Tagline", Value: "New"}}, Changes: 2, Product: true, Delete: "/studio/content/products/3/delete", Action: "/studio/content/products/3", Form: &contentform.Field{Kind: "group", Fields: []*contentform.Field{
				{Name: "/name", ID: "f-name", Label: "Name", Kind: "text", Value: "Jharokha", Required: true, Problems: []string{"is empty"}},
				{Name: "/about", ID: "f-about", Label: "About", Kind: "textarea", Hint: "some text"},
				{Name: "/tags", ID: "f-tags", Label: "Tags", Kind: "lines", Value: "a\nb"},
				{Name: "/years", ID: "f-years", Label: "Years", Kind: "integer", Value: "2"},
				{Name: "/open", ID: "f-open", Label: "Open", Kind: "checkbox", Checked: true},
				{Name: "/kind", ID: "f-kind", Label: "Kind", Kind: "select", Value: "b", Options: []string{"a", "b"}},
				{Name: "/phones", ID: "f-phones", Label: "Phones", Kind: "list", Item: "Phone", CountName: "_count/phones", Fields: []*contentform.Field{
					{Name: "/phones/0", ID: "f-phones-0", Label: "Phone 1", Kind: "group", List: "/phones", Index: 0, Count: 2},
					{Name: "/phones/1", ID: "f-phones-1", Label: "Phone 2", Kind: "group", List: "/phones", Index: 1, Count: 2, Problems: []string{"no"}}}},
				{Name: "/id", Kind: "hidden", Value: "3"},
				{Name: "/images", ID: "f-images", Label: "Images", Kind: "photos", Item: "Photograph", CountName: "_count/images", Problems: []string{"“a.txt” is not a photograph"}, Fields: []*contentform.Field{
					{Name: "/images/0", ID: "f-images-0", Label: "Photograph 1", Kind: "group", List: "/images", Index: 0, Count: 1, Value: "upload:abc.jpg", Fields: []*contentform.Field{
						{Name: "/images/0/src", Kind: "hidden", Value: "upload:abc.jpg"}, {Name: "/images/0/alt", ID: "f-images-0-alt", Label: "Alt", Kind: "text", Required: true}}}}}}}}},
		productsPage: {&productsView{}, &productsView{frame: frame{Title: "Products"}, Products: []productRow{{ID: "1", Name: "Marwar chair", Category: "Seatings", Cover: "/studio/content/thumbnail?src=products/1.jpg",
			CoverAlt: "A chair", Featured: "What’s Hot", ChangedBy: "asha", Changed: "2 Mar 2026, 14:00"}, {ID: "2", Name: "Jali screen"}}}},
		deleteProductPage: {&deleteProductView{}, &deleteProductView{frame: frame{Title: "Delete Marwar chair?"}, Part: contentPart{Slug: "products/1"}, Name: "Marwar chair", Version: "ccc"}},
		markdownPage: {&markdownView{}, &markdownView{frame: frame{Title: "FAQ", Problem: "Nothing was saved."}, Part: edit.Texts[2], Text: "---\ntitle: FAQ\n---\n## Why?\n", Preview: "<h2>Why?</h2>",
			Version: "ccc", Problems: []string{"content/pages/faq.md: {{site.fax}} names no fact"}, Theirs: "## Because\n"}},
		discardPage: {&contentView{}, &contentView{frame: frame{Title: "Discard?"}, Unpublished: []repo.Commit{{Hash: "ccc", Message: "x", Author: "asha", When: at}}}},
	}
}

// Every page renders, in the layout, with a zero view model and with a
// full one.
func TestEveryPageRenders(t *testing.T) {
	h, _ := setup(t)
	fixtures := pageFixtures()
	for _, p := range pageFiles {
		views, ok := fixtures[p]
		if !ok {
			t.Errorf("page %s has no fixture in pageFixtures", p)
			continue
		}
		for i, v := range views {
			var b strings.Builder
			if err := h.pages.Template(p).ExecuteTemplate(&b, "layout.html", v); err != nil {
				t.Errorf("page %s, view %d: %v", p, i, err)
				continue
			}
			if out := b.String(); !strings.Contains(out, "<main>") || !strings.HasSuffix(strings.TrimSpace(out), "</html>") {
				t.Errorf("page %s, view %d is not inside the layout:\n%s", p, i, out)
			}
		}
	}
}

// templatesWithout is the built-in templates, less one file and with
// others added.
func templatesWithout(t *testing.T, left string, added map[string]string) fs.FS {
	t.Helper()
	files := fstest.MapFS{}
	err := fs.WalkDir(templateFiles, page.TemplatesDir, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || name == left {
			return err
		}
		b, err := fs.ReadFile(templateFiles, name)
		files[name] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range added {
		files[name] = &fstest.MapFile{Data: []byte(text)}
	}
	return files
}

// A page without its template, a broken template, and a template no page
// declares each stop start-up.
func TestBrokenTemplatesStopStartUp(t *testing.T) {
	funcs := templateFuncs()
	if _, err := page.Parse(templatesWithout(t, "", nil), pageFiles, time.UTC, funcs); err != nil {
		t.Fatalf("the built-in templates: %v", err)
	}
	for name, fsys := range map[string]fs.FS{
		"a page's file missing":   templatesWithout(t, "templates/content.html", nil),
		"a partial missing":       templatesWithout(t, "templates/partials/field.html", nil),
		"a broken page":           templatesWithout(t, "", map[string]string{"templates/content.html": `{{define "content"}}{{if .Title}}{{end}}`}),
		"a page without content":  templatesWithout(t, "", map[string]string{"templates/content.html": `<p>no content defined</p>`}),
		"a page no handler shows": templatesWithout(t, "", map[string]string{"templates/stray.html": `{{define "content"}}{{end}}`}),
	} {
		if _, err := page.Parse(fsys, pageFiles, time.UTC, funcs); err == nil {
			t.Errorf("%s: the templates parsed", name)
		}
	}

	// New itself refuses to start with a page whose file is missing.
	defer func(declared page.Names) { pageFiles = declared }(pageFiles)
	pageFiles = append(pageFiles[:len(pageFiles):len(pageFiles)], "missing.html")
	defer func() {
		if recover() == nil {
			t.Error("New started with a page whose template is missing")
		}
	}()
	setup(t)
}

// The navigation marks the insights page as the current one, and no other.
func TestNavigationMarksTheCurrentPage(t *testing.T) {
	h, _ := setup(t)
	c := signIn(t, h, asha, ashaPassword)
	for target, current := range map[string]bool{"/studio/insights": true, "/studio": false} {
		w := do(h, "GET", target, nil, withCookie(c))
		if got := strings.Contains(w.Body.String(), `href="/studio/insights" aria-current="page"`); w.Code != http.StatusOK || got != current {
			t.Errorf("%s: %d, insights marked current: %v, want %v", target, w.Code, got, current)
		}
	}
}
