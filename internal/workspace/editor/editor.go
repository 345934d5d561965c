// Package editor is the workspace's Content section: the studio edits its
// content in forms made from content/schema, saves each change to the
// draft (a branch of content.git), and publishes the draft to main, whose
// release the page then follows to live. The site is untouched until
// Publish. The rules of a change (what a part is, a form applied to it,
// the merge with a newer draft, the featured and delete rules, the staged
// photographs) are package edit's; the handlers here parse requests and
// say that package's errors in words. Its one script (templates/upload.js,
// UploadJS) sends a product's photographs one by one, with their
// progress, and nothing needs it.
package editor

import (
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"strings"

	published "studio/internal/publish/releases"
	"studio/internal/workspace/edit"
	"studio/internal/workspace/page"
	"studio/internal/workspace/upload"
)

// Releases is the publisher (a *publish.Publisher) as the Content section
// uses it: to publish the draft and follow its release to live.
type Releases interface {
	List() ([]published.Release, error) // newest first
	Live() string                       // the id of the live release
	CanBuild() bool                     // false: this server has no builder
	PublishNew() (string, error)        // builds main, unless it is live or under way already
}

// Options are what the Content section works with.
type Options struct {
	Content  edit.Content
	Releases Releases // nil: no releases, and nothing can be published
	Previews bool     // the draft can be previewed (package releases)
	// Rules are the editor's rules (package edit), made by the workspace.
	Rules *edit.Editor
	// Scratch is where an upload's body waits while it is read.
	Scratch string
	// Pace is how slowly a product's photographs may arrive.
	Pace upload.Pace
}

// The Content section's own pages: one template file each in templates/,
// with the form's partial (templates/partials/field.html).
//
//go:embed templates
var templateFiles embed.FS

// pageFiles are the pages declared with newPage.
var pageFiles page.Names

func newPage(file string) page.Name { return pageFiles.Declare(file) }

// Handler serves the Content section.
type Handler struct {
	kit    *page.Kit
	pages  *page.Pages
	opts   Options
	editor *edit.Editor
}

// New returns the Content section. It panics if a page's template is
// broken (it is built in: a mistake of the build's).
func New(kit *page.Kit, opts Options) *Handler {
	if opts.Pace == (upload.Pace{}) {
		opts.Pace = upload.PhonePace
	}
	return &Handler{kit: kit, pages: kit.MustParse(templateFiles, pageFiles, templateFuncs()), opts: opts, editor: opts.Rules}
}

// render writes a page with its view model.
func (h *Handler) render(w http.ResponseWriter, r *http.Request, status int, p page.Name, v page.View) {
	h.pages.Render(w, r, status, p, v)
}

// fail answers a request that could not be done with the error page.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, status int, title, problem, back string) {
	h.kit.Fail(w, r, status, title, problem, back)
}

// UploadJS is the workspace's one script, which sends a product's
// photographs one by one; the product's form carries it inline, and the
// workspace's policy allows it by its hash. It says what the server says
// of a photograph it cannot take: edit.PhotoWords, written into it here.
var UploadJS = func() string {
	b, err := fs.ReadFile(templateFiles, path.Join(page.TemplatesDir, "upload.js"))
	if err != nil {
		panic(err)
	}
	const slot = "/* edit.PhotoWords */ {}"
	if !strings.Contains(string(b), slot) {
		panic("editor: upload.js has no " + slot)
	}
	return strings.Replace(string(b), slot, edit.PhotoWordsJSON(), 1)
}()

// templateFuncs are the functions of the Content section's pages.
func templateFuncs() template.FuncMap {
	return template.FuncMap{
		"thumbnail":    thumbnailURL,
		"uploadScript": func() template.JS { return template.JS(UploadJS) },
		"photoLimit":   func() int { return edit.MaxPhotoBytes }, // a photograph's most bytes
		"drawingName":  edit.DrawingName,
		"drawingShown": drawingShown,
	}
}

// thumbnailURL is the address of a picture's thumbnail (Thumbnail): a
// file of the draft's content/images, or an upload not yet saved.
func thumbnailURL(src string) string {
	if name, ok := strings.CutPrefix(src, edit.UploadSrcPrefix); ok {
		return "/studio/content/thumbnail?upload=" + name
	}
	return "/studio/content/thumbnail?src=" + src
}

// drawingShown is the address a drawing field's value is shown at: one of
// the site's drawings as the site serves it, else a picture of the
// content's (or an upload) by its thumbnail.
func drawingShown(src string) string {
	if strings.HasPrefix(src, "/") {
		return src
	}
	return thumbnailURL(src)
}

// PhotosPath takes one photograph, sent ahead of its form by the upload
// script (SendPhoto).
const PhotosPath = "/studio/content/photos"

// TakesFiles tells whether r is a form with files the Content section
// reads itself, once the session is known (Save, SendPhoto): the
// workspace leaves its body alone.
func TakesFiles(r *http.Request) bool {
	if !upload.IsMultipart(r) {
		return false
	}
	if r.URL.Path == PhotosPath {
		return true
	}
	part, ok := edit.PartBySlug(strings.TrimPrefix(r.URL.Path, "/studio/content/"))
	return ok && part.TakesFiles()
}

// MaxForm is the largest form of the Content section (the chat script's
// form is about 40 kB).
const MaxForm = 2 << 20
