package workspace

import (
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"studio/internal/contentform"
	"studio/internal/publish/repo"
	"studio/internal/workspace/edit"
	"studio/internal/workspace/page"
	"studio/internal/workspace/releases"
)

// The Content section: the studio edits its content in forms made from
// content/schema, saves each change to the draft (a branch of content.git),
// and publishes the draft to main, whose release the page then follows to
// live. The site is untouched until Publish.

// Content and Builder are the content repository and the build's tools
// as the editor uses them (package edit).
type (
	Content = edit.Content
	Builder = edit.Builder
)

// savedNotice is what a page says after a save.
const savedNotice = "Saved to the unpublished changes. Visitors still see the live site until you publish."

// unknownVersion answers a form whose _version names no commit: nothing saved.
func (h *Handler) unknownVersion(w http.ResponseWriter, r *http.Request, part contentPart) {
	h.fail(w, r, http.StatusBadRequest, "Not saved", "This form is from a version of the content the server does not have. Nothing was saved: open the page again.", "/studio/content/"+part.Slug)
}

type contentPart = edit.Part

var (
	contentPage     = newPage("content.html")
	contentEditPage = newPage("content-edit.html")
	discardPage     = newPage("content-discard.html")
)

// maxContentForm is the largest form of the Content section (the chat
// script's form is about 40 kB).
const maxContentForm = 2 << 20

