package releases

import (
	"net/http"
	"net/url"
	"path"
	"strings"

	"studio/internal/workspace/page"
)

// Previews: the studio looks at the editor's draft on the site itself, at
// its real URLs, before publishing it. "Preview" sets a cookie that says
// so and opens the page being edited; while its holder is signed in, the
// server answers this browser's requests for the site with the draft's
// pages, rendered on request (internal/server, internal/publish), under a
// banner with the way back and the way out (/studio/preview/leave).

// The preview cookie is named like the session's (page.Kit.Cookie). Lax, not
// Strict: a preview opened from a link elsewhere still needs the session,
// which is Strict.
func (h *Handler) previewCookieName(r *http.Request) string { return h.kit.Cookie(r, "studio-preview") }

// previewDraft is the preview cookie's value: the draft, whatever it
// holds when a page is asked for, so a save shows at the next reload.
const previewDraft = "draft"

// PreviewDraft is POST /studio/content/preview: the draft is shown in this
// browser from now on, starting at the form's page field (the page being
// edited, "/product/7"), or the home page. Nothing is built.
func (h *Handler) PreviewDraft(w http.ResponseWriter, r *http.Request) {
	if err := h.opts.Previews.CanPreview(); err != nil {
		h.kit.Fail(w, r, http.StatusConflict, "Preview", "The preview cannot be shown here ("+err.Error()+").", "/studio/content")
		return
	}
	http.SetCookie(w, &http.Cookie{Name: h.previewCookieName(r), Value: previewDraft, Path: "/", HttpOnly: true,
		Secure: h.kit.Visitor.IsHTTPS(r), SameSite: http.SameSiteLaxMode})
	h.kit.Log.Info("studio: preview", "account", page.Actor(r))
	http.Redirect(w, r, sitePage(r.PostFormValue("page")), http.StatusSeeOther)
}

// sitePage is p when it is the path of a page of the site (no host, no
// query, not the workspace's nor the API's, written as the site writes
// it), and the home page otherwise: a form's field is never a way off
// the site.
func sitePage(p string) string {
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" ||
		!strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.ContainsAny(p, "\\%") || path.Clean(p) != p ||
		p == "/studio" || strings.HasPrefix(p, "/studio/") || strings.HasPrefix(p, "/api/") {
		return "/"
	}
	return p
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

// Previewing is the draft's tree this request may see the site as
// (server.Workspace): when its cookie asks for the draft and it comes with
// a live session; "" otherwise. Every request of the site with a cookie
// asks, so one without the preview cookie is answered before any
// database work.
func (h *Handler) Previewing(r *http.Request) string {
	if h.opts.Previews == nil {
		return ""
	}
	c, err := r.Cookie(h.previewCookieName(r))
	if err != nil || c.Value != previewDraft {
		return ""
	}
	if !h.opts.Sessions.Live(r) {
		return ""
	}
	draft, _, err := h.opts.Previews.Draft()
	if err != nil {
		h.kit.Log.Error("studio: read the draft for a preview; the live site answers", "err", err)
		return ""
	}
	return draft.Tree
}
