package editor

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"studio/internal/publish/repo"
	"studio/internal/workspace/edit"
	"studio/internal/workspace/page"
	"studio/internal/workspace/releases"
)

// The catalogue's order, set in the products list: "Move earlier" and
// "Move later" beside each piece, each a save to the draft.

// moveButtonID is the id of a product's move button in the list, which
// the page after a move opens at, so that the keyboard stays on it.
func moveButtonID(id, way string) string { return "move-" + way + "-" + id }

// MoveProduct is POST /studio/content/products/{id}/move, move=earlier or
// later: the product moves a place in the draft's catalogue, and the list
// opens again at the same button of the product (the other one when it
// has reached that end).
func (h *Handler) MoveProduct(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PathValue("id"))
	by := map[string]int{"earlier": -1, "later": 1}[r.PostForm.Get("move")]
	if err != nil || by == 0 {
		h.fail(w, r, http.StatusBadRequest, "Not moved", "That button does nothing here. Nothing was moved.", "/studio/content/products")
		return
	}
	name, place, count, err := h.editor.Move(id, by, releases.Signature(r))
	switch {
	case errors.Is(err, edit.ErrNoProduct):
		h.fail(w, r, http.StatusNotFound, "Not moved", "There is no product "+strconv.Itoa(id)+" in the content: it may have been deleted.", "/studio/content/products")
		return
	case errors.Is(err, edit.ErrAtTheEnd):
		// Pressed twice before the page came back: it is there already.
	case errors.Is(err, repo.ErrDraftMoved):
		h.fail(w, r, http.StatusConflict, "Not moved", "Someone saved a change at the same moment: “"+name+"” was not moved. Look at the list again, then move it.", "/studio/content/products")
		return
	case err != nil:
		h.contentFailed(w, r, err)
		return
	default:
		h.kit.Log.Info("studio: product moved", "product", id, "place", place, "account", page.Actor(r))
	}
	way := r.PostForm.Get("move")
	if place == 1 {
		way = "later"
	} else if place == count {
		way = "earlier"
	}
	http.Redirect(w, r, fmt.Sprintf("/studio/content/products?moved=%d#%s", id, moveButtonID(strconv.Itoa(id), way)), http.StatusSeeOther)
}
