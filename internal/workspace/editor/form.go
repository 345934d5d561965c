package editor

import (
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"studio/internal/contentform"
	"studio/internal/publish/repo"
	"studio/internal/workspace/edit"
	"studio/internal/workspace/page"
	"studio/internal/workspace/releases"
)

// A part's form: shown as the draft has it, and saved (save), or shown
// again with its problems, unsaved. A Markdown text is markdown.go's.

var contentEditPage = newPage("content-edit.html")

// refusedSave heads the summary of a form's problems.
const refusedSave = "Nothing was saved. Correct these, then save again:"

// editView is one part's form.
type editView struct {
	page.Frame
	Part          edit.Part
	Action        string // where the form posts
	Form          *contentform.Field
	Version       string         // the commit the form was made from, posted back
	Others        []string       // lines of the check that name no field of the form
	Conflicts     []conflictView // fields a newer save of the same part changed too: both values, to choose one
	Against       string         // the draft's commit the conflicts were shown against, posted back
	Changes       int            // how many fields the form changed, unsaved (after a list button)
	Product       bool           // a product's form: photographs can be added
	Files         bool           // the form may post files (a product's photographs, a page's pictures)
	Hot           bool           // the product is in What's Hot
	Fresh         bool           // the product is the home page's Fresh from the studio piece
	FreshProblems []string
	Delete        string          // the product's delete page, "" for a new one
	Preview       string          // the product's page on the site, to preview the draft at; "" for a new one, or without previews
	Namesakes     []edit.Namesake // the other products of the same name: a warning, not a refusal
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
		own := append(place[:len(place):len(place)], f.Label)
		for _, problem := range f.Problems {
			list = append(list, markedField{f.ID, strings.Join(own, " › "), problem})
		}
		// A list's items name themselves ("Phone 1"): its own label would repeat.
		if f.Kind == "list" || f.Kind == "photos" {
			own = place
		}
		for _, c := range f.Fields {
			walk(c, own)
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

// Edit is GET /studio/content/{part} and /studio/content/products/{id}.
func (h *Handler) Edit(w http.ResponseWriter, r *http.Request) { h.onPart(h.showEditor)(w, r) }

// Save is POST /studio/content/{part} and /studio/content/products/{id}.
func (h *Handler) Save(w http.ResponseWriter, r *http.Request) { h.onPart(h.save)(w, r) }

// showEditor shows part's form as the draft has it.
func (h *Handler) showEditor(w http.ResponseWriter, r *http.Request, part edit.Part) {
	if part.IsText() {
		h.showMarkdown(w, r, part)
		return
	}
	_, c, ok := h.openPart(w, r, part)
	if !ok {
		return
	}
	p := h.editView(c)
	if saved := r.URL.Query().Get("saved"); saved != "" {
		p.Notice = savedNotice
		if since := r.URL.Query().Get("since"); since != "" {
			p.Notice = h.keptNotice(part, since, saved)
		}
	}
	h.render(w, r, http.StatusOK, contentEditPage, p)
}

// editView is the form of a change, as it stands.
func (h *Handler) editView(c *edit.Change) *editView {
	part, doc, pointer := c.Part, c.Doc, c.Pointer
	p := &editView{Frame: page.Frame{Title: part.Title, Section: "content"}, Part: part, Action: "/studio/content/" + part.Slug,
		Form: part.Form(c.Schema, doc, pointer), Version: c.Version, Product: part.Product != 0, Files: part.TakesFiles()}
	if part.Product > 0 {
		p.Delete = "/studio/content/" + part.Slug + "/delete"
		if h.opts.Previews {
			p.Preview = "/product/" + strconv.Itoa(part.Product)
		}
	}
	if p.Product {
		p.Hot, p.Fresh = edit.Featured(doc, doc.At(pointer+"/id").Text())
		p.Namesakes = edit.Namesakes(doc, pointer)
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
		} else if f := p.Form.Find(pr.Field); f != nil {
			f.Problems = append(f.Problems, pr.Text)
		} else {
			p.Others = append(p.Others, pr.Text)
		}
	}
	p.Changes = c.Changed()
	p.liftHidden()
	return p
}

// save is POST /studio/content/{part} and /studio/content/products/{id}:
// a list's button (add, remove, move) or "Upload the photographs" shows
// the form again with it done, unsaved; Save checks the change with the
// build's content check and commits it to the draft, or shows each problem
// beside its field, saving nothing. A save made from a version of the part
// that someone has changed since is refused, with both versions shown.
func (h *Handler) save(w http.ResponseWriter, r *http.Request, part edit.Part) {
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
	var pictures map[string][]*multipart.FileHeader
	if r.MultipartForm != nil {
		files, ahead, pictures = r.MultipartForm.File[PhotoField], r.MultipartForm.Value[UploadedField], r.MultipartForm.File
	}
	action := r.PostForm.Get("_action")
	c, err := h.editor.Apply(part, r.PostForm.Get("_version"), r.PostForm, files, ahead, action)
	if err == nil {
		h.editor.AddPictures(c, pictures)
	}
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
		h.kit.Log.Info("studio: content saved", "part", part.Slug, "account", page.Actor(r), "message", message)
		saved := "?saved=1"
		if c.Over != "" {
			// Merged over others' saves: the page says whose it kept.
			saved = "?saved=" + c.Saved + "&since=" + c.Over
		}
		http.Redirect(w, r, "/studio/content/"+slug+saved, http.StatusSeeOther)
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
		p.Problem = fmt.Sprintf("Not saved: %s deleted %s %s, while you were editing. What you typed is below, unsaved: to keep it, add it as a new product.",
			conflict.By.Who, thingName(c.Part, c.Base.At(c.Pointer+"/name").Text()), h.at(conflict.By.When))
		h.render(w, r, http.StatusConflict, contentEditPage, p)
	case errors.As(err, &conflict):
		// The form again: the merge, with her values in the fields in conflict.
		shown := *c
		shown.Doc = conflict.Shown
		p = h.unsaved(&shown)
		p.Conflicts, p.Problem = h.conflictViews(thingName(c.Part, c.Base.At(c.Pointer+"/name").Text()), conflict)
		p.Problem += " Choose which to keep below, then press Save; your other changes are kept in the form."
		if r.PostForm.Get(edit.AgainstField) == conflict.Head.Hash {
			p.Problem = "Not saved yet: choose which to keep for each field below (“Yours” or the one saved meanwhile), then press Save."
		}
		p.Against, p.Changes = conflict.Head.Hash, c.Changed()
		h.render(w, r, http.StatusConflict, contentEditPage, p)
	case errors.As(err, &refused):
		p = h.editView(c)
		rest := contentform.Attach(p.Form, c.Part.File, c.Doc, refused.Lines)
		p.Others = h.editor.Say(c.Part, c.Version, map[string]*contentform.Value{c.Part.File: c.Doc}, rest)
		p.liftHidden()
		p.Problem, p.Changes = refusedSave, len(c.Fields)
		h.render(w, r, http.StatusUnprocessableEntity, contentEditPage, p)
	case errors.Is(err, edit.ErrCheckDidNotRun):
		h.kit.Log.Error("studio: content check", "err", err)
		p.Problem = checkDidNotRun
		h.render(w, r, http.StatusInternalServerError, contentEditPage, p)
	case errors.Is(err, repo.ErrDraftMoved):
		p.Problem = "Not saved: someone saved at the same moment. Your version is below: press Save again."
		h.render(w, r, http.StatusConflict, contentEditPage, p)
	default:
		h.contentFailed(w, r, err)
	}
}

// liftHidden puts the problems of the form's hidden fields (a photograph's
// file, a product's id), which the page does not show, on the field that
// holds each, or with the lines of no field when the form itself does.
func (v *editView) liftHidden() {
	var walk func(f *contentform.Field, holder *contentform.Field)
	walk = func(f *contentform.Field, holder *contentform.Field) {
		for _, c := range f.Fields {
			if c.Kind != "hidden" {
				walk(c, c)
				continue
			}
			for _, problem := range c.Problems {
				if holder == nil {
					v.Others = append(v.Others, c.Label+": "+problem)
				} else {
					holder.Problems = append(holder.Problems, problem)
				}
			}
			c.Problems = nil
		}
	}
	if v.Form != nil {
		walk(v.Form, nil)
	}
}
