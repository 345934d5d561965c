package workspace

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"studio/internal/contentform"
	"studio/internal/publish/repo"
)

// The products of the Content section: their table, each product's form
// (contentPart.Product) with its photographs, uploads, thumbnails and
// deletion.

// newProduct is the Product of the form that adds one.
const newProduct = -1

const (
	maxPhotoBytes   = 30 << 20 // a photograph may be this large (a phone's are 3–12 MB)
	maxPhotos       = 12       // photographs in one upload
	minPhotoWidth   = 1200     // narrower ones look soft on a large screen: a warning
	thumbnailWidth  = 240
	uploadsKeptFor  = 24 * time.Hour // an upload never saved is deleted after this
	photoFieldName  = "photos"
	uploadSrcPrefix = "upload:"
)

var (
	productsPage      = newPage("content-products.html")
	deleteProductPage = newPage("content-product-delete.html")
)

func (h *Handler) productRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /studio/content/products", h.signedIn(h.Products))
	mux.HandleFunc("GET /studio/content/products/{id}", h.onPart(h.showEditor))
	mux.HandleFunc("POST /studio/content/products/{id}", h.onPart(h.save))
	mux.HandleFunc("GET /studio/content/products/{id}/delete", h.onPart(h.confirmDeleteProduct))
	mux.HandleFunc("POST /studio/content/products/{id}/delete", h.onPart(h.deleteProduct))
	mux.HandleFunc("GET /studio/content/thumbnail", h.signedIn(h.Thumbnail))
}

// productRow is one line of the products table.
type productRow struct {
	ID                 string
	Name, Category     string
	Cover              string // the cover's thumbnail address; "" without a photograph
	CoverAlt           string
	Featured           string // "What's Hot", "Fresh from the studio", both or ""
	ChangedBy, Changed string // the last save that named the product ("" when none is known)
}

