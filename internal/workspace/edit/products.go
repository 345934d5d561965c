package edit

import (
	"errors"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"studio/internal/contentform"
)

// The catalogue's rules for a product's form: its id and category, the
// two boxes for the home page, and what deleting a product takes with it.

// addBlankProduct puts a new product first in the catalogue's list (the
// site shows the newest piece first, on the first page), with the next id.
func addBlankProduct(schema *contentform.Schema, doc *contentform.Value) {
	products := doc.Get("products")
	if products == nil {
		return
	}
	next := nextProductID(doc)
	blank := schema.Blank(schema.ItemsAt("/products"))
	blank.Set("id", &contentform.Value{Kind: contentform.Number, Number: strconv.Itoa(next)})
	// The id first, as in every product.
	blank.Keys = append([]string{"id"}, slices.DeleteFunc(blank.Keys, func(k string) bool { return k == "id" })...)
	products.Items = slices.Insert(products.Items, 0, blank)
}

// nextProductID is the id after every product's and every removed
// product's: an id is never given to another piece, so an old address or
// enquiry never names the wrong one, and a removed piece's address stays gone.
func nextProductID(doc *contentform.Value) int {
	next := 1
	for _, item := range slices.Concat(doc.At("/products").List(), doc.At(removedPointer).List()) {
		if n, err := strconv.Atoi(item.Get("id").Text()); err == nil && n >= next {
			next = n + 1
		}
	}
	return next
}

// productForm fits a product's form to the catalogue: its id is kept, not
// typed (it is the product's address and its enquiries'); its category is
// chosen from the catalogue's; its materials and finishes list the known
// ones.
func productForm(form *contentform.Field, doc *contentform.Value) {
	var categories, finishes, materials []string
	for _, c := range doc.At("/categories").List() {
		categories = append(categories, c.Get("name").Text())
	}
	for _, f := range doc.At("/finishes").List() {
		finishes = append(finishes, f.Text())
	}
	if groups := doc.At("/filters/material"); groups != nil {
		for _, k := range groups.Keys {
			for _, m := range groups.Fields[k].List() {
				if !slices.Contains(materials, m.Text()) {
					materials = append(materials, m.Text())
				}
			}
		}
	}
	for _, f := range form.Fields {
		switch path.Base(f.Name) {
		case "id":
			f.Kind = "hidden"
		case "category":
			f.Kind, f.Options = "select", categories
			if !slices.Contains(categories, f.Value) {
				f.Options = append([]string{f.Value}, categories...)
			}
		case "material":
			f.Hint = "Known: " + strings.Join(materials, ", ") + ". A new one is first added to a group of the Filter menu, under Content › Categories, materials and finishes."
		case "finish":
			f.Hint = "Known: " + strings.Join(finishes, ", ") + "."
		}
	}
}

// The product form's two boxes for the home page: in What's Hot (a list of
// ids) and the Fresh from the studio piece (one id), both in the
// catalogue's "featured", outside the product itself.
const (
	HotField   = "_featured/whatsHot"
	FreshField = "_featured/fresh"
)

// Where the catalogue keeps them (contracts/content-references.json says
// each must name a product).
const (
	hotPointer   = "/featured/whatsHot"
	freshPointer = "/featured/fresh"
)

// Featured says whether the product id is in What's Hot and is Fresh from
// the studio.
func Featured(doc *contentform.Value, id string) (hot, fresh bool) {
	for _, v := range doc.At(hotPointer).List() {
		hot = hot || v.Text() == id
	}
	return hot, doc.At(freshPointer).Text() == id
}

// setFeatured writes the form's two boxes into doc's "featured" for the
// product at pointer, and says what changed; a box the form did not post
// is left as it was. Fresh from the studio always has a piece: it moves
// to another product by ticking it there, not by unticking it here.
func setFeatured(doc *contentform.Value, pointer string, form url.Values) (changed []string, problems []contentform.Problem) {
	featured, id := doc.Get("featured"), doc.At(pointer+"/id")
	if featured == nil || id == nil {
		return nil, nil
	}
	hot, fresh := Featured(doc, id.Text())
	if vs, ok := form[HotField]; ok && slices.Contains(vs, "true") != hot {
		list := featured.Get("whatsHot")
		if hot {
			list.Items = slices.DeleteFunc(list.Items, func(v *contentform.Value) bool { return v.Text() == id.Text() })
			changed = append(changed, "taken out of What’s Hot")
		} else {
			list.Items = append(list.Items, id.Clone())
			changed = append(changed, "in What’s Hot")
		}
	}
	if vs, ok := form[FreshField]; ok && slices.Contains(vs, "true") != fresh {
		if fresh {
			problems = append(problems, contentform.Problem{Field: FreshField, Text: "The home page always shows one piece as Fresh from the studio: tick it on another product to move it there."})
		} else {
			featured.Set("fresh", id.Clone())
			changed = append(changed, "Fresh from the studio")
		}
	}
	return changed, problems
}