// contentView is the Content page: what is unpublished, the parts to edit,
// and the release of the last publish.
type contentView struct {
	frame
	Parts       []contentPart
	Texts       []contentPart // the Markdown files
	Unpublished []repo.Commit
	Release     *releases.Row // the release of ?published=COMMIT, followed to live
	Waiting     bool          // that commit's release is not made yet, or is under way
	Here        string        // this page's address, for "Check again"
	CanPreview  bool          // Options.Previews: the draft can be previewed
	MainLive    bool          // main's files are the live release's (mainIsLive)
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
	p := &contentView{frame: frame{Title: "Content", Section: "content"}, Parts: edit.Parts, Texts: edit.Texts, Here: r.URL.RequestURI()}
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
		if rv, ok := h.releases.ListView(w, r); ok {
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
type theirChange = edit.TheirChange

// onPart serves a route of one part of the content, named by its path
// (/studio/content/{part}, /studio/content/products/{id}).
func (h *Handler) onPart(serve func(http.ResponseWriter, *http.Request, contentPart)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		slug := r.PathValue("part")
		if id := r.PathValue("id"); id != "" {
			slug = "products/" + id
		}
		part, ok := edit.PartBySlug(slug)
		if !ok {
			h.fail(w, r, http.StatusNotFound, "Not found", "There is no such part of the content.", "/studio/content")
			return
		}
		serve(w, r, part)
	}
}

// openPart reads the draft's version of part. On failure it answers with
// the error page and ok false.
func (h *Handler) openPart(w http.ResponseWriter, r *http.Request, part contentPart) (head repo.Commit, c *edit.Change, ok bool) {
	head, c, err := h.editor.Open(part)
	switch {
	case errors.Is(err, edit.ErrNoProduct):
		h.fail(w, r, http.StatusNotFound, "Not found", "There is no product "+strconv.Itoa(part.Product)+" in the content: it may have been deleted.", "/studio/content/products")
		return head, nil, false
	case err != nil:
		h.contentFailed(w, r, err)
		return head, nil, false
	}
	return head, c, true
}

// showEditor shows part's form as the draft has it.
func (h *Handler) showEditor(w http.ResponseWriter, r *http.Request, part contentPart) {
	if part.IsText() {
		h.showMarkdown(w, r, part)
		return
	}
	_, c, ok := h.openPart(w, r, part)
	if !ok {
		return
	}
	p := h.editView(c)
	if r.URL.Query().Get("saved") != "" {
		p.Notice = savedNotice
	}
	h.render(w, r, http.StatusOK, contentEditPage, p)
}

// editView is the form of a change, as it stands.
func (h *Handler) editView(c *edit.Change) *editView {
	part, doc, pointer := c.Part, c.Doc, c.Pointer
	p := &editView{frame: frame{Title: part.Title, Section: "content"}, Part: part, Action: "/studio/content/" + part.Slug,
		Form: part.Form(c.Schema, doc, pointer), Version: c.Version, Product: part.Product != 0}
	if part.Product > 0 {
		p.Delete = "/studio/content/" + part.Slug + "/delete"
	}
	if p.Product {
		p.Hot, p.Fresh = edit.Featured(doc, doc.At(pointer+"/id").Text())
		if name := doc.At(pointer + "/name").Text(); part.Product > 0 && name != "" {
			p.Title = part.Title + ": " + name
		}
	}
	return p
}

// unsaved is the form of a change not saved, each problem beside its
// field, with how many fields it changes.
func (h *Handler) unsaved(c *edit.Change) *editView {
	p := h.editView(c)
	for _, pr := range c.Problems {
		if pr.Field == edit.FreshField {
			p.FreshProblems = append(p.FreshProblems, pr.Text)
		} else if f := findField(p.Form, pr.Field); f != nil {
			f.Problems = append(f.Problems, pr.Text)
		} else {
			p.Others = append(p.Others, pr.Text)
		}
	}
	p.Changes = c.Changed()
	return p
}

func (h *Handler) contentFailed(w http.ResponseWriter, r *http.Request, err error) {
	h.log.Error("studio: content", "err", err)
	h.fail(w, r, http.StatusInternalServerError, "Not done", "The content cannot be read just now ("+err.Error()+"). Nothing was changed.", "/studio/content")
}

// save is POST /studio/content/{part} and /studio/content/products/{id}:
// a list's button (add, remove, move) or "Upload the photographs" shows
// the form again with it done, unsaved; Save checks the change with the
// build's content check and commits it to the draft, or shows each problem
// beside its field, saving nothing. A save made from a version of the part
// that someone has changed since is refused, with both versions shown.
func (h *Handler) save(w http.ResponseWriter, r *http.Request, part contentPart) {
	if part.IsText() {
		h.saveMarkdown(w, r, part)
		return
	}
	r, done, ok := h.readUploads(w, r)
	if !ok {
		return
	}
	defer done()
	var files []*multipart.FileHeader
	var ahead []string
	if r.MultipartForm != nil {
		files, ahead = r.MultipartForm.File[photoFieldName], r.MultipartForm.Value[uploadedField]
	}
	action := r.PostForm.Get("_action")
	c, err := h.editor.Apply(part, r.PostForm.Get("_version"), r.PostForm, files, ahead, action)
	switch {
	case errors.Is(err, edit.ErrUnknownVersion):
		h.unknownVersion(w, r, part)
	case errors.Is(err, edit.ErrNoProduct):
		h.fail(w, r, http.StatusNotFound, "Not saved", "There is no product "+strconv.Itoa(part.Product)+" in the content: it may have been deleted. Nothing was saved.", "/studio/content/products")
	case errors.Is(err, edit.ErrNoSuchButton):
		p := h.unsaved(c)
		p.Problem = "That button does nothing here. Nothing was saved."
		h.render(w, r, http.StatusBadRequest, contentEditPage, p)
	case len(c.Notes) > 0 || len(c.Problems) > 0 || action == "upload":
		h.showUnsaved(w, r, c)
	default:
		slug, message, err := h.editor.Save(r.Context(), c, releases.Signature(r))
		if err != nil {
			h.refuseSave(w, r, c, err)
			return
		}
		h.log.Info("studio: content saved", "part", part.Slug, "account", page.Actor(r), "message", message)
		http.Redirect(w, r, "/studio/content/"+slug+"?saved=1", http.StatusSeeOther)
	}
}

// showUnsaved shows the form again with what its photographs and buttons
// did, or what is wrong with it, nothing saved.
func (h *Handler) showUnsaved(w http.ResponseWriter, r *http.Request, c *edit.Change) {
	p, status := h.unsaved(c), http.StatusOK
	if len(c.Problems) > 0 {
		p.Problem, status = refusedSave, http.StatusUnprocessableEntity
	}
	if len(c.Notes) > 0 {
		p.Notice = strings.Join(c.Notes, " ") + " Nothing is saved until you press Save."
	}
	h.render(w, r, status, contentEditPage, p)
}

// refuseSave says why Save saved nothing: the form again, with the
// problem, or the error page.
func (h *Handler) refuseSave(w http.ResponseWriter, r *http.Request, c *edit.Change, err error) {
	var conflict *edit.Conflict
	var refused *edit.Refused
	p := h.unsaved(c)
	switch {
	case errors.Is(err, edit.ErrUnchanged):
		http.Redirect(w, r, "/studio/content/"+c.Part.Slug, http.StatusSeeOther)
		return
	case errors.As(err, &conflict) && conflict.Deleted:
		p.Problem = fmt.Sprintf("Not saved: %s deleted this product while you were editing (“%s”). Your version is below, unsaved.", conflict.Head.Author, conflict.Head.Subject())
		h.render(w, r, http.StatusConflict, contentEditPage, p)
	case errors.As(err, &conflict):
		p.Problem = fmt.Sprintf("Not saved: %s saved a newer version of the %s (“%s”, %s) while you were editing. Your version is below, unsaved; theirs is listed first. Save again to put yours over theirs.",
			conflict.Head.Author, strings.ToLower(c.Part.Title), conflict.Head.Subject(), conflict.Head.When.In(h.opts.Location).Format("15:04"))
		p.Theirs = conflict.Theirs
		h.render(w, r, http.StatusConflict, contentEditPage, p)
	case errors.As(err, &refused):
		p = h.editView(c)
		p.Others = contentform.Attach(p.Form, c.Part.File, c.Doc, refused.Lines)
		p.Problem, p.Changes = refusedSave, len(c.Fields)
		h.render(w, r, http.StatusUnprocessableEntity, contentEditPage, p)
	case errors.Is(err, edit.ErrCheckDidNotRun):
		h.log.Error("studio: content check", "err", err)
		p.Problem = "Nothing was saved: " + err.Error() + "."
		h.render(w, r, http.StatusInternalServerError, contentEditPage, p)
	case errors.Is(err, repo.ErrDraftMoved):
		p.Problem = "Not saved: someone saved at the same moment. Your version is below: press Save again."
		h.render(w, r, http.StatusConflict, contentEditPage, p)
	default:
		h.contentFailed(w, r, err)
	}
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
		h.fail(w, r, http.StatusConflict, "Not published", "Nothing was published. "+releases.NoBuilder, "/studio/content")
		return
	}
	commit, err := h.opts.Content.PublishDraft(releases.Signature(r))
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
	h.log.Info("studio: draft published", "commit", commit, "changes", len(list), "account", page.Actor(r))
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
	h.log.Info("studio: draft discarded", "account", page.Actor(r))
	http.Redirect(w, r, "/studio/content?discarded=1", http.StatusSeeOther)
}
