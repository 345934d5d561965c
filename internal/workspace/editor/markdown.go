package editor

import (
	"errors"
	"fmt"
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

// markdownView is one Markdown file's form and its rendering.
type markdownView struct {
	page.Frame
	Part     edit.Part
	Text     string
	Preview  template.HTML // the text as the site shows it
	Unshown  string        // why there is no preview
	Version  string
	Problems []string // the content check's lines of this file
	Theirs   string   // a newer save's text, when this one was refused
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
	err := h.editor.SaveText(r.Context(), part, base, text, releases.Signature(r))
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
		p.Problem = fmt.Sprintf("Not saved: %s saved a newer version of this text (“%s”) while you were editing. Theirs is below yours; press Save again to put yours over it.", conflict.Head.Author, conflict.Head.Subject())
		p.Theirs, p.Version = conflict.Theirs, conflict.Head.Hash
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
