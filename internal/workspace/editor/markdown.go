package editor

import (
	"errors"
	"html/template"
	"net/http"

	"studio/internal/publish/repo"
	"studio/internal/workspace/edit"
	"studio/internal/workspace/page"
	"studio/internal/workspace/releases"
)

// The long texts of the Content section (edit.Texts), each a Markdown
// file of content/ edited whole, with its rendering beside it.

var markdownPage = newPage("content-markdown.html")

// textForm is the id of a text's form.
const textForm = "text-form"

// FormID is the id of the text's form.
func (*markdownView) FormID() string { return textForm }

// markdownView is one Markdown file's form and its rendering.
type markdownView struct {
	page.Frame
	Part     edit.Part
	Text     string
	Preview  template.HTML // the text as the site shows it
	Unshown  string        // why there is no preview
	Version  string
	Problems []string // the content check's lines of this file
	// A newer save's text, when this one was refused: the text is one
	// field, both values shown to choose one.
	Conflicts []conflictView
	Against   string // the draft's commit the conflict was shown against
}

func (h *Handler) showMarkdown(w http.ResponseWriter, r *http.Request, part edit.Part) {
	head, _, err := h.opts.Content.Draft()
	var text []byte
	if err == nil {
		text, err = h.opts.Content.ReadFile(head.Hash, part.File)
	}
	if err != nil {
		h.contentFailed(w, r, err)
		return
	}
	p := &markdownView{Frame: page.Frame{Title: part.Title, Section: "content"}, Part: part, Text: string(text), Version: head.Hash}
	p.Preview, p.Unshown = h.editor.Preview(r.Context(), head.Hash, part, text)
	if r.URL.Query().Get("saved") != "" {
		p.Notice = savedNotice
	}
	h.render(w, r, http.StatusOK, markdownPage, p)
}

// saveMarkdown is POST of a Markdown part: "Show the preview" renders the
// text beside it, unsaved; Save checks it with the build's content check
// and commits it to the draft, as the other forms do (edit.Editor.SaveText).
func (h *Handler) saveMarkdown(w http.ResponseWriter, r *http.Request, part edit.Part) {
	base, text := r.PostForm.Get("_version"), edit.NormalText(r.PostForm.Get("text"))
	p := &markdownView{Frame: page.Frame{Title: part.Title, Section: "content"}, Part: part, Text: text, Version: base}
	if _, err := h.opts.Content.ReadFile(base, part.File); err != nil {
		h.unknownVersion(w, r, part)
		return
	}
	// The form again, with the text rendered beside it, with the facts of
	// the draft as it is now.
	show := func(status int) {
		head, _, err := h.opts.Content.Draft()
		if err != nil {
			h.contentFailed(w, r, err)
			return
		}
		p.Preview, p.Unshown = h.editor.Preview(r.Context(), head.Hash, part, []byte(text))
		h.render(w, r, status, markdownPage, p)
	}
	if r.PostForm.Get("_action") == "preview" {
		show(http.StatusOK)
		return
	}
	err := h.editor.SaveText(r.Context(), part, base, text, edit.ChoicesOf(r.PostForm), releases.Signature(r))
	var conflict *edit.TextConflict
	var refused *edit.Refused
	switch {
	case err == nil:
		h.kit.Log.Info("studio: content saved", "part", part.Slug, "account", page.Actor(r))
		http.Redirect(w, r, "/studio/content/"+part.Slug+"?saved=1", http.StatusSeeOther)
	case errors.Is(err, edit.ErrUnchanged):
		http.Redirect(w, r, "/studio/content/"+part.Slug, http.StatusSeeOther)
	case errors.Is(err, edit.ErrUnknownVersion):
		h.unknownVersion(w, r, part)
	case errors.As(err, &conflict):
		field := edit.FieldConflict{Name: edit.TextField, Label: "Text", Mine: text, Theirs: conflict.Theirs, By: conflict.By}
		p.Conflicts, p.Problem = h.conflictViews(thingName(part, ""), &edit.Conflict{Fields: []edit.FieldConflict{field}})
		p.Problem += " Choose which to keep, then press Save."
		if r.PostForm.Get(edit.AgainstField) == conflict.Head.Hash {
			p.Problem = "Not saved yet: choose which text to keep (“Yours” or the one saved meanwhile), then press Save."
		}
		// Above the text and its preview, for the room two texts need.
		p.Conflicts[0].Form = textForm
		p.Against = conflict.Head.Hash
		show(http.StatusConflict)
	case errors.As(err, &refused):
		p.Problem, p.Problems = "Nothing was saved: correct the text as the lines below say.", h.editor.Say(part, base, nil, refused.Lines)
		show(http.StatusUnprocessableEntity)
	case errors.Is(err, edit.ErrCheckDidNotRun):
		h.kit.Log.Error("studio: content check", "err", err)
		p.Problem = checkDidNotRun
		show(http.StatusInternalServerError)
	case errors.Is(err, repo.ErrDraftMoved):
		p.Problem = "Not saved: someone saved at the same moment. Your text is below: press Save again."
		head, _, _ := h.opts.Content.Draft()
		p.Version = head.Hash
		show(http.StatusConflict)
	default:
		h.contentFailed(w, r, err)
	}
}
