package edit

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"studio/internal/contentform"
	"studio/internal/publish/repo"
)

// The catalogue's order: the order the site shows its pieces in, set by
// moving one piece a place earlier or later in the products list.

// ErrAtTheEnd refuses to move the first product earlier or the last later.
var ErrAtTheEnd = errors.New("edit: the product is already at that end of the catalogue")

// Move moves the product id one place earlier (by -1) or later (by 1) in
// the draft's catalogue, by who, as a save of its own. It returns the
// product's name, its new place (from 1) and how many products there are. ErrNoProduct: it is not in
// the draft; ErrAtTheEnd; repo.ErrDraftMoved: someone saved at that moment.
// The content check does not run: an order changes no value it judges.
func (e *Editor) Move(id, by int, who repo.Signature) (name string, place, count int, err error) {
	head, _, err := e.Content.Draft()
	if err != nil {
		return "", 0, 0, err
	}
	raw, err := e.Content.ReadFile(head.Hash, "catalogue.json")
	if err != nil {
		return "", 0, 0, err
	}
	doc, err := contentform.Parse(raw)
	if err != nil {
		return "", 0, 0, fmt.Errorf("content/catalogue.json is not JSON: %w", err)
	}
	products := doc.Get("products")
	if products == nil {
		return "", 0, 0, ErrNoProduct
	}
	i := slices.IndexFunc(products.Items, func(p *contentform.Value) bool { return p.Get("id").Text() == strconv.Itoa(id) })
	if i < 0 {
		return "", 0, 0, ErrNoProduct
	}
	name, j, count := products.Items[i].Get("name").Text(), i+by, len(products.Items)
	if by != -1 && by != 1 || j < 0 || j >= count {
		return name, i + 1, count, ErrAtTheEnd
	}
	products.Items[i], products.Items[j] = products.Items[j], products.Items[i]
	way := map[int]string{-1: "earlier", 1: "later"}[by]
	message := fmt.Sprintf("Product %d: moved %s, to number %d of %d (%s)", id, way, j+1, count, name)
	_, err = e.Content.SaveDraft(head.Hash, map[string][]byte{"catalogue.json": doc.Encode()}, nil, who, message)
	return name, j + 1, count, err
}
