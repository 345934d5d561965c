package edit

import (
	"slices"
	"strconv"
	"strings"

	"studio/internal/contentform"
)

// NewProduct is the Product of the form that adds one.
const NewProduct = -1

// A Part is one form of the Content section: a content file, or one part
// of it.
type Part struct {
	Slug, Title, File, Pointer, About string
	Product                           int      // a product's form, by its id (NewProduct: one being added); its place in the list is found in each version
	Only                              []string // the file's fields the form shows (none: all of them)
}

// TakesFiles says whether the part's form may post files: a product's
// photographs, the pages' pictures.
func (p Part) TakesFiles() bool { return p.Product != 0 || p.File == "pages.json" }

// IsText says whether the part is a Markdown text, edited whole.
func (p Part) IsText() bool { return strings.HasSuffix(p.File, ".md") }

// Form is the part's form of doc: its schema's, fitted to a product, or
// only the fields of Only; its pictures shown, not typed (pictures.go).
func (p Part) Form(schema *contentform.Schema, doc *contentform.Value, pointer string) *contentform.Field {
	f := schema.Form(doc, pointer)
	if p.Product != 0 {
		productForm(f, doc)
	}
	if p.Only != nil {
		f.Fields = slices.DeleteFunc(f.Fields, func(c *contentform.Field) bool { return !slices.Contains(p.Only, strings.TrimPrefix(c.Name, "/")) })
	}
	pictureFields(f)
	return f
}

// ownPart is what of doc the part's form changes: the value at pointer,
// or the fields of Only.
func (p Part) ownPart(doc *contentform.Value, pointer string) *contentform.Value {
	if p.Only == nil {
		return doc.At(pointer)
	}
	own := contentform.NewObject()
	for _, k := range p.Only {
		if v := doc.Get(k); v != nil {
			own.Set(k, v)
		}
	}
	return own
}

// PointerIn is where the part is in doc: a product by its id.
func (p Part) PointerIn(doc *contentform.Value) (string, bool) {
	if p.Product == 0 {
		return p.Pointer, true
	}
	products := doc.Get("products")
	if products == nil {
		return "", false
	}
	for i, item := range products.Items {
		if p.Product == NewProduct && i == 0 || item.Get("id") != nil && item.Get("id").Number == strconv.Itoa(p.Product) {
			return "/products/" + strconv.Itoa(i), true
		}
	}
	return "", false
}

// Parts are the forms of the content files, each edited as fields.
var Parts = []Part{
	{Slug: "studio", Title: "Studio details", File: "site.json", Pointer: "", About: "The studio’s name, phones, e-mail, address, social links and map, on every page."},
	{Slug: "services", Title: "Services", File: "service.json", Pointer: "", About: "Warranty, delivery, returns and reply times, as the policies and the FAQ quote them."},
	{Slug: "home", Title: "Home page", File: "pages.json", Pointer: "/home", About: "The hero and each section’s texts and links."},
	{Slug: "about", Title: "About page", File: "pages.json", Pointer: "/about", About: "The founders, the craftsmen and the projects."},
	{Slug: "bespoke", Title: "Bespoke page", File: "pages.json", Pointer: "/bespoke", About: "The pictures and texts beside the bespoke enquiry form."},
	{Slug: "vocabulary", Title: "Categories, materials and finishes", File: "catalogue.json", Only: []string{"categories", "finishes", "filters", "details", "synonyms"},
		About: "The catalogue’s tabs, the finishes a product may name, the Filter menu’s groups of materials and finishes, the note on dimensions, and the search words (a search for sofa finds the seating)."},
	{Slug: "chat", Title: "Chat script", File: "chat.json", Pointer: "", About: "The chat assistant’s messages, topics and answers."},
	{Slug: "replies", Title: "Reply templates", File: "replies.json", Pointer: "", About: "The ready answers of the inbox’s reply form; {{name}}, {{piece}} and {{sender}} are filled in for each customer."},
}

// Texts are the long texts of the content: the About, Bespoke and FAQ
// pages and the four policies, each a Markdown file edited whole, with
// its rendering beside it.
var Texts = []Part{
	{Slug: "text-about", Title: "About page: the story", File: "pages/about.md"},
	{Slug: "text-bespoke", Title: "Bespoke page: the text", File: "pages/bespoke.md"},
	{Slug: "text-faq", Title: "FAQ", File: "pages/faq.md"},
	{Slug: "policy-privacy", Title: "Privacy policy", File: "policies/privacy.md"},
	{Slug: "policy-returns", Title: "Returns and refund policy", File: "policies/returns.md"},
	{Slug: "policy-shipping", Title: "Shipping policy", File: "policies/shipping.md"},
	{Slug: "policy-terms", Title: "Terms and conditions", File: "policies/terms.md"},
}

// PartBySlug is the part of an address: one of Parts or Texts,
// "products/new" or "products/ID".
func PartBySlug(slug string) (Part, bool) {
	if id, ok := strings.CutPrefix(slug, "products/"); ok {
		if id == "new" {
			return Part{Slug: slug, Title: "Add a product", File: "catalogue.json", Product: NewProduct,
				About: "A new piece for the catalogue: its texts, and at least one photograph with its alt text."}, true
		}
		n, err := strconv.Atoi(id)
		if err != nil || n < 1 || strconv.Itoa(n) != id {
			return Part{}, false
		}
		return Part{Slug: slug, Title: "Product " + id, File: "catalogue.json", Product: n,
			About: "Its texts and photographs; the first photograph is its cover."}, true
	}
	for _, p := range slices.Concat(Parts, Texts) {
		if p.Slug == slug {
			return p, true
		}
	}
	return Part{}, false
}
