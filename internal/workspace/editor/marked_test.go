package editor

import (
	"slices"
	"testing"

	"studio/internal/contentform"
)

// The summary at the top of a refused form names each field with a
// problem, whatever its kind, by where it is, and links to an element the
// page has; a hidden field's problem is said of the field that holds it.
func TestTheSummaryNamesEveryKindOfField(t *testing.T) {
	problem := []string{"is wrong"}
	form := &contentform.Field{Kind: "group", Name: "/products/0", Fields: []*contentform.Field{
		{Name: "/products/0/id", Label: "Id", Kind: "hidden", Problems: problem},
		{Name: "/products/0/name", ID: "f-name", Label: "Name", Kind: "text", Problems: problem},
		{Name: "/products/0/description", ID: "f-description", Label: "Description", Kind: "textarea", Problems: problem},
		{Name: "/products/0/material", ID: "f-material", Label: "Materials", Kind: "lines", Problems: problem},
		{Name: "/products/0/year", ID: "f-year", Label: "Year", Kind: "integer", Problems: problem},
		{Name: "/products/0/category", ID: "f-category", Label: "Category", Kind: "select", Problems: problem},
		{Name: "/products/0/open", ID: "f-open", Label: "Open", Kind: "checkbox", Problems: problem},
		{Name: "/products/0/size", ID: "f-size", Label: "Size", Kind: "group", Problems: problem, Fields: []*contentform.Field{
			{Name: "/products/0/size/width", ID: "f-width", Label: "Width", Kind: "number", Problems: problem}}},
		{Name: "/products/0/filters", ID: "f-filters", Label: "Groups", Kind: "map", Problems: problem, Fields: []*contentform.Field{
			{Name: "/products/0/filters/0", ID: "f-filters-0", Label: "Wood", Kind: "group", Fields: []*contentform.Field{
				{Name: "_key/products/0/filters/0", ID: "f-key", Label: "Name", Kind: "text", Problems: problem}}}}},
		{Name: "/products/0/phones", ID: "f-phones", Label: "Phones", Kind: "list", Problems: problem, Fields: []*contentform.Field{
			{Name: "/products/0/phones/0", ID: "f-phones-0", Label: "Phone 1", Kind: "group", Problems: problem, Fields: []*contentform.Field{
				{Name: "/products/0/phones/0/tel", ID: "f-tel", Label: "Number", Kind: "text", Problems: problem}}}}},
		{Name: "/products/0/images", ID: "f-images", Label: "Photographs", Kind: "photos", Problems: []string{"add at least one"}, Fields: []*contentform.Field{
			{Name: "/products/0/images/0", ID: "f-images-0", Label: "Photograph 1", Kind: "group", Fields: []*contentform.Field{
				{Name: "/products/0/images/0/src", Label: "Src", Kind: "hidden", Problems: []string{"is not a file"}},
				{Name: "/products/0/images/0/alt", ID: "f-alt", Label: "Alt text", Kind: "text", Problems: problem}}}}},
	}}
	v := &editView{Form: form, FreshProblems: []string{"tick it on another"}}
	v.liftHidden()
	want := []markedField{
		{"f-name", "Name", "is wrong"},
		{"f-description", "Description", "is wrong"},
		{"f-material", "Materials", "is wrong"},
		{"f-year", "Year", "is wrong"},
		{"f-category", "Category", "is wrong"},
		{"f-open", "Open", "is wrong"},
		{"f-size", "Size", "is wrong"},
		{"f-width", "Size › Width", "is wrong"},
		{"f-filters", "Groups", "is wrong"},
		{"f-key", "Groups › Wood › Name", "is wrong"},
		{"f-phones", "Phones", "is wrong"},
		{"f-phones-0", "Phone 1", "is wrong"},
		{"f-tel", "Phone 1 › Number", "is wrong"},
		{"f-images", "Photographs", "add at least one"},
		{"f-images-0", "Photograph 1", "is not a file"},
		{"f-alt", "Photograph 1 › Alt text", "is wrong"},
		{"featured", "On the home page", "tick it on another"},
	}
	if got := v.Marked(); !slices.Equal(got, want) {
		t.Errorf("the summary lists\n%q\nwant\n%q", got, want)
	}
	if !slices.Equal(v.Others, []string{"Id: is wrong"}) {
		t.Errorf("the lines of no field: %q, want the product's id said there", v.Others)
	}
}