type productsView struct {
	frame
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
	hot := map[string]bool{}
	for _, id := range doc.At("/featured/whatsHot").List() {
		hot[id.Number] = true
	}
	fresh := doc.At("/featured/fresh").Text()
	p := &productsView{frame: frame{Title: "Products", Section: "content"}}
	for _, item := range doc.At("/products").List() {
		row := productRow{ID: item.Get("id").Text(), Name: item.Get("name").Text(), Category: item.Get("category").Text()}
		if cover := item.At("/images/0"); cover != nil {
			row.Cover, row.CoverAlt = thumbnailURL(cover.Get("src").Text()), cover.Get("alt").Text()
		}
		var featured []string
		if hot[row.ID] {
			featured = append(featured, "What’s Hot")
		}
		if fresh == row.ID {
			featured = append(featured, "Fresh from the studio")
		}
		row.Featured = strings.Join(featured, ", ")
		if c, ok := last[row.ID]; ok {
			row.ChangedBy, row.Changed = c.Author, c.When.In(h.opts.Location).Format("2 Jan 2006, 15:04")
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
		h.log.Warn("studio: reading the content's history", "err", err)
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

// addBlankProduct puts a new product at the end of the catalogue's list,
// with the next id.
func addBlankProduct(schema *contentform.Schema, doc *contentform.Value) {
	products := doc.Get("products")
	if products == nil {
		return
	}
	next := 1
	for _, item := range products.Items {
		if n, err := strconv.Atoi(item.Get("id").Text()); err == nil && n >= next {
			next = n + 1
		}
	}
	blank := schema.Blank(schema.ItemsAt("/products"))
	blank.Set("id", &contentform.Value{Kind: contentform.Number, Number: strconv.Itoa(next)})
	// The id first, as in every product.
	blank.Keys = append([]string{"id"}, slices.DeleteFunc(blank.Keys, func(k string) bool { return k == "id" })...)
	products.Items = append(products.Items, blank)
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
			f.Hint = "Known: " + strings.Join(materials, ", ") + ". A new one is first added to a group of the Sort menu, under Content › Categories, materials and finishes."
		case "finish":
			f.Hint = "Known: " + strings.Join(finishes, ", ") + "."
		}
	}
}

// The product form's two boxes for the home page: in What's Hot (a list of
// ids) and the Fresh from the studio piece (one id), both in the
// catalogue's "featured", outside the product itself.
const (
	hotField   = "_featured/whatsHot"
	freshField = "_featured/fresh"
)

// featuredOf says whether the product id is in What's Hot and is Fresh from.
func featuredOf(doc *contentform.Value, id string) (hot, fresh bool) {
	for _, v := range doc.At("/featured/whatsHot").List() {
		hot = hot || v.Text() == id
	}
	return hot, doc.At("/featured/fresh").Text() == id
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
	hot, fresh := featuredOf(doc, id.Text())
	if vs, ok := form[hotField]; ok && slices.Contains(vs, "true") != hot {
		list := featured.Get("whatsHot")
		if hot {
			list.Items = slices.DeleteFunc(list.Items, func(v *contentform.Value) bool { return v.Text() == id.Text() })
			changed = append(changed, "taken out of What’s Hot")
		} else {
			list.Items = append(list.Items, id.Clone())
			changed = append(changed, "in What’s Hot")
		}
	}
	if vs, ok := form[freshField]; ok && slices.Contains(vs, "true") != fresh {
		if fresh {
			problems = append(problems, contentform.Problem{Field: freshField, Text: "The home page always shows one piece as Fresh from the studio: tick it on another product to move it there."})
		} else {
			featured.Set("fresh", id.Clone())
			changed = append(changed, "Fresh from the studio")
		}
	}
	return changed, problems
}

// stagePhotos keeps the photographs of the form's "Add photographs" in the
// uploads folder and adds each to images, its alt text to be written, with
// those the script sent ahead (uploadedField). What it says of them: how
// many were added, which are narrow; what is wrong with the others (not a
// photograph, empty, HEIC): those are not added.
func (h *Handler) stagePhotos(r *http.Request, images *contentform.Value, field string) (notes []string, problems []contentform.Problem) {
	if r.MultipartForm == nil || images == nil {
		return nil, nil
	}
	files, ahead := r.MultipartForm.File[photoFieldName], r.MultipartForm.Value[uploadedField]
	if len(files) == 0 && len(ahead) == 0 {
		return nil, nil
	}
	dir := h.uploadsDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, []contentform.Problem{{Field: "", Text: "The photographs could not be kept: " + err.Error()}}
	}
	sweepUploads(dir)
	added := 0
	add := func(name, problem, narrow string) {
		if problem != "" {
			problems = append(problems, contentform.Problem{Field: field, Text: problem})
			return
		}
		item := contentform.NewObject()
		item.Set("src", contentform.Text(uploadSrcPrefix+name))
		item.Set("alt", contentform.Text(""))
		images.Items = append(images.Items, item)
		added++
		if narrow != "" {
			notes = append(notes, narrow)
		}
	}
	for _, token := range ahead {
		add(h.sentAhead(dir, token))
	}
	for _, fh := range files {
		add(h.stageUpload(dir, fh))
	}
	if added > 0 {
		word := "photographs"
		if added == 1 {
			word = "photograph"
		}
		notes = append([]string{fmt.Sprintf("%d %s added at the end: write the alt text of each (what it shows, for people who cannot see it).", added, word)}, notes...)
	}
	return notes, problems
}

// stagePhoto checks one uploaded file and keeps it: its name in the
// uploads folder, or the problem that refused it; and a warning when it is
// narrow.
func (h *Handler) stagePhoto(dir string, fh *multipart.FileHeader) (name, problem, narrow string) {
	label := "“" + fh.Filename + "”"
	if fh.Size > maxPhotoBytes {
		return "", fmt.Sprintf("%s is %.1f MB: a photograph may be up to 30 MB. Export it smaller (a phone’s “large” size is plenty).", label, float64(fh.Size)/1e6), ""
	}
	f, err := fh.Open()
	if err != nil {
		return "", label + " could not be read: " + err.Error(), ""
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, maxPhotoBytes+1))
	if err != nil {
		return "", label + " could not be read: " + err.Error(), ""
	}
	if len(body) > maxPhotoBytes {
		return "", label + " is over 30 MB: a photograph may be up to 30 MB.", ""
	}
	ext, problem, narrow := checkPhoto(label, body)
	if problem != "" {
		return "", problem, ""
	}
	token := make([]byte, 12)
	rand.Read(token)
	name = hex.EncodeToString(token) + ext
	if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
		return "", label + " could not be kept: " + err.Error(), ""
	}
	// Made now, once: the form shows it next (an AVIF is shown as it is).
	if ext != ".avif" {
		if _, err := h.thumbnail(context.Background(), body); err != nil {
			h.log.Warn("studio: no thumbnail of an upload", "upload", name, "err", err)
		}
	}
	return name, "", narrow
}

func (h *Handler) uploadsDir() string { return filepath.Join(h.opts.Scratch, "uploads") }

