package editor

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"studio/internal/contentform"
	"studio/internal/publish/repo"
	"studio/internal/workspace/edit"
	"studio/internal/workspace/page"
	"studio/internal/workspace/releases"
)

// The products of the Content section: their table, each product's form
// (edit.Part.Product) with its photographs, uploads, thumbnails and
// deletion.

var (
	productsPage      = newPage("content-products.html")
	deleteProductPage = newPage("content-product-delete.html")
)

// productRow is one line of the products table.
type productRow struct {
	ID                 string
	Name, Category     string
	Cover              string // the cover's thumbnail address; "" without a photograph
	CoverAlt           string
	Featured           string // "What's Hot", "Fresh from the studio", both or ""
	ChangedBy, Changed string // the last save that named the product ("" when none is known)
	First, Last        bool   // first or last in the catalogue: no button moves it further
}

// MoveID is the id of the row's button that moves it way ("earlier", "later").
func (r productRow) MoveID(way string) string { return moveButtonID(r.ID, way) }

type productsView struct {
	page.Frame
	Products []productRow
}

// Products is GET /studio/content/products: every product of the draft.
func (h *Handler) Products(w http.ResponseWriter, r *http.Request) {
	head, _, err := h.opts.Content.Draft()
	if err != nil {
		h.contentFailed(w, r, err)
		return
	}
	raw, err := h.opts.Content.ReadFile(head.Hash, "catalogue.json")
	if err != nil {
		h.contentFailed(w, r, err)
		return
	}
	doc, err := contentform.Parse(raw)
	if err != nil {
		h.contentFailed(w, r, err)
		return
	}
	last := h.lastChanges(head.Hash)
	p := &productsView{Frame: page.Frame{Title: "Products", Section: "content"}}
	list := doc.At("/products").List()
	for i, item := range list {
		row := productRow{ID: item.Get("id").Text(), Name: item.Get("name").Text(), Category: item.Get("category").Text(), First: i == 0, Last: i == len(list)-1}
		if row.ID == r.URL.Query().Get("moved") {
			p.Notice = fmt.Sprintf("“%s” is now number %d of %d in the catalogue. %s", row.Name, i+1, len(list), savedNotice)
		}
		if cover := item.At("/images/0"); cover != nil {
			row.Cover, row.CoverAlt = thumbnailURL(cover.Get("src").Text()), cover.Get("alt").Text()
		}
		var featured []string
		hot, fresh := edit.Featured(doc, row.ID)
		if hot {
			featured = append(featured, "What’s Hot")
		}
		if fresh {
			featured = append(featured, "Fresh from the studio")
		}
		row.Featured = strings.Join(featured, ", ")
		if c, ok := last[row.ID]; ok {
			row.ChangedBy, row.Changed = c.Author, c.When.In(h.kit.Location).Format("2 Jan 2006, 15:04")
		}
		p.Products = append(p.Products, row)
	}
	h.render(w, r, http.StatusOK, productsPage, p)
}

// lastChanges finds, in the newest commits, the last save of each product
// the editor made ("Product 12: …", "New product 12: …").
func (h *Handler) lastChanges(head string) map[string]repo.Commit {
	found := map[string]repo.Commit{}
	commits, err := h.opts.Content.Log(head, 500)
	if err != nil {
		h.kit.Log.Warn("studio: reading the content's history", "err", err)
		return found
	}
	for _, c := range commits {
		if rest, ok := strings.CutPrefix(c.Subject(), "Product "); ok {
			id := rest[:len(rest)-len(strings.TrimLeft(rest, "0123456789"))]
			if _, seen := found[id]; !seen && id != "" {
				found[id] = c
			}
		}
	}
	return found
}

// ConfirmDeleteProduct is GET /studio/content/products/{id}/delete.
func (h *Handler) ConfirmDeleteProduct(w http.ResponseWriter, r *http.Request) {
	h.onPart(h.confirmDeleteProduct)(w, r)
}

// DeleteProduct is POST /studio/content/products/{id}/delete.
func (h *Handler) DeleteProduct(w http.ResponseWriter, r *http.Request) {
	h.onPart(h.deleteProduct)(w, r)
}

// confirmDeleteProduct is GET /studio/content/products/{id}/delete.
func (h *Handler) confirmDeleteProduct(w http.ResponseWriter, r *http.Request, part edit.Part) {
	if part.Product == edit.NewProduct {
		http.NotFound(w, r)
		return
	}
	head, c, ok := h.openPart(w, r, part)
	if !ok {
		return
	}
	name := c.Doc.At(c.Pointer + "/name").Text()
	h.render(w, r, http.StatusOK, deleteProductPage, &deleteProductView{Frame: page.Frame{Title: "Delete " + name + "?", Section: "content"},
		Part: part, Name: name, Version: head.Hash})
}

type deleteProductView struct {
	page.Frame
	Part    edit.Part
	Name    string
	Version string
}

// deleteProduct is POST /studio/content/products/{id}/delete: the product
// leaves the draft's catalogue (edit.Editor.Delete).
func (h *Handler) deleteProduct(w http.ResponseWriter, r *http.Request, part edit.Part) {
	if part.Product == edit.NewProduct {
		http.NotFound(w, r)
		return
	}
	id, back := r.PathValue("id"), "/studio/content/"+part.Slug
	name, err := h.editor.Delete(r.Context(), part, r.PostForm.Get("_version"), releases.Signature(r))
	var refused *edit.Refused
	switch {
	case errors.Is(err, edit.ErrNoProduct):
		h.fail(w, r, http.StatusNotFound, "Not found", "There is no product "+id+" in the content: it may have been deleted.", "/studio/content/products")
	case errors.Is(err, edit.ErrFreshPiece):
		h.fail(w, r, http.StatusConflict, "Not deleted", "“"+name+"” is the home page’s “Fresh from the studio” piece: choose another there first (Home page). Nothing was deleted.", back)
	case errors.As(err, &refused):
		h.fail(w, r, http.StatusConflict, "Not deleted", "Nothing was deleted: without “"+name+"” the content would have these problems: "+strings.Join(h.editor.Say(part, r.PostForm.Get("_version"), nil, refused.Lines), "; "), back)
	case errors.Is(err, repo.ErrDraftMoved):
		h.fail(w, r, http.StatusConflict, "Not deleted", "Someone saved a change while you were deciding: nothing was deleted. Look at the product again, then delete it.", back)
	case err != nil:
		h.contentFailed(w, r, err)
	default:
		h.kit.Log.Info("studio: product deleted", "product", id, "account", page.Actor(r))
		http.Redirect(w, r, "/studio/content/products?deleted="+id, http.StatusSeeOther)
	}
}
