package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strings"

	"studio/internal/publish/build"
	"studio/internal/publish/repo"
)

// The long texts of the Content section: the About, Bespoke and FAQ pages
// and the four policies, each a Markdown file of content/ edited whole,
// with its rendering beside it.

var markdownParts = []contentPart{
	{Slug: "text-about", Title: "About page: the story", File: "pages/about.md"},
	{Slug: "text-bespoke", Title: "Bespoke page: the text", File: "pages/bespoke.md"},
	{Slug: "text-faq", Title: "FAQ", File: "pages/faq.md"},
	{Slug: "policy-privacy", Title: "Privacy policy", File: "policies/privacy.md"},
	{Slug: "policy-returns", Title: "Returns and refund policy", File: "policies/returns.md"},
	{Slug: "policy-shipping", Title: "Shipping policy", File: "policies/shipping.md"},
	{Slug: "policy-terms", Title: "Terms and conditions", File: "policies/terms.md"},
}

var markdownPage = newPage("content-markdown.html")

// markdownView is one Markdown file's form and its rendering.
type markdownView struct {
	frame
	Part     contentPart
	Text     string
	Preview  template.HTML // the text as the site shows it
	Unshown  string        // why there is no preview
	Version  string
	Problems []string // the content check's lines of this file
	Theirs   string   // a newer save's text, when this one was refused
}

// preview renders text, part's file changed, as the site will show it: by
// the build's own renderer, with the facts of commit base filled in. What
// stops it (a fact that does not exist) is said in its place.
func (h *Handler) preview(ctx context.Context, base string, part contentPart, text []byte) (template.HTML, string) {
	dir, done, err := h.scratchContent(base, nil)
	if err != nil {
		return "", "The preview could not be made: " + err.Error()
	}
	defer done()
	html, err := h.opts.Builder.RenderMarkdown(ctx, dir, part.File, text)
	var problem *build.ContentError
	switch {
	case errors.As(err, &problem):
		return "", "The site cannot show this text: " + strings.Join(problem.Problems, "; ")
	case err != nil:
		return "", "The preview could not be made: " + err.Error()
	}
	// The build's renderer shows markup typed in the text as text
	// (web/app/lib/markdown.server.ts), as the site does.
	return template.HTML(html), ""
}

func (h *Handler) showMarkdown(w http.ResponseWriter, r *http.Request, part contentPart) {
	head, _, err := h.opts.Content.Draft()
	var text []byte
	if err == nil {
		text, err = h.opts.Content.ReadFile(head.Hash, part.File)
	}
	if err != nil {
		h.contentFailed(w, r, err)
		return
	}
	p := &markdownView{frame: frame{Title: part.Title, Section: "content"}, Part: part, Text: string(text), Version: head.Hash}
	p.Preview, p.Unshown = h.preview(r.Context(), head.Hash, part, text)
	if r.URL.Query().Get("saved") != "" {
		p.Notice = savedNotice
	}
	h.render(w, r, http.StatusOK, markdownPage, p)
}

// saveMarkdown is POST of a Markdown part: "Show the preview" renders the
// text beside it, unsaved; Save checks it with the build's content check
// and commits it to the draft, as the other forms do.
func (h *Handler) saveMarkdown(w http.ResponseWriter, r *http.Request, part contentPart) {
	base := r.PostForm.Get("_version")
	text := strings.ReplaceAll(r.PostForm.Get("text"), "\r\n", "\n")
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	p := &markdownView{frame: frame{Title: part.Title, Section: "content"}, Part: part, Text: text, Version: base}
	was, err := h.opts.Content.ReadFile(base, part.File)
	if err != nil {
		h.unknownVersion(w, r, part)
		return
	}
	head, _, err := h.opts.Content.Draft()
	if err != nil {
		h.contentFailed(w, r, err)
		return
	}
	// The form again, with the text rendered beside it, with the facts of
	// the draft as it is now.
	show := func(status int) {
		p.Preview, p.Unshown = h.preview(r.Context(), head.Hash, part, []byte(text))
		h.render(w, r, status, markdownPage, p)
	}
	if r.PostForm.Get("_action") == "preview" {
		show(http.StatusOK)
		return
	}
	if head.Hash != base {
		now, err := h.opts.Content.ReadFile(head.Hash, part.File)
		if err != nil {
			h.contentFailed(w, r, err)
			return
		}
		if !bytes.Equal(now, was) {
			p.Problem = fmt.Sprintf("Not saved: %s saved a newer version of this text (“%s”) while you were editing. Theirs is below yours; press Save again to put yours over it.", head.Author, head.Subject())
			p.Theirs, p.Version = string(now), head.Hash
			show(http.StatusConflict)
			return
		}
		base = head.Hash
	}
	if string(was) == text {
		http.Redirect(w, r, "/studio/content/"+part.Slug, http.StatusSeeOther)
		return
	}
	lines, err := h.checkChange(r.Context(), base, map[string][]byte{part.File: []byte(text)})
	if err != nil {
		p.Problem = "Nothing was saved: the content check could not run (" + err.Error() + ")."
		show(http.StatusInternalServerError)
		return
	}
	if len(lines) > 0 {
		p.Problem, p.Problems = "Nothing was saved: correct the text as the lines below say.", lines
		show(http.StatusUnprocessableEntity)
		return
	}
	if _, err := h.opts.Content.SaveDraft(base, map[string][]byte{part.File: []byte(text)}, nil, signature(r), part.Title+": text"); err != nil {
		if errors.Is(err, repo.ErrDraftMoved) {
			p.Problem = "Not saved: someone saved at the same moment. Your text is below: press Save again."
			head, _, _ := h.opts.Content.Draft()
			p.Version = head.Hash
			show(http.StatusConflict)
			return
		}
		h.contentFailed(w, r, err)
		return
	}
	h.log.Info("studio: content saved", "part", part.Slug, "account", actor(r))
	http.Redirect(w, r, "/studio/content/"+part.Slug+"?saved=1", http.StatusSeeOther)
}
