package edit

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"testing/fstest"

	"studio/internal/contentform"
	"studio/internal/publish/repo"
)

// The merge of two saves of one part, on a content repository of its own:
// a catalogue of two products, and the FAQ.

const mergeCatalogue = `{
  "products": [
    {"id": 1, "name": "Kikar", "description": "A teak chair", "disciplines": ["Woodwork"], "images": [{"src": "products/1.jpg", "alt": "The chair"}]},
    {"id": 2, "name": "Mirror", "description": "A carved mirror", "disciplines": [], "images": [{"src": "products/2.jpg", "alt": "The mirror"}]}
  ],
  "featured": {"whatsHot": [2], "fresh": 2}
}
`

const mergeSchema = `{"type": "object", "properties": {
  "products": {"type": "array", "items": {"type": "object", "required": ["id", "name"], "properties": {
    "id": {"type": "integer"},
    "name": {"type": "string", "title": "Name"},
    "description": {"type": "string", "title": "Description"},
    "disciplines": {"type": "array", "title": "Disciplines", "items": {"type": "string"}},
    "images": {"type": "array", "title": "Photographs", "items": {"type": "object", "properties": {"src": {"type": "string"}, "alt": {"type": "string", "title": "Alt text"}}}}
  }}},
  "featured": {"type": "object", "properties": {"whatsHot": {"type": "array", "items": {"type": "integer"}}, "fresh": {"type": "integer"}}}
}}`

var (
	asha = repo.Signature{Name: "Asha", Email: "asha@example.com"}
	ravi = repo.Signature{Name: "Ravi", Email: "ravi@example.com"}
)

// passing is a content check that finds nothing wrong.
type passing struct{}

func (passing) Check(context.Context, string) ([]string, error) { return nil, nil }
func (passing) RenderMarkdown(context.Context, string, string, []byte) (string, error) {
	return "", nil
}

type mergeRig struct {
	t    *testing.T
	repo *repo.Repository
	e    *Editor
}

