package workspace

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"studio/internal/contentform"
	"studio/internal/publish/build"
	"studio/internal/publish/repo"
	"studio/internal/sitecontent"
)

// The Content section: the studio edits its content in forms made from
// content/schema, saves each change to the draft (a branch of content.git),
// and publishes the draft to main, whose release the page then follows to
// live. The site is untouched until Publish.

// Content is the content repository (a *repo.Repository) as the editor
// uses it.
type Content interface {
	Draft() (repo.Commit, bool, error)
	Main() (repo.Commit, error)
	ReadFile(hash, name string) ([]byte, error)
	Export(hash, dir string) error
	SaveDraft(base string, files map[string][]byte, removed []string, who repo.Signature, message string) (string, error)
	Unpublished() ([]repo.Commit, error)
	PublishDraft(who repo.Signature) (string, error)
	DiscardDraft() error
	Log(hash string, n int) ([]repo.Commit, error)
}

// savedNotice is what a page says after a save.
const savedNotice = "Saved to the unpublished changes. Visitors still see the live site until you publish."

// unknownVersion answers a form whose _version names no commit: nothing saved.
func (h *Handler) unknownVersion(w http.ResponseWriter, r *http.Request, part contentPart) {
	h.fail(w, r, http.StatusBadRequest, "Not saved", "This form is from a version of the content the server does not have. Nothing was saved: open the page again.", "/studio/content/"+part.Slug)
}

// Builder is the build's own tools, run on a copy of the content (a
// *build.NodeBuilder): its content check, whose "file: field: problem"
// lines are those a build stops on, and its Markdown renderer, for the
// preview beside a text.
type Builder interface {
	Check(ctx context.Context, contentDir string) ([]string, error)
	RenderMarkdown(ctx context.Context, contentDir, name string, text []byte) (string, error)
}

// A contentPart is one form of the Content section: a content file, or
// one part of it.
type contentPart struct {
	Slug, Title, File, Pointer, About string
	Product                           int      // a product's form, by its id (newProduct: one being added); its place in the list is found in each version
	Only                              []string // the file's fields the form shows (none: all of them)
}

// form is the part's form of doc: its schema's, fitted to a product, or
// only the fields of Only.
func (p contentPart) form(schema *contentform.Schema, doc *contentform.Value, pointer string) *contentform.Field {
	f := schema.Form(doc, pointer)
	if p.Product != 0 {
		productForm(f, doc)
	}
	if p.Only != nil {
		f.Fields = slices.DeleteFunc(f.Fields, func(c *contentform.Field) bool { return !slices.Contains(p.Only, strings.TrimPrefix(c.Name, "/")) })
	}
	return f
}

// ownPart is what of doc the part's form changes: the value at pointer,
// or the fields of Only.
func (p contentPart) ownPart(doc *contentform.Value, pointer string) *contentform.Value {
	if p.Only == nil {
		return doc.At(pointer)
	}
	own := contentform.NewObject()
	for _, k := range p.Only {
		if v := doc.Get(k); v != nil {
			own.Set(k, v)
		}
	}
	return own
}

// pointerIn is where the part is in doc: a product by its id.
func (p contentPart) pointerIn(doc *contentform.Value, schema *contentform.Schema) (string, bool) {
	if p.Product == 0 {
		return p.Pointer, true
	}
	products := doc.Get("products")
	if products == nil {
		return "", false
	}
	for i, item := range products.Items {
		if p.Product == newProduct && i == len(products.Items)-1 || item.Get("id") != nil && item.Get("id").Number == strconv.Itoa(p.Product) {
			return "/products/" + strconv.Itoa(i), true
		}
	}
	return "", false
}

