package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"studio/internal/publish"
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
	Preview  template.HTML
	Version  string
	Problems []string // the content check's lines of this file
	Theirs   string   // a newer save's text, when this one was refused
}

// The preview renders as the site does closely enough to read (headings,
// lists, links, tables); the site's own renderer fills in the facts
// ({{site.name}}), which the preview shows as written. Markup typed in the
// text is not passed through.
var previewMarkdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

func renderMarkdown(text string) template.HTML {
	body := text
	if rest, ok := strings.CutPrefix(text, "---\n"); ok {
		if _, after, found := strings.Cut(rest, "\n---\n"); found {
			body = after // the front matter: the fields above the text
		}
	}
	var out bytes.Buffer
	if err := previewMarkdown.Convert([]byte(body), &out); err != nil {
		return template.HTML("<p>" + template.HTMLEscapeString(err.Error()) + "</p>")
	}
	return template.HTML(out.String()) // goldmark escapes raw HTML unless told otherwise
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
	p := &markdownView{frame: frame{Title: part.Title, Section: "content"}, Part: part, Text: string(text), Preview: renderMarkdown(string(text)), Version: head.Hash}
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
	p := &markdownView{frame: frame{Title: part.Title, Section: "content"}, Part: part, Text: text, Preview: renderMarkdown(text), Version: base}
	if r.PostForm.Get("_action") == "preview" {
		h.render(w, r, http.StatusOK, markdownPage, p)
		return
	}
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
	if head.Hash != base {
		now, err := h.opts.Content.ReadFile(head.Hash, part.File)
		if err != nil {
			h.contentFailed(w, r, err)
			return
		}
		if !bytes.Equal(now, was) {
			p.Problem = fmt.Sprintf("Not saved: %s saved a newer version of this text (“%s”) while you were editing. Theirs is below yours; press Save again to put yours over it.", head.Author, head.Subject())
			p.Theirs, p.Version = string(now), head.Hash
			h.render(w, r, http.StatusConflict, markdownPage, p)
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
		h.render(w, r, http.StatusInternalServerError, markdownPage, p)
		return
	}
	if len(lines) > 0 {
		p.Problem, p.Problems = "Nothing was saved: correct the text as the lines below say.", lines
		h.render(w, r, http.StatusUnprocessableEntity, markdownPage, p)
		return
	}
	if _, err := h.opts.Content.SaveDraft(base, map[string][]byte{part.File: []byte(text)}, nil, signature(r), part.Title+": text"); err != nil {
		if errors.Is(err, publish.ErrDraftMoved) {
			p.Problem = "Not saved: someone saved at the same moment. Your text is below: press Save again."
			head, _, _ := h.opts.Content.Draft()
			p.Version = head.Hash
			h.render(w, r, http.StatusConflict, markdownPage, p)
			return
		}
		h.contentFailed(w, r, err)
		return
	}
	h.log.Info("studio: content saved", "part", part.Slug, "account", actor(r))
	http.Redirect(w, r, "/studio/content/"+part.Slug+"?saved=1", http.StatusSeeOther)
}
