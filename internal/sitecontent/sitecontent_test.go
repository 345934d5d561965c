package sitecontent

import (
	"encoding/json"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"studio/content"
	"studio/contracts/cases"
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
	if s.Name == "" || s.City == "" || s.Country == "" || s.Email == "" || s.Map.EmbedURL == "" || len(s.Phones) == 0 ||
		s.Address.Street == "" || s.Address.PostalCode == "" {
		t.Errorf("site facts incomplete: %+v", s)
	}
	// The acknowledgement mail tells the visitor when the studio replies.
	if c.Service.EmailReplyHours <= 0 {
		t.Errorf("service.json's emailReplyHours not read: %+v", c.Service)
	}
}

// A copy of the shipped content with the catalogue spoilt one way each
// time: the schema, or the rule it cannot state, refuses it.
func TestLoadRejectsBadCatalogues(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(products []map[string]any)
		want  string
	}{
		{"duplicate id", func(p []map[string]any) { p[1]["id"] = p[0]["id"] }, "appears twice"},
		{"no materials", func(p []map[string]any) { delete(p[0], "material") }, "missing property 'material'"},
		{"no image", func(p []map[string]any) { p[0]["images"] = []any{} }, "at '/products/0/images'"},
		{"empty alt text", func(p []map[string]any) { p[0]["images"] = []any{map[string]any{"src": "a.jpg", "alt": " "}} }, "at '/products/0/images/0/alt'"},
		{"zero id", func(p []map[string]any) { p[0]["id"] = 0 }, "at '/products/0/id'"},
		// Counted in characters, as the build's check counts them: 80 "Ç" pass.
		{"a name of 81 characters", func(p []map[string]any) { p[0]["name"] = strings.Repeat("Ç", 81) }, "at '/products/0/name'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := shippedCopy(t)
			var cat map[string]any
			if err := json.Unmarshal(fsys["catalogue.json"].Data, &cat); err != nil {
				t.Fatal(err)
			}
			var products []map[string]any
			for _, p := range cat["products"].([]any) {
				products = append(products, p.(map[string]any))
			}
			tt.spoil(products)
			fsys["catalogue.json"] = &fstest.MapFile{Data: must(json.Marshal(cat))}
			_, err := Load(fsys)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
	t.Run("a name of 80 characters", func(t *testing.T) {
		fsys := shippedCopy(t)
		var cat map[string]any
		if err := json.Unmarshal(fsys["catalogue.json"].Data, &cat); err != nil {
			t.Fatal(err)
		}
		cat["products"].([]any)[0].(map[string]any)["name"] = strings.Repeat("Ç", 80)
		fsys["catalogue.json"] = &fstest.MapFile{Data: must(json.Marshal(cat))}
		if _, err := Load(fsys); err != nil {
			t.Error(err)
		}
	})
	t.Run("not JSON", func(t *testing.T) {
		fsys := shippedCopy(t)
		fsys["catalogue.json"] = &fstest.MapFile{Data: []byte(`{"products":`)}
		if _, err := Load(fsys); err == nil || !strings.Contains(err.Error(), "parse catalogue.json") {
			t.Errorf("err = %v", err)
		}
	})
}

// shippedCopy is content.Files as a map, to spoil.
func shippedCopy(t *testing.T) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	err := fs.WalkDir(content.Files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(content.Files, path)
		fsys[path] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return fsys
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// service.json is checked against its schema too: a reply time in quotes
// is refused rather than read as zero hours.
func TestLoadRejectsBadService(t *testing.T) {
	fsys := shippedCopy(t)
	var service map[string]any
	if err := json.Unmarshal(fsys["service.json"].Data, &service); err != nil {
		t.Fatal(err)
	}
	service["emailReplyHours"] = "24"
	fsys["service.json"] = &fstest.MapFile{Data: must(json.Marshal(service))}
	if _, err := Load(fsys); err == nil || !strings.Contains(err.Error(), "service.json") {
		t.Errorf("err = %v, want service.json refused", err)
	}
}

// The products taken out of the catalogue are read from its "removed" list,
// each id once and in id order, leaving out one a product has again; a
// record that misses its name is refused by the schema.
func TestRemovedProducts(t *testing.T) {
	withRemoved := func(t *testing.T, removed ...map[string]any) (*Content, error) {
		fsys := shippedCopy(t)
		var cat map[string]any
		if err := json.Unmarshal(fsys["catalogue.json"].Data, &cat); err != nil {
			t.Fatal(err)
		}
		cat["removed"] = removed
		fsys["catalogue.json"] = &fstest.MapFile{Data: must(json.Marshal(cat))}
		return Load(fsys)
	}
	shipped, err := Load(content.Files)
	if err != nil {
		t.Fatal(err)
	}
	back := shipped.Products[0]
	c, err := withRemoved(t,
		map[string]any{"id": 9001, "name": "Later", "category": "Tables"},
		map[string]any{"id": 9000, "name": "Gone chair", "category": "Seatings"},
		map[string]any{"id": back.ID, "name": back.Name, "category": back.Category},
		map[string]any{"id": 9000, "name": "Gone chair", "category": "Seatings"},
	)
	if err != nil {
		t.Fatal(err)
	}
	want := []RemovedProduct{{ID: 9000, Name: "Gone chair", Category: "Seatings"}, {ID: 9001, Name: "Later", Category: "Tables"}}
	if len(c.Removed) != len(want) || c.Removed[0] != want[0] || c.Removed[1] != want[1] {
		t.Errorf("Removed = %+v, want %+v (product %d is back in the catalogue)", c.Removed, want, back.ID)
	}
	if _, err := withRemoved(t, map[string]any{"id": 9000, "category": "Seatings"}); err == nil || !strings.Contains(err.Error(), "missing property 'name'") {
		t.Errorf("a removed product without its name: err = %v", err)
	}
}

// The table the build's rule is tested on too (web/app/lib/paths.test.ts,
// goneIds): both find the same products gone.
func TestRemovedProductsCases(t *testing.T) {
	var table struct {
		Cases []struct {
			Case      string
			Catalogue struct {
				Products []Product
				Removed  []RemovedProduct
			}
			Gone []int
		}
	}
	if err := json.Unmarshal(must(fs.ReadFile(cases.Files, "removed-products.json")), &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range table.Cases {
		t.Run(c.Case, func(t *testing.T) {
			content, err := New(Site{}, c.Catalogue.Products)
			if err != nil {
				t.Fatal(err)
			}
			gone := []int{}
			for _, r := range content.stillRemoved(c.Catalogue.Removed) {
				gone = append(gone, r.ID)
			}
			if !slices.Equal(gone, c.Gone) {
				t.Errorf("gone = %v, want %v", gone, c.Gone)
			}
		})
	}
}