var contentParts = []contentPart{
	{Slug: "studio", Title: "Studio details", File: "site.json", Pointer: "", About: "The studio’s name, phones, e-mail, address, social links and map, on every page."},
	{Slug: "services", Title: "Services", File: "service.json", Pointer: "", About: "Warranty, delivery, returns and reply times, as the policies and the FAQ quote them."},
	{Slug: "home", Title: "Home page", File: "pages.json", Pointer: "/home", About: "The hero and each section’s texts and links."},
	{Slug: "about", Title: "About page", File: "pages.json", Pointer: "/about", About: "The founders, the craftsmen and the projects."},
	{Slug: "bespoke", Title: "Bespoke page", File: "pages.json", Pointer: "/bespoke", About: "The pictures and texts beside the bespoke enquiry form."},
	{Slug: "vocabulary", Title: "Categories, materials and finishes", File: "catalogue.json", Only: []string{"categories", "finishes", "filters", "details"},
		About: "The catalogue’s tabs, the finishes a product may name, the Sort menu’s groups of materials and finishes, and the note on dimensions."},
	{Slug: "chat", Title: "Chat script", File: "chat.json", Pointer: "", About: "The chat assistant’s messages, topics and answers."},
	{Slug: "replies", Title: "Reply templates", File: "replies.json", Pointer: "", About: "The ready answers of the inbox’s reply form; {{name}}, {{piece}} and {{sender}} are filled in for each customer."},
}

func partBySlug(slug string) (contentPart, bool) {
	if id, ok := strings.CutPrefix(slug, "products/"); ok {
		if id == "new" {
			return contentPart{Slug: slug, Title: "Add a product", File: "catalogue.json", Product: newProduct,
				About: "A new piece for the catalogue: its texts, and at least one photograph with its alt text."}, true
		}
		n, err := strconv.Atoi(id)
		if err != nil || n < 1 || strconv.Itoa(n) != id {
			return contentPart{}, false
		}
		return contentPart{Slug: slug, Title: "Product " + id, File: "catalogue.json", Product: n,
			About: "Its texts and photographs; the first photograph is its cover."}, true
	}
	for _, p := range slices.Concat(contentParts, markdownParts) {
		if p.Slug == slug {
			return p, true
		}
	}
	return contentPart{}, false
}

var (
	contentPage     = newPage("content.html")
	contentEditPage = newPage("content-edit.html")
	discardPage     = newPage("content-discard.html")
)

// maxContentForm is the largest form of the Content section (the chat
// script's form is about 40 kB).
const maxContentForm = 2 << 20

func (h *Handler) contentRoutes(mux *http.ServeMux) {
	if h.opts.Content == nil {
		return
	}
	mux.HandleFunc("GET /studio/content", h.signedIn(h.ContentIndex))
	mux.HandleFunc("GET /studio/content/{part}", h.onPart(h.showEditor))
	mux.HandleFunc("POST /studio/content/{part}", h.onPart(h.save))
	mux.HandleFunc("POST /studio/content/publish", h.signedIn(h.ownerOnly("publish", h.PublishContent)))
	mux.HandleFunc("GET /studio/content/discard", h.signedIn(h.ConfirmDiscard))
	mux.HandleFunc("POST /studio/content/discard", h.signedIn(h.DiscardContent))
	h.productRoutes(mux)
	mux.HandleFunc("POST "+photosPath, h.signedIn(h.SendPhoto))
}

// contentView is the Content page: what is unpublished, the parts to edit,
// and the release of the last publish.
type contentView struct {
	frame
	Parts       []contentPart
	Texts       []contentPart // the Markdown files
	Unpublished []repo.Commit
	Release     *releaseRow // the release of ?published=COMMIT, followed to live
	Waiting     bool        // that commit's release is not made yet, or is under way
	Here        string      // this page's address, for "Check again"
	CanPreview  bool        // Options.Previews: the draft can be previewed
	MainLive    bool        // main's files are the live release's (mainIsLive)
}

// mainIsLive says whether the content as last published (main) is what
// visitors see: not so with PUBLISH=manual before "Make live", or while
// main's build is under way or failed. When it cannot be told, it says so.
func (h *Handler) mainIsLive() bool {
	if h.opts.Releases == nil {
		return true
	}
	main, err := h.opts.Content.Main()
	if err != nil {
		return true
	}
	list, err := h.opts.Releases.List()
	if err != nil {
		return true
	}
	live := h.opts.Releases.Live()
	for _, r := range list {
		if r.ID == live {
			return r.Tree == main.Tree
		}
	}
	return true
}

// discardedNotice is what the Content page says after a discard.
func discardedNotice(mainLive bool) string {
	if mainLive {
		return "The unpublished changes were discarded. The content is the live site’s again."
	}
	return "The unpublished changes were discarded. The content is as it was last published, which visitors do not see yet: see Releases."
}

