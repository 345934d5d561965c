package edit

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"studio/internal/contentform"
)

func parse(t *testing.T, text string) *contentform.Value {
	t.Helper()
	v, err := contentform.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

const catalogue = `{"products": [
  {"id": 1, "name": "Chair", "images": [{"src": "products/1.jpg", "alt": "a"}, {"src": "products/shared.jpg", "alt": "b"}]},
  {"id": 2, "name": "Mirror", "images": [{"src": "products/shared.jpg", "alt": "c"}]}
], "featured": {"whatsHot": [1, 2], "fresh": 2}}`

// A product deleted leaves What's Hot, and takes the photographs no other
// product shows; the Fresh from the studio piece is not deleted.
func TestDeletingAProduct(t *testing.T) {
	doc := parse(t, catalogue)
	removed, err := removeProduct(doc, "/products/0", "1")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(removed, []string{"images/products/1.jpg"}) {
		t.Errorf("removed %v, want only the photograph no other product shows", removed)
	}
	if n := len(doc.At("/products").List()); n != 1 {
		t.Errorf("%d products left, want 1", n)
	}
	if hot, _ := Featured(doc, "1"); hot {
		t.Error("the deleted product is still in What's Hot")
	}
	if _, err := removeProduct(parse(t, catalogue), "/products/1", "2"); !errors.Is(err, ErrFreshPiece) {
		t.Errorf("deleting the Fresh piece: %v, want ErrFreshPiece", err)
	}
}

func TestNames(t *testing.T) {
	for in, want := range map[string]string{"Jharokha Mirror": "jharokha-mirror", "  ": "product", "Chair (teak), 2": "chair-teak-2"} {
		if got := slugOf(in); got != want {
			t.Errorf("slugOf(%q) = %q, want %q", in, got, want)
		}
	}
	if got := NormalText("a\r\nb"); got != "a\nb\n" {
		t.Errorf("NormalText = %q", got)
	}
	if p, ok := PartBySlug("products/007"); ok {
		t.Errorf("products/007 is %+v, want no part (ids are written without zeros)", p)
	}
}

// The files a publish found changed outside the workspace are said as the
// parts the owner knows, each once.
func TestFilesAreSaidAsTheParts(t *testing.T) {
	got := FilesWords([]string{"catalogue.json", "images/products/7.jpg", "pages/faq.md", "images/products/8.jpg", "site.json"})
	if want := "Products, photographs, FAQ and Studio details"; got != want {
		t.Errorf("FilesWords = %q, want %q", got, want)
	}
	if got := FilesWords([]string{"pages.json"}); got != "Home, About and Bespoke pages" {
		t.Errorf("FilesWords(pages.json) = %q", got)
	}
	// A line of the check about a picture names no file either.
	named := (&Editor{}).Name("", nil, []string{"content/images/products/7.jpg: is a symbolic link", "the build stopped"})
	if named[0].String() != "Photographs: is a symbolic link" || named[1].String() != "the build stopped" {
		t.Errorf("Name = %q", named)
	}
}

// A product deleted is listed as removed, by its id, name and category, so
// that its address says it is gone; deleted again after being given back
// its id, it is listed once. A new product never takes a removed one's id.
func TestADeletedProductIsListedAsRemoved(t *testing.T) {
	doc := parse(t, `{"products": [
  {"id": 1, "name": "Chair", "category": "Seatings", "images": [{"src": "products/1.jpg", "alt": "a"}]},
  {"id": 3, "name": "Mirror", "category": "Mirrors", "images": [{"src": "products/3.jpg", "alt": "c"}]}
], "featured": {"whatsHot": [1], "fresh": 1}, "removed": [{"id": 3, "name": "Old mirror", "category": "Mirrors"}]}`)
	if _, err := removeProduct(doc, "/products/1", "3"); err != nil {
		t.Fatal(err)
	}
	want := `[{"id":3,"name":"Mirror","category":"Mirrors"}]`
	if got := compact(t, doc.At("/removed").Encode()); got != want {
		t.Errorf("removed = %s, want %s", got, want)
	}
	if next := nextProductID(doc); next != 4 {
		t.Errorf("the next id is %d, want 4: 3 was a product's", next)
	}

	fresh := parse(t, `{"products": [{"id": 1, "name": "Chair", "category": "Seatings", "images": []}, {"id": 2, "name": "Stool", "category": "Seatings", "images": []}], "featured": {"whatsHot": [1], "fresh": 1}}`)
	if _, err := removeProduct(fresh, "/products/1", "2"); err != nil {
		t.Fatal(err)
	}
	if got := compact(t, fresh.Encode()); !strings.HasSuffix(got, `"removed":[{"id":2,"name":"Stool","category":"Seatings"}]}`) {
		t.Errorf("a catalogue's first removed product: %s", got)
	}
}

func compact(t *testing.T, b []byte) string {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
