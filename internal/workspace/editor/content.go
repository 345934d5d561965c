package editor

import (
	"errors"
	"net/http"
	"net/url"

	"studio/internal/publish/repo"
	"studio/internal/workspace/edit"
	"studio/internal/workspace/page"
	"studio/internal/workspace/releases"
)

// The Content page, each part's form and its save, publishing and
// discarding the draft.
var (
	contentPage = newPage("content.html")
	discardPage = newPage("content-discard.html")
)

// contentView is the Content page: what is unpublished, the parts to edit,
// and the publish it follows.
type contentView struct {
	page.Frame
	Parts       []edit.Part
	Texts       []edit.Part // the Markdown files
	Unpublished []repo.Commit
	Publishing  *publishing // the publish of ?published=COMMIT, followed to live
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

// Index is GET /studio/content. ?published=COMMIT follows the publish
// of that commit: the page follows its stages by itself (Frame.Follow)
// until it is live, ready or stopped.
func (h *Handler) Index(w http.ResponseWriter, r *http.Request) {
	p := &contentView{Frame: page.Frame{Title: "Content", Section: "content"}, Parts: edit.Parts, Texts: edit.Texts}
	list, err := h.opts.Content.Unpublished()
	if err != nil {
		h.kit.Log.Error("studio: read the draft", "err", err)
		h.fail(w, r, http.StatusInternalServerError, "Content", "The content cannot be read just now. Try again in a minute; if it stays so, the server’s log says why.", "")
		return
	}
	p.Unpublished, p.CanPreview, p.MainLive = list, h.opts.Previews, h.mainIsLive()
	q := r.URL.Query()
	if q.Get("saved") != "" {
		p.Notice = savedNotice
	}
	if q.Get("discarded") != "" {
		p.Notice = discardedNotice(p.MainLive)
	}
	if commit := q.Get("published"); commit != "" && h.opts.Releases != nil {
		if p.Publishing, err = h.follow(commit); err != nil {
			h.kit.Log.Error("studio: read releases", "err", err)
			h.fail(w, r, http.StatusInternalServerError, "Content", "How the publish is going cannot be read just now. Try again in a minute; if it stays so, the server’s log says why.", "/studio/content")
			return
		}
		p.Follow = p.Publishing.UnderWay
	}
	h.render(w, r, http.StatusOK, contentPage, p)
}

// Publish is POST /studio/content/publish: the draft goes on main,
// is built, and the Content page follows its release to live.
func (h *Handler) Publish(w http.ResponseWriter, r *http.Request) {
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
		// The start-up log says how to add the builder (cmd/studio): she can only ask.
		h.fail(w, r, http.StatusConflict, "Not published", "Nothing was published: this server cannot build the site. Ask whoever runs it; your changes stay unpublished until then.", "/studio/content")
		return
	}
	commit, err := h.opts.Content.PublishDraft(releases.Signature(r))
	var conflict *repo.ConflictError
	if errors.As(err, &conflict) {
		h.fail(w, r, http.StatusConflict, "Not published", "Nothing was published: since these changes began, someone changed the live content outside the workspace ("+edit.FilesWords(conflict.Files)+"). Discard the unpublished changes and make them again, or ask whoever runs the server who changed it.", "/studio/content")
		return
	}
	if err != nil {
		h.contentFailed(w, r, err)
		return
	}
	if _, err := h.opts.Releases.PublishNew(); err != nil {
		h.kit.Log.Error("studio: publish", "err", err)
	}
	h.kit.Log.Info("studio: draft published", "commit", commit, "changes", len(list), "account", page.Actor(r))
	http.Redirect(w, r, "/studio/content?"+url.Values{"published": {commit}}.Encode(), http.StatusSeeOther)
}

// ConfirmDiscard is GET /studio/content/discard: what would be dropped.
func (h *Handler) ConfirmDiscard(w http.ResponseWriter, r *http.Request) {
	list, err := h.opts.Content.Unpublished()
	if err != nil {
		h.contentFailed(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, discardPage, &contentView{Frame: page.Frame{Title: "Discard the unpublished changes?", Section: "content"}, Unpublished: list, MainLive: h.mainIsLive()})
}

// Discard is POST /studio/content/discard.
func (h *Handler) Discard(w http.ResponseWriter, r *http.Request) {
	if err := h.opts.Content.DiscardDraft(); err != nil {
		h.contentFailed(w, r, err)
		return
	}
	h.kit.Log.Info("studio: draft discarded", "account", page.Actor(r))
	http.Redirect(w, r, "/studio/content?discarded=1", http.StatusSeeOther)
}