// ContentIndex is GET /studio/content. ?published=COMMIT follows that
// commit's release (Queued, Building — stage, Live) with a "Check again"
// link, as the releases page does.
func (h *Handler) ContentIndex(w http.ResponseWriter, r *http.Request) {
	p := &contentView{frame: frame{Title: "Content", Section: "content"}, Parts: contentParts, Texts: markdownParts, Here: r.URL.RequestURI()}
	list, err := h.opts.Content.Unpublished()
	if err != nil {
		h.log.Error("studio: read the draft", "err", err)
		h.fail(w, r, http.StatusInternalServerError, "Content", "The content cannot be read just now. Try again in a minute; if it stays so, the server’s log says why.", "")
		return
	}
	p.Unpublished, p.CanPreview, p.MainLive = list, h.opts.Previews != nil, h.mainIsLive()
	q := r.URL.Query()
	if q.Get("saved") != "" {
		p.Notice = savedNotice
	}
	if q.Get("discarded") != "" {
		p.Notice = discardedNotice(p.MainLive)
	}
	if commit := q.Get("published"); commit != "" && h.opts.Releases != nil {
		p.Waiting = true
		if rv, ok := h.releasesView(w, r); ok {
			for i := range rv.Releases {
				if rv.Releases[i].Commit.Hash == commit {
					p.Release = &rv.Releases[i]
					break
				}
			}
		} else {
			return
		}
		if p.Release != nil {
			p.Waiting = !p.Release.Live && p.Release.Class != "failed" && !p.Release.CanMakeLive
		}
	}
	h.render(w, r, http.StatusOK, contentPage, p)
}

// refusedSave heads the summary of a form's problems.
const refusedSave = "Nothing was saved. Correct these, then save again:"

// editView is one part's form.
type editView struct {
	frame
	Part          contentPart
	Action        string // where the form posts
	Form          *contentform.Field
	Version       string        // the commit the form was made from, posted back
	Others        []string      // lines of the check that name no field of the form
	Theirs        []theirChange // a newer save of the same part: what it changed
	Changes       int           // how many fields the form changed, unsaved (after a list button)
	Product       bool          // a product's form: photographs can be added
	Hot           bool          // the product is in What's Hot
	Fresh         bool          // the product is the home page's Fresh from the studio piece
	FreshProblems []string
	Delete        string // the product's delete page, "" for a new one
}

// markedField is a field a save was refused for, as the summary at the
// top of the form names it and links to it.
type markedField struct{ ID, Label, Problem string }

// Marked is what the summary at the top of a refused form lists: each
// field with a problem, in the form's order, named by where it is
// ("Phone 1 › Number for links"), so a long form need not be searched.
func (v *editView) Marked() []markedField {
	var list []markedField
	var walk func(f *contentform.Field, place []string)
	walk = func(f *contentform.Field, place []string) {
		// A list's items name themselves ("Phone 1"): its own label would repeat.
		if f.Kind != "list" && f.Kind != "photos" {
			place = append(place[:len(place):len(place)], f.Label)
		}
		for _, problem := range f.Problems {
			list = append(list, markedField{f.ID, strings.Join(place, " › "), problem})
		}
		for _, c := range f.Fields {
			walk(c, place)
		}
	}
	if v.Form != nil {
		for _, f := range v.Form.Fields {
			walk(f, nil)
		}
	}
	for _, problem := range v.FreshProblems {
		list = append(list, markedField{"featured", "On the home page", problem})
	}
	return list
}

// theirChange is one field of someone else's save, as the page shows it.
type theirChange struct{ Label, Value string }

// onPart serves a route of one part of the content, named by its path
// (/studio/content/{part}, /studio/content/products/{id}).
func (h *Handler) onPart(serve func(http.ResponseWriter, *http.Request, contentPart)) http.HandlerFunc {
	return h.signedIn(func(w http.ResponseWriter, r *http.Request) {
		slug := r.PathValue("part")
		if id := r.PathValue("id"); id != "" {
			slug = "products/" + id
		}
		part, ok := partBySlug(slug)
		if !ok {
			h.fail(w, r, http.StatusNotFound, "Not found", "There is no such part of the content.", "/studio/content")
			return
		}
		serve(w, r, part)
	})
}

