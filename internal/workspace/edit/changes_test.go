package edit

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/object"

	"studio/internal/contentform"
)

// versions is a content repository of trees by name, holding what
// Changes reads.
type versions struct {
	Content
	trees map[string]map[string][]byte
}

func (v versions) ReadFile(hash, name string) ([]byte, error) {
	b, ok := v.trees[hash][name]
	if !ok {
		return nil, fmt.Errorf("publish: %s in commit %s: %w", name, hash, object.ErrFileNotFound)
	}
	return b, nil
}

// shipped is the content's files as the checkout has them: the fixture's
// first version, whatever the studio has written in it.
func shipped(t *testing.T) map[string][]byte {
	t.Helper()
	tree := map[string][]byte{}
	root := filepath.Join("..", "..", "..", "content")
	err := filepath.WalkDir(root, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, ".md") {
			return err
		}
		rel, _ := filepath.Rel(root, name)
		tree[filepath.ToSlash(rel)], err = os.ReadFile(name)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// changeJSON is tree with file's document changed by edit.
func changeJSON(t *testing.T, tree map[string][]byte, file string, edit func(doc *contentform.Value)) {
	t.Helper()
	doc := parse(t, string(tree[file]))
	edit(doc)
	tree[file] = doc.Encode()
}

// One publish of several changes says each part it touched: a product by
// its name (its description, a new photograph), the FAQ's answers
// counted, a Home page text by its label.
func TestWhatAVersionChanged(t *testing.T) {
	t.Parallel()
	old, new := shipped(t), shipped(t)
	var product string
	changeJSON(t, new, "catalogue.json", func(doc *contentform.Value) {
		p := doc.Get("products").Items[0]
		product = p.Get("name").Text()
		p.Set("description", contentform.Text(p.Get("description").Text()+" Now also in teak."))
		photo := contentform.NewObject()
		photo.Set("src", contentform.Text("products/new-one.jpg"))
		photo.Set("alt", contentform.Text("It from the side"))
		images := p.Get("images")
		images.Items = append(images.Items, photo)
	})
	changeJSON(t, new, "pages.json", func(doc *contentform.Value) {
		doc.At("/home/intention").Set("text", contentform.Text("To make fewer things, and better."))
	})
	faq, order := sections(string(old["pages/faq.md"]))
	if len(order) < 2 {
		t.Fatalf("the FAQ fixture has %d questions, want 2 or more", len(order))
	}
	text := string(old["pages/faq.md"])
	for _, q := range order[:2] {
		text = strings.Replace(text, faq[q], faq[q]+" Ask us.", 1)
	}
	new["pages/faq.md"] = []byte(text)

	e := &Editor{Content: versions{trees: map[string]map[string][]byte{"a": old, "b": new}}}
	got, err := e.Changes("a", "b")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Home page: intention text", product + ": description, new photograph", "FAQ: 2 answers changed"}
	for _, line := range want {
		if !slices.Contains(got, line) {
			t.Errorf("Changes is %q, want it to have %q", got, line)
		}
	}
	if len(got) != len(want) {
		t.Errorf("Changes is %q, want only %q", got, want)
	}
	if got, _ := e.Changes("a", "a"); len(got) != 0 {
		t.Errorf("a version compared with itself changes %q, want nothing", got)
	}
	// A file one version lacks reads as empty: the FAQ's questions added.
	delete(old, "pages/faq.md")
	got, err = e.Changes("a", "b")
	if want := fmt.Sprintf("FAQ: %d questions added", len(order)); err != nil || !slices.Contains(got, want) {
		t.Errorf("with no FAQ before: %q, %v; want %q", got, err, want)
	}
}

// A product added and one removed are said by their names; a photograph
// taken out, and the pieces of the home page.
func TestProductsAddedAndRemoved(t *testing.T) {
	t.Parallel()
	old, new := shipped(t), shipped(t)
	var gone, added, lessPhoto string
	changeJSON(t, new, "catalogue.json", func(doc *contentform.Value) {
		products := doc.Get("products")
		gone = products.Items[0].Get("name").Text()
		fresh := products.Items[1].Clone()
		fresh.Set("id", &contentform.Value{Kind: contentform.Number, Number: "9999"})
		fresh.Set("name", contentform.Text("Kikar"))
		added = "Kikar"
		for _, p := range products.Items[1:] {
			if len(p.Get("images").Items) > 1 {
				lessPhoto = p.Get("name").Text()
				p.Get("images").Items = p.Get("images").Items[1:]
				break
			}
		}
		products.Items = append(products.Items[1:], fresh)
	})
	e := &Editor{Content: versions{trees: map[string]map[string][]byte{"a": old, "b": new}}}
	got, err := e.Changes("a", "b")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{added + ": new piece", gone + ": removed from the catalogue"}
	if lessPhoto != "" {
		want = append(want, lessPhoto+": photograph removed")
	}
	for _, line := range want {
		if !slices.Contains(got, line) {
			t.Errorf("Changes is %q, want it to have %q", got, line)
		}
	}
}

func TestTextChanges(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ old, new, want string }{
		{"Once upon a time.", "Once upon a time, here.", "text changed"},
		{"## Why?\n\nBecause.\n\n## How?\n\nSo.\n", "## Why?\n\nBecause.\n\n## How?\n\nLike so.\n\n## When?\n\nNow.\n", "1 answer changed, 1 question added"},
		{"## Why?\n\nBecause.\n\n## How?\n\nSo.\n", "## Why?\n\nBecause.\n", "1 question removed"},
		{"## Our story\n\nOne.\n", "## Our story\n\nTwo.\n", "text changed"},
	} {
		if got := textChange(c.old, c.new); got != c.want {
			t.Errorf("textChange(%q, %q) = %q, want %q", c.old, c.new, got, c.want)
		}
	}
}

// A failed build's problem is said where she fixes it: the part and its
// field as the form names them, linked to that field.
func TestAProblemLinksToItsField(t *testing.T) {
	t.Parallel()
	tree := shipped(t)
	product := parse(t, string(tree["catalogue.json"])).Get("products").Items[0]
	id, name := product.Get("id").Text(), product.Get("name").Text()
	e := &Editor{Content: versions{trees: map[string]map[string][]byte{"a": tree}}}
	for _, c := range []struct{ line, text, href string }{
		{"content/site.json: tagline: must not be empty", "Studio details › Tagline: must not be empty", "/studio/content/studio#f-tagline"},
		{"content/catalogue.json: product " + id + " (" + name + "): description: is too short", name + " › Description: is too short", "/studio/content/products/" + id + "#f-products-0-description"},
		{"content/pages/faq.md: a link to /nowhere goes to no page", "FAQ: a link to /nowhere goes to no page", "/studio/content/text-faq"},
		{"the build ran out of time", "the build ran out of time", ""},
	} {
		text, href := e.Explain("a", c.line)
		if text != c.text || href != c.href {
			t.Errorf("Explain(%q) = %q, %q; want %q, %q", c.line, text, href, c.text, c.href)
		}
	}
}