// changedBoxes are the form's boxes for the home page that differ from
// base (the form's version; the product at pointer): a merge over a newer
// draft takes those, and leaves the others as the draft has them.
func changedBoxes(base *contentform.Value, pointer string, form url.Values) url.Values {
	out := url.Values{}
	id := base.At(pointer + "/id")
	if id == nil {
		return out
	}
	hot, fresh := Featured(base, id.Text())
	for field, was := range map[string]bool{HotField: hot, FreshField: fresh} {
		if vs, ok := form[field]; ok && slices.Contains(vs, "true") != was {
			out[field] = vs
		}
	}
	return out
}

// ErrFreshPiece refuses to delete the home page's Fresh from the studio
// piece: another is chosen first.
var ErrFreshPiece = errors.New("edit: the product is the home page's Fresh from the studio piece")

// removedPointer is where the catalogue lists the products taken out of
// it, each as {id, name, category}: the site answers their addresses 410
// Gone, with a page saying so and leading to their category.
const removedPointer = "/removed"

// removeProduct takes the product with id at pointer out of doc's
// catalogue, and out of What's Hot, and lists it as removed; it returns
// its photographs that no other product shows, to be deleted with it.
func removeProduct(doc *contentform.Value, pointer, id string) (removed []string, err error) {
	if fresh := doc.At(freshPointer); fresh.Text() == id {
		return nil, ErrFreshPiece
	}
	recordRemoved(doc, doc.At(pointer))
	gone := doc.At(pointer + "/images").List()
	products := doc.Get("products")
	i, _ := strconv.Atoi(path.Base(pointer))
	products.Items = slices.Delete(products.Items, i, i+1)
	if hot := doc.At(hotPointer); hot != nil {
		hot.Items = slices.DeleteFunc(hot.Items, func(v *contentform.Value) bool { return v.Text() == id })
	}
	for _, img := range gone {
		src := img.Get("src").Text()
		used := false
		for _, p := range products.Items {
			for _, other := range p.At("/images").List() {
				used = used || other.Get("src").Text() == src
			}
		}
		if !used {
			removed = append(removed, "images/"+src)
		}
	}
	return removed, nil
}

// A Namesake is another product called as one is.
type Namesake struct{ ID, Name string }

// Namesakes are the products of doc other than the one at pointer with
// its name, in any case and spacing: a name given twice is allowed, and
// the form warns of it.
func Namesakes(doc *contentform.Value, pointer string) []Namesake {
	key := func(name string) string { return strings.ToLower(strings.Join(strings.Fields(name), " ")) }
	name := key(doc.At(pointer + "/name").Text())
	if name == "" {
		return nil
	}
	var found []Namesake
	for i, p := range doc.At("/products").List() {
		if "/products/"+strconv.Itoa(i) != pointer && key(p.Get("name").Text()) == name {
			found = append(found, Namesake{ID: p.Get("id").Text(), Name: p.Get("name").Text()})
		}
	}
	return found
}

// recordRemoved lists product in the catalogue's removed products, in
// place of an earlier record of its id (a piece given back its id, then
// deleted again).
func recordRemoved(doc, product *contentform.Value) {
	list := doc.At(removedPointer)
	if list == nil {
		list = &contentform.Value{Kind: contentform.Array}
		doc.Set(strings.TrimPrefix(removedPointer, "/"), list)
	}
	id := product.Get("id")
	list.Items = slices.DeleteFunc(list.Items, func(v *contentform.Value) bool { return v.Get("id").Text() == id.Text() })
	record := contentform.NewObject()
	record.Set("id", id.Clone())
	record.Set("name", contentform.Text(product.Get("name").Text()))
	record.Set("category", contentform.Text(product.Get("category").Text()))
	list.Items = append(list.Items, record)
}
