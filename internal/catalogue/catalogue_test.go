package catalogue

import (
	"strings"
	"testing"
	"testing/fstest"

	"studio/content"
)

// The shipped content loads, whatever the studio has put in it, and holds
// the facts every page relies on.
func TestShippedContent(t *testing.T) {
	c, err := Load(content.Files)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Products) == 0 {
		t.Fatal("the catalogue has no products")
	}
	for i, p := range c.Products {
		if got, ok := c.Product(p.ID); !ok || got.Name != p.Name {
			t.Errorf("product %d is not found by its id", p.ID)
		}
		if i > 0 && c.Products[i-1].ID >= p.ID {
			t.Errorf("products are not in id order at %d", p.ID)
		}
		if p.Description == "" || p.Images[0].Src == "" {
			t.Errorf("product %d has no description or image", p.ID)
		}
	}
	s := c.Site
	if s.Name == "" || s.City == "" || s.Email == "" || s.Map.EmbedURL == "" || len(s.Phones) == 0 {
		t.Errorf("site facts incomplete: %+v", s)
	}
}

func TestLoadRejectsBadCatalogues(t *testing.T) {
	site := &fstest.MapFile{Data: []byte(`{"name":"S"}`)}
	tests := []struct {
		name, catalogue, want string
	}{
		{"duplicate id", `{"products":[{"id":1,"name":"A","material":["Wood"],"finish":["Oak"],"images":[{"src":"a.jpg","alt":"A"}]},{"id":1,"name":"B","material":["Wood"],"finish":["Oak"],"images":[{"src":"a.jpg","alt":"A"}]}]}`, "appears twice"},
		{"no materials", `{"products":[{"id":1,"name":"A","finish":["Oak"],"images":[{"src":"a.jpg","alt":"A"}]}]}`, "materials"},
		{"no image", `{"products":[{"id":1,"name":"A","material":["Wood"],"finish":["Oak"]}]}`, "an image"},
		{"zero id", `{"products":[{"id":0,"name":"A","material":["Wood"],"finish":["Oak"],"images":[{"src":"a.jpg","alt":"A"}]}]}`, "positive id"},
		{"not JSON", `{"products":`, "parse catalogue.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(fstest.MapFS{"site.json": site, "catalogue.json": {Data: []byte(tt.catalogue)}})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}
