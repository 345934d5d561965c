package editor

import (
	"errors"
	"net/http"
	"strconv"

	"studio/internal/publish/repo"
	"studio/internal/workspace/edit"
)

// The parts of the content as the handlers find them: each route of a
// part (onPart), its draft (openPart), and what is said when it cannot be
// read.

// savedNotice is what a page says after a save.
const savedNotice = "Saved to the unpublished changes. Visitors still see the live site until you publish."

// unknownVersion answers a form whose _version names no commit: nothing saved.
func (h *Handler) unknownVersion(w http.ResponseWriter, r *http.Request, part edit.Part) {
	h.fail(w, r, http.StatusBadRequest, "Not saved", "This form is from a version of the content the server does not have. Nothing was saved: open the page again.", "/studio/content/"+part.Slug)
}

// onPart serves a route of one part of the content, named by its path
// (/studio/content/{part}, /studio/content/products/{id}).
func (h *Handler) onPart(serve func(http.ResponseWriter, *http.Request, edit.Part)) http.HandlerFunc {
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
func (h *Handler) openPart(w http.ResponseWriter, r *http.Request, part edit.Part) (head repo.Commit, c *edit.Change, ok bool) {
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

// contentFailed says the content could not be read, and logs why (the
// page says only what she can do).
func (h *Handler) contentFailed(w http.ResponseWriter, r *http.Request, err error) {
	h.kit.Log.Error("studio: content", "err", err)
	h.fail(w, r, http.StatusInternalServerError, "Not done", "The content cannot be read just now. Nothing was changed. Try again in a minute; if it stays so, ask whoever runs the server.", "/studio/content")
}

// checkDidNotRun is what a page says when the content check could not
// run (edit.ErrCheckDidNotRun); the log says why.
const checkDidNotRun = "Nothing was saved: the change could not be checked just now. Try again in a minute; if it stays so, ask whoever runs the server."