// openPart reads the draft's version of part: its commit, its schema, its
// document and where the part is in it. On failure it answers with the
// error page and ok false.
func (h *Handler) openPart(w http.ResponseWriter, r *http.Request, part contentPart) (head repo.Commit, schema *contentform.Schema, doc *contentform.Value, pointer string, ok bool) {
	head, _, err := h.opts.Content.Draft()
	if err == nil {
		schema, doc, err = h.readPart(head.Hash, part)
	}
	if err != nil {
		h.contentFailed(w, r, err)
		return
	}
	if pointer, ok = part.pointerIn(doc, schema); !ok {
		h.fail(w, r, http.StatusNotFound, "Not found", "There is no product "+strconv.Itoa(part.Product)+" in the content: it may have been deleted.", "/studio/content/products")
	}
	return
}

// showEditor shows part's form as the draft has it.
func (h *Handler) showEditor(w http.ResponseWriter, r *http.Request, part contentPart) {
	if strings.HasSuffix(part.File, ".md") {
		h.showMarkdown(w, r, part)
		return
	}
	head, schema, doc, pointer, ok := h.openPart(w, r, part)
	if !ok {
		return
	}
	p := h.editView(part, schema, doc, pointer, head.Hash)
	if r.URL.Query().Get("saved") != "" {
		p.Notice = savedNotice
	}
	h.render(w, r, http.StatusOK, contentEditPage, p)
}

func (h *Handler) editView(part contentPart, schema *contentform.Schema, doc *contentform.Value, pointer, version string) *editView {
	p := &editView{frame: frame{Title: part.Title, Section: "content"}, Part: part, Action: "/studio/content/" + part.Slug,
		Form: part.form(schema, doc, pointer), Version: version, Product: part.Product != 0}
	if part.Product > 0 {
		p.Delete = "/studio/content/" + part.Slug + "/delete"
	}
	if p.Product {
		p.Hot, p.Fresh = featuredOf(doc, doc.At(pointer+"/id").Text())
		if name := doc.At(pointer + "/name").Text(); part.Product > 0 && name != "" {
			p.Title = part.Title + ": " + name
		}
	}
	return p
}

func (h *Handler) contentFailed(w http.ResponseWriter, r *http.Request, err error) {
	h.log.Error("studio: content", "err", err)
	h.fail(w, r, http.StatusInternalServerError, "Not done", "The content cannot be read just now ("+err.Error()+"). Nothing was changed.", "/studio/content")
}

// readPart reads part's file and its schema at commit hash; a new
// product is there as a blank one at the end of the list.
func (h *Handler) readPart(hash string, part contentPart) (*contentform.Schema, *contentform.Value, error) {
	raw, err := h.opts.Content.ReadFile(hash, part.File)
	if err != nil {
		return nil, nil, err
	}
	doc, err := contentform.Parse(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("content/%s is not JSON: %w", part.File, err)
	}
	rawSchema, err := h.opts.Content.ReadFile(hash, "schema/"+strings.TrimSuffix(part.File, ".json")+".schema.json")
	if err != nil {
		return nil, nil, err
	}
	schema, err := contentform.ParseSchema(rawSchema)
	if err == nil && part.Product == newProduct {
		addBlankProduct(schema, doc)
	}
	return schema, doc, err
}

