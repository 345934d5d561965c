package releases

import (
	"net/http"
	"net/url"

	published "studio/internal/publish/releases"
	"studio/internal/workspace/page"
)

// Previews: the studio looks at the editor's draft on the site itself, at
// its real URLs, before publishing it. "Preview" builds the draft into a
// preview release (internal/publish); once that is ready, a cookie names
// it, and while its holder is signed in the server answers this browser's
// requests for the site from it (Previewing), under a banner with the way
// back and the way out (/studio/preview/leave).

var previewPage = newPage("preview.html")

// The preview cookie is named like the session's (page.Kit.Cookie). Lax, not
// Strict: a preview opened from a link elsewhere still needs the session,
// which is Strict.
func (h *Handler) previewCookieName(r *http.Request) string { return h.kit.Cookie(r, "studio-preview") }

// previewView is a preview's build as the page shows it.
type previewView struct {
	page.Frame
	ID         string
	Title      string // the previewed commit's message's first line
	Building   string // while queued or building: what it is doing
	Ready      bool
	Problems   []string // a failed build's
	Gone       bool     // no such preview: only the newest are kept
	NothingNew bool     // it is of main: nothing is unpublished
	Outdated   bool     // the draft has changed since
}

// PreviewDraft is POST /studio/content/preview: a build of the draft as
// it is now (or the ready preview of its files), then its page.
func (h *Handler) PreviewDraft(w http.ResponseWriter, r *http.Request) {
	draft, _, err := h.opts.Previews.Draft()
	if err != nil {
		h.kit.Log.Error("studio: read the draft", "err", err)
		h.kit.Fail(w, r, http.StatusInternalServerError, "Preview", "The draft cannot be read just now. Try again in a minute; if it stays so, the server's log says why.", "/studio/content")
		return
	}
	id, err := h.opts.Previews.Preview(draft)
	if err != nil {
		h.kit.Log.Error("studio: preview", "commit", draft.Hash, "err", err)
		h.kit.Fail(w, r, http.StatusConflict, "Preview", "The preview could not be started ("+err.Error()+").", "/studio/content")
		return
	}
	h.kit.Log.Info("studio: preview", "release", id, "commit", draft.Hash, "account", page.Actor(r))
	http.Redirect(w, r, previewPath(id), http.StatusSeeOther)
}

func previewPath(id string) string {
	return "/studio/content/preview?" + url.Values{"id": {id}}.Encode()
}

// PreviewStatus is GET /studio/content/preview?id=…: where the preview's
// build is, with "Check again" (no reload of its own, as on the releases
// page); once it is ready, the cookie that opens it and the link to the
// site.
func (h *Handler) PreviewStatus(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	p := &previewView{Frame: page.Frame{Title: "Preview", Section: "content"}, ID: id}
	rel, err := h.opts.Previews.Release(id)
	if err != nil || !rel.Preview {
		p.Gone = true
		h.pages.Render(w, r, http.StatusNotFound, previewPage, p)
		return
	}
	p.Title = rel.Subject()
	if draft, isDraft, err := h.opts.Previews.Draft(); err == nil {
		p.NothingNew = !isDraft && draft.Tree == rel.Tree
		p.Outdated = draft.Tree != rel.Tree
	}
	switch rel.Status {
	case published.Ready:
		p.Ready = true
		http.SetCookie(w, &http.Cookie{Name: h.previewCookieName(r), Value: rel.ID, Path: "/", HttpOnly: true,
			Secure: h.kit.Visitor.IsHTTPS(r), SameSite: http.SameSiteLaxMode})
	case published.Failed:
		p.Problems = rel.Problems
	case published.Queued:
		p.Building = "Building the preview — waiting for the build before it"
	default:
		p.Building = "Building the preview"
		if rel.Stage != "" {
			p.Building += " — " + rel.Stage
		}
	}
	h.pages.Render(w, r, http.StatusOK, previewPage, p)
}

// LeavePreview is /studio/preview/leave: the site is the live one again
// in this browser.
func (h *Handler) LeavePreview(w http.ResponseWriter, r *http.Request) {
	h.ForgetPreview(w, r)
	http.Redirect(w, r, "/studio/content", http.StatusSeeOther)
}

// ForgetPreview ends this browser's preview (leaving it, signing out).
func (h *Handler) ForgetPreview(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: h.previewCookieName(r), Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		Secure: h.kit.Visitor.IsHTTPS(r), SameSite: http.SameSiteLaxMode})
}

// Previewing is the preview this request may see the site as
// (server.Workspace): the ready preview its cookie names, when it comes
// with a live session; "" otherwise. Every request of the site asks, so
// one without the cookie is answered before any database work.
func (h *Handler) Previewing(r *http.Request) string {
	if h.opts.Previews == nil {
		return ""
	}
	c, err := r.Cookie(h.previewCookieName(r))
	if err != nil || c.Value == "" {
		return ""
	}
	if !h.opts.Sessions.Live(r) {
		return ""
	}
	rel, err := h.opts.Previews.Release(c.Value)
	if err != nil || !rel.Preview || rel.Status != published.Ready {
		return ""
	}
	return rel.ID
}
