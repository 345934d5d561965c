package catalogue

import (
	"strings"
	"testing"
	"testing/fstest"

	"studio/content"
)

// The shipped content: the spec's ten products, by id, with the facts
// every page relies on.
func TestShippedContent(t *testing.T) {
	c, err := Load(content.Files)
	if err != nil {
		t.Fatal(err)
	}
	wantNames := []string{"Perennial", "Barbed", "Yucca", "Homage", "Pilgrim", "Nest of arches", "Comfort Lounge", "Modern Dining", "Executive", "Minimalist"}
	if len(c.Products) != len(wantNames) {
		t.Fatalf("%d products, want %d", len(c.Products), len(wantNames))
	}
	for i, name := range wantNames {
		p, ok := c.Product(i + 1)
		if !ok || p.Name != name {
			t.Errorf("product %d = %q, want %q", i+1, p.Name, name)
		}
		if p.Image == "" || p.Description == "" {
			t.Errorf("product %d has no image or description", i+1)
		}
	}
	s := c.Site
	if s.Name == "" || s.City == "" || s.Email == "" || s.WhatsApp == "" || s.Map.EmbedURL == "" {
		t.Errorf("site facts incomplete: %+v", s)
	}
	if len(s.Phones) != 3 || len(s.Social) != 4 {
		t.Errorf("want 3 phones and 4 social links, got %d and %d", len(s.Phones), len(s.Social))
	}
}

func TestLoadRejectsBadCatalogues(t *testing.T) {
	site := &fstest.MapFile{Data: []byte(`{"name":"S"}`)}
	tests := []struct {
		name, catalogue, want string
	}{
		{"duplicate id", `{"products":[{"id":1,"name":"A","material":["Wood"],"finish":["Oak"]},{"id":1,"name":"B","material":["Wood"],"finish":["Oak"]}]}`, "appears twice"},
		{"no materials", `{"products":[{"id":1,"name":"A","finish":["Oak"]}]}`, "materials"},
		{"zero id", `{"products":[{"id":0,"name":"A","material":["Wood"],"finish":["Oak"]}]}`, "positive id"},
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
