package workspace

import (
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"path"

	"studio/internal/workspace/edit"
	"studio/internal/workspace/page"
)

// The workspace's own pages: one template file each in templates/,
// around which package page puts the layout.
//
//go:embed templates
var templateFiles embed.FS

type (
	frame         = page.Frame
	view          = page.View
	workspacePage = page.Name
)

// pageFiles are the pages declared with newPage.
var pageFiles page.Names

func newPage(file string) workspacePage { return pageFiles.Declare(file) }

// render writes a page with its view model.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, p workspacePage, v view) {
	h.pages.Render(w, r, status, p, v)
}

// fail answers a request that could not be done with the error page.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, status int, title, problem, back string) {
	h.kit.Fail(w, r, status, title, problem, back)
}

// uploadJS is the workspace's one script, which sends a product's
// photographs one by one; the product's form carries it inline, and the
// page's policy allows it by its hash.
var uploadJS = func() string {
	b, err := fs.ReadFile(templateFiles, path.Join(page.TemplatesDir, "upload.js"))
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// templateFuncs are the functions of the workspace's own pages.
func templateFuncs() template.FuncMap {
	return template.FuncMap{
		"thumbnail":    thumbnailURL,
		"uploadScript": func() template.JS { return template.JS(uploadJS) },
		"photoLimit":   func() int { return edit.MaxPhotoBytes }, // a photograph's most bytes
	}
}
