package editor

import (
	"log/slog"
	"testing"
	"time"

	"studio/internal/contentform"
	"studio/internal/publish/repo"
	"studio/internal/workspace/edit"
	"studio/internal/workspace/page"
	"studio/internal/workspace/releases"
)

// pageFixtures is a view model for each page of the Content section: the
// zero one, and one with something in every list and field.
func pageFixtures() map[page.Name][]page.View {
	at := time.Date(2026, 3, 2, 8, 30, 0, 0, time.UTC)
	return map[page.Name][]page.View{
		contentPage: {&contentView{}, &contentView{Frame: page.Frame{Title: "Content", Section: "content", ShowContent: true, Notice: "Saved."}, Parts: edit.Parts,
			Unpublished: []repo.Commit{{Hash: "ccc", Message: "Studio details: Tagline", Author: "asha", When: at}},
			Publishing:  &publishing{Title: "Studio details: Tagline", Progress: releases.Progress{Words: "Stopped", Failed: true}, Problems: []releases.Problem{{Text: "Studio details › Studio name: is empty", Field: "/studio/content/studio#f-name"}, {Text: "Something on the server stopped it"}}}}},
		contentEditPage: {&editView{Form: &contentform.Field{}}, &editView{Frame: page.Frame{Title: "Studio details", Problem: "Nothing was saved."}, Part: edit.Parts[0], Version: "ccc",
			Others: []string{"content/site.json: whatsappPhone: no such phone"}, Conflicts: []conflictView{{FieldConflict: edit.FieldConflict{Name: "/tagline", Label: "Tagline", Mine: "Old", Theirs: "New", By: edit.Save{Who: "asha", When: at}}, ID: "keep-1", Choice: "_keep:/tagline", At: "at 08:30"}}, Against: "ddd", Changes: 2, Product: true, Delete: "/studio/content/products/3/delete", Preview: "/product/3", Action: "/studio/content/products/3", Form: &contentform.Field{Kind: "group", Fields: []*contentform.Field{
				{Name: "/name", ID: "f-name", Label: "Name", Kind: "text", Value: "Jharokha", Required: true, Problems: []string{"is empty"}},
				{Name: "/about", ID: "f-about", Label: "About", Kind: "textarea", Hint: "some text"},
				{Name: "/tags", ID: "f-tags", Label: "Tags", Kind: "lines", Value: "a\nb"},
				{Name: "/years", ID: "f-years", Label: "Years", Kind: "integer", Value: "2"},
				{Name: "/open", ID: "f-open", Label: "Open", Kind: "checkbox", Checked: true},
				{Name: "/kind", ID: "f-kind", Label: "Kind", Kind: "select", Value: "b", Options: []string{"a", "b"}},
				{Name: "/phones", ID: "f-phones", Label: "Phones", Kind: "list", Item: "Phone", CountName: "_count/phones", Fields: []*contentform.Field{
					{Name: "/phones/0", ID: "f-phones-0", Label: "Phone 1", Kind: "group", List: "/phones", Index: 0, Count: 2},
					{Name: "/phones/1", ID: "f-phones-1", Label: "Phone 2", Kind: "group", List: "/phones", Index: 1, Count: 2, Problems: []string{"no"}}}},
				{Name: "/hero/src", ID: "f-hero-src", Label: "Picture", Kind: edit.PictureKind, Value: "hero.jpg", Hint: "shown across the top", Problems: []string{"“a.svg” is an SVG drawing"}},
				{Name: "/craft/image", ID: "f-craft-image", Label: "Drawing", Kind: edit.DrawingKind, Value: "upload:abc.jpg", Hint: "one of the site’s drawings", Options: []string{"upload:abc.jpg", "/images/craft.svg"}, Problems: []string{"no"}},
				{Name: "/team/image", ID: "f-team-image", Label: "Drawing", Kind: edit.ChosenDrawingKind, Value: "/images/craft.svg", Options: []string{"/images/craft.svg"}},
				{Name: "/id", Kind: "hidden", Value: "3"},
				{Name: "/images", ID: "f-images", Label: "Images", Kind: "photos", Item: "Photograph", CountName: "_count/images", Problems: []string{"“a.txt” is not a photograph"}, Fields: []*contentform.Field{
					{Name: "/images/0", ID: "f-images-0", Label: "Photograph 1", Kind: "group", List: "/images", Index: 0, Count: 1, Value: "upload:abc.jpg", Fields: []*contentform.Field{
						{Name: "/images/0/src", Kind: "hidden", Value: "upload:abc.jpg"}, {Name: "/images/0/alt", ID: "f-images-0-alt", Label: "Alt", Kind: "text", Required: true}}}}}}}}},
		productsPage: {&productsView{}, &productsView{Frame: page.Frame{Title: "Products"}, Products: []productRow{{ID: "1", Name: "Marwar chair", Category: "Seatings", Cover: "/studio/content/thumbnail?src=products/1.jpg",
			CoverAlt: "A chair", Featured: "What’s Hot", ChangedBy: "asha", Changed: "2 Mar 2026, 14:00"}, {ID: "2", Name: "Jali screen"}}}},
		deleteProductPage: {&deleteProductView{}, &deleteProductView{Frame: page.Frame{Title: "Delete Marwar chair?"}, Part: edit.Part{Slug: "products/1"}, Name: "Marwar chair", Version: "ccc"}},
		markdownPage: {&markdownView{}, &markdownView{Frame: page.Frame{Title: "FAQ", Problem: "Nothing was saved."}, Part: edit.Texts[2], Text: "---\ntitle: FAQ\n---\n## Why?\n", Preview: "<h2>Why?</h2>",
			Version: "ccc", Problems: []string{"content/pages/faq.md: {{site.fax}} names no fact"}, Against: "ddd",
			Conflicts: []conflictView{{FieldConflict: edit.FieldConflict{Name: "text", Label: "Text", Mine: "## Why?\n", Theirs: "## Because\n", By: edit.Save{Who: "asha", When: at}}, ID: "keep-1", Choice: "_keep:text", At: "at 08:30"}}}},
		discardPage: {&contentView{}, &contentView{Frame: page.Frame{Title: "Discard?"}, Unpublished: []repo.Commit{{Hash: "ccc", Message: "x", Author: "asha", When: at}}}},
	}
}

// Every page renders, in the layout, with a zero view model and with a
// full one.
func TestEveryPageRenders(t *testing.T) {
	t.Parallel()
	pages := page.NewKit(page.Kit{Log: slog.New(slog.DiscardHandler)}).MustParse(templateFiles, pageFiles, templateFuncs())
	if err := pages.Check(pageFiles, pageFixtures()); err != nil {
		t.Error(err)
	}
}

// A field and a part are named as a sentence says them.
func TestNamesInSentences(t *testing.T) {
	t.Parallel()
	for label, want := range map[string]string{"Name": "the name", "Hero › Alt": "the hero › alt", "WhatsApp phone": "the WhatsApp phone", "Phones": "the phones"} {
		if got := theField(label); got != want {
			t.Errorf("theField(%q) = %q, want %q", label, got, want)
		}
	}
	if got := thingName(edit.Part{Product: 3, Title: "Product 3"}, "Kikar"); got != "Kikar (product 3)" {
		t.Errorf("a product is named %q", got)
	}
	if got := thingName(edit.Parts[0], ""); got != "the Studio details" {
		t.Errorf("the studio details are named %q", got)
	}
}