// save is POST /studio/content/{part} and /studio/content/products/{id}:
// a list's button (add, remove, move) or "Upload the photographs" shows
// the form again with it done, unsaved; Save checks the change with the
// build's content check and commits it to the draft, or shows each problem
// beside its field, saving nothing. A save made from a version of the part
// that someone has changed since is refused, with both versions shown.
func (h *Handler) save(w http.ResponseWriter, r *http.Request, part contentPart) {
	if strings.HasSuffix(part.File, ".md") {
		h.saveMarkdown(w, r, part)
		return
	}
	r, done, ok := h.readUploads(w, r)
	if !ok {
		return
	}
	defer done()
	base := r.PostForm.Get("_version")
	schema, baseDoc, err := h.readPart(base, part)
	if err != nil {
		h.unknownVersion(w, r, part)
		return
	}
	pointer, ok := part.pointerIn(baseDoc, schema)
	if !ok {
		h.fail(w, r, http.StatusNotFound, "Not saved", "There is no product "+strconv.Itoa(part.Product)+" in the content: it may have been deleted. Nothing was saved.", "/studio/content/products")
		return
	}
	doc, problems := schema.Apply(baseDoc, pointer, r.PostForm)
	var notes, featured []string
	if part.Product != 0 {
		var featureProblems []contentform.Problem
		featured, featureProblems = setFeatured(doc, pointer, r.PostForm)
		problems = append(problems, featureProblems...)
		added, uploadProblems := h.stagePhotos(r, doc.At(pointer+"/images"), pointer+"/images")
		problems = append(problems, uploadProblems...)
		notes = append(notes, added...)
	}
	p := h.editView(part, schema, doc, pointer, base)
	show := func(status int) {
		p.Form = part.form(schema, doc, pointer)
		p.Hot, p.Fresh = featuredOf(doc, doc.At(pointer+"/id").Text())
		for _, pr := range problems {
			if pr.Field == freshField {
				p.FreshProblems = append(p.FreshProblems, pr.Text)
			} else if f := findField(p.Form, pr.Field); f != nil {
				f.Problems = append(f.Problems, pr.Text)
			} else {
				p.Others = append(p.Others, pr.Text)
			}
		}
		p.Changes = len(schema.Changed(baseDoc, doc, pointer))
		h.render(w, r, status, contentEditPage, p)
	}
	// "upload": the photographs chosen are added (above), nothing else.
	if action := r.PostForm.Get("_action"); action != "" && action != "save" && action != "upload" {
		done, ok := schema.Act(doc, action)
		if !ok {
			p.Problem = "That button does nothing here. Nothing was saved."
			show(http.StatusBadRequest)
			return
		}
		notes = append(notes, done)
	}
	if len(notes) > 0 || len(problems) > 0 || r.PostForm.Get("_action") == "upload" {
		if len(problems) > 0 {
			p.Problem = refusedSave
		}
		if len(notes) > 0 {
			p.Notice = strings.Join(notes, " ") + " Nothing is saved until you press Save."
		}
		status := http.StatusOK
		if len(problems) > 0 {
			status = http.StatusUnprocessableEntity
		}
		show(status)
		return
	}
	head, _, err := h.opts.Content.Draft()
	if err != nil {
		h.contentFailed(w, r, err)
		return
	}
	if head.Hash != base {
		// Someone saved since this form was made: their save stands; this one
		// is made over it only if they did not change this part.
		_, headDoc, err := h.readPart(head.Hash, part)
		if err != nil {
			h.contentFailed(w, r, err)
			return
		}
		headPointer, ok := part.pointerIn(headDoc, schema)
		if part.Product == newProduct {
			// A new product goes at the end of their list, with the next id there.
			doc.At(pointer).Set("id", headDoc.At(headPointer+"/id"))
		} else if !ok || !contentform.Equal(part.ownPart(baseDoc, pointer), part.ownPart(headDoc, headPointer)) {
			p.Problem = fmt.Sprintf("Not saved: %s saved a newer version of the %s (“%s”, %s) while you were editing. Your version is below, unsaved; theirs is listed first. Save again to put yours over theirs.",
				head.Author, strings.ToLower(part.Title), head.Subject(), head.When.In(h.opts.Location).Format("15:04"))
			if ok {
				p.Theirs = theirChanges(schema, baseDoc, headDoc, pointer, headPointer)
			} else {
				p.Problem = fmt.Sprintf("Not saved: %s deleted this product while you were editing (“%s”). Your version is below, unsaved.", head.Author, head.Subject())
			}
			p.Version = head.Hash
			show(http.StatusConflict)
			return
		}
		merged := headDoc.Clone()
		switch {
		case part.Only != nil:
			for _, k := range part.Only {
				merged.Replace("/"+k, doc.Get(k))
			}
		case pointer == "":
			merged = doc
		default:
			merged.Replace(headPointer, doc.At(pointer))
		}
		if part.Product != 0 {
			featured, _ = setFeatured(merged, headPointer, r.PostForm)
		}
		baseDoc, doc, base, pointer = headDoc, merged, head.Hash, headPointer
		p = h.editView(part, schema, doc, pointer, base)
	}
	changed := append(schema.Changed(baseDoc, doc, pointer), featured...)
	if len(changed) == 0 {
		http.Redirect(w, r, "/studio/content/"+part.Slug, http.StatusSeeOther)
		return
	}
	// The photographs uploaded get their names in the content; the form
	// keeps them as uploads until the save is made.
	saved := doc.Clone()
	files, err := h.placeUploads(saved, pointer)
	if err != nil {
		h.contentFailed(w, r, err)
		return
	}
	files[part.File] = saved.Encode()
	lines, err := h.checkChange(r.Context(), base, files)
	if err != nil {
		h.log.Error("studio: content check", "err", err)
		p.Problem = "Nothing was saved: the content check could not run (" + err.Error() + ")."
		show(http.StatusInternalServerError)
		return
	}
	if len(lines) > 0 {
		p.Others = contentform.Attach(p.Form, part.File, doc, lines)
		p.Problem = refusedSave
		p.Changes = len(changed)
		h.render(w, r, http.StatusUnprocessableEntity, contentEditPage, p)
		return
	}
	title := part.Title
	if part.Product == newProduct {
		title = "Product " + doc.At(pointer+"/id").Number + " (new)"
	}
	message := title + ": " + summary(changed)
	if _, err := h.opts.Content.SaveDraft(base, files, nil, signature(r), message); err != nil {
		if errors.Is(err, repo.ErrDraftMoved) {
			p.Problem = "Not saved: someone saved at the same moment. Your version is below: press Save again."
			head, _, _ := h.opts.Content.Draft()
			p.Version = head.Hash
			show(http.StatusConflict)
			return
		}
		h.contentFailed(w, r, err)
		return
	}
	h.log.Info("studio: content saved", "part", part.Slug, "account", actor(r), "message", message)
	slug := part.Slug
	if part.Product == newProduct {
		slug = "products/" + doc.At(pointer+"/id").Number
	}
	http.Redirect(w, r, "/studio/content/"+slug+"?saved=1", http.StatusSeeOther)
}