func newMergeRig(t *testing.T) *mergeRig {
	t.Helper()
	r, err := repo.Open(t.TempDir(), fstest.MapFS{
		"catalogue.json":               {Data: []byte(mergeCatalogue)},
		"schema/catalogue.schema.json": {Data: []byte(mergeSchema)},
		"pages/faq.md":                 {Data: []byte("# FAQ\n")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return &mergeRig{t, r, &Editor{Content: r, Builder: passing{}, Scratch: t.TempDir()}}
}

// head is the draft's commit: the version a form opened now is made from.
func (r *mergeRig) head() string {
	r.t.Helper()
	head, _, err := r.repo.Draft()
	if err != nil {
		r.t.Fatal(err)
	}
	return head.Hash
}

// save posts form, made from version, as who.
func (r *mergeRig) save(slug, version string, form url.Values, who repo.Signature) (*Change, error) {
	r.t.Helper()
	part, _ := PartBySlug(slug)
	c, err := r.e.Apply(part, version, form, nil, nil, "save")
	if err != nil || len(c.Problems) > 0 {
		r.t.Fatalf("applying %v: %v %v", form, err, c.Problems)
	}
	_, _, err = r.e.Save(context.Background(), c, who)
	return c, err
}

// product is the draft's product id: its field at pointer, as JSON.
func (r *mergeRig) product(id, pointer string) string {
	r.t.Helper()
	b, err := r.repo.ReadFile(r.head(), "catalogue.json")
	if err != nil {
		r.t.Fatal(err)
	}
	doc, _ := contentform.Parse(b)
	for _, p := range doc.At("/products").List() {
		if p.Get("id").Text() == id {
			return strings.TrimSpace(string(p.At(pointer).Encode()))
		}
	}
	return "(no product " + id + ")"
}

func TestSavesOfDifferentFieldsOfOneProductAreBothKept(t *testing.T) {
	t.Parallel()
	r := newMergeRig(t)
	opened := r.head()
	if _, err := r.save("products/1", opened, url.Values{"/products/0/name": {"Kikar chair"}}, asha); err != nil {
		t.Fatal(err)
	}
	c, err := r.save("products/1", opened, url.Values{"/products/0/description": {"A rocking chair"}}, ravi)
	if err != nil {
		t.Fatalf("Ravi's save of another field: %v, want it merged", err)
	}
	if name, desc := r.product("1", "/name"), r.product("1", "/description"); name != `"Kikar chair"` || desc != `"A rocking chair"` {
		t.Errorf("the draft has name %s, description %s: want both saves", name, desc)
	}
	if c.Over != opened || c.Saved != r.head() {
		t.Errorf("the merged save says it was made over %q as %q", c.Over, c.Saved)
	}
	part, _ := PartBySlug("products/1")
	kept, err := r.e.KeptMeanwhile(part, c.Over, c.Saved)
	if err != nil || len(kept) != 1 || kept[0].Label != "Name" || kept[0].By.Who != "Asha" {
		t.Errorf("KeptMeanwhile = %+v, %v; want Asha's name", kept, err)
	}
}

func TestSavesOfOneFieldAreRefusedWithBothValuesUntilOneIsChosen(t *testing.T) {
	t.Parallel()
	r := newMergeRig(t)
	opened := r.head()
	if _, err := r.save("products/1", opened, url.Values{"/products/0/name": {"Rocking Kikar"}}, asha); err != nil {
		t.Fatal(err)
	}
	asSaved := r.head()
	ravis := url.Values{"/products/0/name": {"Kikar lounger"}, "/products/0/description": {"A low chair"}}
	_, err := r.save("products/1", opened, ravis, ravi)
	var conflict *Conflict
	if !errors.As(err, &conflict) {
		t.Fatalf("Ravi's save of the same field: %v, want a conflict", err)
	}
	want := FieldConflict{Name: "/products/0/name", Label: "Name", Mine: "Kikar lounger", Theirs: "Rocking Kikar"}
	if len(conflict.Fields) != 1 || conflict.Fields[0].Name != want.Name || conflict.Fields[0].Label != want.Label ||
		conflict.Fields[0].Mine != want.Mine || conflict.Fields[0].Theirs != want.Theirs || conflict.Fields[0].By.Who != "Asha" || conflict.Fields[0].By.When.IsZero() {
		t.Errorf("the conflict's fields: %+v, want %+v by Asha", conflict.Fields, want)
	}
	if r.head() != asSaved {
		t.Error("a refused save changed the draft")
	}
	// The form shown again: Ravi's name and description, to choose over.
	if got := conflict.Shown.At("/products/0"); got.Get("name").Text() != "Kikar lounger" || got.Get("description").Text() != "A low chair" {
		t.Errorf("the form shown again has %s", got.Encode())
	}

	// A choice made against an older draft is asked again.
	stale := url.Values{ChoiceField + "/products/0/name": {KeepTheirs}, AgainstField: {opened}}
	for k, v := range ravis {
		stale[k] = v
	}
	if _, err := r.save("products/1", opened, stale, ravi); !errors.As(err, &conflict) {
		t.Errorf("a choice made against another draft: %v, want the conflict again", err)
	}
	// Asha's name chosen: it stays, with Ravi's description.
	chosen := url.Values{ChoiceField + "/products/0/name": {KeepTheirs}, AgainstField: {asSaved}}
	for k, v := range ravis {
		chosen[k] = v
	}
	if _, err := r.save("products/1", opened, chosen, ravi); err != nil {
		t.Fatalf("saved with a choice: %v", err)
	}
	if name, desc := r.product("1", "/name"), r.product("1", "/description"); name != `"Rocking Kikar"` || desc != `"A low chair"` {
		t.Errorf("after choosing Asha's name: name %s, description %s", name, desc)
	}
}

func TestAListIsOneField(t *testing.T) {
	t.Parallel()
	r := newMergeRig(t)
	opened := r.head()
	// Asha adds a photograph; Ravi writes the first one's alt text.
	ashas := url.Values{"_count/products/0/images": {"2"}, "/products/0/images/1/src": {"products/1b.jpg"}, "/products/0/images/1/alt": {"The back"}}
	if _, err := r.save("products/1", opened, ashas, asha); err != nil {
		t.Fatal(err)
	}
	_, err := r.save("products/1", opened, url.Values{"/products/0/images/0/alt": {"The chair, from the front"}}, ravi)
	var conflict *Conflict
	if !errors.As(err, &conflict) || len(conflict.Fields) != 1 || conflict.Fields[0].Label != "Photographs" ||
		conflict.Fields[0].Mine != "The chair, from the front" || conflict.Fields[0].Theirs != "The chair\nThe back" {
		t.Fatalf("two changes of the photographs: %v %+v, want one conflict of the list, each list by its alt texts", err, conflict)
	}
	// A list another save left alone is merged as any field.
	if _, err := r.save("products/1", opened, url.Values{"/products/0/disciplines": {"Woodwork\nCaning"}}, ravi); err != nil {
		t.Fatalf("the disciplines beside Asha's photograph: %v", err)
	}
	if got := r.product("1", "/disciplines"); got != `["Woodwork", "Caning"]` {
		t.Errorf("disciplines %s", got)
	}
	if got := r.product("1", "/images/1/alt"); got != `"The back"` {
		t.Errorf("Asha's photograph: %s", got)
	}
}

func TestAProductDeletedMeanwhileIsNotSavedOver(t *testing.T) {
	t.Parallel()
	r := newMergeRig(t)
	opened := r.head()
	part, _ := PartBySlug("products/1")
	if _, err := r.e.Delete(context.Background(), part, opened, asha); err != nil {
		t.Fatal(err)
	}
	_, err := r.save("products/1", opened, url.Values{"/products/0/name": {"Kikar lounger"}}, ravi)
	var conflict *Conflict
	if !errors.As(err, &conflict) || !conflict.Deleted || conflict.By.Who != "Asha" {
		t.Fatalf("saving a deleted product: %v %+v, want it refused, deleted by Asha", err, conflict)
	}
	if got := r.product("1", ""); got != "(no product 1)" {
		t.Errorf("the deleted product came back: %s", got)
	}
}

func TestTwoNewProductsAddedTogetherAreBothKept(t *testing.T) {
	t.Parallel()
	r := newMergeRig(t)
	opened := r.head()
	newOne := func(name string) url.Values {
		return url.Values{"/products/0/name": {name}, "_count/products/0/images": {"1"}, "/products/0/images/0/src": {"products/x.jpg"}, "/products/0/images/0/alt": {"x"}, HotField: {"true"}} // a new piece goes first
	}
	if _, err := r.save("products/new", opened, newOne("Stool"), asha); err != nil {
		t.Fatal(err)
	}
	if _, err := r.save("products/new", opened, newOne("Bench"), ravi); err != nil {
		t.Fatalf("the second new product: %v", err)
	}
	if a, b := r.product("3", "/name"), r.product("4", "/name"); a != `"Stool"` || b != `"Bench"` {
		t.Errorf("products 3 and 4: %s, %s", a, b)
	}
	b, _ := r.repo.ReadFile(r.head(), "catalogue.json")
	if !strings.Contains(string(b), `"whatsHot": [2, 3, 4]`) {
		t.Errorf("What's Hot lost one:\n%s", b)
	}
}

func TestATextIsOneField(t *testing.T) {
	t.Parallel()
	r := newMergeRig(t)
	part, _ := PartBySlug("text-faq")
	opened := r.head()
	ctx := context.Background()
	if err := r.e.SaveText(ctx, part, opened, "# FAQ\n\nAsha's answer\n", Choices{}, asha); err != nil {
		t.Fatal(err)
	}
	asSaved := r.head()
	err := r.e.SaveText(ctx, part, opened, "# FAQ\n\nRavi's answer\n", Choices{}, ravi)
	var conflict *TextConflict
	if !errors.As(err, &conflict) || conflict.Theirs != "# FAQ\n\nAsha's answer\n" || conflict.By.Who != "Asha" {
		t.Fatalf("two saves of the text: %v %+v, want a conflict with Asha's", err, conflict)
	}
	if err := r.e.SaveText(ctx, part, opened, "# FAQ\n\nRavi's answer\n", Choices{Against: asSaved, Keep: map[string]string{TextField: KeepTheirs}}, ravi); !errors.Is(err, ErrUnchanged) {
		t.Errorf("Asha's text chosen: %v, want nothing saved", err)
	}
	if err := r.e.SaveText(ctx, part, opened, "# FAQ\n\nRavi's answer\n", Choices{Against: asSaved, Keep: map[string]string{TextField: KeepMine}}, ravi); err != nil {
		t.Fatalf("Ravi's text chosen: %v", err)
	}
	if b, _ := r.repo.ReadFile(r.head(), part.File); string(b) != "# FAQ\n\nRavi's answer\n" {
		t.Errorf("the text saved: %q", b)
	}
}