// sweepUploads deletes uploads never saved.
func sweepUploads(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > uploadsKeptFor {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// placeUploads names each uploaded photograph of the part at pointer in
// doc (products/12-chair-3f9a1c.jpg), writing its new src into doc, and
// returns the files to commit.
func (h *Handler) placeUploads(doc *contentform.Value, pointer string) (map[string][]byte, error) {
	files := map[string][]byte{}
	product := doc.At(pointer)
	for _, image := range doc.At(pointer + "/images").List() {
		name, ok := strings.CutPrefix(image.Get("src").Text(), uploadSrcPrefix)
		if !ok {
			continue
		}
		if filepath.Base(name) != name || name == "" {
			return nil, fmt.Errorf("the upload %q is not one of this server's", name)
		}
		body, err := os.ReadFile(filepath.Join(h.uploadsDir(), name))
		if err != nil {
			return nil, fmt.Errorf("the photograph uploaded is no longer on the server (uploads are kept a day): add it again: %w", err)
		}
		src := fmt.Sprintf("products/%s-%s-%s", product.Get("id").Text(), slugOf(product.Get("name").Text()), name[:6]+path.Ext(name))
		image.Set("src", contentform.Text(src))
		files["images/"+src] = body
	}
	return files, nil
}

// slugOf is a name as a file's: "Jharokha Mirror" → "jharokha-mirror".
func slugOf(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	if b.Len() == 0 {
		return "product"
	}
	return b.String()
}

// confirmDeleteProduct is GET /studio/content/products/{id}/delete.
func (h *Handler) confirmDeleteProduct(w http.ResponseWriter, r *http.Request, part contentPart) {
	if part.Product == newProduct {
		http.NotFound(w, r)
		return
	}
	head, _, doc, pointer, ok := h.openPart(w, r, part)
	if !ok {
		return
	}
	name := doc.At(pointer + "/name").Text()
	h.render(w, r, http.StatusOK, deleteProductPage, &deleteProductView{frame: frame{Title: "Delete " + name + "?", Section: "content"},
		Part: part, Name: name, Version: head.Hash})
}

type deleteProductView struct {
	frame
	Part    contentPart
	Name    string
	Version string
}

// deleteProduct is POST /studio/content/products/{id}/delete: the product
// leaves the draft's catalogue, its photographs with it (unless another
// product shows them), and What's Hot; enquiries keep its name (they keep
// their own copy).
func (h *Handler) deleteProduct(w http.ResponseWriter, r *http.Request, part contentPart) {
	if part.Product == newProduct {
		http.NotFound(w, r)
		return
	}
	_, _, doc, pointer, ok := h.openPart(w, r, part)
	if !ok {
		return
	}
	id, name := r.PathValue("id"), doc.At(pointer+"/name").Text()
	if fresh := doc.At("/featured/fresh"); fresh.Text() == id {
		h.fail(w, r, http.StatusConflict, "Not deleted", "“"+name+"” is the home page’s “Fresh from the studio” piece: choose another there first (Home page). Nothing was deleted.", "/studio/content/"+part.Slug)
		return
	}
	var removed []string
	gone := doc.At(pointer + "/images").List()
	products := doc.Get("products")
	i, _ := strconv.Atoi(path.Base(pointer))
	products.Items = slices.Delete(products.Items, i, i+1)
	if hot := doc.At("/featured/whatsHot"); hot != nil {
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
	base := r.PostForm.Get("_version")
	lines, err := h.checkChange(r.Context(), base, map[string][]byte{part.File: doc.Encode()})
	if err == nil && len(lines) > 0 {
		h.fail(w, r, http.StatusConflict, "Not deleted", "Nothing was deleted: without “"+name+"” the content would have these problems: "+strings.Join(lines, "; "), "/studio/content/"+part.Slug)
		return
	}
	if err != nil {
		h.contentFailed(w, r, err)
		return
	}
	message := fmt.Sprintf("Product %s: deleted (%s)", id, name)
	if _, err := h.opts.Content.SaveDraft(base, map[string][]byte{part.File: doc.Encode()}, removed, signature(r), message); err != nil {
		if errors.Is(err, repo.ErrDraftMoved) {
			h.fail(w, r, http.StatusConflict, "Not deleted", "Someone saved a change while you were deciding: nothing was deleted. Look at the product again, then delete it.", "/studio/content/"+part.Slug)
			return
		}
		h.contentFailed(w, r, err)
		return
	}
	h.log.Info("studio: product deleted", "product", id, "account", actor(r))
	http.Redirect(w, r, "/studio/content/products?deleted="+id, http.StatusSeeOther)
}