// theirChanges says what a newer save changed in the part: each field's
// label and its new value.
func theirChanges(schema *contentform.Schema, base, theirs *contentform.Value, pointer, theirPointer string) []theirChange {
	var out []theirChange
	// Their part, compared at the place it had in base.
	moved := base.Clone()
	moved.Replace(pointer, theirs.At(theirPointer))
	if pointer == "" {
		moved = theirs
	}
	form := schema.Form(moved, pointer)
	for _, label := range schema.Changed(base, moved, pointer) {
		out = append(out, theirChange{Label: label, Value: valueOfLabel(form, label, pointer)})
	}
	return out
}

// valueOfLabel finds the value shown by the field labelled path ("Phone
// 1 › Display").
func valueOfLabel(form *contentform.Field, path, pointer string) string {
	var found string
	var walk func(f *contentform.Field, labels []string)
	walk = func(f *contentform.Field, labels []string) {
		if f.Name != pointer {
			labels = append(labels, f.Label)
		}
		if strings.Join(labels, " › ") == path {
			switch {
			case f.Kind == "checkbox" && f.Checked:
				found = "yes"
			case f.Kind == "checkbox":
				found = "no"
			case f.Kind == "list" || f.Kind == "group":
				found = fmt.Sprintf("%d items", len(f.Fields))
			default:
				found = f.Value
			}
		}
		for _, c := range f.Fields {
			walk(c, labels)
		}
	}
	walk(form, nil)
	return found
}

func findField(f *contentform.Field, name string) *contentform.Field {
	if f.Name == name {
		return f
	}
	for _, c := range f.Fields {
		if found := findField(c, name); found != nil {
			return found
		}
	}
	return nil
}

// summary says a change's fields in a commit message: the first four and
// how many more.
func summary(labels []string) string {
	if len(labels) > 4 {
		return strings.Join(labels[:4], ", ") + fmt.Sprintf(" and %d more", len(labels)-4)
	}
	return strings.Join(labels, ", ")
}

// signature names the signed-in account as a commit's author.
func signature(r *http.Request) repo.Signature {
	email := actor(r)
	name, _, _ := strings.Cut(email, "@")
	return repo.Signature{Name: name, Email: email}
}

// checkChange runs the build's content check on the content of commit base
// with files written over it, in a scratch copy. A path the content names
// that leaves its folder is refused first, by the server's own check,
// before the build's tools read the content.
func (h *Handler) checkChange(ctx context.Context, base string, files map[string][]byte) ([]string, error) {
	dir, done, err := h.scratchContent(base, files)
	if content := (*build.ContentError)(nil); errors.As(err, &content) {
		return content.Problems, nil // a symbolic link pushed to the content
	}
	if err != nil {
		return nil, err
	}
	defer done()
	if lines := sitecontent.PathProblems(os.DirFS(dir)); len(lines) > 0 {
		return lines, nil
	}
	return h.opts.Builder.Check(ctx, dir)
}

// scratchContent is a copy of the content of commit base, with files
// written over it, for the builder's tools; done deletes it.
func (h *Handler) scratchContent(base string, files map[string][]byte) (dir string, done func(), err error) {
	if h.opts.Builder == nil {
		return "", nil, errors.New("this server has no builder to check the content with; see docs/publishing.md")
	}
	work, err := os.MkdirTemp(h.opts.Scratch, "check-")
	if err != nil {
		return "", nil, err
	}
	done = func() { os.RemoveAll(work) }
	dir = filepath.Join(work, "content")
	if err := h.opts.Content.Export(base, dir); err != nil {
		done()
		return "", nil, err
	}
	for name, body := range files {
		target := filepath.Join(dir, filepath.FromSlash(path.Clean(name)))
		os.Remove(target) // a hard link to the shared blob: never write through it
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			done()
			return "", nil, err
		}
		if err := os.WriteFile(target, body, 0o644); err != nil {
			done()
			return "", nil, err
		}
	}
	return dir, done, nil
}

// PublishContent is POST /studio/content/publish: the draft goes on main,
// is built, and the Content page follows its release to live.
func (h *Handler) PublishContent(w http.ResponseWriter, r *http.Request) {
	list, err := h.opts.Content.Unpublished()
	if err != nil {
		h.contentFailed(w, r, err)
		return
	}
	if len(list) == 0 {
		h.fail(w, r, http.StatusConflict, "Nothing to publish", "There are no unpublished changes: the live site is the content as it is.", "/studio/content")
		return
	}
	if h.opts.Releases == nil || !h.opts.Releases.CanBuild() {
		h.fail(w, r, http.StatusConflict, "Not published", "Nothing was published. "+noBuilder, "/studio/content")
		return
	}
	commit, err := h.opts.Content.PublishDraft(signature(r))
	var conflict *repo.ConflictError
	if errors.As(err, &conflict) {
		h.fail(w, r, http.StatusConflict, "Not published", "Nothing was published: since these changes began, "+strings.Join(conflict.Files, ", ")+" changed on the live content too (pushed with git). Discard the unpublished changes and make them again, or ask whoever pushed.", "/studio/content")
		return
	}
	if err != nil {
		h.contentFailed(w, r, err)
		return
	}
	if _, err := h.opts.Releases.Publish(); err != nil {
		h.log.Error("studio: publish", "err", err)
	}
	h.log.Info("studio: draft published", "commit", commit, "changes", len(list), "account", actor(r))
	http.Redirect(w, r, "/studio/content?"+url.Values{"published": {commit}}.Encode(), http.StatusSeeOther)
}

// ConfirmDiscard is GET /studio/content/discard: what would be dropped.
func (h *Handler) ConfirmDiscard(w http.ResponseWriter, r *http.Request) {
	list, err := h.opts.Content.Unpublished()
	if err != nil {
		h.contentFailed(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, discardPage, &contentView{frame: frame{Title: "Discard the unpublished changes?", Section: "content"}, Unpublished: list, MainLive: h.mainIsLive()})
}

// DiscardContent is POST /studio/content/discard.
func (h *Handler) DiscardContent(w http.ResponseWriter, r *http.Request) {
	if err := h.opts.Content.DiscardDraft(); err != nil {
		h.contentFailed(w, r, err)
		return
	}
	h.log.Info("studio: draft discarded", "account", actor(r))
	http.Redirect(w, r, "/studio/content?discarded=1", http.StatusSeeOther)
}
